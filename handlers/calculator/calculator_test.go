package calculator_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/compute/fi"
	"fiplan/compute/geo"
	"fiplan/compute/tax"
	geodata "fiplan/data/geo"
	"fiplan/handlers"
	"fiplan/handlers/calculator"
	"fiplan/handlers/errcode"
	"fiplan/handlers/internal/testserver"
)

func calc(t *testing.T, h *testserver.Harness, body string) *testserver.Resp {
	t.Helper()
	return h.Do("POST", "/api/v1/calculator", body)
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
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	// A 5% real return (8.15% nominal at 3% inflation), a 4% withdrawal
	// rate and a 50% savings rate from nothing: n = ln(1 + 25 r (1-s)/s ...)
	// solved in closed form gives 16.6 years, so FI comes in year 17
	// (Mr. Money Mustache's "shockingly simple math" table: 17 years).
	r := calc(t, h, `{"currentAge":30,"annualIncome":100000,"annualExpenses":50000,"expectedReturn":0.0815,"inflationRate":0.03,"startYear":2026}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
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
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":50,"annualIncome":0,"annualExpenses":40000,"currentSavings":2000000}`)
	if r.Status != 200 || r.Data()["yearsToFI"] != 0.0 || r.Data()["fiAge"] != 50.0 {
		t.Fatalf("already FI: %s", r.Raw[:200])
	}
	r = calc(t, h, `{"currentAge":30,"annualIncome":40000,"annualExpenses":40000,"expectedReturn":0.02}`)
	d := r.Data()
	if r.Status != 200 || d["yearsToFI"] != nil || d["fiAge"] != nil || d["fiYear"] != nil {
		t.Fatalf("never FI: %d %v", r.Status, d["yearsToFI"])
	}
	if _, present := d["yearsToFI"]; !present {
		t.Fatal("yearsToFI must be present as null")
	}
}

func TestCalculatorValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
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
			testserver.ExpectError(t, r, 400, c.code)
			if c.path == "" {
				return
			}
			found := false
			for _, d := range r.Body["details"].([]any) {
				found = found || d.(map[string]any)["path"] == c.path
			}
			if !found {
				t.Fatalf("no detail for %s: %s", c.path, r.Raw)
			}
			if c.code == "MISSING_FIELD" && !strings.Contains(r.Body["error"].(string), c.path) {
				t.Fatalf("error does not name %s: %s", c.path, r.Raw)
			}
		})
	}
}

func TestCalculatorScenariosInOrder(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":30,"annualIncome":90000,"annualExpenses":45000,
		"scenarios":[{"name":"frugal","annualExpenses":30000},{"name":"lavish","annualExpenses":60000},{"name":"same"}]}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
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
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := func(seed int) string {
		return fmt.Sprintf(`{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"lifeExpectancy":90,
			"stockShare":0.6,"monteCarlo":{"simulations":500,"seed":%d},"historical":{"years":30},"goals":{"targetSuccessRate":0.95}}`, seed)
	}
	r1, r2, r3 := calc(t, h, body(7)), calc(t, h, body(7)), calc(t, h, body(8))
	if r1.Status != 200 {
		t.Fatalf("%d %s", r1.Status, r1.Raw)
	}
	if !bytes.Equal(r1.Raw, r2.Raw) {
		t.Fatal("the same seed gave different answers")
	}
	if bytes.Equal(r1.Raw, r3.Raw) {
		t.Fatal("different seeds gave the same answer")
	}
	mc := r1.Data()["monteCarlo"].(map[string]any)
	if sr := num(t, mc["successRate"]); sr <= 0 || sr > 1 || mc["simulations"] != 500.0 || len(mc["balances"].([]any)) != 30 {
		t.Fatalf("monteCarlo %v", mc["successRate"])
	}
	// 4% of the starting portfolio, inflation-adjusted, 60/40, 30 years:
	// the Trinity study's roughly 95% of historical periods.
	hist := r1.Data()["historical"].(map[string]any)
	if sr := num(t, hist["successRate"]); sr < 0.85 || sr > 1 || num(t, hist["periods"]) < 60 {
		t.Fatalf("historical %v", hist)
	}
	g := r1.Data()["goals"].(map[string]any)
	if w := num(t, g["maxWithdrawalRate"]); w < 0.03 || w > 0.05 {
		t.Fatalf("max withdrawal rate %v", w)
	}
}

