package plans_test

import (
	"encoding/json"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"strings"
	"testing"
)

// A saved plan's decisions are chosen by its optimize action over the
// API and by optimize_plan over MCP, whose compact answer (the decisions,
// the gain, a line on each) stays within the answer budget.
func TestOptimizeSavedPlan(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	tok := h.Token("ada", "free", "")
	input := `{"startYear":2026,"currentAge":60,"annualIncome":0,"annualExpenses":60000,"targetRetirementAge":60,"lifeExpectancy":88,
	  "partner":{"age":60,"lifeExpectancy":88},
	  "accounts":[{"id":"k","type":"us-401k","balance":900000},{"id":"t","type":"taxable","balance":200000}],
	  "pensions":[{"kind":"us-social-security","fromAge":67,"amount":30000}],"tax":{"country":"US"}}`
	r := h.Do("POST", "/api/v1/plans", `{"name":"Couple","input":`+input+`}`, testserver.Bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	var saved struct {
		Data struct{ ID string } `json:"data"`
	}
	if err := json.Unmarshal(r.Raw, &saved); err != nil {
		t.Fatal(err)
	}
	id := saved.Data.ID
	r = h.Do("POST", "/api/v1/plans/"+id+"/optimize", `{"objective":"estate","decisions":["conversions","claiming"]}`, testserver.Bearer(tok)...)
	if r.Status != 200 || !strings.Contains(string(r.Raw), `"optimized":{"feasible":true`) {
		t.Fatalf("%d %.400s", r.Status, r.Raw)
	}
	r = h.Do("POST", "/api/v1/plans/"+id+"/optimize", `{"objective":"estate","decisions":["luck"]}`, testserver.Bearer(tok)...)
	if r.Status != 400 || !strings.Contains(string(r.Raw), `"decisions[0]"`) {
		t.Fatalf("an unknown decision is refused naming it: %d %s", r.Status, r.Raw)
	}
	cs, err := h.MCPSession("Bearer " + tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := harness.Call(t, cs, "optimize_plan", `{"id":"`+id+`","objective":"spending"}`)
	if res.IsError {
		t.Fatalf("optimize_plan: %s", harness.Text(res))
	}
	out := harness.Structured(t, res)
	if len(out) > harness.MCPAnswerBudget || strings.Contains(string(out), `"projections"`) || !strings.Contains(harness.Text(res), "over the plan as asked") {
		t.Fatalf("optimize_plan answers %d bytes: %.600s\n%s", len(out), out, harness.Text(res))
	}
}
