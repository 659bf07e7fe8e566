package tax

import (
	"math"
	"strings"
	"testing"
)

// gateSystem has one rule at 10 % with a credit stepped by pension (25
// above 500, 200 above 8 000) allowed only while all income is below
// 100 000, and a deduction of 1 000 allowed only while wages are below
// 50 000.
const gateSystem = `{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},"years":[{"year":2024,"rules":[
 {"id":"a","category":"income","src":[{"doc":"d","sec":"1"}],
  "layers":[{"base":{"parts":{"employment":1,"pension":1,"interest":1}},"bands":[{"from":0,"rate":0.1}]}],
  "deductions":[{"label":"small earners","of":{},"amount":1000,"gate":{"of":{"parts":{"employment":1}},"below":50000}}],
  "credits":[{"label":"retirement","of":{"parts":{"pension":1}},"segments":[[0,0,0],[500.01,25,0],[8000.01,200,0]],
   "gate":{"of":{"parts":{"employment":1,"pension":1,"interest":1}},"below":{"value":100000,"indexed":"none","src":[{"doc":"d","sec":"2"}]}}}]}
]}]}`

// A gated adjustment applies while its measure is below the limit and not
// from it, in the walker and the compiled evaluator alike.
func TestAdjustGate(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(gateSystem))
	if err != nil {
		t.Fatal(err)
	}
	y, err := s.Year(2024)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		in   Income
		tax  float64
	}{
		// 10 % × (20 000 − 1 000) = 1 900 less the credit 200
		{"both apply", Income{Employment: 10000, Pension: 10000}, 1700},
		// pension 600: 10 % × (10 600 − 1 000) = 960 less the credit 25
		{"a small pension", Income{Employment: 10000, Pension: 600}, 935},
		// wages 50 000: the deduction's limit is reached, not the credit's
		{"wages at the deduction's limit", Income{Employment: 50000, Pension: 10000}, 5800},
		// all income 99 999.99: still below the credit's limit
		{"just below the credit's limit", Income{Employment: 60000, Pension: 10000, Interest: 29999.99}, 9999.999 - 200},
		// all income 100 000: no credit
		{"at the credit's limit", Income{Employment: 60000, Pension: 10000, Interest: 30000}, 10000},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r Result
			if err := Calculate(s, 2024, &c.in, "", &r); err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.IncomeTax-c.tax) > 0.005 {
				t.Errorf("walker: income tax %.3f, want %.3f", r.IncomeTax, c.tax)
			}
			cy, err := y.Compiled("", &c.in)
			if err != nil {
				t.Fatal(err)
			}
			if w := cy.Walks(); w != "" {
				t.Fatalf("the compiled path walks: %s", w)
			}
			if got := cy.DueByCategory(&c.in, nil); math.Abs(got.Income-r.IncomeTax) > 0.005 {
				t.Errorf("compiled %.3f, walker %.3f", got.Income, r.IncomeTax)
			}
		})
	}
	// the removed credit is a notch the year's jump bound counts
	if j := s.MaxJump(y, ""); j < 200 {
		t.Errorf("MaxJump %.2f does not count the credit's 200 removed at its limit", j)
	}
}

// A gate needs a positive limit, a bounded amount to remove, a measure of
// known parts and earlier rules, and (on a deduction) one that reads no
// basis of its own rule.
func TestAdjustGateRejected(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ adj, want string }{
		{`"credits":[{"label":"x","of":{},"amount":100,"gate":{"of":{"parts":{"employment":1}}}}]`, "no below"},
		{`"credits":[{"label":"x","of":{},"amount":100,"gate":{"of":{"parts":{"employment":1}},"below":0}}]`, "not a positive amount"},
		{`"credits":[{"label":"x","of":{"parts":{"pension":1}},"rate":0.1,"gate":{"of":{"parts":{"employment":1}},"below":1000}}]`, "unbounded"},
		{`"deductions":[{"label":"x","of":{},"amount":100,"gate":{"of":{"on":"taxable"},"below":1000}}]`, `cannot use "on"`},
		{`"credits":[{"label":"x","of":{},"amount":100,"gate":{"of":{"refs":{"later":1}},"below":1000}}]`, "later"},
		{`"credits":[{"label":"x","of":{},"amount":100,"gate":{"of":{"parts":{"wages":1}},"below":1000}}]`, "wages"},
		{`"credits":[{"label":"x","of":{},"amount":100,"gate":{"of":{},"below":1000,"above":1}}]`, "above"},
	} {
		j := `{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},"years":[{"year":2024,"rules":[
 {"id":"b","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1}]}],` + c.adj + `},
 {"id":"later","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1}]}]}]}]}`
		_, err := Parse([]byte(j))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.adj, err, c.want)
		}
	}
}
