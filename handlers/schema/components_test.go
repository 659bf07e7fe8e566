package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

type money struct {
	Amount float64 `json:"amount" schema:"required,min=0,max=1e12"`
	Count  int     `json:"count" schema:"min=0,max=100"`
	Big    int64   `json:"big" schema:"min=0,max=1e15"`
}

type order struct {
	Total money   `json:"total" doc:"What is owed."`
	Items []money `json:"items" schema:"maxItems=3"`
	Tip   *money  `json:"tip" schema:"nullable"`
}

type renamed struct {
	Note string `json:"note" schema:"maxLen=10"`
}

func (renamed) SchemaName() string { return "Memo" }

type broken struct {
	Note string `json:"note" schema:"maxLen=10"`
}

func (broken) SchemaName() string { return "has space" }

func componentOf(t *testing.T, c *Components, name string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(c.AppendSchema(nil, name), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestComponentsNameAndRefer(t *testing.T) {
	v := NewVocabulary()
	req, err := Compile[order](v)
	if err != nil {
		t.Fatal(err)
	}
	res, err := CompileDoc[order](v)
	if err != nil {
		t.Fatal(err)
	}
	memo, err := CompileDoc[renamed](v)
	if err != nil {
		t.Fatal(err)
	}
	c := NewComponents("#/c/", "Error")
	c.Add(req)
	c.Add(res)
	c.Add(memo)
	if err := c.Seal(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(c.Names(), ","), "Memo,Money,MoneyInput,Order,OrderInput"; got != want {
		t.Fatalf("names %s, want %s", got, want)
	}
	if c.Ref(req) != "#/c/OrderInput" || c.Ref(res) != "#/c/Order" || c.Ref(memo) != "#/c/Memo" {
		t.Fatalf("refs %s %s %s", c.Ref(req), c.Ref(res), c.Ref(memo))
	}
	o := componentOf(t, c, "Order")
	props := o["properties"].(map[string]any)
	if total := props["total"].(map[string]any); total["$ref"] != "#/c/Money" || total["description"] != "What is owed." {
		t.Errorf("total %v", total)
	}
	if items := props["items"].(map[string]any)["items"].(map[string]any); items["$ref"] != "#/c/Money" {
		t.Errorf("items %v", items)
	}
	tip, _ := json.Marshal(props["tip"])
	if string(tip) != `{"anyOf":[{"$ref":"#/c/Money"},{"type":"null"}]}` {
		t.Errorf("tip %s", tip)
	}
	// The response form requires every field it always writes; the request
	// form only what its tags require.
	if r := componentOf(t, c, "Money")["required"].([]any); len(r) != 3 {
		t.Errorf("Money requires %v", r)
	}
	if r := componentOf(t, c, "MoneyInput")["required"].([]any); len(r) != 1 {
		t.Errorf("MoneyInput requires %v", r)
	}
	// The self-contained schema is unchanged: every object inline.
	if strings.Contains(string(req.JSONSchema()), "$ref") {
		t.Errorf("JSONSchema refers: %s", req.JSONSchema())
	}
}

func TestNumberFormats(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal(New[money]().JSONSchema(), &m); err != nil {
		t.Fatal(err)
	}
	props := m["properties"].(map[string]any)
	for name, want := range map[string]string{"amount": "double", "count": "int32", "big": "int64"} {
		if got := props[name].(map[string]any)["format"]; got != want {
			t.Errorf("%s: format %v, want %s", name, got, want)
		}
	}
}

func TestComponentsRefuseClashes(t *testing.T) {
	type Money struct {
		Cents int `json:"cents" schema:"min=0,max=10"`
	}
	for _, c := range []struct {
		what string
		add  func(*Components)
		msg  string
	}{
		{"two types, one name", func(c *Components) { c.Add(Doc[money]()); c.Add(Doc[Money]()) }, "has that name"},
		{"a reserved name", func(c *Components) { c.Add(Doc[renamed]()) }, "reserves"},
		{"not a component name", func(c *Components) { c.Add(Doc[broken]()) }, "not a component name"},
		{"an anonymous struct", func(c *Components) {
			c.Add(Doc[struct {
				A int `json:"a"`
			}]())
		}, "not a component name"},
	} {
		comps := NewComponents("#/c/", "Memo")
		c.add(comps)
		if err := comps.Seal(); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an error saying %q", c.what, err, c.msg)
		}
	}
}
