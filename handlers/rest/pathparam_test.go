package rest

import (
	"strings"
	"testing"
)

func TestPathParamGrammar(t *testing.T) {
	p := NewPathParam("id", `^ast_[a-z2-7]{26}$`, 30, "must be an asset id")
	good := "ast_" + strings.Repeat("a", 26)
	for _, v := range []string{"", "..", "../user", "a/b", good + "/", good[:29], "ast_" + strings.Repeat("1", 26), good + "a"} {
		if p.ValidString(v) || p.Valid([]byte(v)) {
			t.Fatalf("%q was valid", v)
		}
	}
	if !p.ValidString(good) || !p.Valid([]byte(good)) {
		t.Fatal("a good id was refused")
	}
	b := []byte(good)
	if n := testing.AllocsPerRun(100, func() { p.Valid(b) }); n != 0 {
		t.Fatalf("Valid allocates %v times", n)
	}
}

func TestCheckParamsWantsAGrammarForEachParameter(t *testing.T) {
	p := NewPathParam("id", `^x$`, 1, "must be x")
	if err := Get("/a/{id}", User, nil, nil).CheckParams(); err == nil || !strings.Contains(err.Error(), "{id} declares no grammar") {
		t.Fatalf("a parameter without a grammar: %v", err)
	}
	if err := Get("/a", User, nil, nil).Where(p).CheckParams(); err == nil {
		t.Fatal("a grammar for a parameter the path lacks was accepted")
	}
	if err := Get("/a/{id}", User, nil, nil).Where(p).CheckParams(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenAPI(Info{}, []*Route{Get("/a/{id}", User, nil, nil)}); err == nil {
		t.Fatal("the document was made for a parameter without a grammar")
	}
	for _, bad := range []string{"x", "^x", "x$"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatalf("unanchored pattern %q was declared", bad)
				}
			}()
			NewPathParam("id", bad, 1, "")
		}()
	}
}
