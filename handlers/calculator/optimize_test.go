package calculator_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/handlers/calculator"
	"fiplan/handlers/internal/testserver"
)

// usOptimize is a US couple retiring now with 401(k)s, a Roth, a taxable
// account and Social Security for both, asking for optimize.
func usOptimize(optimize string) string {
	return `{"currentAge":60,"annualIncome":0,"annualExpenses":70000,"startYear":2026,"targetRetirementAge":60,"lifeExpectancy":90,
	  "partner":{"age":58,"lifeExpectancy":90},
	  "accounts":[{"id":"k1","type":"us-401k","balance":900000},{"id":"k2","type":"us-401k","owner":"partner","balance":400000},
	    {"id":"roth","type":"us-roth-ira","balance":80000},{"id":"brokerage","type":"taxable","balance":250000}],
	  "pensions":[{"kind":"us-social-security","fromAge":67,"amount":36000},{"kind":"us-social-security","owner":"partner","fromAge":67,"amount":24000}],
	  "tax":{"country":"US","year":2026},"output":"summary","optimize":` + optimize + `}`
}

// optimize answers the decisions, the value, the gains, each decision's
// worth and a line on each (the harness validates it against the OpenAPI
// document).
func TestOptimizeAnswer(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, usOptimize(`{"objective":"spending"}`))
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
	o := d["optimized"].(map[string]any)
	gain := o["gain"].(map[string]any)
	if o["feasible"] != true || num(t, o["value"]) <= 70000 || num(t, gain["overPlan"]) <= 0 || num(t, gain["overBaseline"]) < 0 {
		t.Fatalf("optimized %v", o)
	}
	dec := o["decisions"].(map[string]any)
	if len(dec["claiming"].([]any)) != 2 || len(o["worth"].([]any)) != 4 || len(o["notes"].([]any)) < 4 {
		t.Fatalf("decisions %v worth %v notes %v", dec, o["worth"], o["notes"])
	}
	if d["lifetimeTaxPV"] == nil || d["afterTaxEndWealth"] == nil || d["baseline"].(map[string]any)["afterTaxEndWealth"] == nil {
		t.Fatalf("honest measures missing: %v", d)
	}
	// estate at the plan's spending, rows under the decisions
	r = calc(t, h, strings.Replace(usOptimize(`{"objective":"estate","decisions":["conversions","claiming"]}`), `"output":"summary",`, "", 1))
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	o = r.Data()["optimized"].(map[string]any)
	rows := o["projections"].([]any)
	if o["feasible"] != true || len(rows) != 32 || len(o["worth"].([]any)) != 2 || num(t, o["afterTaxEndWealth"]) != num(t, o["value"]) {
		t.Fatalf("estate %v, %d rows", o["worth"], len(rows))
	}
	// a Monte Carlo target spends less than the expected path allows
	expected := num(t, calc(t, h, usOptimize(`{"objective":"spending","decisions":["claiming"]}`)).Data()["optimized"].(map[string]any)["value"])
	r = calc(t, h, strings.Replace(usOptimize(`{"objective":"spending","decisions":["claiming"],"target":{"method":"monteCarlo","successRate":0.9}}`), `"output"`, `"monteCarlo":{"simulations":200},"output"`, 1))
	o = r.Data()["optimized"].(map[string]any)
	if o["feasible"] != true || !(num(t, o["value"]) < expected) || o["method"] != "monteCarlo" {
		t.Fatalf("monteCarlo %v against expected %.0f", o, expected)
	}
}

// A spending that cannot last at any decision is no error; unknown
// decisions and targets outside 0..1 are refused naming the field.
func TestOptimizeRefusals(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	broke := strings.Replace(usOptimize(`{"objective":"estate"}`), `"annualExpenses":70000`, `"annualExpenses":700000`, 1)
	r := calc(t, h, broke)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if o := r.Data()["optimized"].(map[string]any); o["feasible"] != false || o["why"] == "" || o["value"] != nil {
		t.Fatalf("optimized %v", o)
	}
	for body, field := range map[string]string{
		usOptimize(`{"objective":"spending","decisions":["claiming","luck"]}`):                    "optimize.decisions[1]",
		usOptimize(`{"objective":"spending","target":{"method":"monteCarlo","successRate":1.5}}`): "optimize.target.successRate",
		usOptimize(`{"objective":"spending","target":{"method":"historical"}}`):                   "optimize.target.successRate",
		usOptimize(`{"objective":"wealth"}`):                                                      "optimize.objective",
	} {
		r := calc(t, h, body)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.Raw), field) {
			t.Fatalf("%s: the error does not name %s: %s", body, field, r.Raw)
		}
	}
}