func TestCalculatorResponseMatchesSchema(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	for _, body := range []string{
		`{"currentAge":30,"annualIncome":100000,"annualExpenses":40000,"scenarios":[{"name":"x","withdrawalStrategy":"vpw"}]}`,
		`{"currentAge":30,"annualIncome":40000,"annualExpenses":40000,"expectedReturn":0}`,
		`{"currentAge":45,"annualIncome":120000,"annualExpenses":50000,"currentSavings":300000,"withdrawalStrategy":"guyton-klinger",
		  "pensions":[{"fromAge":67,"amount":15000}],"events":[{"age":50,"amount":-80000,"label":"house"}],
		  "monteCarlo":{"simulations":200},"historical":{},"goals":{"fiByAge":55,"targetSuccessRate":0.9}}`,
		`{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"cashShare":0.1,"historical":{"dataset":"shiller-monthly","years":40,"sequences":true},"goals":{"targetSuccessRate":0.95}}`,
		`{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"historical":{"sequences":true}}`,
	} {
		// the harness checks every answer against the OpenAPI document
		if r := calc(t, h, body); r.Status != 200 {
			t.Fatalf("%d\n%s", r.Status, r.Raw[:min(len(r.Raw), 400)])
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
	f.Add([]byte(`{"currentAge":40,"annualIncome":1e9,"annualExpenses":1,"tax":{"country":"US","region":"CA","withdrawalIncome":"dividends"},"cityId":"lisbon-pt","householdSize":8,"output":"yearly","every":50,"scenarios":[{"name":"x","cityId":"chiang-mai-th","annualIncome":0}]}`))
	f.Add([]byte(`{"currentAge":99,"annualIncome":0,"annualExpenses":1e9,"currency":"JPY","tax":{"country":"CH"},"output":"summary","withdrawalStrategy":"guyton-klinger"}`))
	serve := testserver.FuzzRoute(f, "/api/v1/calculator")
	f.Fuzz(func(t *testing.T, body []byte) { serve(t, body) })
}

// goalRoundTrip posts body, reads goals[answer] and posts body again with
// that answer as input under the key field, returning both responses' data.
func goalRoundTrip(t *testing.T, h *testserver.Harness, body, answer, field string) (first, second map[string]any) {
	t.Helper()
	r := calc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	first = r.Data()
	v := num(t, first["goals"].(map[string]any)[answer])
	again := strings.TrimSuffix(strings.TrimSpace(body), "}") + `,"` + field + `":` + strconv.FormatFloat(v, 'f', -1, 64) + "}"
	r = calc(t, h, again)
	if r.Status != 200 {
		t.Fatalf("%s sent back as %s: %d %s", answer, field, r.Status, r.Raw)
	}
	return first, r.Data()
}

// The required saving is rounded up to the cent: sent back as
// annualContribution it reaches FI by the age asked, never a year late.
func TestCalculatorRequiredSavingMeetsItsGoal(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
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
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":60,"annualIncome":0,"annualExpenses":1e8,"withdrawalRate":0.01,"goals":{"fiByAge":61}}`)
	if r.Status != 200 || r.Data()["goals"].(map[string]any)["requiredAnnualSaving"] != nil {
		t.Fatalf("10e9 in a year: %d %s", r.Status, r.Raw)
	}
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":40000`
	if r := calc(t, h, `{`+base+`,"annualContribution":`+strconv.FormatFloat(calculator.MaxContribution, 'f', -1, 64)+`}`); r.Status != 200 {
		t.Fatalf("maxContribution rejected: %s", r.Raw)
	}
	testserver.ExpectError(t, calc(t, h, `{`+base+`,"annualContribution":`+strconv.FormatFloat(calculator.MaxContribution*1.0000001, 'f', -1, 64)+`}`), 400, "VALIDATION_ERROR")
}

// The highest safe withdrawal rate is rounded down: sent back as
// withdrawalRate, its historical success rate meets the target.
func TestCalculatorMaxWithdrawalRateMeetsItsTarget(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
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
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
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
	if g := r.Data()["goals"].(map[string]any); g["maxWithdrawalRateCapped"] != false {
		t.Fatalf("30 years at 90%%: %v", g)
	}
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":40000`
	if r := calc(t, h, `{`+base+`,"withdrawalRate":`+strconv.FormatFloat(calculator.MaxWithdrawalRate, 'f', -1, 64)+`}`); r.Status != 200 {
		t.Fatalf("maxWithdrawalRate rejected: %s", r.Raw)
	}
	testserver.ExpectError(t, calc(t, h, `{`+base+`,"withdrawalRate":`+strconv.FormatFloat(calculator.MaxWithdrawalRate+fi.RateStep, 'f', -1, 64)+`}`), 400, "VALIDATION_ERROR")
}

// A withdrawal rate below the smallest the engine works with is refused,
// never raised to it: the FI number is always retirementExpenses / rate.
func TestCalculatorWithdrawalRateNeverChangedSilently(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	base := `"currentAge":30,"annualIncome":80000,"annualExpenses":50000`
	for _, body := range []string{
		`{` + base + `,"withdrawalRate":0.00001}`,
		`{` + base + `,"scenarios":[{"name":"x","withdrawalRate":0.00001}]}`,
	} {
		r := calc(t, h, body)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.Raw), `withdrawalRate"`) {
			t.Fatalf("the error does not name withdrawalRate: %s", r.Raw)
		}
	}
	r := calc(t, h, `{`+base+`,"withdrawalRate":`+strconv.FormatFloat(fi.MinWithdrawalRate, 'f', -1, 64)+`}`)
	if r.Status != 200 || num(t, r.Data()["fiNumber"]) != 50000/fi.MinWithdrawalRate {
		t.Fatalf("the smallest accepted rate: %d %s", r.Status, r.Raw[:min(len(r.Raw), 300)])
	}
}

// Monte Carlo has one default spread, the engine's: leaving the standard
// deviations out is the same as sending fi.DefaultMonteCarlo's.
func TestCalculatorMonteCarloDefaultsAreTheEngines(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	d := fi.DefaultMonteCarlo()
	base := `"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"lifeExpectancy":90`
	left := calc(t, h, `{`+base+`,"monteCarlo":{"simulations":300}}`)
	given := calc(t, h, fmt.Sprintf(`{`+base+`,"monteCarlo":{"simulations":300,"seed":%d,"returnStdDev":%v,"inflationStdDev":%v}}`,
		d.Seed, d.ReturnStdDev, d.InflationStdDev))
	if left.Status != 200 || !bytes.Equal(left.Raw, given.Raw) {
		t.Fatalf("defaults differ from fi.DefaultMonteCarlo %+v:\n%s\n%s", d, left.Raw[:min(len(left.Raw), 300)], given.Raw[:min(len(given.Raw), 300)])
	}
}

// Through the HTTP layer, with its rounding: every goal answer, sent back
// as input, meets its goal.
func TestCalculatorGoalsRoundTripProperty(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := rand.New(rand.NewPCG(5, 8))
	for i := 0; i < 80; i++ {
		age := 18 + r.IntN(70)
		body := fmt.Sprintf(`{"currentAge":%d,"annualIncome":%.2f,"annualExpenses":%.2f,"currentSavings":%.2f,"expectedReturn":%.3f,"inflationRate":%.3f,"stockShare":%.2f`,
			age, r.Float64()*200_000, 1_000+r.Float64()*120_000, r.Float64()*2_000_000, r.Float64()*0.1, r.Float64()*0.05, r.Float64())
		if i%2 == 1 {
			// the rate goal tests the drawdown from today: the backtest of a
			// plan retired today is that drawdown
			body += fmt.Sprintf(`,"targetRetirementAge":%d`, age)
		}
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
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
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
	annual := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"historical":{}}`).Data()["historical"].(map[string]any)
	if annual["dataset"] != "annual" || annual["worstStartMonth"] != nil || num(t, annual["periods"]) != 68 {
		t.Fatalf("annual by default: %v", annual)
	}
	// Cash keeps its real value: an all-cash portfolio at 4% lasts exactly
	// 25 years in every window, so 30-year windows all fail.
	all := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"targetRetirementAge":65,"stockShare":0,"cashShare":1,"historical":{"dataset":"shiller-monthly"}}`)
	if hs := all.Data()["historical"].(map[string]any); num(t, hs["successRate"]) != 0 || num(t, hs["worstYearsLasted"]) != 25 {
		t.Fatalf("all cash: %v", hs)
	}
}

func TestCalculatorDatasetAndMixErrors(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
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
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.Raw), `"path":"`+c.path+`"`) {
			t.Fatalf("%s: no detail for %s: %s", c.body, c.path, r.Raw)
		}
	}
	if r := calc(t, h, `{`+base+`,"stockShare":0.7,"cashShare":0.3}`); r.Status != 200 {
		t.Fatalf("a mix of exactly 100%%: %s", r.Raw)
	}
}

