package plans_test

import (
	"encoding/json"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"strings"
	"testing"
)

// The plan tools: save, list, get, run and check in a plan over MCP, each
// answer matching the tool's output schema, with a summary an assistant
// can quote; a plan id that is no plan id never reaches a path.
func TestMCPPlanTools(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	tok := h.Token("ada", "free", "")
	cs, err := h.MCPSession("Bearer " + tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := harness.OutputSchemas(t, list.Tools)
	for _, tl := range list.Tools {
		if !strings.HasSuffix(tl.Name, "_plan") && tl.Name != "list_my_plans" {
			continue
		}
		if len(tl.Description) < 80 {
			t.Errorf("%s: description %q is too thin for a model", tl.Name, tl.Description)
		}
	}
	ok := func(name, args, want string) []byte {
		t.Helper()
		res := harness.Call(t, cs, name, args)
		if res.IsError {
			t.Fatalf("%s(%s): %s", name, args, harness.Text(res))
		}
		out := harness.Structured(t, res)
		harness.Validate(t, schemas[name], name, out)
		if !strings.Contains(harness.Text(res), want) {
			t.Errorf("%s: summary %q lacks %q", name, harness.Text(res), want)
		}
		return out
	}
	saved := ok("save_my_plan", `{"name":"Lean at 55","input":{"startYear":2020,"currentAge":58,"annualIncome":80000,"annualExpenses":40000,"targetRetirementAge":60,"withdrawalStrategy":"guyton-klinger"}}`,
		`Saved plan "Lean at 55"`)
	var p struct{ ID string }
	if err := json.Unmarshal(saved, &p); err != nil || p.ID == "" {
		t.Fatalf("saved %s", saved)
	}
	ok("list_my_plans", `{}`, `1 saved plans`)
	ok("get_my_plan", `{"id":"`+p.ID+`"}`, `"Lean at 55" (id `+p.ID+`)`)
	run := ok("run_my_plan", `{"id":"`+p.ID+`"}`, "FI number")
	if !strings.Contains(string(run), `"milestones"`) || strings.Contains(string(run), `"projections"`) {
		t.Errorf("run_my_plan answers rows as fi_calculate does by default (milestones, no projections): %.300s", run)
	}
	ok("checkin_my_plan", `{"id":"`+p.ID+`","currentSavings":1000000}`, "the guyton-klinger strategy lets you withdraw USD 40,000 this year, 4.0% of the portfolio of 1,000,000")

	// Errors come back as tool errors with the API's code.
	res := harness.Call(t, cs, "save_my_plan", `{"name":"bad","input":{"currentAge":5,"annualIncome":1,"annualExpenses":1}}`)
	if !res.IsError || !strings.HasPrefix(harness.Text(res), "VALIDATION_ERROR:") || !strings.Contains(harness.Text(res), "input.currentAge") {
		t.Errorf("a bad input: %s", harness.Text(res))
	}
	for _, id := range []string{"../user", "pln_aaaaaaaaaaaaaaaaaaaaaaaaaa/../../user", "ast_aaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		for _, tool := range []string{"get_my_plan", "run_my_plan", "checkin_my_plan"} {
			args, _ := json.Marshal(map[string]any{"id": id, "currentSavings": 1})
			if tool != "checkin_my_plan" {
				args, _ = json.Marshal(map[string]any{"id": id})
			}
			res := harness.Call(t, cs, tool, string(args))
			if !res.IsError || !strings.Contains(harness.Text(res), "must be a plan id") {
				t.Errorf("%s(%s) was not refused as a bad id: %s", tool, args, harness.Text(res))
			}
		}
	}
	res = harness.Call(t, cs, "get_my_plan", `{"id":"pln_aaaaaaaaaaaaaaaaaaaaaaaaaa"}`)
	if !res.IsError || !strings.HasPrefix(harness.Text(res), "NOT_FOUND:") {
		t.Errorf("an unknown plan: %s", harness.Text(res))
	}
}
