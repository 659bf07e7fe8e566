package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"fiplan/compute/fi"
	"fiplan/handlers/calculator"
)

func calc(t *testing.T, h *harness, body string) *resp {
	t.Helper()
	return h.do("POST", "/api/v1/calculator", body)
}

func num(t *testing.T, v any) float64 {
	t.Helper()
	f, ok := v.(float64)
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	return f
}

func TestCalculatorMatchesClosedForm(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	// A 5% real return (8.15% nominal at 3% inflation), a 4% withdrawal
	// rate and a 50% savings rate from nothing: n = ln(1 + 25 r (1-s)/s ...)
	// solved in closed form gives 16.6 years, so FI comes in year 17
	// (Mr. Money Mustache's "shockingly simple math" table: 17 years).
	r := calc(t, h, `{"currentAge":30,"annualIncome":100000,"annualExpenses":50000,"expectedReturn":0.0815,"inflationRate":0.03,"startYear":2026}`)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	d := r.data()
	real := 1.0815/1.03 - 1
	n := math.Log((1_250_000*real+50_000)/(0*real+50_000)) / math.Log(1+real)
	if num(t, d["fiNumber"]) != 1_250_000 || num(t, d["yearsToFI"]) != math.Ceil(n) || num(t, d["fiAge"]) != 30+math.Ceil(n) ||
		num(t, d["fiYear"]) != 2026+math.Ceil(n) || num(t, d["savingsRate"]) != 0.5 {
		t.Fatalf("closed form n=%.2f; got %v", n, d)
	}
	rows := d["projections"].([]any)
	if len(rows) != 95-30 {
		t.Fatalf("%d rows, want 65", len(rows))
	}
	first := rows[0].(map[string]any)
	if first["age"] != 30.0 || first["year"] != 2026.0 || first["startBalance"] != 0.0 {
		t.Fatalf("first row %v", first)
	}
}

func TestCalculatorAlreadyAndNeverFI(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":50,"annualIncome":0,"annualExpenses":40000,"currentSavings":2000000}`)
	if r.status != 200 || r.data()["yearsToFI"] != 0.0 || r.data()["fiAge"] != 50.0 {
		t.Fatalf("already FI: %s", r.raw[:200])
	}
	r = calc(t, h, `{"currentAge":30,"annualIncome":40000,"annualExpenses":40000,"expectedReturn":0.02}`)
	d := r.data()
	if r.status != 200 || d["yearsToFI"] != nil || d["fiAge"] != nil || d["fiYear"] != nil {
		t.Fatalf("never FI: %d %v", r.status, d["yearsToFI"])
	}
	if _, present := d["yearsToFI"]; !present {
		t.Fatal("yearsToFI must be present as null")
	}
}

