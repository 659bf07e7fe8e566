package schema

import (
	"encoding/json"
	"reflect"
	"testing"
)

type orderHolder struct {
	Order NameOrList `json:"order" schema:"enum=a|b,maxLen=4,maxItems=3" doc:"A name or a list."`
}

// A NameOrList takes one name from its enum or a list of strings within
// its limits, refuses anything else at its path, and is documented as
// oneOf the two forms.
func TestNameOrList(t *testing.T) {
	s, err := Compile[orderHolder](NewVocabulary())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		body string
		want NameOrList
	}{
		{`{"order":"b"}`, NameOrList{Name: "b"}},
		{`{"order":["x1","y"]}`, NameOrList{List: []string{"x1", "y"}}},
		{`{"order":[]}`, NameOrList{List: []string{}}},
		{`{}`, NameOrList{}},
	} {
		var h orderHolder
		var r Result
		if !s.Decode([]byte(c.body), &h, &r) || !reflect.DeepEqual(h.Order, c.want) {
			t.Errorf("%s: %+v %+v, want %+v", c.body, h.Order, r.Details, c.want)
		}
	}
	for _, c := range []struct{ body, path, msg string }{
		{`{"order":"c"}`, "order", "must be one of: a, b"},
		{`{"order":3}`, "order", "must be a string or an array of strings"},
		{`{"order":["a",1]}`, "order", "must be a string or an array of strings"},
		{`{"order":["abcde"]}`, "order[0]", "must be at most 4 characters"},
		{`{"order":["a","b","a","b"]}`, "order", "must hold at most 3 names"},
	} {
		var h orderHolder
		var r Result
		if s.Decode([]byte(c.body), &h, &r) || len(r.Details) == 0 || r.Details[0].Path != c.path || r.Details[0].Message != c.msg {
			t.Errorf("%s: %+v, want %s %q", c.body, r.Details, c.path, c.msg)
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(s.JSONSchema(), &doc); err != nil {
		t.Fatal(err)
	}
	o := doc["properties"].(map[string]any)["order"].(map[string]any)
	one, ok := o["oneOf"].([]any)
	if !ok || len(one) != 2 || one[0].(map[string]any)["type"] != "string" || one[1].(map[string]any)["type"] != "array" {
		t.Errorf("documented as %v", o)
	}
}

type taxCell struct {
	Total float64 `json:"total"`
}

type rowHolder struct {
	Tax *taxCell `json:"tax" schema:"orNumber" doc:"A number or an object."`
}

// An orNumber field is documented as a number or its object.
func TestOrNumberDocument(t *testing.T) {
	s, err := CompileDoc[rowHolder](NewVocabulary())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(s.JSONSchema(), &doc); err != nil {
		t.Fatal(err)
	}
	o := doc["properties"].(map[string]any)["tax"].(map[string]any)
	one, ok := o["oneOf"].([]any)
	if !ok || len(one) != 2 || one[0].(map[string]any)["type"] != "number" || one[1].(map[string]any)["type"] != "object" || o["description"] != "A number or an object." {
		t.Errorf("documented as %v", o)
	}
}
