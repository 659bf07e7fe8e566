package tax_test

import (
	"math"
	"strings"
	"testing"

	"fiplan/handlers/internal/testserver"
)

// explain adds the trace: every rule that fired, its base, rate, amount,
// steps and sources; its amounts add up to the total, and each rule's
// steps are its lines of the breakdown.
func TestTaxCalculateExplain(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"country":"US","year":2026,"region":"NY","age":67,"income":{"pension":60000,"employment":30000,"capitalGains":20000},"explain":true}`
	r := taxCalc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	data := r.Body["data"].(map[string]any)
	trace, ok := data["trace"].([]any)
	if !ok || len(trace) == 0 {
		t.Fatalf("no trace: %s", r.Raw)
	}
	sum, steps := 0.0, 0
	rules := map[string]map[string]any{}
	for _, x := range trace {
		e := x.(map[string]any)
		rules[e["rule"].(string)] = e
		sum += e["amount"].(float64)
		src := e["source"].([]any)
		if len(src) == 0 {
			t.Errorf("rule %v cites no source", e["rule"])
		}
		for _, s := range src {
			c := s.(map[string]any)
			if c["title"] == "" || c["section"] == "" {
				t.Errorf("rule %v: citation %v", e["rule"], c)
			}
		}
		if b := e["base"].(float64); b > 0 && math.Abs(e["rate"].(float64)-e["amount"].(float64)/b) > 1e-6 {
			t.Errorf("rule %v: rate %v, amount %v on %v", e["rule"], e["rate"], e["amount"], b)
		}
		steps += len(e["steps"].([]any))
	}
	if math.Abs(sum-data["totalTax"].(float64)) > 0.02 {
		t.Errorf("the trace's amounts add to %v, totalTax %v", sum, data["totalTax"])
	}
	if steps != len(data["breakdown"].([]any)) {
		t.Errorf("%d steps, %d breakdown lines", steps, len(data["breakdown"].([]any)))
	}
	fit := rules["fit"]
	if fit == nil || rules["ny-income"] == nil || rules["oasdi"] == nil {
		t.Fatalf("the federal income tax, New York's and Social Security should fire: %v", trace)
	}
	// the additional standard deduction at 65 is one of the federal steps
	found := false
	for _, s := range fit["steps"].([]any) {
		if strings.Contains(s.(map[string]any)["label"].(string), "65 or older") {
			found = true
		}
	}
	if !found {
		t.Errorf("fit's steps miss the additional deduction at 65: %v", fit["steps"])
	}
	// without explain, no trace
	r = taxCalc(t, h, strings.Replace(body, `,"explain":true`, "", 1))
	if _, ok := r.Body["data"].(map[string]any)["trace"]; ok || r.Status != 200 {
		t.Errorf("a trace without explain: %d %s", r.Status, r.Raw)
	}
	// a program's answer explains too, the program first
	r = taxCalc(t, h, `{"country":"IT","program":"it-pensioner-7","income":{"pension":40000},"explain":true}`)
	if r.Status != 200 {
		t.Fatalf("program: %d %s", r.Status, r.Raw)
	}
	if tr := r.Body["data"].(map[string]any)["trace"].([]any); len(tr) == 0 || tr[0].(map[string]any)["rule"] != "it-pensioner-7" {
		t.Errorf("program: the trace does not open with the program: %s", r.Raw)
	}
}

func TestTaxCalculateExplainValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	for _, body := range []string{
		`{"country":"US","income":{"pension":1},"explain":"yes"}`,
		`{"country":"US","income":{"pension":1},"explain":{"year":2026}}`,
	} {
		r := taxCalc(t, h, body)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if path, _ := detailPath(t, r); path != "explain" {
			t.Errorf("%s: error on %q, want explain", body, path)
		}
	}
}