func TestCalculatorValidation(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":40000`
	cases := []struct {
		body, code, path string
	}{
		{`{"currentAge":17,"annualIncome":1,"annualExpenses":1}`, "VALIDATION_ERROR", "currentAge"},
		{`{"currentAge":101,"annualIncome":1,"annualExpenses":1}`, "VALIDATION_ERROR", "currentAge"},
		{`{"currentAge":30,"annualIncome":1,"annualExpenses":0}`, "VALIDATION_ERROR", "annualExpenses"},
		{`{"currentAge":30,"annualIncome":1,"annualExpenses":-5}`, "VALIDATION_ERROR", "annualExpenses"},
		{`{"currentAge":30,"annualExpenses":1}`, "MISSING_FIELD", "annualIncome"},
		{`{"currentAge":"30","annualIncome":1,"annualExpenses":1}`, "VALIDATION_ERROR", "currentAge"},
		{`{"currentAge":30.5,"annualIncome":1,"annualExpenses":1}`, "VALIDATION_ERROR", "currentAge"},
		{`{"currentAge":30,"annualIncome":1e308,"annualExpenses":1}`, "VALIDATION_ERROR", "annualIncome"},
		{`{` + base + `,"expectedReturn":0.9}`, "VALIDATION_ERROR", "expectedReturn"},
		{`{` + base + `,"withdrawalRate":0}`, "VALIDATION_ERROR", "withdrawalRate"},
		{`{` + base + `,"lifeExpectancy":150}`, "VALIDATION_ERROR", "lifeExpectancy"},
		{`{` + base + `,"lifeExpectancy":30}`, "VALIDATION_ERROR", "lifeExpectancy"},
		{`{` + base + `,"targetRetirementAge":25}`, "VALIDATION_ERROR", "targetRetirementAge"},
		{`{` + base + `,"withdrawalStrategy":"yolo"}`, "VALIDATION_ERROR", "withdrawalStrategy"},
		{`{` + base + `,"retirementSpending":1}`, "VALIDATION_ERROR", "retirementSpending"},
		{`{` + base + `,"pensions":[{"fromAge":67,"amount":-1}]}`, "VALIDATION_ERROR", "pensions[0].amount"},
		{`{` + base + `,"events":[{"age":40}]}`, "MISSING_FIELD", "events[0].amount"},
		{`{` + base + `,"scenarios":[{"name":"a"},{"name":"b","expectedReturn":2}]}`, "VALIDATION_ERROR", "scenarios[1].expectedReturn"},
		{`{` + base + `,"scenarios":[{"name":"a","currentAge":90,"lifeExpectancy":80}]}`, "VALIDATION_ERROR", "scenarios[0].lifeExpectancy"},
		{`{` + base + `,"scenarios":[{}]}`, "MISSING_FIELD", "scenarios[0].name"},
		{`{` + base + `,"scenarios":[` + strings.Repeat(`{"name":"x"},`, 10) + `{"name":"x"}]}`, "VALIDATION_ERROR", "scenarios"},
		{`{` + base + `,"monteCarlo":{"simulations":20000}}`, "VALIDATION_ERROR", "monteCarlo.simulations"},
		{`{` + base + `,"monteCarlo":{"simulations":0}}`, "VALIDATION_ERROR", "monteCarlo.simulations"},
		{`{` + base + `,"historical":{"years":2}}`, "VALIDATION_ERROR", "historical.years"},
		{`{` + base + `,"goals":{"targetSuccessRate":1.5}}`, "VALIDATION_ERROR", "goals.targetSuccessRate"},
		{`{` + base + `} trailing`, "INVALID_JSON", ""},
		{``, "INVALID_JSON", ""},
	}
	for _, c := range cases {
		t.Run(c.path+" "+c.code, func(t *testing.T) {
			r := calc(t, h, c.body)
			expectError(t, r, 400, c.code)
			if c.path == "" {
				return
			}
			found := false
			for _, d := range r.body["details"].([]any) {
				found = found || d.(map[string]any)["path"] == c.path
			}
			if !found {
				t.Fatalf("no detail for %s: %s", c.path, r.raw)
			}
			if c.code == "MISSING_FIELD" && !strings.Contains(r.body["error"].(string), c.path) {
				t.Fatalf("error does not name %s: %s", c.path, r.raw)
			}
		})
	}
}

