package mcp_test

import (
	"context"
	"encoding/json"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"math"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// compare_cities names each city in its one-line summary (the names sit
// in each entry's city record, not beside the figures).
func TestMCPCompareCitiesNamesTheCities(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "free")
	res := harness.Call(t, cs, "compare_cities", `{"ids":"lisbon-pt,porto-pt"}`)
	if res.IsError {
		t.Fatalf("compare_cities: %s", harness.Text(res))
	}
	sum := harness.Text(res)
	for _, want := range []string{"Lisbon (PT): FI number USD ", "Porto (PT): FI number USD "} {
		if !strings.Contains(sum, want) {
			t.Fatalf("the summary does not name the cities:\n%s", sum)
		}
	}
	if strings.Contains(sum, "\n: ") || strings.HasPrefix(sum, ": ") {
		t.Fatalf("a nameless line:\n%s", sum)
	}
}

// With tax, fi_calculate's summary gives the FI number the plan reaches
// FI against, the after-tax one, and the one before tax beside it.
func TestMCPPlanSummaryAfterTax(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "free")
	body := `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":200000,"tax":{"country":"GB"}}`
	res := harness.Call(t, cs, "fi_calculate", body)
	if res.IsError {
		t.Fatalf("fi_calculate: %s", harness.Text(res))
	}
	api := h.Do("POST", "/api/v1/calculator", body)
	after := api.Data()["afterTaxFINumber"].(float64)
	sum := harness.Text(res)
	if !strings.Contains(sum, "FI number "+commas(after)+" after tax (1,000,000 before tax") {
		t.Fatalf("the summary does not give the after-tax FI number %v:\n%s", after, sum)
	}
}

// commas writes an amount as the summaries do (1,234,567.89).
func commas(v float64) string {
	s := strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(math.Round(v*100)/100, 'f', 2, 64), "0"), ".")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString("." + frac)
	}
	return b.String()
}

// No tool's input or output schema uses a type array: a nullable field is
// anyOf its schema and null, which every client reads.
func TestMCPSchemasArePortable(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "free")
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(tool, at string, v any)
	walk = func(tool, at string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["type"].([]any); ok {
				t.Errorf("%s: a type array at %s", tool, at)
			}
			for k, e := range x {
				walk(tool, at+"/"+k, e)
			}
		case []any:
			for i, e := range x {
				walk(tool, at+"/"+strconv.Itoa(i), e)
			}
		}
	}
	for _, tl := range tools.Tools {
		for name, s := range map[string]any{"input": tl.InputSchema, "output": tl.OutputSchema} {
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			walk(tl.Name, name, v)
		}
	}
}

// A list tool answers a page of 10 unless the call asks for more: the
// API's page of 50 full records is too much for a model's context.
func TestMCPListToolsAnswerSmallPages(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "free")
	for _, name := range []string{"search_cities", "tax_programs"} {
		for args, want := range map[string]float64{`{}`: 10, `{"limit":25}`: 25} {
			res := harness.Call(t, cs, name, args)
			if res.IsError {
				t.Fatalf("%s %s: %s", name, args, harness.Text(res))
			}
			var out struct {
				Items []any `json:"items"`
				Meta  struct {
					Limit float64 `json:"limit"`
					Total float64 `json:"total"`
				} `json:"meta"`
			}
			if err := json.Unmarshal(harness.Structured(t, res), &out); err != nil {
				t.Fatal(err)
			}
			if out.Meta.Limit != want || float64(len(out.Items)) != min(want, out.Meta.Total) {
				t.Fatalf("%s %s: %d items, limit %v, total %v", name, args, len(out.Items), out.Meta.Limit, out.Meta.Total)
			}
		}
	}
}

// keySession opens an MCP session with a new API key of sub at tier,
// closed when the test ends.
func keySession(t *testing.T, h *testserver.Harness, sub, tier string) *sdk.ClientSession {
	t.Helper()
	key, _ := h.APIKey(sub, tier)
	cs, err := h.MCPSession("Bearer " + key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}
