package calculator_test

import (
	"strings"
	"testing"

	"fiplan/handlers/internal/testserver"
)

// A household answer carries its rows' accounts, income, tax and
// residence, the partner's age, the lifetime tax, the bridge and the
// baseline (the harness validates it against the OpenAPI document).
func TestHouseholdAnswer(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":50,"annualIncome":90000,"annualExpenses":50000,"startYear":2026,"targetRetirementAge":55,
	  "partner":{"age":48,"annualIncome":40000,"lifeExpectancy":92},
	  "accounts":[{"id":"cash","type":"cash","balance":20000},{"id":"brokerage","type":"taxable","balance":600000,"costBasis":400000,"annualContribution":10000},
	    {"id":"hers","type":"taxable","owner":"partner","balance":100000}],
	  "spending":[{"fromAge":55,"amount":60000},{"fromAge":75,"amount":45000}],
	  "pensions":[{"fromAge":67,"amount":24000,"owner":"partner"}],
	  "tax":{"country":"US","year":2026},"monteCarlo":{"simulations":50},"historical":{}}`
	r := calc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
	rows := d["projections"].([]any)
	if len(rows) != 95-50 {
		t.Fatalf("%d rows, want the longer horizon (45)", len(rows))
	}
	first := rows[0].(map[string]any)
	if first["partnerAge"] != 48.0 || first["residence"] != "US" || len(first["accounts"].([]any)) != 3 {
		t.Fatalf("first row %v", first)
	}
	tx := first["tax"].(map[string]any)
	if tx["total"].(float64) <= 0 || tx["socialContributions"].(float64) <= 0 {
		t.Fatalf("working year's tax %v", tx)
	}
	if d["lifetimeTax"].(float64) <= 0 || d["baseline"] == nil || d["bridge"] == nil {
		t.Fatalf("summary %v %v %v", d["lifetimeTax"], d["baseline"], d["bridge"])
	}
	if _, ok := d["depletionAge"]; !ok {
		t.Fatal("depletionAge missing")
	}
	mc := d["monteCarlo"].(map[string]any)
	if _, ok := mc["successRate"].(float64); !ok {
		t.Fatalf("a plan that draws down has a success rate: %v", mc["successRate"])
	}
	hist := d["historical"].(map[string]any)
	if hist["windowYears"] != 45.0 || hist["drawdownWindows"].(float64) < 1 {
		t.Fatalf("backtest %v", hist)
	}
	// the same request answers the same bytes, from the cache
	if again := calc(t, h, body); string(again.Raw) != string(r.Raw) {
		t.Fatal("the second answer differs")
	}
}

// A worker who saves to the end of the horizon never draws down: the
// simulation and the backtest have no success rate (null).
func TestHouseholdNeverDrawsDown(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":30,"annualIncome":90000,"annualExpenses":30000,"lifeExpectancy":60,"targetRetirementAge":70,
	  "accounts":[{"id":"a","type":"taxable","balance":1000}],"monteCarlo":{"simulations":20},"historical":{"years":20}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	d := r.Data()
	for _, k := range []string{"monteCarlo", "historical"} {
		m := d[k].(map[string]any)
		if v, ok := m["successRate"]; !ok || v != nil {
			t.Fatalf("%s successRate %v (present %v), want null", k, v, ok)
		}
	}
}

// Every bad household input is a 400 naming its field.
func TestHouseholdValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	base := `"currentAge":40,"annualIncome":80000,"annualExpenses":40000`
	acct := `{"id":"a","type":"taxable","balance":1}`
	cases := []struct{ body, code, path string }{
		{`{` + base + `,"currentSavings":5,"accounts":[` + acct + `]}`, "VALIDATION_ERROR", "accounts"},
		{`{` + base + `,"annualContribution":5,"accounts":[` + acct + `]}`, "VALIDATION_ERROR", "annualContribution"},
		{`{` + base + `,"accounts":[{"id":"A!","type":"taxable","balance":1}]}`, "VALIDATION_ERROR", "accounts[0].id"},
		{`{` + base + `,"accounts":[` + acct + `,` + acct + `]}`, "VALIDATION_ERROR", "accounts[1].id"},
		{`{` + base + `,"accounts":[{"id":"a","type":"taxable","owner":"partner","balance":1}]}`, "VALIDATION_ERROR", "accounts[0].owner"},
		{`{` + base + `,"accounts":[{"id":"a","type":"us-401k","balance":1}]}`, "VALIDATION_ERROR", "accounts[0].type"},
		{`{` + base + `,"accounts":[{"id":"a","type":"gb-nothing","balance":1}],"tax":{"country":"GB"}}`, "VALIDATION_ERROR", "accounts[0].type"},
		{`{` + base + `,"accounts":[{"id":"a","type":"cash","balance":1,"costBasis":1}]}`, "VALIDATION_ERROR", "accounts[0].costBasis"},
		{`{` + base + `,"accounts":[` + strings.Repeat(acct+",", 12) + acct + `]}`, "VALIDATION_ERROR", "accounts"},
		{`{` + base + `,"pensions":[{"fromAge":67,"amount":1,"owner":"partner"}]}`, "VALIDATION_ERROR", "pensions[0].owner"},
		{`{` + base + `,"pensions":[{"fromAge":60,"amount":1,"kind":"us-social-security"}],"tax":{"country":"US"}}`, "VALIDATION_ERROR", "pensions[0].fromAge"},
		{`{` + base + `,"partner":{"age":50,"lifeExpectancy":45}}`, "VALIDATION_ERROR", "partner.lifeExpectancy"},
		{`{` + base + `,"partner":{"age":17}}`, "VALIDATION_ERROR", "partner.age"},
		{`{` + base + `,"tax":{"country":"US","filing":"joint"}}`, "VALIDATION_ERROR", "tax.filing"},
		{`{` + base + `,"spending":[{"fromAge":70,"amount":1},{"fromAge":60,"amount":1}]}`, "VALIDATION_ERROR", "spending[1].fromAge"},
		{`{` + base + `,"withdrawalOrder":"random"}`, "VALIDATION_ERROR", "withdrawalOrder"},
		{`{` + base + `,"accounts":[` + acct + `],"withdrawalOrder":["b"]}`, "VALIDATION_ERROR", "withdrawalOrder[0]"},
		{`{` + base + `,"relocations":[{"atAge":50,"country":"XX"}]}`, "VALIDATION_ERROR", "relocations[0].country"},
		{`{` + base + `,"relocations":[{"atAge":50,"country":"PT","cityId":"nowhere"}],"tax":{"country":"US"}}`, "VALIDATION_ERROR", "relocations[0].cityId"},
		{`{` + base + `,"relocations":[{"atAge":50,"country":"PT"},{"atAge":45,"country":"ES"}],"tax":{"country":"US"}}`, "VALIDATION_ERROR", "relocations[1].atAge"},
		{`{` + base + `,"partner":{"age":40},"goals":{"fiByAge":50}}`, "VALIDATION_ERROR", "goals"},
		{`{` + base + `,"conversions":{"upToRate":0.9}}`, "VALIDATION_ERROR", "conversions.upToRate"},
		{`{` + base + `,"accounts":[{"id":"a","type":"us-401k","balance":1,"yield":0.02}],"tax":{"country":"US"}}`, "VALIDATION_ERROR", "accounts[0].yield"},
		{`{"currentAge":66,"annualIncome":0,"annualExpenses":40000,"healthcare":{"phases":[{"fromAge":60,"amount":9000}],"benchmarkPremium":8000},"tax":{"country":"US"}}`, "VALIDATION_ERROR", "healthcare.benchmarkPremium"},
		{`{` + base + `,"healthcare":{"phases":[{"fromAge":60,"amount":9000}],"benchmarkPremium":8000},"tax":{"country":"GB"}}`, "VALIDATION_ERROR", "healthcare.benchmarkPremium"},
		{`{` + base + `,"healthcare":{"benchmarkPremium":8000},"tax":{"country":"US"}}`, "VALIDATION_ERROR", "healthcare.phases"},
		{`{` + base + `,"healthcare":{"phases":[{"fromAge":60,"amount":1},{"fromAge":50,"amount":1}]}}`, "VALIDATION_ERROR", "healthcare.phases[1].fromAge"},
		{`{` + base + `,"accounts":[{"id":"ira","type":"us-ira","balance":1000}],"bridge":{"sepp":[{"account":"nope","method":"rmd","fromAge":50}]},"tax":{"country":"US"}}`, "VALIDATION_ERROR", "bridge.sepp[0].account"},
		{`{` + base + `,"accounts":[{"id":"ira","type":"us-ira","balance":1000}],"bridge":{"sepp":[{"account":"ira","method":"lump","fromAge":50}]},"tax":{"country":"US"}}`, "VALIDATION_ERROR", "bridge.sepp[0].method"},
		{`{` + base + `,"accounts":[{"id":"ira","type":"us-ira","balance":1000}],"bridge":{"sepp":[{"account":"ira","method":"rmd","fromAge":60}]},"tax":{"country":"US"}}`, "VALIDATION_ERROR", "bridge.sepp[0].fromAge"},
		{`{` + base + `,"accounts":[{"id":"ira","type":"us-ira","balance":0}],"bridge":{"sepp":[{"account":"ira","method":"rmd","fromAge":50}]},"tax":{"country":"US"}}`, "VALIDATION_ERROR", "bridge.sepp[0].account"},
		{`{` + base + `,"accounts":[{"id":"r","type":"us-roth-ira","balance":1000}],"bridge":{"sepp":[{"account":"r","method":"rmd","fromAge":50}]},"tax":{"country":"US"}}`, "VALIDATION_ERROR", "bridge.sepp[0].account"},
		{`{` + base + `,"accounts":[{"id":"s","type":"gb-sipp","balance":1000}],"bridge":{"sepp":[{"account":"s","method":"rmd","fromAge":50}]},"tax":{"country":"GB"}}`, "VALIDATION_ERROR", "bridge.sepp[0]"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := calc(t, h, c.body)
			testserver.ExpectError(t, r, 400, c.code)
			found := false
			for _, d := range r.Body["details"].([]any) {
				found = found || d.(map[string]any)["path"] == c.path
			}
			if !found {
				t.Fatalf("no detail for %s: %s", c.path, r.Raw)
			}
		})
	}
}

// The US household rules in the answer: a survivor keeps the larger
// Social Security benefit, the premium credit and the IRMAA surcharge are
// on the rows, in JSON and CSV alike.
func TestHouseholdUSRulesInRows(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":58,"lifeExpectancy":80,"annualIncome":0,"annualExpenses":50000,"targetRetirementAge":58,"inflationRate":0,` +
		`"partner":{"age":60,"lifeExpectancy":70},"tax":{"country":"US"},` +
		`"accounts":[{"id":"brokerage","type":"taxable","balance":900000,"costBasis":900000,"yield":0.03},{"id":"ira","type":"us-ira","owner":"partner","balance":600000}],"withdrawalOrder":"tax-smart",` +
		`"pensions":[{"fromAge":67,"amount":12000,"kind":"us-social-security"},{"fromAge":70,"amount":36000,"kind":"us-social-security","owner":"partner"}],` +
		`"healthcare":{"phases":[{"fromAge":58,"amount":20000},{"fromAge":65,"amount":8000}],"benchmarkPremium":18000}}`
	rows := rowsOf(t, calc(t, h, body).Data())
	health := func(i int) map[string]any {
		x, ok := rows[i]["health"].(map[string]any)
		if !ok {
			t.Fatalf("row %d has no health: %v", i, rows[i])
		}
		return x
	}
	if c := num(t, health(0)["credit"]); c <= 0 || c > 18000 {
		t.Errorf("first year's premium credit %v, want within (0, 18000]", c)
	}
	if s := num(t, health(9)["surcharge"]); s < 0 {
		t.Errorf("surcharge %v", s)
	}
	if y := num(t, rows[0]["income"].(map[string]any)["yield"]); y != 27000 {
		t.Errorf("yield %v, want 27000", y)
	}
	// the partner (70 from row 10) dies at 70: from row 10 the first person,
	// 68, is paid the partner's 124% instead of their own 12,000 x 1.0
	in := rows[10]["income"].(map[string]any)
	if s := num(t, in["survivor"]); s <= 0 {
		t.Fatalf("no survivor benefit after the death: %v", in)
	}
	if p := num(t, in["pensions"]); p < 36000*1.24-0.01 {
		t.Errorf("the survivor's pensions %v, want at least the partner's %v", p, 36000*1.24)
	}
}