// Every engine strategy is accepted by name, and the CAPE rule needs a CAPE.
func TestCalculatorStrategies(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	base := `"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"cape":25,"historical":{"dataset":"shiller-monthly"}`
	for _, name := range fi.StrategyNames() {
		r := calc(t, h, `{`+base+`,"withdrawalStrategy":"`+name+`"}`)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", name, r.Status, r.Raw)
		}
		if sr := num(t, r.Data()["historical"].(map[string]any)["successRate"]); sr <= 0 || sr > 1 {
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
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.Raw), `"path":"`+c.path+`"`) {
			t.Fatalf("%s: no detail for %s: %s", c.body, c.path, r.Raw)
		}
	}
}

// historical.sequences adds the worst, median and best windows with their
// paths and the success rate by start decade.
func TestCalculatorSequences(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":45000,"currentSavings":1000000,"stockShare":0.75,"targetRetirementAge":65,
		"historical":{"dataset":"shiller-monthly","sequences":true}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	hist := r.Data()["historical"].(map[string]any)
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
	if r := calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":45000,"historical":{}}`); r.Data()["historical"].(map[string]any)["sequences"] != nil {
		t.Fatal("sequences only when asked")
	}
	testserver.ExpectError(t, calc(t, h, `{"currentAge":65,"annualIncome":0,"annualExpenses":45000,"historical":{"sequences":"yes"}}`), 400, "VALIDATION_ERROR")
}

// calcAccept posts body to the calculator in-process with an Accept
// header, checking the answer against the document, and returns its
// status, Content-Type and body.
func calcAccept(t *testing.T, h *testserver.Harness, accept, body string) (int, string, []byte) {
	t.Helper()
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, testserver.TCPAddr("192.0.2.9"), nil)
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI("/api/v1/calculator")
	rc.Request.Header.SetContentType("application/json")
	if accept != "" {
		rc.Request.Header.Set("Accept", accept)
	}
	rc.Request.SetBodyString(body)
	testserver.Serve(t, h.S, &rc)
	return rc.Response.StatusCode(), string(rc.Response.Header.ContentType()), append([]byte(nil), rc.Response.Body()...)
}

// failsOn checks a 400 with code whose details name path.
func failsOn(t *testing.T, r *testserver.Resp, code, path string) {
	t.Helper()
	testserver.ExpectError(t, r, 400, code)
	for _, d := range r.Body["details"].([]any) {
		if d.(map[string]any)["path"] == path {
			return
		}
	}
	t.Fatalf("no detail for %s: %s", path, r.Raw)
}