func TestCalculatorScenariosInOrder(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":30,"annualIncome":90000,"annualExpenses":45000,
		"scenarios":[{"name":"frugal","annualExpenses":30000},{"name":"lavish","annualExpenses":60000},{"name":"same"}]}`)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	d := r.data()
	sc := d["scenarios"].([]any)
	if len(sc) != 3 {
		t.Fatalf("%d scenarios", len(sc))
	}
	frugal, lavish, same := sc[0].(map[string]any), sc[1].(map[string]any), sc[2].(map[string]any)
	if frugal["name"] != "frugal" || lavish["name"] != "lavish" || same["name"] != "same" {
		t.Fatal("scenario order")
	}
	if num(t, frugal["fiNumber"]) != 750_000 || num(t, lavish["fiNumber"]) != 1_500_000 {
		t.Fatalf("fiNumbers %v %v", frugal["fiNumber"], lavish["fiNumber"])
	}
	if !(num(t, frugal["yearsToFI"]) < num(t, d["yearsToFI"])) || lavish["yearsToFI"] != nil && !(num(t, lavish["yearsToFI"]) > num(t, d["yearsToFI"])) {
		t.Fatal("spending less must reach FI sooner, spending more later")
	}
	a, _ := json.Marshal(same["projections"])
	b, _ := json.Marshal(d["projections"])
	if !bytes.Equal(a, b) || same["yearsToFI"] != d["yearsToFI"] {
		t.Fatal("a scenario with no overrides differs from the base")
	}
}

func TestCalculatorMonteCarloAndHistory(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	body := func(seed int) string {
		return fmt.Sprintf(`{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"lifeExpectancy":90,
			"stockShare":0.6,"monteCarlo":{"simulations":500,"seed":%d},"historical":{"years":30},"goals":{"targetSuccessRate":0.95}}`, seed)
	}
	r1, r2, r3 := calc(t, h, body(7)), calc(t, h, body(7)), calc(t, h, body(8))
	if r1.status != 200 {
		t.Fatalf("%d %s", r1.status, r1.raw)
	}
	if !bytes.Equal(r1.raw, r2.raw) {
		t.Fatal("the same seed gave different answers")
	}
	if bytes.Equal(r1.raw, r3.raw) {
		t.Fatal("different seeds gave the same answer")
	}
	mc := r1.data()["monteCarlo"].(map[string]any)
	if sr := num(t, mc["successRate"]); sr <= 0 || sr > 1 || mc["simulations"] != 500.0 || len(mc["balances"].([]any)) != 30 {
		t.Fatalf("monteCarlo %v", mc["successRate"])
	}
	// 4% of the starting portfolio, inflation-adjusted, 60/40, 30 years:
	// the Trinity study's roughly 95% of historical periods.
	hist := r1.data()["historical"].(map[string]any)
	if sr := num(t, hist["successRate"]); sr < 0.85 || sr > 1 || num(t, hist["periods"]) < 60 {
		t.Fatalf("historical %v", hist)
	}
	g := r1.data()["goals"].(map[string]any)
	if w := num(t, g["maxWithdrawalRate"]); w < 0.03 || w > 0.05 {
		t.Fatalf("max withdrawal rate %v", w)
	}
}

func TestCalculatorResponseMatchesSchema(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	doc := loadOpenAPI(t, h)
	s := doc.schema(t, "paths", "/api/v1/calculator", "post", "responses", "200", "content", "application/json", "schema")
	for _, body := range []string{
		`{"currentAge":30,"annualIncome":100000,"annualExpenses":40000,"scenarios":[{"name":"x","withdrawalStrategy":"vpw"}]}`,
		`{"currentAge":30,"annualIncome":40000,"annualExpenses":40000,"expectedReturn":0}`,
		`{"currentAge":45,"annualIncome":120000,"annualExpenses":50000,"currentSavings":300000,"withdrawalStrategy":"guyton-klinger",
		  "pensions":[{"fromAge":67,"amount":15000}],"events":[{"age":50,"amount":-80000,"label":"house"}],
		  "monteCarlo":{"simulations":200},"historical":{},"goals":{"fiByAge":55,"targetSuccessRate":0.9}}`,
		`{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"cashShare":0.1,"historical":{"dataset":"shiller-monthly","years":40,"sequences":true},"goals":{"targetSuccessRate":0.95}}`,
		`{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"historical":{"sequences":true}}`,
	} {
		r := calc(t, h, body)
		var v any
		json.Unmarshal(r.raw, &v)
		if err := s.Validate(v); err != nil || r.status != 200 {
			t.Fatalf("%d, schema: %v\n%s", r.status, err, r.raw[:min(len(r.raw), 400)])
		}
	}
}

func FuzzCalculator(f *testing.F) {
	f.Add([]byte(`{"currentAge":30,"annualIncome":100000,"annualExpenses":40000}`))
	f.Add([]byte(`{"currentAge":18,"annualIncome":0,"annualExpenses":1e-300,"expectedReturn":-0.5,"inflationRate":0.5,"lifeExpectancy":120}`))
	f.Add([]byte(`{"currentAge":100,"annualIncome":1e9,"annualExpenses":1e9,"withdrawalRate":0.2,"currentSavings":1e11,"withdrawalStrategy":"vpw","stockShare":0}`))
	f.Add([]byte(`{"currentAge":40,"annualIncome":5e4,"annualExpenses":6e4,"events":[{"age":41,"amount":-1e10}],"pensions":[{"fromAge":18,"amount":1e8,"inflationLinked":false}],"withdrawalStrategy":"guyton-klinger"}`))
	f.Add([]byte(`{"currentAge":30,"annualIncome":1,"annualExpenses":1,"monteCarlo":{"simulations":10,"returnStdDev":0.6,"inflationStdDev":0.2},"historical":{"years":60},"goals":{"fiByAge":120,"targetSuccessRate":1}}`))
	f.Add([]byte(`{"currentAge":60,"annualIncome":0,"annualExpenses":4e4,"currentSavings":1e6,"withdrawalStrategy":"cape","cape":35,"cashShare":0.2,"historical":{"dataset":"shiller-monthly","years":45,"sequences":true},"goals":{"targetSuccessRate":0.9,"fiByAge":61}}`))
	serve := fuzzRoute(f, "/api/v1/calculator")
	f.Fuzz(func(t *testing.T, body []byte) { serve(t, body) })
}

// goalRoundTrip posts body, reads goals[answer] and posts body again with
// that answer as input under the key field, returning both responses' data.
func goalRoundTrip(t *testing.T, h *harness, body, answer, field string) (first, second map[string]any) {
	t.Helper()
	r := calc(t, h, body)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	first = r.data()
	v := num(t, first["goals"].(map[string]any)[answer])
	again := strings.TrimSuffix(strings.TrimSpace(body), "}") + `,"` + field + `":` + strconv.FormatFloat(v, 'f', -1, 64) + "}"
	r = calc(t, h, again)
	if r.status != 200 {
		t.Fatalf("%s sent back as %s: %d %s", answer, field, r.status, r.raw)
	}
	return first, r.data()
}

// The required saving is rounded up to the cent: sent back as
// annualContribution it reaches FI by the age asked, never a year late.
func TestCalculatorRequiredSavingMeetsItsGoal(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	for _, c := range []struct {
		body string
		age  float64
	}{
		{`{"currentAge":25,"annualIncome":50000,"annualExpenses":30000,"goals":{"fiByAge":35}}`, 35},
		{`{"currentAge":50,"annualIncome":0,"annualExpenses":40000,"currentSavings":100000,"goals":{"fiByAge":51}}`, 51},
	} {
		first, second := goalRoundTrip(t, h, c.body, "requiredAnnualSaving", "annualContribution")
		if second["fiAge"] == nil || num(t, second["fiAge"]) > c.age {
			t.Fatalf("%s: saving %v gives fiAge %v", c.body, first["goals"].(map[string]any)["requiredAnnualSaving"], second["fiAge"])
		}
	}
}

// A saving beyond the largest annualContribution could not be sent back:
// the answer is null, and the bound used is the declared one.
func TestCalculatorRequiredSavingBeyondTheInputBound(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":60,"annualIncome":0,"annualExpenses":1e8,"withdrawalRate":0.01,"goals":{"fiByAge":61}}`)
	if r.status != 200 || r.data()["goals"].(map[string]any)["requiredAnnualSaving"] != nil {
		t.Fatalf("10e9 in a year: %d %s", r.status, r.raw)
	}
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":40000`
	if r := calc(t, h, `{`+base+`,"annualContribution":`+strconv.FormatFloat(calculator.MaxContribution, 'f', -1, 64)+`}`); r.status != 200 {
		t.Fatalf("maxContribution rejected: %s", r.raw)
	}
	expectError(t, calc(t, h, `{`+base+`,"annualContribution":`+strconv.FormatFloat(calculator.MaxContribution*1.0000001, 'f', -1, 64)+`}`), 400, "VALIDATION_ERROR")
}

