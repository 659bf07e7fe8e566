package schema

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fiplan/handlers/errcode"
)

type testHolding struct {
	Value float64 `json:"value" schema:"required,min=0,max=1e12" doc:"Market value."`
	Class string  `json:"assetClass" schema:"required,enum=equity|bond|cash"`
	Note  string  `json:"note" schema:"maxLen=5"`
}

type testBase struct {
	Rate float64 `json:"rate" schema:"min=0,max=1,default=0.04"`
}

type testBody struct {
	Age      float64       `json:"currentAge" schema:"required,min=18,max=100"`
	Income   float64       `json:"annualIncome" schema:"required,min=0,max=1e9"`
	Expenses float64       `json:"annualExpenses" schema:"required,xmin=0,max=1e9"`
	Years    int           `json:"years" schema:"min=1,max=100,default=30"`
	Name     string        `json:"name" schema:"minLen=1,maxLen=10"`
	Flag     bool          `json:"flag"`
	Opt      *float64      `json:"opt" schema:"min=-1,max=1"`
	Maybe    *string       `json:"maybe" schema:"nullable,maxLen=3"`
	Items    []testHolding `json:"holdings" schema:"maxItems=3"`
	Tags     []string      `json:"tags" schema:"maxItems=2,enum=a|b"`
	Sub      *testHolding  `json:"sub"`
	When     time.Time     `json:"when"`
	testBase
}

var testSchema = New[testBody]()

func decode(t *testing.T, body string) (testBody, *Result) {
	t.Helper()
	var v testBody
	var r Result
	testSchema.Decode([]byte(body), &v, &r)
	return v, &r
}

const minimal = `{"currentAge":30,"annualIncome":50000,"annualExpenses":30000}`

func TestDecodeValid(t *testing.T) {
	v, r := decode(t, `{"currentAge":30,"annualIncome":5e4,"annualExpenses":30000,"years":25,
		"name":"caf\u00e9\n","flag":true,"opt":-0.5,"maybe":null,"holdings":[{"value":1,"assetClass":"bond","note":"x"},{"value":2.5,"assetClass":"cash"}],
		"tags":["b","a"],"sub":{"value":3,"assetClass":"equity"},"when":"2025-01-02T03:04:05Z","rate":0.035}`)
	if r.Code != "" {
		t.Fatalf("rejected: %s %s %+v", r.Code, r.Error, r.Details)
	}
	if v.Age != 30 || v.Income != 50000 || v.Years != 25 || v.Name != "café\n" || !v.Flag || v.Opt == nil || *v.Opt != -0.5 || v.Maybe != nil {
		t.Fatalf("scalars: %+v", v)
	}
	if len(v.Items) != 2 || v.Items[1].Value != 2.5 || v.Items[1].Class != "cash" || v.Items[0].Note != "x" {
		t.Fatalf("items: %+v", v.Items)
	}
	if strings.Join(v.Tags, ",") != "b,a" || v.Sub == nil || v.Sub.Class != "equity" || v.Rate != 0.035 {
		t.Fatalf("rest: %+v", v)
	}
	if !v.When.Equal(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Fatalf("when: %v", v.When)
	}
}

func TestDefaults(t *testing.T) {
	v, r := decode(t, minimal)
	if r.Code != "" {
		t.Fatal(r.Error)
	}
	if v.Years != 30 || v.Rate != 0.04 || v.Opt != nil || v.Sub != nil || len(v.Items) != 0 {
		t.Fatalf("defaults not applied: %+v", v)
	}
}

