package mcp_test

import (
	"encoding/json"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"strings"
	"testing"
)

// decode reads a tool's structured answer into v.
func decode(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
}

func ok(t *testing.T, h *testserver.Harness, tok, tool, args string) []byte {
	t.Helper()
	cs, err := h.MCPSession("Bearer " + tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := harness.Call(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s(%s): %s", tool, args, harness.Text(res))
	}
	return harness.Structured(t, res)
}

// The calculator's default answer is its summaries; output full really
// answers every row: each year's projection, each year's Monte Carlo
// percentiles and the backtest's sequences.
func TestMCPCalculatorFullIsEveryRow(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("off", "off", "off"))
	tok := h.Token("ada", "pro", "")
	args := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"monteCarlo":{"simulations":200},"historical":{"sequences":true}`
	type answer struct {
		Projections []any `json:"projections"`
		Milestones  []any `json:"milestones"`
		MonteCarlo  struct {
			SuccessRate *float64 `json:"successRate"`
			Balances    []any    `json:"balances"`
		} `json:"monteCarlo"`
		Historical struct {
			SuccessRate *float64        `json:"successRate"`
			Sequences   json.RawMessage `json:"sequences"`
		} `json:"historical"`
	}
	var short, full answer
	decode(t, ok(t, h, tok, "fi_calculate", args+`}`), &short)
	decode(t, ok(t, h, tok, "fi_calculate", args+`,"output":"full"}`), &full)
	if short.Projections != nil || len(short.Milestones) == 0 || short.MonteCarlo.Balances != nil || short.Historical.Sequences != nil ||
		short.MonteCarlo.SuccessRate == nil || short.Historical.SuccessRate == nil {
		t.Fatalf("the summary: %+v", short)
	}
	if len(full.Projections) != 95-35 || len(full.MonteCarlo.Balances) != 95-35 || len(full.Historical.Sequences) == 0 {
		t.Fatalf("output full: %d projections, %d Monte Carlo rows, sequences %s", len(full.Projections), len(full.MonteCarlo.Balances), full.Historical.Sequences)
	}
	// The API answers the same rows.
	r := h.Do("POST", "/api/v1/calculator", args+`}`, testserver.Bearer(tok)...)
	if n := len(r.Data()["projections"].([]any)); r.Status != 200 || n != len(full.Projections) {
		t.Fatalf("the API: %d, %d rows", r.Status, n)
	}
}

// A list tool's rows are compact unless detail is full, which answers
// the API's whole records; limit and offset page.
func TestMCPDetailFull(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false), testserver.WithRates("off", "off", "off"))
	tok := h.Token("ada", "pro", "")
	storeMany(t, h, tok, 12)
	type page struct {
		Items []map[string]any `json:"items"`
		Meta  struct{ Total, Limit, Offset int }
	}
	var compact, full, second page
	decode(t, ok(t, h, tok, "list_my_assets", `{}`), &compact)
	decode(t, ok(t, h, tok, "list_my_assets", `{"detail":"full"}`), &full)
	decode(t, ok(t, h, tok, "list_my_assets", `{"offset":10}`), &second)
	if len(compact.Items) != 10 || compact.Meta.Total != 12 || len(compact.Items[0]) != 5 || compact.Items[0]["notes"] != nil {
		t.Fatalf("compact rows: %+v", compact)
	}
	if len(full.Items) != 10 || full.Items[0]["notes"] == nil || full.Items[0]["createdAt"] == nil {
		t.Fatalf("detail full: %+v", full.Items[0])
	}
	if len(second.Items) != 2 || second.Items[0]["name"] != "Fund 10" {
		t.Fatalf("the second page: %+v", second)
	}
	var opt, optFull struct {
		Suggestions []map[string]any `json:"suggestions"`
		Skipped     []any            `json:"skipped"`
	}
	args := `{"country":"US","income":{"pension":30000}}`
	decode(t, ok(t, h, tok, "tax_optimize", args), &opt)
	decode(t, ok(t, h, tok, "tax_optimize", strings.TrimSuffix(args, "}")+`,"detail":"full"}`), &optFull)
	if len(opt.Suggestions) != 10 || opt.Skipped != nil || len(optFull.Suggestions) <= 10 || optFull.Skipped == nil ||
		opt.Suggestions[0]["country"] != optFull.Suggestions[0]["country"] || optFull.Suggestions[0]["grossIncome"] == nil || opt.Suggestions[0]["grossIncome"] != nil {
		t.Fatalf("tax_optimize: %d compact (%v), %d full", len(opt.Suggestions), opt.Suggestions[0], len(optFull.Suggestions))
	}
	bad := harness.Call(t, keySession(t, h, "bo", "free"), "list_my_assets", `{"detail":"all"}`)
	if !bad.IsError || !strings.Contains(harness.Text(bad), "- detail: must be one of: compact, full") {
		t.Fatalf("an unknown detail: %s", harness.Text(bad))
	}
}

// tax_countries lists every country with its years and how many regions
// and wrappers it has; naming one answers its region codes and wrapper
// ids, detail full the API's record with the wrappers' rules.
func TestMCPTaxCountries(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	tok := h.Token("ada", "free", "")
	type country struct {
		Code     string          `json:"code"`
		Name     string          `json:"name"`
		Years    []int           `json:"years"`
		Regions  json.RawMessage `json:"regions"`
		Wrappers json.RawMessage `json:"wrappers"`
		Modelled json.RawMessage `json:"modelled"`
	}
	var all, us, usFull struct {
		Items []country `json:"items"`
		Meta  struct{ Total int }
	}
	decode(t, ok(t, h, tok, "tax_countries", `{}`), &all)
	decode(t, ok(t, h, tok, "tax_countries", `{"country":"us"}`), &us)
	decode(t, ok(t, h, tok, "tax_countries", `{"country":"US","detail":"full"}`), &usFull)
	if len(all.Items) != len(h.Taxes().Codes()) || all.Meta.Total != len(all.Items) {
		t.Fatalf("%d countries of %d", len(all.Items), len(h.Taxes().Codes()))
	}
	wrappers := 0
	if w := h.Taxes().Wrappers("US"); w != nil {
		wrappers = len(w.Wrappers)
	}
	for _, c := range all.Items {
		if c.Code != "US" {
			continue
		}
		if c.Name != "" || string(c.Regions) != "51" || string(c.Wrappers) != itoa(wrappers) || len(c.Years) == 0 {
			t.Fatalf("US in the list: %+v (regions %s, wrappers %s)", c, c.Regions, c.Wrappers)
		}
	}
	if len(us.Items) != 1 || us.Meta.Total != 1 || !strings.Contains(string(us.Items[0].Regions), `"CA"`) || us.Items[0].Name == "" || us.Items[0].Modelled != nil {
		t.Fatalf("US alone: %+v", us)
	}
	var ids, whole []any
	decode(t, us.Items[0].Wrappers, &ids)
	decode(t, usFull.Items[0].Wrappers, &whole)
	if len(ids) != wrappers || len(whole) != wrappers || usFull.Items[0].Modelled == nil {
		t.Fatalf("US wrappers: %s, full %s", us.Items[0].Wrappers, usFull.Items[0].Wrappers)
	}
	var none struct{ Items []country }
	if decode(t, ok(t, h, tok, "tax_countries", `{"country":"QQ"}`), &none); len(none.Items) != 0 {
		t.Fatalf("an unknown country: %+v", none)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The profile and settings tools read and change the documents the API
// serves, with the API's checks.
func TestMCPProfileAndSettings(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	tok := h.Token("ada", "free", "")
	var p struct {
		CurrentAge     *int     `json:"currentAge"`
		AnnualExpenses *float64 `json:"annualExpenses"`
		Currency       *string  `json:"currency"`
	}
	decode(t, ok(t, h, tok, "get_my_profile", `{}`), &p)
	if p.CurrentAge != nil || p.Currency != nil { // never chosen: null, not USD
		t.Fatalf("a new profile: %+v", p)
	}
	decode(t, ok(t, h, tok, "update_my_profile", `{"currentAge":41,"annualExpenses":42000}`), &p)
	if p.CurrentAge == nil || *p.CurrentAge != 41 || *p.AnnualExpenses != 42000 {
		t.Fatalf("after the update: %+v", p)
	}
	decode(t, ok(t, h, tok, "update_my_profile", `{"annualExpenses":null}`), &p)
	if r := h.Do("GET", "/api/v1/user/profile", "", testserver.Bearer(tok)...); r.Data()["currentAge"] != 41.0 || r.Data()["annualExpenses"] != nil || p.AnnualExpenses != nil {
		t.Fatalf("the API reads %s", r.Raw)
	}
	decode(t, ok(t, h, tok, "update_my_settings", `{"withdrawalRate":0.035}`), &struct{}{})
	var s struct{ WithdrawalRate float64 }
	decode(t, ok(t, h, tok, "get_my_settings", `{}`), &s)
	if s.WithdrawalRate != 0.035 {
		t.Fatalf("settings: %+v", s)
	}
	cs := keySession(t, h, "ada", "free")
	for tool, args := range map[string]string{"update_my_profile": `{"currentAge":7}`, "update_my_settings": `{"withdrawalRate":3}`} {
		if res := harness.Call(t, cs, tool, args); !res.IsError || !strings.HasPrefix(harness.Text(res), "VALIDATION_ERROR:") {
			t.Errorf("%s(%s): %s", tool, args, harness.Text(res))
		}
	}
}