func rowsOf(t *testing.T, plan map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range plan["projections"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func TestCalculatorTaxInsideThePlan(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	sys, _ := h.Taxes().ByCountry("GB")
	year := sys.Latest()
	// the tax of the plan's year c (2026 + row), in today's money: the
	// rules of that tax year, its figures moved by the plan's inflation
	dueAt := func(c int, in tax.Income) float64 {
		y := sys.At(c)
		var sc tax.Scale
		y.Scale(c, &tax.Path{Start: 2026, Inflation: 0.03}, &sc)
		d, err := y.Due(&in, "", nil, &sc)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	due := func(in tax.Income) float64 { return dueAt(year, in) }
	r := calc(t, h, `{"currentAge":35,"annualIncome":60000,"annualExpenses":30000,"retirementExpenses":28000,"currentSavings":40000,
		"startYear":2026,"tax":{"country":"GB"},"pensions":[{"fromAge":67,"amount":9000}]}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
	tx := d["tax"].(map[string]any)
	incomeTax := due(tax.Income{Employment: 60000})
	if tx["country"] != "GB" || num(t, tx["year"]) != float64(year) || tx["currency"] != "GBP" || tx["withdrawalIncome"] != "pension" ||
		math.Abs(num(t, tx["incomeTax"])-incomeTax) > 0.005 || math.Abs(num(t, tx["takeHomeIncome"])-(60000-incomeTax)) > 0.005 {
		t.Fatalf("tax %v, want incomeTax %.2f", tx, incomeTax)
	}
	// The gross retirement income leaves the spending after tax, to the
	// cent, under the rules of the year retirement starts.
	g := num(t, tx["grossRetirementIncome"])
	retired := 2026 + int(num(t, d["retirementAge"])) - 35
	if left := g - dueAt(retired, tax.Income{Pension: g}); left < 28000 || left > 28000.02 || num(t, tx["retirementSpending"]) != 28000 {
		t.Fatalf("G %.2f leaves %.2f, want 28000", g, left)
	}
	if num(t, d["fiNumber"]) != 700_000 || math.Abs(num(t, d["afterTaxFINumber"])-g/0.04) > 0.3 || !(num(t, d["afterTaxFINumber"]) > 700_000) {
		t.Fatalf("fiNumber %v, afterTaxFINumber %v, G %v", d["fiNumber"], d["afterTaxFINumber"], g)
	}
	// The plan after tax is the plain plan on take-home pay and gross spending.
	plain := calc(t, h, fmt.Sprintf(`{"currentAge":35,"annualIncome":%s,"annualExpenses":30000,"retirementExpenses":%s,"currentSavings":40000,
		"startYear":2026,"pensions":[{"fromAge":67,"amount":9000}]}`,
		strconv.FormatFloat(60000-incomeTax, 'f', -1, 64), strconv.FormatFloat(g, 'f', -1, 64))).Data()
	// (G is answered to the cent, so the balances agree to a part in 1e6.)
	near := func(a, b any) bool { return math.Abs(num(t, a)-num(t, b)) <= 1e-6*math.Abs(num(t, b))+0.01 }
	if plain["yearsToFI"] != d["yearsToFI"] || !near(plain["finalBalance"], d["finalBalance"]) || !near(plain["fiNumber"], d["afterTaxFINumber"]) {
		t.Fatalf("after tax %v %v, plain %v %v", d["yearsToFI"], d["finalBalance"], plain["yearsToFI"], plain["finalBalance"])
	}
	rows, plainRows := rowsOf(t, d), rowsOf(t, plain)
	if _, has := plainRows[0]["tax"]; has {
		t.Fatal("a row has tax without tax asked")
	}
	if _, has := plain["afterTaxFINumber"]; has {
		t.Fatal("afterTaxFINumber without tax asked")
	}
	cpi := 1.0
	sawRetired := false
	for i, row := range rows {
		if !near(row["endBalance"], plainRows[i]["endBalance"]) || row["retired"] != plainRows[i]["retired"] {
			t.Fatalf("row %d differs from the plain plan", i)
		}
		want := incomeTax * cpi * 1.03
		if row["retired"] == true {
			sawRetired = true
			real := (num(t, row["withdrawals"]) + num(t, row["pension"])) / cpi
			want = dueAt(2026+i, tax.Income{Pension: math.Round(real*100) / 100}) * cpi
		}
		// the row's amounts are written to the cent, so the income the test
		// recomputes may sit across a penny of the tax from the engine's
		if math.Abs(num(t, row["tax"])-want) > 0.01*(1+cpi) {
			t.Fatalf("row %d (age %v): tax %v, want %.2f", i, row["age"], row["tax"], want)
		}
		cpi *= 1.03
	}
	if !sawRetired {
		t.Fatal("the plan never retires")
	}

	// In another currency the income is converted for the tax and back.
	usd := calc(t, h, `{"currentAge":35,"annualIncome":60000,"annualExpenses":30000,"currency":"USD","tax":{"country":"GB","withdrawalIncome":"capitalGains"}}`).Data()["tax"].(map[string]any)
	rate, _ := h.FX().Convert(1, "USD", "GBP")
	if want := due(tax.Income{Employment: 60000 * rate}) / rate; usd["currency"] != "USD" || usd["withdrawalIncome"] != "capitalGains" || math.Abs(num(t, usd["incomeTax"])-want) > 0.01 {
		t.Fatalf("USD plan: %v, want incomeTax %.2f", usd, want)
	}

	base := `"currentAge":35,"annualIncome":60000,"annualExpenses":30000`
	for _, c := range []struct{ body, code, path string }{
		{`{` + base + `,"tax":{"country":"ZZ"}}`, "VALIDATION_ERROR", "tax.country"},
		{`{` + base + `,"tax":{"country":"gb"}}`, "VALIDATION_ERROR", "tax.country"},
		{`{` + base + `,"tax":{}}`, "MISSING_FIELD", "tax.country"},
		{`{` + base + `,"tax":{"country":"GB","year":1999}}`, "VALIDATION_ERROR", "tax.year"},
		{`{` + base + `,"tax":{"country":"GB","region":"XX"}}`, "VALIDATION_ERROR", "tax.region"},
		{`{` + base + `,"tax":{"country":"PT","region":"LIS"}}`, "VALIDATION_ERROR", "tax.region"},
		{`{` + base + `,"tax":{"country":"GB","withdrawalIncome":"employment"}}`, "VALIDATION_ERROR", "tax.withdrawalIncome"},
		{`{` + base + `,"tax":{"country":"GB"},"currency":"XXX"}`, "VALIDATION_ERROR", "currency"},
	} {
		failsOn(t, calc(t, h, c.body), c.code, c.path)
	}
}

func TestCalculatorCityInsideThePlan(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	budget := func(id string, n int) float64 {
		c, ok := h.Cities().ByID(id)
		if !ok {
			t.Fatalf("no city %s", id)
		}
		l := func(x *geodata.Lines) geo.Lines {
			return geo.Lines{x.Rent, x.Groceries, x.EatingOut, x.Transport, x.Utilities, x.Internet, x.HealthInsurance}
		}
		lines := geo.HouseholdLines(&geo.City{Single: l(&c.Breakdown.Single), Family: l(&c.Breakdown.Family)}, n)
		return 12 * float64(lines.Total())
	}
	r := calc(t, h, `{"currentAge":40,"annualIncome":90000,"annualExpenses":50000,"cityId":"lisbon-pt","householdSize":2,
		"scenarios":[{"name":"home","retirementExpenses":50000},{"name":"chiang mai","cityId":"chiang-mai-th"},{"name":"alone","householdSize":1}]}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
	lisbon := budget("lisbon-pt", 2)
	city := d["city"].(map[string]any)
	if num(t, d["fiNumber"]) != math.Round(lisbon/0.04*100)/100 || city["id"] != "lisbon-pt" || num(t, city["householdSize"]) != 2 ||
		num(t, city["monthlyCostUSD"])*12 != lisbon || city["currency"] != "USD" || num(t, city["retirementExpenses"]) != lisbon {
		t.Fatalf("Lisbon for two: %v %v, want %.0f a year", d["fiNumber"], city, lisbon)
	}
	sc := d["scenarios"].([]any)
	home, cm, alone := sc[0].(map[string]any), sc[1].(map[string]any), sc[2].(map[string]any)
	if _, has := home["city"]; has || num(t, home["fiNumber"]) != 1_250_000 {
		t.Fatalf("home: %v %v", home["fiNumber"], home["city"])
	}
	if c := cm["city"].(map[string]any); c["id"] != "chiang-mai-th" || num(t, c["householdSize"]) != 2 || num(t, c["retirementExpenses"]) != budget("chiang-mai-th", 2) {
		t.Fatalf("Chiang Mai: %v", c)
	}
	if c := alone["city"].(map[string]any); c["id"] != "lisbon-pt" || num(t, c["retirementExpenses"]) != budget("lisbon-pt", 1) {
		t.Fatalf("Lisbon alone: %v", c)
	}
	if !(num(t, cm["fiNumber"]) < num(t, d["fiNumber"])) {
		t.Fatal("Chiang Mai must need less than Lisbon")
	}

	// In euros, converted at the reference rates; with tax, grossed up.
	eur := calc(t, h, `{"currentAge":40,"annualIncome":90000,"annualExpenses":50000,"cityId":"lisbon-pt","tax":{"country":"PT"}}`).Data()
	want, _ := h.FX().Convert(budget("lisbon-pt", 1), "USD", "EUR")
	ec, et := eur["city"].(map[string]any), eur["tax"].(map[string]any)
	if ec["currency"] != "EUR" || math.Abs(num(t, ec["retirementExpenses"])-want) > 0.005 || math.Abs(num(t, et["retirementSpending"])-want) > 0.005 ||
		!(num(t, eur["afterTaxFINumber"]) > num(t, eur["fiNumber"])) {
		t.Fatalf("Lisbon in EUR: %v %v, want %.2f", ec, et, want)
	}

	base := `"currentAge":40,"annualIncome":90000,"annualExpenses":50000`
	for _, c := range []struct{ body, code, path string }{
		{`{` + base + `,"cityId":"atlantis-xx"}`, "VALIDATION_ERROR", "cityId"},
		{`{` + base + `,"scenarios":[{"name":"a","cityId":"atlantis-xx"}]}`, "VALIDATION_ERROR", "scenarios[0].cityId"},
		{`{` + base + `,"cityId":"lisbon-pt","retirementExpenses":40000}`, "VALIDATION_ERROR", "cityId"},
		{`{` + base + `,"scenarios":[{"name":"a","cityId":"lisbon-pt","retirementExpenses":1}]}`, "VALIDATION_ERROR", "scenarios[0].cityId"},
		{`{` + base + `,"householdSize":2}`, "VALIDATION_ERROR", "householdSize"},
		{`{` + base + `,"scenarios":[{"name":"a","householdSize":2}]}`, "VALIDATION_ERROR", "scenarios[0].householdSize"},
		{`{` + base + `,"cityId":"lisbon-pt","householdSize":9}`, "VALIDATION_ERROR", "householdSize"},
	} {
		failsOn(t, calc(t, h, c.body), c.code, c.path)
	}
}

func TestCalculatorCSV(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":50,"annualIncome":80000,"annualExpenses":40000,"currentSavings":300000,"lifeExpectancy":90,
		"scenarios":[{"name":"frugal, \"really\"","annualExpenses":30000}],"tax":{"country":"GB"},"monteCarlo":{"simulations":10}}`
	status, ctype, raw := calcAccept(t, h, "text/csv", body)
	if status != 200 || ctype != "text/csv; charset=utf-8" {
		t.Fatalf("%d %s %.200s", status, ctype, raw)
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split("scenario,year,age,startBalance,contributions,growth,withdrawals,events,pension,endBalance,realEndBalance,fiProgress,retired,tax", ",")
	if !slices.Equal(recs[0], want) || len(recs) != 1+2*40 {
		t.Fatalf("header %v, %d records", recs[0], len(recs))
	}
	d := calc(t, h, body).Data()
	plans := []map[string]any{d, d["scenarios"].([]any)[0].(map[string]any)}
	for k, plan := range plans {
		for i, row := range rowsOf(t, plan) {
			rec := recs[1+k*40+i]
			name := ""
			if k == 1 {
				name = `frugal, "really"`
			}
			for j, col := range want {
				got := rec[j]
				var exp string
				switch col {
				case "scenario":
					exp = name
				case "retired":
					exp = strconv.FormatBool(row[col].(bool))
				default:
					f, _ := strconv.ParseFloat(got, 64)
					if f != num(t, row[col]) {
						t.Fatalf("plan %d row %d %s: CSV %s, JSON %v", k, i, col, got, row[col])
					}
					continue
				}
				if got != exp {
					t.Fatalf("plan %d row %d %s: %q, want %q", k, i, col, got, exp)
				}
			}
		}
	}
	// Without tax there is no tax column; yearly keeps every Nth row.
	_, _, raw = calcAccept(t, h, "application/json;q=0.5, text/csv", `{"currentAge":50,"annualIncome":80000,"annualExpenses":40000,"lifeExpectancy":90,"output":"yearly","every":10}`)
	recs, _ = csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if len(recs[0]) != 13 || len(recs) != 1+5 || recs[5][2] != "89" {
		t.Fatalf("yearly CSV: %v", recs)
	}
	// JSON when asked first or only by wildcard; errors stay JSON.
	for _, accept := range []string{"", "application/json", "*/*", "text/csv;q=0.5, application/json", "text/csv;q=0"} {
		if _, ctype, _ := calcAccept(t, h, accept, body); ctype != "application/json" {
			t.Fatalf("Accept %q answered %s", accept, ctype)
		}
	}
	if status, ctype, raw := calcAccept(t, h, "text/csv", `{"currentAge":17,"annualIncome":1,"annualExpenses":1}`); status != 400 || ctype != "application/json" || !bytes.Contains(raw, []byte(`"currentAge"`)) {
		t.Fatalf("error as CSV request: %d %s %s", status, ctype, raw)
	}
	doc := testserver.LoadOpenAPI(t, h)
	content := doc.Raw["paths"].(map[string]any)["/api/v1/calculator"].(map[string]any)["post"].(map[string]any)["responses"].(map[string]any)["200"].(map[string]any)["content"].(map[string]any)
	if _, ok := content["text/csv"]; !ok {
		t.Fatalf("text/csv is not documented: %v", content)
	}
}

func TestCalculatorOutput(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	base := `"currentAge":40,"annualIncome":90000,"annualExpenses":45000,"lifeExpectancy":95,"scenarios":[{"name":"s","annualExpenses":40000}]`
	full := calc(t, h, `{`+base+`}`)
	if explicit := calc(t, h, `{`+base+`,"output":"full"}`); !bytes.Equal(full.Raw, explicit.Raw) {
		t.Fatal("output full differs from the default")
	}
	summary := calc(t, h, `{`+base+`,"output":"summary"}`).Data()
	fd := full.Data()
	if len(summary["projections"].([]any)) != 0 || len(summary["scenarios"].([]any)[0].(map[string]any)["projections"].([]any)) != 0 {
		t.Fatal("summary has rows")
	}
	for _, k := range []string{"fiNumber", "yearsToFI", "finalBalance", "coastFINumber"} {
		if summary[k] != fd[k] {
			t.Fatalf("summary %s = %v, full %v", k, summary[k], fd[k])
		}
	}
	all := rowsOf(t, fd)
	for _, c := range []struct {
		every string
		want  []int
	}{{"", []int{0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 54}}, {`,"every":10`, []int{0, 10, 20, 30, 40, 50, 54}}, {`,"every":1`, nil}} {
		rows := rowsOf(t, calc(t, h, `{`+base+`,"output":"yearly"`+c.every+`}`).Data())
		if c.want == nil {
			if len(rows) != len(all) {
				t.Fatalf("every 1: %d rows", len(rows))
			}
			continue
		}
		if len(rows) != len(c.want) {
			t.Fatalf("%s: %d rows, want %d", c.every, len(rows), len(c.want))
		}
		for i, k := range c.want {
			if rows[i]["age"] != all[k]["age"] || rows[i]["endBalance"] != all[k]["endBalance"] {
				t.Fatalf("%s: row %d is not row %d of the full answer", c.every, i, k)
			}
		}
	}
	for _, c := range []struct{ body, path string }{
		{`{` + base + `,"every":5}`, "every"},
		{`{` + base + `,"output":"full","every":5}`, "every"},
		{`{` + base + `,"output":"yearly","every":0}`, "every"},
		{`{` + base + `,"output":"monthly"}`, "output"},
	} {
		failsOn(t, calc(t, h, c.body), "VALIDATION_ERROR", c.path)
	}
}

func TestCalculatorCache(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	calcH := h.S.Calculator()
	counts := func() (uint64, uint64) {
		calcH.WaitCache()
		return calcH.CacheHits(), calcH.CacheMisses()
	}
	ask := func(accept, body string) (string, []byte) {
		t.Helper()
		status, ctype, raw := calcAccept(t, h, accept, body)
		if status != 200 {
			t.Fatalf("%d %s", status, raw)
		}
		calcH.WaitCache() // ristretto stores asynchronously
		return ctype, raw
	}
	expect := func(what string, hits, misses uint64) {
		t.Helper()
		if h, m := counts(); h != hits || m != misses {
			t.Fatalf("%s: %d hits, %d misses; want %d, %d", what, h, m, hits, misses)
		}
	}
	a := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"scenarios":[{"name":"x","expectedReturn":0.05}]}`
	same := "{ \"scenarios\" : [ {\"expectedReturn\":5e-2, \"name\":\"x\"} ],\n\t\"currentSavings\":5E4, \"annualExpenses\":45000.0,\"annualIncome\":9e4,\"currentAge\":35 }"
	// A key is cached the second time it is asked for (the doorkeeper):
	// one-off requests never fill the cache.
	_, first := ask("", a)
	expect("first", 0, 1)
	_, again := ask("", same)
	expect("the same meaning, admitted", 0, 2)
	_, third := ask("", same)
	expect("the same meaning, cached", 1, 2)
	if !bytes.Equal(first, again) || !bytes.Equal(first, third) {
		t.Fatal("the cached answer differs from the computed one")
	}
	// The cached bytes are what a server without the entry computes.
	fresh := testserver.New(t, testserver.WithRates("off", "off", "off"))
	if _, _, raw := calcAccept(t, fresh, "", same); !bytes.Equal(raw, first) {
		t.Fatal("the cached answer differs from a fresh computation")
	}
	ask("", strings.Replace(a, "50000", "50001", 1))
	expect("another savings", 1, 3)
	ask("", strings.Replace(a, `"x"`, `"y"`, 1))
	expect("another scenario name", 1, 4)

	// Media types and outputs do not collide.
	ctype, csvBody := ask("text/csv", a)
	expect("CSV", 1, 5)
	if ctype != "text/csv; charset=utf-8" || bytes.Equal(csvBody, first) {
		t.Fatal("CSV answered from the JSON entry")
	}
	for i, want := range [][2]uint64{{1, 6}, {2, 6}} {
		if ctype, raw := ask("text/csv", same); ctype != "text/csv; charset=utf-8" || !bytes.Equal(raw, csvBody) {
			t.Fatalf("CSV %d differs", i+2)
		}
		expect("CSV again", want[0], want[1])
	}
	if ctype, raw := ask("", a); ctype != "application/json" || !bytes.Equal(raw, first) {
		t.Fatal("JSON after CSV differs")
	}
	expect("JSON again", 3, 6)
	summary := strings.Replace(a, "{", `{"output":"summary",`, 1)
	_, s1 := ask("", summary)
	_, s2 := ask("", strings.Replace(summary, "summary", "yearly", 1))
	_, s3 := ask("", strings.Replace(summary, `"summary"`, `"yearly","every":5`, 1))
	expect("outputs", 3, 9)
	if bytes.Equal(s1, first) || bytes.Equal(s1, s2) || !bytes.Equal(s2, s3) {
		t.Fatal("outputs collide")
	}

	// Monte Carlo is seeded (1 when absent), so it repeats and is cached.
	mc := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"monteCarlo":{"simulations":100}}`
	seed1 := strings.Replace(mc, "100}", `100,"seed":1}`, 1)
	_, m1 := ask("", mc)
	_, m2 := ask("", seed1)
	_, m3 := ask("", strings.Replace(mc, "100}", `100,"seed":2}`, 1))
	expect("Monte Carlo", 3, 12)
	if _, m4 := ask("", seed1); !bytes.Equal(m1, m4) {
		t.Fatal("a cached Monte Carlo answer differs")
	}
	expect("Monte Carlo cached", 4, 12)
	if !bytes.Equal(m1, m2) || bytes.Equal(m1, m3) {
		t.Fatal("Monte Carlo answers: the default seed is 1, another seed another answer")
	}
	// The default startYear is part of the key: a new year, a new answer.
	h.Advance(60 * 24 * time.Hour)
	_, next := ask("", a)
	expect("next year", 4, 13)
	if bytes.Equal(next, first) {
		t.Fatal("a new year answered from last year's entry")
	}
	// Errors are neither cached nor served from the cache.
	bad := strings.Replace(a, "35", "17", 1)
	for range 3 {
		failsOn(t, calc(t, h, bad), "VALIDATION_ERROR", "currentAge")
	}
	expect("an error", 4, 13)
}

// A body seen before byte for byte is answered from the cache without
// being decoded, and pays what the decoded path would: the Monte Carlo
// units, and the kill switch still holds.
func TestCalculatorSameBytesFromCache(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("30/1m", "off", "off"))
	calcH := h.S.Calculator()
	body := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"monteCarlo":{"simulations":9000}}`
	var first []byte
	for i, want := range []struct {
		remaining string
		hits      uint64
	}{{"24", 0}, {"18", 0}, {"12", 1}, {"6", 2}} {
		r := h.Do("POST", "/api/v1/calculator", body)
		calcH.WaitCache()
		if r.Status != 200 || r.Header["Ratelimit-Remaining"] != want.remaining || calcH.CacheHits() != want.hits {
			t.Fatalf("request %d: %d, RateLimit-Remaining %q, %d hits; want 200, %s, %d: %s",
				i+1, r.Status, r.Header["Ratelimit-Remaining"], calcH.CacheHits(), want.remaining, want.hits, r.Raw)
		}
		if first == nil {
			first = r.Raw
		} else if !bytes.Equal(r.Raw, first) {
			t.Fatalf("request %d answered other bytes", i+1)
		}
	}
	// The 6 units left pay for one more; then the limit holds for cached bytes too.
	if r := h.Do("POST", "/api/v1/calculator", body); r.Status != 200 {
		t.Fatalf("last units: %d %s", r.Status, r.Raw)
	}
	testserver.ExpectError(t, h.Do("POST", "/api/v1/calculator", body), 429, errcode.RateLimited)

	// The kill switch is checked on every serving of cached bytes.
	h2 := testserver.New(t, testserver.WithRates("off", "off", "off"))
	for range 4 {
		if r := h2.Do("POST", "/api/v1/calculator", body); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		h2.S.Calculator().WaitCache()
	}
	admin := testserver.Bearer(h2.Token("root", "pro", "admin"))
	h2.Do("PUT", "/api/v1/features/calculator-monte-carlo", `{"enabled":false}`, admin...)
	testserver.ExpectError(t, h2.Do("POST", "/api/v1/calculator", body), 503, errcode.Unavailable)
}

