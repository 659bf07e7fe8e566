package health_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fiplan/handlers/internal/testserver"
)

const diversified = `{"holdings":[
	{"name":"World equity index","value":300000,"assetClass":"equity","expenseRatio":0.0012,"region":"global","isin":"IE00B4L5Y983"},
	{"name":"Global bond index","value":120000,"assetClass":"bond","expenseRatio":0.001},
	{"name":"Property fund","value":30000,"assetClass":"real_estate","expenseRatio":0.0015},
	{"name":"Savings","value":30000,"assetClass":"cash"}],
	"age":40,"annualExpenses":40000,"riskTolerance":"medium","targetRetirementAge":55}`

const speculative = `{"holdings":[{"name":"Meme coin","value":480000,"assetClass":"crypto","expenseRatio":0.025}],
	"age":40,"annualExpenses":40000,"riskTolerance":"medium","targetRetirementAge":55}`

func TestPortfolioHealthScores(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	doc := testserver.LoadOpenAPI(t, h)
	sch := doc.Schema(t, "paths", "/api/v1/portfolio-health", "post", "responses", "200", "content", "application/json", "schema")
	score := func(body string) map[string]any {
		t.Helper()
		r := h.Do("POST", "/api/v1/portfolio-health", body)
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		var v any
		if err := json.Unmarshal(r.Raw, &v); err != nil {
			t.Fatalf("%v\n%s", err, r.Raw)
		}
		if err := sch.Validate(v); err != nil {
			t.Fatalf("response breaks its schema: %v", err)
		}
		d := r.Data()
		sum := 0.0
		comps := d["components"].([]any)
		if len(comps) != 4 {
			t.Fatalf("%d components", len(comps))
		}
		for _, c := range comps {
			m := c.(map[string]any)
			sum += m["score"].(float64)
			if m["max"] != 250.0 {
				t.Fatalf("component max %v", m["max"])
			}
		}
		if sum != d["score"].(float64) {
			t.Fatalf("components sum to %v, score %v", sum, d["score"])
		}
		return d
	}
	good, bad := score(diversified), score(speculative)
	if g, b := good["score"].(float64), bad["score"].(float64); g-b < 300 {
		t.Fatalf("diversified %v vs speculative %v", g, b)
	}
	recs := bad["recommendations"].([]any)
	if len(recs) == 0 {
		t.Fatal("no recommendations below 1000")
	}
	for i, r := range recs {
		m := r.(map[string]any)
		if m["priority"] != float64(i+1) || m["title"] == "" || !strings.ContainsAny(m["detail"].(string), "0123456789") {
			t.Fatalf("recommendation %d: %v", i, m)
		}
	}
	if !strings.Contains(fmt.Sprint(recs), "Meme coin") {
		t.Fatal("recommendations do not name the holding")
	}
	// Leaving out the context says what is missing.
	bare := score(`{"holdings":[{"name":"x","value":1000,"assetClass":"equity"}]}`)
	if !strings.Contains(fmt.Sprint(bare["missing"]), "annualExpenses") {
		t.Fatalf("missing: %v", bare["missing"])
	}
}

func TestPortfolioHealthValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	one := func(fields string) string {
		return `{"holdings":[{"name":"a","value":1,"assetClass":"equity"` + fields + `}]}`
	}
	cases := []struct{ body, code, path string }{
		{`{}`, "MISSING_FIELD", "holdings"},
		{`{"holdings":[]}`, "VALIDATION_ERROR", "holdings"},
		{`{"holdings":[` + strings.Repeat(`{"name":"a","value":1,"assetClass":"cash"},`, 200) + `{"name":"a","value":1,"assetClass":"cash"}]}`, "VALIDATION_ERROR", "holdings"},
		{`{"holdings":[{"name":"a","value":-1,"assetClass":"equity"}]}`, "VALIDATION_ERROR", "holdings[0].value"},
		{`{"holdings":[{"name":"a","value":"1","assetClass":"equity"}]}`, "VALIDATION_ERROR", "holdings[0].value"},
		{`{"holdings":[{"name":"a","value":1,"assetClass":"stocks"}]}`, "VALIDATION_ERROR", "holdings[0].assetClass"},
		{`{"holdings":[{"value":1,"assetClass":"equity"}]}`, "MISSING_FIELD", "holdings[0].name"},
		{one(`,"isin":"US0378331006"`), "VALIDATION_ERROR", "holdings[0].isin"},
		{one(`,"isin":"us0378331005"`), "VALIDATION_ERROR", "holdings[0].isin"},
		{one(`,"isin":"US037833100"`), "VALIDATION_ERROR", "holdings[0].isin"},
		{one(`,"expenseRatio":0.5`), "VALIDATION_ERROR", "holdings[0].expenseRatio"},
		{one(`,"region":"mars"`), "VALIDATION_ERROR", "holdings[0].region"},
		{one(`,"currency":"usd"`), "VALIDATION_ERROR", "holdings[0].currency"},
		{one(`,"ticker":"AAPL"`), "VALIDATION_ERROR", "holdings[0].ticker"},
		{`{"holdings":[{"name":"a","value":1,"assetClass":"cash"}],"riskTolerance":"yolo"}`, "VALIDATION_ERROR", "riskTolerance"},
		{`{"holdings":[{"name":"a","value":1,"assetClass":"cash"}],"age":200}`, "VALIDATION_ERROR", "age"},
		{`{"holdings":[{"name":"a","value":1,"assetClass":"cash"}],"annualExpenses":0}`, "VALIDATION_ERROR", "annualExpenses"},
	}
	for _, c := range cases {
		r := h.Do("POST", "/api/v1/portfolio-health", c.body)
		testserver.ExpectError(t, r, 400, c.code)
		found := false
		for _, d := range r.Body["details"].([]any) {
			found = found || d.(map[string]any)["path"] == c.path
		}
		if !found {
			t.Errorf("%s: no detail at %s: %s", c.body[:min(60, len(c.body))], c.path, r.Raw)
		}
	}
	if r := h.Do("POST", "/api/v1/portfolio-health", one(`,"isin":"US0378331005"`)); r.Status != 200 {
		t.Fatalf("valid ISIN refused: %s", r.Raw)
	}
}

func FuzzPortfolioHealth(f *testing.F) {
	f.Add([]byte(diversified))
	f.Add([]byte(speculative))
	f.Add([]byte(`{"holdings":[{"name":"z","value":0,"assetClass":"other"}],"annualExpenses":1e-9,"emergencyFund":1e15,"age":0,"targetRetirementAge":120}`))
	f.Add([]byte(`{"holdings":[{"name":"a","value":1e15,"assetClass":"commodity","expenseRatio":0},{"name":"b","value":0.001,"assetClass":"bond","expenseRatio":0.1}]}`))
	serve := testserver.FuzzRoute(f, "/api/v1/portfolio-health")
	f.Fuzz(func(t *testing.T, body []byte) {
		d := serve(t, body)
		if d == nil {
			return
		}
		if sc := d["score"].(float64); sc < 0 || sc > 1000 || (sc < 1000) != (len(d["recommendations"].([]any)) > 0) {
			t.Fatalf("score %v with %d recommendations", sc, len(d["recommendations"].([]any)))
		}
	})
}
