package mcp_test

import (
	"context"
	"encoding/json"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"regexp"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// repro is what a calculation answers to reproduce it.
type repro struct {
	Engine    string            `json:"engine"`
	Datasets  map[string]string `json:"datasets"`
	Seed      *int64            `json:"seed"`
	InputHash string            `json:"inputHash"`
}

// figures is a calculation's answer without its provenance, to compare
// two answers' figures.
func figures(t *testing.T, out []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"engine", "datasets", "seed", "inputHash"} {
		delete(m, k)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

var hexHash = regexp.MustCompile(`^[0-9a-f]{32}$`)

func reproOf(t *testing.T, cs *sdk.ClientSession, tool, args string) (repro, string) {
	t.Helper()
	res := harness.Call(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s(%s): %s", tool, args, harness.Text(res))
	}
	out := harness.Structured(t, res)
	var r repro
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Engine, "fiplan test (") || !hexHash.MatchString(r.InputHash) {
		t.Fatalf("%s: engine %q, inputHash %q", tool, r.Engine, r.InputHash)
	}
	for _, ds := range []string{"cities", "fx", "history", "tax"} {
		if r.Datasets[ds] == "" {
			t.Fatalf("%s: no version of %s in %v", tool, ds, r.Datasets)
		}
	}
	return r, figures(t, out)
}

// TestMCPCalculationsAreReproducible: the same input twice gives the same
// hash and figures, whatever its key order and spacing; a changed input
// changes the hash; Monte Carlo names its seed; a saved plan's hash
// follows its stored input.
func TestMCPCalculationsAreReproducible(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("off", "off", "off"))
	cs := keySession(t, h, "ada", "pro")
	plan := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"monteCarlo":{"simulations":300},"historical":{}}`
	a, fa := reproOf(t, cs, "fi_calculate", plan)
	b, fb := reproOf(t, cs, "fi_calculate", plan)
	if a.InputHash != b.InputHash || fa != fb || a.Seed == nil || *a.Seed != 1 {
		t.Fatalf("the same call twice: %+v %+v, figures equal %v", a, b, fa == fb)
	}
	reordered := `{ "historical":{}, "monteCarlo":{"simulations":3e2}, "currentSavings":50000.0,"annualExpenses":45000,"annualIncome":90000,"currentAge":35 }`
	if c, fc := reproOf(t, cs, "fi_calculate", reordered); c.InputHash != a.InputHash || fc != fa {
		t.Fatalf("the same input in another order: %s vs %s", c.InputHash, a.InputHash)
	}
	// What only shapes the answer is no part of the input.
	full := harness.Call(t, cs, "fi_calculate", strings.TrimSuffix(plan, "}")+`,"output":"full"}`)
	var f repro
	if err := json.Unmarshal(harness.Structured(t, full), &f); err != nil || f.InputHash != a.InputHash {
		t.Fatalf("output full hashed apart: %s vs %s", f.InputHash, a.InputHash)
	}
	for _, changed := range []string{
		strings.Replace(plan, "45000", "45001", 1),
		strings.Replace(plan, `"simulations":300`, `"simulations":300,"seed":2`, 1),
		strings.Replace(plan, `,"historical":{}`, ``, 1),
	} {
		c, _ := reproOf(t, cs, "fi_calculate", changed)
		if c.InputHash == a.InputHash {
			t.Fatalf("a changed input kept the hash: %s", changed)
		}
	}
	if c, _ := reproOf(t, cs, "fi_calculate", strings.Replace(plan, `"simulations":300`, `"simulations":300,"seed":7`, 1)); c.Seed == nil || *c.Seed != 7 {
		t.Fatalf("seed %v, want 7", c.Seed)
	}
	if c, _ := reproOf(t, cs, "fi_calculate", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000}`); c.Seed != nil {
		t.Fatalf("a seed without Monte Carlo: %d", *c.Seed)
	}

	// The tax tools name the country's data.
	tc, tf := reproOf(t, cs, "tax_calculate", `{"country":"GB","income":{"employment":50000}}`)
	tc2, tf2 := reproOf(t, cs, "tax_calculate", `{"income":{"employment":50000},"country":"GB"}`)
	if tc.InputHash != tc2.InputHash || tf != tf2 || tc.Datasets["tax/GB"] == "" {
		t.Fatalf("tax_calculate: %+v %+v", tc, tc2)
	}
	if to, _ := reproOf(t, cs, "tax_optimize", `{"country":"US","income":{"pension":30000}}`); to.Datasets["tax/US"] == "" {
		t.Fatalf("tax_optimize: %+v", to)
	}

	// A saved plan: its stored input is the input.
	tok := h.Token("ada", "pro", "")
	r := h.Do("POST", "/api/v1/plans", `{"name":"p","input":`+plan+`}`, testserver.Bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("save: %d %s", r.Status, r.Raw)
	}
	id := r.Data()["id"].(string)
	args := `{"id":"` + id + `"}`
	run1, rf1 := reproOf(t, cs, "run_my_plan", args)
	run2, rf2 := reproOf(t, cs, "run_my_plan", args)
	if run1.InputHash != run2.InputHash || rf1 != rf2 || run1.Seed == nil {
		t.Fatalf("run_my_plan twice: %+v %+v", run1, run2)
	}
	ci1, cf1 := reproOf(t, cs, "checkin_my_plan", `{"id":"`+id+`","currentSavings":800000}`)
	ci2, cf2 := reproOf(t, cs, "checkin_my_plan", `{"currentSavings":800000,"id":"`+id+`"}`)
	if ci1.InputHash != ci2.InputHash || cf1 != cf2 || ci1.Seed == nil {
		t.Fatalf("checkin_my_plan twice: %+v %+v", ci1, ci2)
	}
	if ci3, _ := reproOf(t, cs, "checkin_my_plan", `{"id":"`+id+`","currentSavings":800001}`); ci3.InputHash == ci1.InputHash {
		t.Fatal("another check-in kept the hash")
	}
	if r := h.Do("PATCH", "/api/v1/plans/"+id, `{"input":{"annualExpenses":46000}}`, testserver.Bearer(tok)...); r.Status != 200 {
		t.Fatalf("patch: %d %s", r.Status, r.Raw)
	}
	if run3, _ := reproOf(t, cs, "run_my_plan", args); run3.InputHash == run1.InputHash {
		t.Fatal("a changed stored input kept the hash")
	}
}