func TestDecodeErrors(t *testing.T) {
	type detail = Detail
	cases := []struct {
		body    string
		code    string
		details []detail
		errHas  string
	}{
		{``, errcode.InvalidJSON, nil, "empty"},
		{`   `, errcode.InvalidJSON, nil, "empty"},
		{`{"currentAge":30`, errcode.InvalidJSON, nil, "unterminated"},
		{minimal + `x`, errcode.InvalidJSON, nil, "after"},
		{minimal + ` {}`, errcode.InvalidJSON, nil, "after"},
		{`{"currentAge":030}`, errcode.InvalidJSON, nil, ""},
		{`{"currentAge":1.}`, errcode.InvalidJSON, nil, "number"},
		{`{"currentAge":NaN}`, errcode.InvalidJSON, nil, ""},
		{`{'a':1}`, errcode.InvalidJSON, nil, "field name"},
		{`{"name":"a` + "\x01" + `"}`, errcode.InvalidJSON, nil, "control"},
		{`{"name":"a` + "\xff" + `"}`, errcode.InvalidJSON, nil, "UTF-8"},
		{`{"name":"\x"}`, errcode.InvalidJSON, nil, "escape"},
		{`{"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, errcode.InvalidJSON, nil, "deeper"},
		// A syntax error after validation errors is still INVALID_JSON.
		{`{"currentAge":"x",}`, errcode.InvalidJSON, nil, ""},
		{`[]`, errcode.Validation, []detail{{"", "must be a JSON object"}}, ""},
		{`{"currentAge":"30","annualIncome":1,"annualExpenses":1}`, errcode.Validation, []detail{{"currentAge", "must be a number"}}, ""},
		{`{"currentAge":17,"annualIncome":1,"annualExpenses":0}`, errcode.Validation, []detail{{"currentAge", "must be at least 18"}, {"annualExpenses", "must be greater than 0"}}, ""},
		{`{"currentAge":1e308,"annualIncome":1e400,"annualExpenses":1}`, errcode.Validation, []detail{{"currentAge", "must be at most 100"}, {"annualIncome", "is out of range"}}, ""},
		{minimal[:len(minimal)-1] + `,"years":2.5,"bogus":1,"currentAge":31}`, errcode.Validation, []detail{{"years", "must be an integer"}, {"bogus", "unknown field"}, {"currentAge", "duplicate field"}}, ""},
		{minimal[:len(minimal)-1] + `,"holdings":[{"value":-1,"assetClass":"gold"},{"assetClass":"cash","note":"toolong"}]}`, errcode.Missing,
			[]detail{{"holdings[0].value", "must be at least 0"}, {"holdings[0].assetClass", "must be one of: equity, bond, cash"}, {"holdings[1].note", "must be at most 5 characters"}, {"holdings[1].value", "is required"}}, "holdings[1].value"},
		{minimal[:len(minimal)-1] + `,"holdings":[{"value":1,"assetClass":"cash"},{"value":1,"assetClass":"cash"},{"value":1,"assetClass":"cash"},{"value":1,"assetClass":"cash"}]}`, errcode.Validation, []detail{{"holdings", "must have at most 3 items"}}, ""},
		{minimal[:len(minimal)-1] + `,"tags":["a","c"],"name":"","flag":1,"opt":null,"maybe":"abcd","when":"yesterday"}`, errcode.Validation,
			[]detail{{"tags[1]", "must be one of: a, b"}, {"name", "must not be empty"}, {"flag", "must be a boolean"}, {"opt", "must be a number"}, {"maybe", "must be at most 3 characters"}, {"when", "must be a date-time string (RFC 3339)"}}, ""},
		// U+0000, escaped, is valid JSON but no text a field keeps.
		{minimal[:len(minimal)-1] + `,"name":"a\u0000","tags":["a\u0000"]}`, errcode.Validation,
			[]detail{{"name", MsgNUL}, {"tags[0]", MsgNUL}}, ""},
		{`{"currentAge":"x"}`, errcode.Missing, []detail{{"currentAge", "must be a number"}, {"annualIncome", "is required"}, {"annualExpenses", "is required"}}, "annualIncome"},
		{`{"currentAge":30,"annualExpenses":1}`, errcode.Missing, []detail{{"annualIncome", "is required"}}, "missing required field: annualIncome"},
	}
	for _, c := range cases {
		t.Run(c.body, func(t *testing.T) {
			_, r := decode(t, c.body)
			if r.Code != c.code {
				t.Fatalf("code %q (%s), want %q", r.Code, r.Error, c.code)
			}
			if !strings.Contains(r.Error, c.errHas) {
				t.Fatalf("error %q lacks %q", r.Error, c.errHas)
			}
			if c.details != nil && fmt.Sprint(r.Details) != fmt.Sprint(c.details) {
				t.Fatalf("details %v\nwant    %v", r.Details, c.details)
			}
			if c.code == errcode.InvalidJSON && len(r.Details) != 0 {
				t.Fatalf("INVALID_JSON with details %v", r.Details)
			}
		})
	}
}

func TestDetailsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range 200 {
		fmt.Fprintf(&b, `"u%d":1,`, i)
	}
	b.WriteString(`"currentAge":30,"annualIncome":1,"annualExpenses":1}`)
	_, r := decode(t, b.String())
	if r.Code != errcode.Validation || len(r.Details) != MaxDetails {
		t.Fatalf("code %s, %d details", r.Code, len(r.Details))
	}
}

func TestPooledDecodeReusesAndResets(t *testing.T) {
	var v testBody
	var r Result
	body := []byte(minimal[:len(minimal)-1] + `,"holdings":[{"value":1,"assetClass":"cash","note":"n"},{"value":2,"assetClass":"bond"}],"opt":0.5}`)
	if !testSchema.Decode(body, &v, &r) {
		t.Fatal(r.Error)
	}
	// A second, smaller body must not see anything of the first.
	if !testSchema.Decode([]byte(minimal[:len(minimal)-1]+`,"holdings":[{"value":3,"assetClass":"equity"}]}`), &v, &r) {
		t.Fatal(r.Error)
	}
	if len(v.Items) != 1 || v.Items[0].Note != "" || v.Items[0].Value != 3 || v.Opt != nil {
		t.Fatalf("state leaked between decodes: %+v", v)
	}
	plain := []byte(minimal[:len(minimal)-1] + `,"holdings":[{"value":1,"assetClass":"cash"},{"value":2,"assetClass":"bond"}],"tags":["a"],"years":3}`)
	n := testing.AllocsPerRun(100, func() {
		if !testSchema.Decode(plain, &v, &r) {
			t.Fatal(r.Error)
		}
	})
	if n != 0 {
		t.Fatalf("pooled decode allocates %v times, want 0", n)
	}
}

func TestDeclarationMistakesPanic(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	mustPanic("unbounded number", func() {
		New[struct {
			X float64 `json:"x" schema:"min=0"`
		}]()
	})
	mustPanic("unbounded string", func() {
		New[struct {
			X string `json:"x"`
		}]()
	})
	mustPanic("unbounded array", func() {
		New[struct {
			X []int `json:"x" schema:"min=0,max=1"`
		}]()
	})
	mustPanic("unknown option", func() {
		New[struct {
			X bool `json:"x" schema:"requried"`
		}]()
	})
	mustPanic("default out of range", func() {
		New[struct {
			X float64 `json:"x" schema:"min=0,max=1,default=2"`
		}]()
	})
	mustPanic("unsupported type", func() {
		New[struct {
			X map[string]int `json:"x"`
		}]()
	})
	mustPanic("unknown format", func() {
		New[struct {
			X string `json:"x" schema:"maxLen=3,format=nope"`
		}]()
	})
}

func TestVocabularyRejectsDuplicatesAndUnknownNames(t *testing.T) {
	v := NewVocabulary().Enum("colour", []string{"red", "blue"})
	if v.Err() != nil {
		t.Fatal(v.Err())
	}
	v.Enum("colour", []string{"green"})
	if v.Err() == nil || !strings.Contains(v.Err().Error(), `"colour"`) {
		t.Fatalf("a second enum of one name: err %v", v.Err())
	}
	if _, err := Compile[struct {
		C string `json:"c" schema:"enum=@colour"`
	}](v); err == nil {
		t.Fatal("compiled against a vocabulary with a mistake")
	}

	f := NewVocabulary().Format("even", func(string) string { return "" })
	f.Format("even", func(string) string { return "" })
	if f.Err() == nil {
		t.Fatal("a second format of one name is accepted")
	}
	if NewVocabulary().Enum("empty", nil).Err() == nil {
		t.Fatal("an empty enum is accepted")
	}

	type unknown struct {
		C string `json:"c" schema:"enum=@nowhere"`
	}
	if _, err := Compile[unknown](NewVocabulary()); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Fatalf("unknown enum: err %v", err)
	}
	type unknownFormat struct {
		C string `json:"c" schema:"format=nowhere,maxLen=3"`
	}
	if _, err := Compile[unknownFormat](NewVocabulary()); err == nil {
		t.Fatal("unknown format compiles")
	}
}

func TestVocabularyEntriesReachTheDecoder(t *testing.T) {
	v := NewVocabulary().
		Enum("colour", []string{"red", "blue"}).
		Format("upper", func(s string) string {
			if strings.ToUpper(s) != s {
				return "must be upper case"
			}
			return ""
		})
	type req struct {
		C string `json:"c" schema:"enum=@colour"`
		U string `json:"u" schema:"format=upper,maxLen=8"`
	}
	s, err := Compile[req](v)
	if err != nil {
		t.Fatal(err)
	}
	var dst req
	var r Result
	if !s.Decode([]byte(`{"c":"red","u":"OK"}`), &dst, &r) || dst.C != "red" {
		t.Fatalf("good body: %+v %+v", dst, r)
	}
	if s.Decode([]byte(`{"c":"green"}`), &dst, &r) || r.Details[0].Path != "c" {
		t.Fatalf("bad enum value: %+v", r)
	}
	if s.Decode([]byte(`{"u":"low"}`), &dst, &r) || r.Details[0].Message != "must be upper case" {
		t.Fatalf("bad format: %+v", r)
	}
	// The list is copied: changing the caller's slice later changes nothing.
	vals := []string{"a", "b"}
	v2 := NewVocabulary().Enum("x", vals)
	vals[0] = "z"
	type rx struct {
		X string `json:"x" schema:"enum=@x"`
	}
	s2, err := Compile[rx](v2)
	if err != nil {
		t.Fatal(err)
	}
	if !s2.Decode([]byte(`{"x":"a"}`), new(rx), &r) {
		t.Fatalf("the enum followed a later change of the caller's slice: %+v", r)
	}
}
