package mcp_test

import (
	"context"
	"encoding/json"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"strconv"
	"testing"
)

// toolsListBudget is the most tools/list may weigh: every tool's name,
// description and schemas go into a model's context with every request.
const toolsListBudget = 43_500

// TestMCPToolsListFitsItsBudget measures the real tools/list result, as
// the client receives it.
func TestMCPToolsListFitsItsBudget(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "pro")
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d bytes", len(b))
	for _, tl := range list.Tools {
		one, _ := json.Marshal(tl)
		in, _ := json.Marshal(tl.InputSchema)
		out, _ := json.Marshal(tl.OutputSchema)
		t.Logf("  %-18s %6d (description %d, input %d, output %d)", tl.Name, len(one), len(tl.Description), len(in), len(out))
	}
	if len(b) > toolsListBudget {
		t.Fatalf("tools/list is %d bytes, over the budget of %d", len(b), toolsListBudget)
	}
}

// sizeCase is one tool called with its minimal valid arguments; setup,
// when set, stores what the call needs and returns the arguments.
type sizeCase struct {
	tool string
	args func(t *testing.T, h *testserver.Harness, tok string) string
}

func fixed(args string) func(*testing.T, *testserver.Harness, string) string {
	return func(*testing.T, *testserver.Harness, string) string { return args }
}

// storeMany stores n assets and n plans for the user of tok, so that the
// list tools have more than a page to answer.
func storeMany(t *testing.T, h *testserver.Harness, tok string, n int) (assetID, planID string) {
	t.Helper()
	for i := range n {
		r := h.Do("POST", "/api/v1/assets", `{"name":"Fund `+strconv.Itoa(i)+`","value":`+strconv.Itoa(1000+i)+`,"currency":"EUR","category":"equity","notes":"a note long enough to weigh something in a list of many rows"}`, testserver.Bearer(tok)...)
		if r.Status != 201 {
			t.Fatalf("asset: %d %s", r.Status, r.Raw)
		}
		assetID = r.Data()["id"].(string)
		r = h.Do("POST", "/api/v1/plans", `{"name":"Plan `+strconv.Itoa(i)+`","input":{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":200000,"monteCarlo":{"simulations":200},"historical":{}}}`, testserver.Bearer(tok)...)
		if r.Status != 201 {
			t.Fatalf("plan: %d %s", r.Status, r.Raw)
		}
		planID = r.Data()["id"].(string)
	}
	return assetID, planID
}

// TestMCPDefaultAnswersAreSmall calls every tool with its minimal valid
// arguments, for a user with more assets and plans than a page, and
// measures the whole result as the client receives it.
func TestMCPDefaultAnswersAreSmall(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("off", "off", "off"))
	tok := h.Token("ada", "pro", "")
	assetID, planID := storeMany(t, h, tok, 30)
	id := func(tool, id string) sizeCase { return sizeCase{tool, fixed(`{"id":"` + id + `"}`)} }
	cases := []sizeCase{
		{"fi_calculate", fixed(`{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000}`)},
		{"fi_calculate", fixed(`{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"monteCarlo":{},"historical":{"sequences":true}}`)},
		{"portfolio_health", fixed(`{"holdings":[{"name":"World","value":200000,"assetClass":"equity"}]}`)},
		{"search_cities", fixed(`{}`)},
		{"compare_cities", fixed(`{"ids":"lisbon-pt,porto-pt"}`)},
		{"recommend_cities", fixed(`{"monthlyBudgetUSD":3000}`)},
		{"tax_calculate", fixed(`{"country":"US","income":{"employment":60000}}`)},
		{"tax_programs", fixed(`{}`)},
		{"tax_optimize", fixed(`{"country":"US","income":{"pension":30000}}`)},
		{"my_fi_score", fixed(`{}`)},
		{"list_my_assets", fixed(`{}`)},
		{"add_asset", fixed(`{"name":"Bond fund","value":8000}`)},
		{"update_asset", fixed(`{"id":"` + assetID + `","value":9000}`)},
		id("list_my_plans", planID),
		id("get_my_plan", planID),
		{"save_my_plan", fixed(`{"name":"Lean","input":{"currentAge":40,"annualIncome":80000,"annualExpenses":40000}}`)},
		id("run_my_plan", planID),
		{"checkin_my_plan", fixed(`{"id":"` + planID + `","currentSavings":900000}`)},
		{"tax_countries", fixed(`{}`)},
		{"tax_countries", fixed(`{"country":"US"}`)},
		{"get_my_profile", fixed(`{}`)},
		{"update_my_profile", fixed(`{"currentAge":41}`)},
		{"get_my_settings", fixed(`{}`)},
		{"update_my_settings", fixed(`{"withdrawalRate":0.035}`)},
		id("delete_asset", assetID),
	}
	cs, err := h.MCPSession("Bearer " + tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range cases {
		args := c.args(t, h, tok)
		if c.tool == "list_my_plans" {
			args = `{}`
		}
		res := harness.Call(t, cs, c.tool, args)
		if res.IsError {
			t.Fatalf("%s(%s): %s", c.tool, args, harness.Text(res))
		}
		whole, _ := json.Marshal(res)
		t.Logf("%-18s %6d bytes (structured %d) %s", c.tool, len(whole), len(harness.Structured(t, res)), args)
		if len(whole) > harness.MCPAnswerBudget {
			t.Errorf("%s(%s): %d bytes, over the budget of %d", c.tool, args, len(whole), harness.MCPAnswerBudget)
		}
	}
}