// Every argument that names a resource (an asset, a plan, a city, a
// country) is checked against its grammar: a traversal string is the
// tool's VALIDATION_ERROR on that argument and reaches nothing.
func TestMCPResourceArgumentsMatchTheirGrammar(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("off", "off", "off"))
	cs := keySession(t, h, "ada", "pro")
	for _, bad := range []string{"../user", "..%2fuser", "a/b", "../../api/v1/user/profile"} {
		q := strconv.Quote(bad)
		for _, c := range []struct{ tool, args, path string }{
			{"update_asset", `{"id":` + q + `,"value":1}`, "id"},
			{"delete_asset", `{"id":` + q + `}`, "id"},
			{"get_my_plan", `{"id":` + q + `}`, "id"},
			{"run_my_plan", `{"id":` + q + `}`, "id"},
			{"checkin_my_plan", `{"id":` + q + `,"currentSavings":1}`, "id"},
			{"compare_cities", `{"ids":"lisbon-pt,` + strings.Trim(q, `"`) + `"}`, "ids"},
			{"fi_calculate", `{"currentAge":35,"annualIncome":1,"annualExpenses":1,"cityId":` + q + `}`, "cityId"},
			{"search_cities", `{"country":` + q + `}`, "country"},
			{"tax_calculate", `{"country":` + q + `,"income":{"employment":1}}`, "country"},
			{"tax_programs", `{"country":` + q + `}`, "country"},
			{"tax_optimize", `{"country":` + q + `,"income":{"pension":1}}`, "country"},
			{"tax_countries", `{"country":` + q + `}`, "country"},
			{"fi_calculate", `{"currentAge":35,"annualIncome":1,"annualExpenses":1,"tax":{"country":` + q + `}}`, "tax.country"},
		} {
			res := harness.Call(t, cs, c.tool, c.args)
			if !res.IsError || !strings.HasPrefix(harness.Text(res), "VALIDATION_ERROR:") || !strings.Contains(harness.Text(res), "\n- "+c.path+": ") {
				t.Errorf("%s(%s): %s", c.tool, c.args, harness.Text(res))
			}
		}
	}
}

// The annotations say what a tool may change: deleting and overwriting
// tools are destructive; the profile and settings updates change the
// user's data (not read-only) but only the fields named, so they are
// neither destructive nor anything but idempotent.
func TestMCPToolAnnotations(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "free")
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type hints struct{ read, destructive, idempotent bool }
	want := map[string]hints{
		"delete_asset": {false, true, true}, "update_asset": {false, true, true}, "add_asset": {false, false, false},
		"save_my_plan": {false, false, false}, "update_my_profile": {false, false, true}, "update_my_settings": {false, false, true},
		"get_my_profile": {true, false, true}, "get_my_settings": {true, false, true}, "tax_countries": {true, false, true},
		"fi_calculate": {true, false, true},
	}
	for _, tl := range list.Tools {
		a := tl.Annotations
		got := hints{a.ReadOnlyHint, *a.DestructiveHint, a.IdempotentHint}
		if w, ok := want[tl.Name]; ok && got != w {
			t.Errorf("%s: %+v, want %+v", tl.Name, got, w)
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s reaches outside its own data", tl.Name)
		}
		for _, http := range []string{"Accept", "ETag", "If-Match", "byte", "/api/v1"} {
			if strings.Contains(tl.Description, http) {
				t.Errorf("%s: the description speaks of HTTP (%s): %s", tl.Name, http, tl.Description)
			}
		}
	}
}