// An optimize request is charged by the plans its search may run: the
// most expected-path runs (decide.MaxRuns) and, with a Monte Carlo target,
// every path of its checks, each a household plan of the horizon's years
// at the household's weight, on top of the same request without optimize;
// the rate limit takes what the cost model says.
func TestOptimizeIsChargedByItsRuns(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("1000/1m", "off", "off"))
	s := h.S.Calculator()
	const horizon = 32 // the partner's 58 to 90
	mc := `"monteCarlo":{"simulations":1000,"seed":3},"output"`
	work := func(body string) int {
		t.Helper()
		w, err := s.WorkOf([]byte(body), false)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	plain := work(strings.Replace(usOptimize(`null`), `,"optimize":null`, "", 1))
	expected := work(usOptimize(`{"objective":"spending"}`))
	plainMC := work(strings.Replace(strings.Replace(usOptimize(`null`), `,"optimize":null`, "", 1), `"output"`, mc, 1))
	target := usOptimize(`{"objective":"spending","target":{"method":"monteCarlo","successRate":0.9}}`)
	target = strings.Replace(target, `"output"`, mc, 1)
	withMC := work(target)
	runs := decide.Cost(&decide.Request{Objective: decide.Spending}, horizon, 0)
	mcRuns := decide.Cost(&decide.Request{Objective: decide.Spending, Method: decide.MonteCarlo, MonteCarlo: &fi.MonteCarlo{Simulations: 1000}}, horizon, 0)
	if runs != decide.MaxRuns*horizon || !(mcRuns > runs) {
		t.Fatalf("decide.Cost: %d and %d path-years", runs, mcRuns)
	}
	// the same household weight prices both searches
	perRun := float64(expected-plain) / float64(runs)
	perMC := float64(withMC-plainMC) / float64(mcRuns)
	if !(perRun > 0) || math.Abs(perMC/perRun-1) > 1e-3 {
		t.Fatalf("a search's path-year costs %.4f on the expected path, %.4f with the target", perRun, perMC)
	}
	r := h.Do("POST", "/api/v1/calculator", target)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	if got, want := r.Header["Ratelimit-Remaining"], strconv.Itoa(1000-calculator.Units(withMC)); got != want {
		t.Fatalf("RateLimit-Remaining %q after the search, want %s (%d path-years)", got, want, withMC)
	}
	t.Logf("optimize at a 1,000-path target: %d units (%d path-years); on the expected path %d", calculator.Units(withMC), withMC, calculator.Units(expected))
}

// An early retiree whose money is in an IRA before 59 1/2: the order
// decision answers the 72(t) series it chose, shaped as bridge.sepp, with
// a line on it; the rows under the decisions pay it.
func TestOptimizeChoosesSEPP(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":50,"annualIncome":0,"annualExpenses":60000,"startYear":2026,"targetRetirementAge":50,"lifeExpectancy":90,
	  "partner":{"age":50,"lifeExpectancy":90},
	  "accounts":[{"id":"ira","type":"us-ira","balance":1500000},{"id":"brokerage","type":"taxable","balance":60000}],
	  "tax":{"country":"US","year":2026},"optimize":{"objective":"spending","decisions":["order"]}}`
	r := calc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	o := r.Data()["optimized"].(map[string]any)
	sepp, _ := o["decisions"].(map[string]any)["sepp"].([]any)
	if o["feasible"] != true || len(sepp) != 1 {
		t.Fatalf("optimized %v", o)
	}
	q := sepp[0].(map[string]any)
	if q["account"] != "ira" || num(t, q["fromAge"]) < 50 || num(t, q["fromAge"]) > 59 || q["method"] == "" {
		t.Fatalf("series %v", q)
	}
	if !strings.Contains(o["notes"].([]any)[0].(string), "periodic payments from ira") {
		t.Fatalf("notes %v", o["notes"])
	}
	paid := 0.0
	for _, row := range o["projections"].([]any) {
		if x, ok := row.(map[string]any)["sepp"]; ok {
			paid += num(t, x)
		}
	}
	if !(paid > 0) {
		t.Fatalf("no row pays the series")
	}
}