// A Monte Carlo request is charged by its simulated path-years, so the
// rate limit bounds work, not only requests.
func TestMonteCarloIsChargedByPathYears(t *testing.T) {
	if got := calculator.Units(10000 * 60); got != 6 {
		t.Fatalf("10,000 x 60 costs %d units, want 6", got)
	}
	if got := calculator.Units(1 * 1); got != 1 {
		t.Fatalf("a tiny run costs %d units, want 1", got)
	}
	h := testserver.New(t, testserver.WithRates("10/1m", "off", "off"))
	body := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"lifeExpectancy":95,"monteCarlo":{"simulations":9000,"seed":%d}}`
	r := h.Do("POST", "/api/v1/calculator", fmt.Sprintf(body, 1))
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	// 540,000 path-years and the projection's 60 rows: 6 units, 4 left.
	if got := r.Header["Ratelimit-Remaining"]; got != "4" {
		t.Fatalf("RateLimit-Remaining %q after a 6-unit request, want 4", got)
	}
	r = h.Do("POST", "/api/v1/calculator", fmt.Sprintf(body, 2))
	testserver.ExpectError(t, r, 429, "RATE_LIMITED")
	// A plain request still fits in what is left.
	if r := h.Do("POST", "/api/v1/calculator", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000}`); r.Status != 200 {
		t.Fatalf("plain request: %d %s", r.Status, r.Raw)
	}
}

