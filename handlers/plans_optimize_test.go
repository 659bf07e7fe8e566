package handlers

import (
	"encoding/json"
	"strings"
	"testing"
)

// A saved plan's decisions are chosen by its optimize action over the
// API and by optimize_plan over MCP, whose compact answer (the decisions,
// the gain, a line on each) stays within the answer budget.
func TestOptimizeSavedPlan(t *testing.T) {
	h := newHarness(t, withMCP(false))
	tok := h.token("ada", "free", "")
	input := `{"startYear":2026,"currentAge":60,"annualIncome":0,"annualExpenses":60000,"targetRetirementAge":60,"lifeExpectancy":88,
	  "partner":{"age":60,"lifeExpectancy":88},
	  "accounts":[{"id":"k","type":"us-401k","balance":900000},{"id":"t","type":"taxable","balance":200000}],
	  "pensions":[{"kind":"us-social-security","fromAge":67,"amount":30000}],"tax":{"country":"US"}}`
	r := h.do("POST", "/api/v1/plans", `{"name":"Couple","input":`+input+`}`, bearer(tok)...)
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	var saved struct {
		Data struct{ ID string } `json:"data"`
	}
	if err := json.Unmarshal(r.raw, &saved); err != nil {
		t.Fatal(err)
	}
	id := saved.Data.ID
	r = h.do("POST", "/api/v1/plans/"+id+"/optimize", `{"objective":"estate","decisions":["conversions","claiming"]}`, bearer(tok)...)
	if r.status != 200 || !strings.Contains(string(r.raw), `"optimized":{"feasible":true`) {
		t.Fatalf("%d %.400s", r.status, r.raw)
	}
	r = h.do("POST", "/api/v1/plans/"+id+"/optimize", `{"objective":"estate","decisions":["luck"]}`, bearer(tok)...)
	if r.status != 400 || !strings.Contains(string(r.raw), `"decisions[0]"`) {
		t.Fatalf("an unknown decision is refused naming it: %d %s", r.status, r.raw)
	}
	cs, err := h.mcpSession("Bearer " + tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := call(t, cs, "optimize_plan", `{"id":"`+id+`","objective":"spending"}`)
	if res.IsError {
		t.Fatalf("optimize_plan: %s", text(res))
	}
	out := structured(t, res)
	if len(out) > answerBudget || strings.Contains(string(out), `"projections"`) || !strings.Contains(text(res), "over the plan as asked") {
		t.Fatalf("optimize_plan answers %d bytes: %.600s\n%s", len(out), out, text(res))
	}
}
