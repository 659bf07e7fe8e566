package tax

import (
	"math"
	"testing"
)

// lessSystem is a two-rule year: a national rule with a stepped basic
// deduction, and a local rule at 30 % that takes the same deduction and
// carries a credit of 30 % of a scale of wages (all of the first 10 000,
// half of the next 20 000) less 30 % of the national rule's deduction.
const lessSystem = `{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},
"regions":[{"code":"L","name":"l"}],
"years":[{"year":2024,"rules":[
 {"id":"nat","category":"income","src":[{"doc":"d","sec":"1"}],
  "layers":[{"base":{"parts":{"employment":1,"pension":1}},"bands":[{"from":0,"rate":0},{"from":50000,"rate":0.2}]}],
  "deductions":[{"label":"basic","of":{"parts":{"employment":1,"pension":1}},"segments":[[0,5000,0],[20000,8000,0]],"capAtBase":true}],
  "round":{"base":{"mode":"floor","unit":100}}},
 {"id":"loc","category":"regional","regions":["L"],"src":[{"doc":"d","sec":"2"}],
  "layers":[{"base":{"parts":{"employment":1,"pension":1}},"bands":[{"from":0,"rate":0.3}]}],
  "deductions":[{"label":"basic","of":{"parts":{"employment":1,"pension":1}},"segments":[[0,5000,0],[20000,8000,0]],"capAtBase":true}],
  "credits":[{"label":"work credit","of":{"parts":{"employment":1}},"segments":[[0,0,0.3],[10000,3000,0.15],[30000,6000,0]],
   "less":{"refs":{"nat#deducted":0.3}}}]}
]}]}`

// The credit's amount is its scale of wages less the measure named by
// less, here a share of an earlier rule's deduction read through
// "#deducted"; it never goes below zero and never exceeds the tax.
func TestAdjustLessAndDeductedRef(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(lessSystem))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		in       Income
		regional float64
	}{
		// wages 40 000: deduction 8 000, taxable 32 000, tax 9 600;
		// credit 6 000 − 0,3 × 8 000 = 3 600 → 6 000
		{"wages above the scale's top", Income{Employment: 40000}, 6000},
		// wages 15 000: deduction 5 000, taxable 10 000, tax 3 000;
		// credit 3 000 + 0,15 × 5 000 − 1 500 = 2 250 → 750
		{"wages on the scale's second step", Income{Employment: 15000}, 750},
		// pension 40 000 only: no wages, so the scale is 0 and 0 − 2 400
		// is clamped to no credit: 9 600
		{"no wages: the credit is not negative", Income{Pension: 40000}, 9600},
		// wages 10 000 + pension 30 000: deduction 8 000 (of 40 000),
		// taxable 32 000, tax 9 600; credit 3 000 − 2 400 = 600 → 9 000
		{"the deduction counts all income, the scale only wages", Income{Employment: 10000, Pension: 30000}, 9000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r Result
			if err := Calculate(s, 2024, &c.in, "L", &r); err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.RegionalTax-c.regional) > 1e-6 {
				t.Errorf("regionalTax %.2f, want %.2f", r.RegionalTax, c.regional)
				for _, l := range r.Breakdown() {
					t.Logf("%-4s %-9s %-12s base %10.2f amount %10.2f", l.Rule, l.Kind, l.Label, l.Base, l.Amount)
				}
			}
		})
	}
}

// "#deducted" reads the deductions before the base is rounded: the
// rounding remainder of the taxable base does not leak into it.
func TestDeductedRefIsBeforeRounding(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(lessSystem))
	if err != nil {
		t.Fatal(err)
	}
	// wages 40 050: deduction 8 000, taxable 32 050 → 32 000 by the
	// rounding; gross − taxable would read 8 050, "#deducted" reads 8 000
	in := Income{Employment: 40050}
	var r Result
	if err := Calculate(s, 2024, &in, "L", &r); err != nil {
		t.Fatal(err)
	}
	var credit float64
	for _, l := range r.Breakdown() {
		if l.Kind == KindCredit {
			credit = -l.Amount
		}
	}
	if math.Abs(credit-3600) > 1e-6 {
		t.Errorf("credit %.2f, want 3600 (6 000 − 0,3 × 8 000)", credit)
	}
}

// A deduction's less cannot read the rule's own taxable base or tax, and
// less names earlier rules only.
func TestAdjustLessRejected(t *testing.T) {
	t.Parallel()
	bad := []string{
		`"deductions":[{"label":"x","of":{},"amount":100,"less":{"on":"taxable"}}]`,
		`"credits":[{"label":"x","of":{},"amount":100,"less":{"refs":{"later#deducted":1}}}]`,
		`"credits":[{"label":"x","of":{},"amount":100,"less":{"refs":{"a#nope":1}}}]`,
	}
	for _, b := range bad {
		j := `{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},"years":[{"year":2024,"rules":[
 {"id":"a","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1}]}]},
 {"id":"b","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1}]}],` + b + `}]}]}`
		if _, err := Parse([]byte(j)); err == nil {
			t.Errorf("accepted %s", b)
		}
	}
}

// An adjustment's round rounds its amount before the cap at its base: a
// deduction of 12 % of income rounded up to the hundred, never more than
// the income.
func TestAdjustRound(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(`{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},"years":[{"year":2024,"rules":[
 {"id":"a","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.5}]}],
  "deductions":[{"label":"basic","of":{"parts":{"employment":1}},"rate":0.12,"round":{"mode":"ceil","unit":100},"capAtBase":true}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ wages, tax float64 }{
		{10050, 0.5 * (10050 - 1300)}, // 1 206 → 1 300
		{10000, 0.5 * (10000 - 1200)}, // exactly 1 200 stays
		{50, 0},                       // 6 → 100, capped at 50
	} {
		in := Income{Employment: c.wages}
		var r Result
		if err := Calculate(s, 2024, &in, "", &r); err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.IncomeTax-c.tax) > 1e-6 {
			t.Errorf("wages %.0f: tax %.2f, want %.2f", c.wages, r.IncomeTax, c.tax)
		}
	}
}