// A goal seek over the monthly record is charged by its work, like Monte
// Carlo: every backtest it may run, each replaying every 60-year window,
// and it takes a slot of the expensive-request gate.
func TestGoalSeekIsChargedByItsWork(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "1000/1m"), func(c *handlers.Config) { c.MaxExpensive = 2 })
	pro := testserver.Bearer(h.Token("bob", "pro", ""))
	body := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"historical":{"years":60,"dataset":"shiller-monthly"},"goals":{"targetSuccessRate":0.95}}`
	// Shiller's record runs 1871-01 to 2023-06: 1,830 months, of which
	// 1,110 start a 60-year window. The backtest replays 1,110 x 60 =
	// 66,600 window years; the rate search at most 13 backtests (both ends
	// of 1..2000 basis points, then 11 halvings): 932,400 window years of
	// BacktestYear each, 606,060 one-pot path-years, 7 units.
	if w := fi.RateSearchBacktests(calculator.MaxWithdrawalRate); w != 13 {
		t.Fatalf("the rate search runs up to %d backtests, want 13", w)
	}
	const units = 7
	if got := calculator.Units(int(14 * 1110 * 60 * calculator.BacktestYear)); got != units {
		t.Fatalf("Units = %d, want %d", got, units)
	}
	remaining := 1000
	for i := range 3 { // computed, computed and kept, then the same bytes from the cache
		r := h.Do("POST", "/api/v1/calculator", body, pro...)
		if r.Status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.Status, r.Raw)
		}
		remaining -= units
		if got := r.Header["Ratelimit-Remaining"]; got != strconv.Itoa(remaining) {
			t.Fatalf("request %d: RateLimit-Remaining %q, want %d (a %d-unit request)", i+1, got, remaining, units)
		}
		h.S.Calculator().WaitCache()
	}
	// A backtest alone over the annual record is one unit: 68 x 30 years.
	r := h.Do("POST", "/api/v1/calculator", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"historical":{}}`, pro...)
	remaining--
	if got := r.Header["Ratelimit-Remaining"]; r.Status != 200 || got != strconv.Itoa(remaining) {
		t.Fatalf("annual backtest: %d, RateLimit-Remaining %q, want %d", r.Status, got, remaining)
	}

	// With every slot taken, a goal seek, a backtest or a saving goal is
	// refused at once, as a simulation is, and costs the one unit of any
	// request, not the work it was refused; plain projections pass.
	g := h.S.Heavy()
	g.Enter(nil)
	g.Enter(nil)
	defer g.Leave(nil)
	defer g.Leave(nil)
	for _, b := range []string{
		strings.Replace(body, "0.95", "0.9", 1),
		`{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"historical":{"years":40,"sequences":true}}`,
		`{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"goals":{"fiByAge":50}}`,
	} {
		r := h.Do("POST", "/api/v1/calculator", b, pro...)
		testserver.ExpectError(t, r, 503, errcode.Unavailable)
		remaining--
		if r.Header["Retry-After"] != "1" || r.Header["Ratelimit-Remaining"] != strconv.Itoa(remaining) {
			t.Fatalf("Retry-After %q, RateLimit-Remaining %q, want 1 and %d", r.Header["Retry-After"], r.Header["Ratelimit-Remaining"], remaining)
		}
	}
	if r := h.Do("POST", "/api/v1/calculator", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000}`, pro...); r.Status != 200 {
		t.Fatalf("plain projections with the gate full: %d %s", r.Status, r.Raw)
	}
}

// A CSV answer carries the projections alone: asked with monteCarlo,
// historical and goals it is charged the one unit of what it computes and
// takes no slot of the expensive-request gate.
func TestCSVIsChargedForWhatItComputes(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("30/1m", "off", "off"), func(c *handlers.Config) { c.MaxExpensive = 1 })
	body := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"monteCarlo":{"simulations":10000},"historical":{"years":60,"dataset":"shiller-monthly"},"goals":{"targetSuccessRate":0.95}}`
	g := h.S.Heavy()
	g.Enter(nil)
	for i, want := range []string{"29", "28", "27"} {
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, testserver.TCPAddr("192.0.2.9"), nil)
		rc.Request.Header.SetMethod("POST")
		rc.Request.SetRequestURI("/api/v1/calculator")
		rc.Request.Header.SetContentType("application/json")
		rc.Request.Header.Set("Accept", "text/csv")
		rc.Request.SetBodyString(body)
		testserver.Serve(t, h.S, &rc)
		status, ctype, remaining := rc.Response.StatusCode(), string(rc.Response.Header.ContentType()), string(rc.Response.Header.Peek("RateLimit-Remaining"))
		raw := string(rc.Response.Body())
		if status != 200 || ctype != "text/csv; charset=utf-8" || remaining != want {
			t.Fatalf("request %d: %d %s, RateLimit-Remaining %q, want 200 CSV and %s: %s", i+1, status, ctype, remaining, want, raw)
		}
		h.S.Calculator().WaitCache()
	}
	if n := h.S.Calculator().PathYears(); n != 0 {
		t.Fatalf("CSV answers simulated %d path-years", n)
	}
	// The same body in JSON runs it all: 600,000 path-years and 932,400
	// window years of BacktestYear each, 1,206,060 one-pot path-years, 13
	// units, once it has a slot; refused one, it costs its one unit.
	asJSON := func() (int, string) {
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, testserver.TCPAddr("192.0.2.9"), nil)
		rc.Request.Header.SetMethod("POST")
		rc.Request.SetRequestURI("/api/v1/calculator")
		rc.Request.Header.SetContentType("application/json")
		rc.Request.SetBodyString(body)
		testserver.Serve(t, h.S, &rc)
		return rc.Response.StatusCode(), string(rc.Response.Header.Peek("RateLimit-Remaining"))
	}
	if status, remaining := asJSON(); status != 503 || remaining != "26" {
		t.Fatalf("in JSON with the gate full: %d, RateLimit-Remaining %q, want 503 and 26", status, remaining)
	}
	g.Leave(nil)
	if status, remaining := asJSON(); status != 200 || remaining != "13" {
		t.Fatalf("in JSON: %d, RateLimit-Remaining %q, want 200 and 13", status, remaining)
	}
}