// The highest safe withdrawal rate is rounded down: sent back as
// withdrawalRate, its historical success rate meets the target.
func TestCalculatorMaxWithdrawalRateMeetsItsTarget(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	for _, c := range []struct {
		body   string
		target float64
	}{
		{`{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"historical":{"years":30},"goals":{"targetSuccessRate":0.9}}`, 0.9},
		{`{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"stockShare":1,"historical":{"years":40},"goals":{"targetSuccessRate":0.75}}`, 0.75},
	} {
		first, second := goalRoundTrip(t, h, c.body, "maxWithdrawalRate", "withdrawalRate")
		if sr := num(t, second["historical"].(map[string]any)["successRate"]); sr < c.target {
			t.Fatalf("%s: rate %v succeeds in %v of windows", c.body, first["goals"].(map[string]any)["maxWithdrawalRate"], sr)
		}
	}
}

// Over short windows the safe rate can pass the largest accepted
// withdrawalRate: the answer stops at that bound and says so.
func TestCalculatorMaxWithdrawalRateWithinTheInputBound(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	body := `{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"historical":{"years":5},"goals":{"targetSuccessRate":0.5}}`
	first, second := goalRoundTrip(t, h, body, "maxWithdrawalRate", "withdrawalRate")
	g := first["goals"].(map[string]any)
	if num(t, g["maxWithdrawalRate"]) != calculator.MaxWithdrawalRate || g["maxWithdrawalRateCapped"] != true {
		t.Fatalf("want the bound %v, capped: %v", calculator.MaxWithdrawalRate, g)
	}
	if sr := num(t, second["historical"].(map[string]any)["successRate"]); sr < 0.5 {
		t.Fatalf("the bound itself succeeds in %v of windows", sr)
	}
	r := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"goals":{"targetSuccessRate":0.9}}`)
	if g := r.data()["goals"].(map[string]any); g["maxWithdrawalRateCapped"] != false {
		t.Fatalf("30 years at 90%%: %v", g)
	}
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":40000`
	if r := calc(t, h, `{`+base+`,"withdrawalRate":`+strconv.FormatFloat(calculator.MaxWithdrawalRate, 'f', -1, 64)+`}`); r.status != 200 {
		t.Fatalf("maxWithdrawalRate rejected: %s", r.raw)
	}
	expectError(t, calc(t, h, `{`+base+`,"withdrawalRate":`+strconv.FormatFloat(calculator.MaxWithdrawalRate+fi.RateStep, 'f', -1, 64)+`}`), 400, "VALIDATION_ERROR")
}

