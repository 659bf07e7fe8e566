package mcp

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

func TestBindRefusesAToolWithoutItsRoute(t *testing.T) {
	routes := []*rest.Route{rest.Get("/api/v1/geo/cities", rest.Public, nil, &rest.Doc{Status: 200})}
	err := bind(tools(), routes)
	if err == nil || !strings.Contains(err.Error(), "fi_calculate") {
		t.Fatalf("bind without the calculator route: %v", err)
	}
}

func TestInputSchemaOfAQueryRoute(t *testing.T) {
	tl := &tool{name: "x", method: "GET", path: "/api/v1/x/{id}",
		route: rest.Get("/api/v1/x/{id}", rest.User, nil, &rest.Doc{Status: 200, Query: []rest.Param{rest.Q("limit", "integer", "Items.")}}).Where(xID)}
	b, err := inputSchema(tl)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Type       string
		Properties map[string]struct{ Type, Pattern string }
		Required   []string
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.Type != "object" || s.Properties["limit"].Type != "integer" || s.Properties["id"].Type != "string" || s.Properties["id"].Pattern != xID.Pattern || len(s.Required) != 1 || s.Required[0] != "id" {
		t.Fatalf("schema %s", b)
	}
	if _, err := outputSchema(&tool{route: rest.Get("/y", rest.User, nil, &rest.Doc{Status: 200, Data: nonObject{}})}); err == nil {
		t.Fatal("a non-object data schema was accepted as an output schema")
	}
}

var xID = rest.NewPathParam("id", `^x_[a-z]{3}$`, 8, "must be x_ and three letters")

type nonObject struct{}

func (nonObject) JSONSchema() []byte { return []byte(`{"type":"array"}`) }

func TestQueryFromArguments(t *testing.T) {
	q, bad := query(map[string]json.RawMessage{"ids": json.RawMessage(`["a-pt","b-es"]`), "limit": json.RawMessage(`5`), "q": json.RawMessage(`"são paulo"`)})
	if bad != nil || q != "ids=a-pt%2Cb-es&limit=5&q=s%C3%A3o+paulo" {
		t.Fatalf("query %q %v", q, bad)
	}
	for _, v := range []string{`{"a":1}`, `null`, `[[1]]`, `[{}]`} {
		if _, bad := query(map[string]json.RawMessage{"x": json.RawMessage(v)}); bad == nil || bad.Details[0].Path != "x" {
			t.Errorf("%s was accepted as a query value", v)
		}
	}
}

func TestNum(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 1125000: "1,125,000", -1234.5: "-1,234.5", 999.999: "1,000", 12.05: "12.05"} {
		if got := num(in); got != want {
			t.Errorf("num(%v) = %q, want %q", in, got, want)
		}
	}
}

// Every summary reports an answer it cannot read instead of summarising
// zero values.
func TestSummariesRefuseAnUnreadableAnswer(t *testing.T) {
	for _, tl := range tools() {
		if tl.summary == nil {
			if !tl.projections {
				t.Fatalf("%s has no summary", tl.name)
			}
			continue
		}
		if _, err := tl.summary([]byte(`{"items":"x","meta":[],"suggestions":7,"components":1,"cities":1,"name":1,"id":1,"score":"x","country":1}`)); err == nil {
			t.Errorf("%s summarised an answer of the wrong shape", tl.name)
		}
		if _, err := tl.summary([]byte(`not json`)); err == nil {
			t.Errorf("%s summarised an answer that is not JSON", tl.name)
		}
	}
}

// TestPathArgumentsMatchTheirGrammar: an id argument becomes part of the
// path only when it matched the route's grammar, so no value reaches
// another route.
func TestPathArgumentsMatchTheirGrammar(t *testing.T) {
	tl := &tool{name: "delete_x", method: "DELETE", path: "/api/v1/x/{id}",
		route: rest.Delete("/api/v1/x/{id}", rest.User, nil, nil).Where(xID)}
	h := &Handler{}
	for _, id := range []string{"../user", "../user/profile", "..%2fuser", "a/b", "x_ab/../../user", "x_abc/", "x_abc?x=1", "x_abc#", "x_ab%63", ".", ".."} {
		_, bad := h.request(tl, json.RawMessage(`{"id":`+strconv.Quote(id)+`}`))
		if bad == nil || bad.Code != errcode.Validation || len(bad.Details) != 1 || bad.Details[0].Path != "id" || bad.Details[0].Message != xID.Rule {
			t.Fatalf("id %q: %+v", id, bad)
		}
	}
	for _, args := range []string{`{"id":""}`, `{"id":7}`, `{}`} {
		if _, bad := h.request(tl, json.RawMessage(args)); bad == nil || len(bad.Details) != 1 || bad.Details[0].Path != "id" {
			t.Fatalf("%s: %+v", args, bad)
		}
	}
	r, bad := h.request(tl, json.RawMessage(`{"id":"x_abc"}`))
	if bad != nil || r.uri != "/api/v1/x/x_abc" {
		t.Fatalf("a good id: %q %+v", r.uri, bad)
	}
	// A route whose parameter declares no grammar takes no id at all.
	bare := &tool{name: "delete_y", method: "DELETE", path: "/api/v1/y/{id}", route: rest.Delete("/api/v1/y/{id}", rest.User, nil, nil)}
	if _, bad := h.request(bare, json.RawMessage(`{"id":"y"}`)); bad == nil {
		t.Fatal("an id without a grammar was put into a path")
	}
}

// The FI score's summary names the fields the score misses.
func TestFIScoreSummaryNamesTheMissingFields(t *testing.T) {
	got, err := fiScoreSummary([]byte(`{"score":120,"progress":0.25,"missing":[{"field":"assets","why":"add them"},{"field":"profile.currentAge","why":"for the years"}]}`))
	if want := "FI score 120/1000. Net worth is 25.0% of the FI number. Missing for a fuller score: assets, profile.currentAge."; err != nil || got != want {
		t.Fatalf("summary %q (%v), want %q", got, err, want)
	}
}

// A saved household plan is listed with its accounts' balances as its
// savings, in its currency, not as "savings 0".
func TestPlanBriefOfAHousehold(t *testing.T) {
	out := []byte(`{"items":[{"id":"pln_1","name":"UK","input":{"currentAge":50,"annualExpenses":32000,"currency":"GBP","accounts":[{"id":"gb-sipp","balance":400000},{"id":"gb-isa","balance":150000}]}},
		{"id":"pln_2","name":"One pot","input":{"currentAge":40,"annualExpenses":40000,"currentSavings":120000}}],"meta":{"total":2}}`)
	got, err := plansSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"UK" (id pln_1): age 50, spending GBP 32,000, savings GBP 550,000 in 2 accounts`, `"One pot" (id pln_2): age 40, spending 40,000, savings 120,000`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s\nlacks %s", got, want)
		}
	}
}