// A scenario name a spreadsheet would run as a formula is written as text:
// a leading single quote, inside the usual quoting; the numbers, negative
// ones included, stay numbers.
func TestCalculatorCSVFormulaCells(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	names := []string{`=HYPERLINK("http://evil.example","x")`, "+1+1", "-2+3", "@SUM(A1:A9)", "\tcmd", "\rcmd", "plain-name", "a=b"}
	want := []string{`'=HYPERLINK("http://evil.example","x")`, "'+1+1", "'-2+3", "'@SUM(A1:A9)", "'\tcmd", "'\rcmd", "plain-name", "a=b"}
	var sc []string
	for _, n := range names {
		q, _ := json.Marshal(n)
		sc = append(sc, `{"name":`+string(q)+`,"annualExpenses":30000}`)
	}
	body := `{"currentAge":50,"annualIncome":80000,"annualExpenses":60000,"currentSavings":300000,"lifeExpectancy":60,"expectedReturn":-0.05,"scenarios":[` + strings.Join(sc, ",") + `]}`
	status, _, raw := calcAccept(t, h, "text/csv", body)
	if status != 200 {
		t.Fatalf("%d %s", status, raw)
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	negative := false
	for _, rec := range recs[1:] {
		seen[rec[0]] = true
		for j, cell := range rec[1:12] {
			f, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				t.Fatalf("column %d: %q is not a number", j+1, cell)
			}
			negative = negative || f < 0
		}
	}
	for i, w := range want {
		if !seen[w] {
			t.Errorf("scenario %q: no rows named %q in %v", names[i], w, seen)
		}
	}
	if !negative {
		t.Fatal("no negative number in the rows: the check of numbers proves nothing")
	}
}