// A withdrawal rate below the smallest the engine works with is refused,
// never raised to it: the FI number is always retirementExpenses / rate.
func TestCalculatorWithdrawalRateNeverChangedSilently(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":50000`
	for _, body := range []string{
		`{` + base + `,"withdrawalRate":0.00001}`,
		`{` + base + `,"scenarios":[{"name":"x","withdrawalRate":0.00001}]}`,
	} {
		r := calc(t, h, body)
		expectError(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.raw), `withdrawalRate"`) {
			t.Fatalf("the error does not name withdrawalRate: %s", r.raw)
		}
	}
	r := calc(t, h, `{`+base+`,"withdrawalRate":`+strconv.FormatFloat(fi.MinWithdrawalRate, 'f', -1, 64)+`}`)
	if r.status != 200 || num(t, r.data()["fiNumber"]) != 50000/fi.MinWithdrawalRate {
		t.Fatalf("the smallest accepted rate: %d %s", r.status, r.raw[:min(len(r.raw), 300)])
	}
}

// Monte Carlo has one default spread, the engine's: leaving the standard
// deviations out is the same as sending fi.DefaultMonteCarlo's.
func TestCalculatorMonteCarloDefaultsAreTheEngines(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	d := fi.DefaultMonteCarlo()
	base := `"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"lifeExpectancy":90`
	left := calc(t, h, `{`+base+`,"monteCarlo":{"simulations":300}}`)
	given := calc(t, h, fmt.Sprintf(`{`+base+`,"monteCarlo":{"simulations":300,"seed":%d,"returnStdDev":%v,"inflationStdDev":%v}}`,
		d.Seed, d.ReturnStdDev, d.InflationStdDev))
	if left.status != 200 || !bytes.Equal(left.raw, given.raw) {
		t.Fatalf("defaults differ from fi.DefaultMonteCarlo %+v:\n%s\n%s", d, left.raw[:min(len(left.raw), 300)], given.raw[:min(len(given.raw), 300)])
	}
}

