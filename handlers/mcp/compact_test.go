package mcp

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// The canonical input is one text for every spelling of the same JSON.
func TestCanonical(t *testing.T) {
	a, err := canonical([]byte(`{"b":[1,2.50,{"y":1e3,"x":"é"}],"a":-0.0}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := canonical([]byte(` { "a" : 0, "b" : [ 1.0, 2.5, { "x" : "\u00e9", "y" : 1000 } ] } `))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != `{"a":-0,"b":[1,2.5,{"x":"é","y":1000}]}` || string(b) != `{"a":0,"b":[1,2.5,{"x":"é","y":1000}]}` {
		t.Fatalf("canonical: %s, %s", a, b)
	}
	if _, err := canonical([]byte(`{"a":`)); err == nil {
		t.Fatal("a broken input was hashed")
	}
	h1, _ := hashOf(map[string]json.RawMessage{"args": json.RawMessage(`{"x":1,"y":2}`)})
	h2, _ := hashOf(map[string]json.RawMessage{"args": json.RawMessage(`{"y":2.0,"x":1}`)})
	h3, _ := hashOf(map[string]json.RawMessage{"args": json.RawMessage(`{"y":2,"x":1}`), "year": json.RawMessage(`2026`)})
	if h1 != h2 || h1 == h3 || len(h1) != 32 {
		t.Fatalf("hashes %s %s %s", h1, h2, h3)
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Short.", 20, "Short."},
		{"One sentence. Two sentences here.", 20, "One sentence."},
		{"A very long first sentence without a stop", 20, "A very long..."},
		{"Rates 0.04 and 0.05 stay whole. More.", 33, "Rates 0.04 and 0.05 stay whole."},
		{"Anything", 0, ""},
	} {
		if got := cut(c.in, c.n); got != c.want || len(got) > max(c.n, len(c.want)) {
			t.Errorf("cut(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestRoutesNamed(t *testing.T) {
	got := routesNamed("Id of a city of GET /api/v1/geo/cities (such as lisbon-pt). Filled in by the categoriser (see POST /assets/categorize). Else GET /api/v1/nothing.")
	if got != "Id of a city of search_cities (such as lisbon-pt). Filled in by the categoriser. Else the API." {
		t.Fatalf("%q", got)
	}
}

func TestCompaction(t *testing.T) {
	c := &compaction{rows: []string{"code", "name", "regions.code"}, counts: true, listOnly: []string{"name"}, drop: []string{"x.y"}}
	in := `{"items":[{"code":"US","name":"United States","regions":[{"code":"CA"},{"code":"NY"}],"more":1}],"x":{"y":[1],"z":2}}`
	all, err := c.apply([]byte(in), true, false)
	if err != nil || string(all) != `{"items":[{"code":"US","regions":2}],"x":{"z":2}}` {
		t.Fatalf("the whole list: %s %v", all, err)
	}
	one, err := c.apply([]byte(in), true, true)
	if err != nil || string(one) != `{"items":[{"code":"US","name":"United States","regions":["CA","NY"]}],"x":{"z":2}}` {
		t.Fatalf("one picked: %s %v", one, err)
	}
	top := &compaction{list: "s", max: 1, rows: []string{"a"}, also: []string{"cur"}, drop: []string{"skip"}}
	got, err := top.apply([]byte(`{"s":[{"a":1,"b":2},{"a":3}],"cur":{"a":0,"b":9},"skip":[1],"keep":true}`), false, false)
	if err != nil || string(got) != `{"cur":{"a":0},"keep":true,"s":[{"a":1}]}` {
		t.Fatalf("a top-level list: %s %v", got, err)
	}
	if _, err := c.apply([]byte(`{"x":7}`), true, false); err == nil || !strings.Contains(err.Error(), "x is not an object") {
		t.Fatalf("a field of a number: %v", err)
	}
}