// A simulation admitted by the expensive-request gate but refused by the
// rate limit for its work gives its slot back at once, whether it waits
// for the allowance (RATE_LIMITED) or costs more than all of it
// (COST_OVER_ALLOWANCE).
func TestCalculatorRefusedWorkLeavesTheGate(t *testing.T) {
	for _, c := range []struct{ rate, code string }{{"3/1m", errcode.CostOverAllowance}, {"8/1m", errcode.RateLimited}} {
		h := testserver.New(t, testserver.WithRates(c.rate, "off", "off"), func(c *handlers.Config) { c.MaxExpensive = 1 })
		body := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"monteCarlo":{"simulations":10000}}`
		if c.code == errcode.RateLimited {
			h.Do("GET", "/api/v1/status", "") // two leave 6 of 8, one short of the simulation's 7
			h.Do("GET", "/api/v1/status", "")
		}
		r := h.Do("POST", "/api/v1/calculator", body)
		testserver.ExpectError(t, r, 429, c.code)
		if n := h.S.Heavy().InUse(); n != 0 {
			t.Fatalf("%s: %d slots of the gate held after the refusal", c.rate, n)
		}
	}
}

// Every answer says the currency its amounts are in: the request's, else
// the tax country's, else USD; a household plan's too.
func TestCalculatorAnswerSaysItsCurrency(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	for _, c := range []struct{ body, want string }{
		{`{"currentAge":40,"annualIncome":80000,"annualExpenses":40000}`, "USD"},
		{`{"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"currency":"EUR"}`, "EUR"},
		{`{"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"tax":{"country":"GB"}}`, "GBP"},
		{`{"currentAge":40,"annualIncome":80000,"annualExpenses":40000,"tax":{"country":"DE"},"currency":"USD"}`, "USD"},
		{`{"currentAge":50,"annualIncome":70000,"annualExpenses":32000,"tax":{"country":"GB"},"accounts":[{"id":"isa","type":"gb-isa","balance":150000}]}`, "GBP"},
	} {
		r := calc(t, h, c.body)
		if r.Status != 200 || r.Data()["currency"] != c.want {
			t.Errorf("%s: currency %v, want %s: %.300s", c.body, r.Data()["currency"], c.want, r.Raw)
		}
	}
}

// A German couple who retire at 58 and whose money lasts past 95 are FI
// at 58: "FI not reached" never stands beside money that lasts, and the
// FI age is the one Monte Carlo's paths count.
func TestHouseholdFIAgeIsTheRetirementTheMoneyOutlasts(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":45,"annualIncome":95000,"annualExpenses":42000,"targetRetirementAge":58,"startYear":2026,
		"partner":{"age":45,"annualIncome":40000,"retirementAge":58},
		"accounts":[{"id":"cash","type":"cash","balance":30000},{"id":"taxable","type":"taxable","balance":400000,"costBasis":300000,"annualContribution":20000},{"id":"taxable-partner","type":"taxable","owner":"partner","balance":80000}],
		"pensions":[{"kind":"generic","amount":18000,"fromAge":67},{"kind":"generic","owner":"partner","amount":12000,"fromAge":67}],
		"spending":[{"fromAge":75,"amount":36000}],"tax":{"country":"DE"},"currency":"EUR","monteCarlo":{"simulations":200,"seed":1}}`
	r := calc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
	if d["depletionAge"] != nil {
		t.Fatalf("the money runs out at %v: not the plan this test is about", d["depletionAge"])
	}
	if d["retirementAge"] != 58.0 || d["fiAge"] == nil || num(t, d["fiAge"]) > 58 || num(t, d["yearsToFI"]) != num(t, d["fiAge"])-45 {
		t.Fatalf("retirement %v, FI age %v, years to FI %v", d["retirementAge"], d["fiAge"], d["yearsToFI"])
	}
	mc := d["monteCarlo"].(map[string]any)
	if fa, ok := mc["fiAge"].(map[string]any); !ok || fa["p10"] == nil || num(t, fa["p10"]) > 58 {
		t.Fatalf("Monte Carlo's FI age: %v", mc["fiAge"])
	}
}
