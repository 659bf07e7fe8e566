package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

type rawHolder struct {
	Name  string    `json:"name" schema:"required,maxLen=10"`
	Input RawObject `json:"input" schema:"required" doc:"Kept as sent."`
}

// A RawObject is kept byte for byte when it is one object, and refused
// with its path otherwise; the document calls it an object.
func TestRawObject(t *testing.T) {
	s, err := Compile[rawHolder](NewVocabulary())
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"name":"a","input":{ "x" : [1, {"y":"\u00e9"}], "z":null }}`)
	var h rawHolder
	var r Result
	if !s.Decode(body, &h, &r) {
		t.Fatalf("refused: %+v", r)
	}
	if string(h.Input) != `{ "x" : [1, {"y":"\u00e9"}], "z":null }` {
		t.Errorf("kept %q", h.Input)
	}
	body[30] = 'X' // the kept bytes are a copy, not the body's
	if strings.Contains(string(h.Input), "X") {
		t.Error("the raw object shares the body's bytes")
	}
	for _, c := range []struct{ body, path, msg string }{
		{`{"name":"a","input":[1]}`, "input", "must be an object"},
		{`{"name":"a","input":"{}"}`, "input", "must be an object"},
		{`{"name":"a"}`, "input", MsgRequired},
	} {
		var h rawHolder
		var r Result
		if s.Decode([]byte(c.body), &h, &r) || len(r.Details) != 1 || r.Details[0].Path != c.path || r.Details[0].Message != c.msg {
			t.Errorf("%s: %+v, want %s %q", c.body, r.Details, c.path, c.msg)
		}
	}
	var r2 Result
	var h2 rawHolder
	if s.Decode([]byte(`{"name":"a","input":{"x":}}`), &h2, &r2) || r2.Code == "" {
		t.Errorf("a malformed raw object was accepted: %+v", r2)
	}
	var doc map[string]any
	if err := json.Unmarshal(s.JSONSchema(), &doc); err != nil {
		t.Fatal(err)
	}
	in := doc["properties"].(map[string]any)["input"].(map[string]any)
	if in["type"] != "object" || in["description"] != "Kept as sent." {
		t.Errorf("input documented as %v", in)
	}
	out, err := json.Marshal(h)
	if err != nil || !strings.Contains(string(out), `"input":{"x":[1,{"y":"\u00e9"}],"z":null}`) {
		t.Errorf("marshalled as %s, %v", out, err)
	}
}