// Through the HTTP layer, with its rounding: every goal answer, sent back
// as input, meets its goal.
func TestCalculatorGoalsRoundTripProperty(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	r := rand.New(rand.NewPCG(5, 8))
	for i := 0; i < 80; i++ {
		age := 18 + r.IntN(70)
		body := fmt.Sprintf(`{"currentAge":%d,"annualIncome":%.2f,"annualExpenses":%.2f,"currentSavings":%.2f,"expectedReturn":%.3f,"inflationRate":%.3f,"stockShare":%.2f`,
			age, r.Float64()*200_000, 1_000+r.Float64()*120_000, r.Float64()*2_000_000, r.Float64()*0.1, r.Float64()*0.05, r.Float64())
		if i%2 == 0 {
			by := age + 1 + r.IntN(120-age)
			_, second := goalRoundTrip(t, h, body+fmt.Sprintf(`,"goals":{"fiByAge":%d}}`, by), "requiredAnnualSaving", "annualContribution")
			if second["fiAge"] == nil || num(t, second["fiAge"]) > float64(by) {
				t.Fatalf("%s by %d: fiAge %v", body, by, second["fiAge"])
			}
			continue
		}
		target := 0.5 + r.Float64()*0.5
		years := 10 + r.IntN(51)
		_, second := goalRoundTrip(t, h, body+fmt.Sprintf(`,"historical":{"years":%d},"goals":{"targetSuccessRate":%.3f}}`, years, target), "maxWithdrawalRate", "withdrawalRate")
		if sr := num(t, second["historical"].(map[string]any)["successRate"]); sr < math.Round(target*1000)/1000 {
			t.Fatalf("%s: success %v under target %.3f", body, sr, target)
		}
	}
}

// historical.dataset picks Shiller's monthly series: every start month is a
// window, the worst one names its month, and the goal uses the same data.
func TestCalculatorMonthlyDataset(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	body := `{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"stockShare":0.75,
		"historical":{"dataset":"shiller-monthly"},"goals":{"targetSuccessRate":0.95}}`
	first, second := goalRoundTrip(t, h, body, "maxWithdrawalRate", "withdrawalRate")
	hist := first["historical"].(map[string]any)
	if hist["dataset"] != "shiller-monthly" || num(t, hist["periods"]) != 1830-360 || num(t, hist["dataFrom"]) != 1871 ||
		num(t, hist["dataTo"]) != 2023 || hist["worstStartMonth"] == nil {
		t.Fatalf("monthly backtest: %v", hist)
	}
	if sr := num(t, second["historical"].(map[string]any)["successRate"]); sr < 0.95 {
		t.Fatalf("the monthly goal's rate succeeds in %v of windows", sr)
	}
	annual := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"historical":{}}`).data()["historical"].(map[string]any)
	if annual["dataset"] != "annual" || annual["worstStartMonth"] != nil || num(t, annual["periods"]) != 68 {
		t.Fatalf("annual by default: %v", annual)
	}
	// Cash keeps its real value: an all-cash portfolio at 4% lasts exactly
	// 25 years in every window, so 30-year windows all fail.
	all := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"stockShare":0,"cashShare":1,"historical":{"dataset":"shiller-monthly"}}`)
	if hs := all.data()["historical"].(map[string]any); num(t, hs["successRate"]) != 0 || num(t, hs["worstYearsLasted"]) != 25 {
		t.Fatalf("all cash: %v", hs)
	}
}

func TestCalculatorDatasetAndMixErrors(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":40000`
	for _, c := range []struct{ body, path string }{
		{`{` + base + `,"historical":{"dataset":"uk"}}`, "historical.dataset"},
		{`{` + base + `,"historical":{"dataset":1}}`, "historical.dataset"},
		{`{` + base + `,"cashShare":1.5}`, "cashShare"},
		{`{` + base + `,"cashShare":-0.1}`, "cashShare"},
		{`{` + base + `,"cashShare":0.5}`, "cashShare"}, // with the default 0.6 of stocks
		{`{` + base + `,"stockShare":0.2,"scenarios":[{"name":"x","cashShare":0.9}]}`, "scenarios[0].cashShare"},
	} {
		r := calc(t, h, c.body)
		expectError(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.raw), `"path":"`+c.path+`"`) {
			t.Fatalf("%s: no detail for %s: %s", c.body, c.path, r.raw)
		}
	}
	if r := calc(t, h, `{`+base+`,"stockShare":0.7,"cashShare":0.3}`); r.status != 200 {
		t.Fatalf("a mix of exactly 100%%: %s", r.raw)
	}
}

// Every engine strategy is accepted by name, and the CAPE rule needs a CAPE.
func TestCalculatorStrategies(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	base := `"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"cape":25,"historical":{"dataset":"shiller-monthly"}`
	for _, name := range fi.StrategyNames() {
		r := calc(t, h, `{`+base+`,"withdrawalStrategy":"`+name+`"}`)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", name, r.status, r.raw)
		}
		if sr := num(t, r.data()["historical"].(map[string]any)["successRate"]); sr <= 0 || sr > 1 {
			t.Fatalf("%s: success %v", name, sr)
		}
	}
	noCape := `"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000`
	for _, c := range []struct{ body, path string }{
		{`{` + noCape + `,"withdrawalStrategy":"cape"}`, "cape"},
		{`{` + noCape + `,"scenarios":[{"name":"x","withdrawalStrategy":"cape"}]}`, "scenarios[0].cape"},
		{`{` + noCape + `,"withdrawalStrategy":"cape","cape":0.5}`, "cape"},
		{`{` + noCape + `,"withdrawalStrategy":"cape","cape":101}`, "cape"},
	} {
		r := calc(t, h, c.body)
		expectError(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.raw), `"path":"`+c.path+`"`) {
			t.Fatalf("%s: no detail for %s: %s", c.body, c.path, r.raw)
		}
	}
}

// historical.sequences adds the worst, median and best windows with their
// paths and the success rate by start decade.
func TestCalculatorSequences(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":45000,"currentSavings":1000000,"stockShare":0.75,
		"historical":{"dataset":"shiller-monthly","sequences":true}}`)
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.raw)
	}
	hist := r.data()["historical"].(map[string]any)
	sq := hist["sequences"].(map[string]any)
	worst, median, best := sq["worst"].(map[string]any), sq["median"].(map[string]any), sq["best"].(map[string]any)
	if num(t, worst["startYear"]) != num(t, hist["worstStartYear"]) || num(t, worst["startMonth"]) != num(t, hist["worstStartMonth"]) {
		t.Fatalf("worst %v vs %v/%v", worst["startYear"], hist["worstStartYear"], hist["worstStartMonth"])
	}
	if !(num(t, worst["endBalanceReal"]) <= num(t, median["endBalanceReal"]) && num(t, median["endBalanceReal"]) <= num(t, best["endBalanceReal"])) {
		t.Fatal("worst, median and best out of order")
	}
	path := best["path"].([]any)
	if len(path) != 30 || num(t, path[0].(map[string]any)["withdrawalReal"]) != 40000 { // withdrawalRate x currentSavings
		t.Fatalf("best path: %d years, first %v", len(path), path[0])
	}
	decades := sq["byDecade"].([]any)
	first, last := decades[0].(map[string]any), decades[len(decades)-1].(map[string]any)
	periods := 0.0
	for _, d := range decades {
		periods += num(t, d.(map[string]any)["periods"])
	}
	if num(t, first["decade"]) != 1870 || num(t, last["decade"]) != 1990 || periods != num(t, hist["periods"]) {
		t.Fatalf("decades %v .. %v, %v periods of %v", first, last, periods, hist["periods"])
	}
	if r := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":45000,"historical":{}}`); r.data()["historical"].(map[string]any)["sequences"] != nil {
		t.Fatal("sequences only when asked")
	}
	expectError(t, calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":45000,"historical":{"sequences":"yes"}}`), 400, "VALIDATION_ERROR")
}
