package household

import (
	"math"
	"testing"
)

// A household's savings rate is compute/fi's: the first year's pay less
// its spending, over the pay; after the year's income tax and social
// contributions when the plan is taxed.
func TestSavingsRateOfTheFirstYear(t *testing.T) {
	cases := []struct {
		name     string
		row      Row
		expenses float64
		want     float64
	}{
		{"untaxed", Row{Employment: 80000}, 50000, 0.375},
		{"taxed", Row{Employment: 100000, Tax: Taxes{Income: 20000, Social: 10000, Wealth: 500, Total: 30500}}, 42000, 0.4},
		{"spending above the pay", Row{Employment: 40000}, 50000, -0.25},
		{"no wages", Row{Pensions: 30000}, 20000, 0},
		{"tax above the wages", Row{Employment: 1000, Tax: Taxes{Income: 2000, Total: 2000}}, 0, 0},
	}
	for _, c := range cases {
		if got := savingsRate(&c.row, c.expenses); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: savingsRate = %v, want %v", c.name, got, c.want)
		}
	}
}

// Run reports it: a working household taxed in the US saves its
// take-home pay less its spending, the take-home pay read from the first
// row's wages and taxes; a retired one has none.
func TestRunReportsTheSavingsRate(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 40, 90, account(r, "k", "us-401k", 0, 100000))
	p.People[0].Income = 120000
	p.People[0].RetirementAge = 55
	res := run(t, &p)
	x := res.Extra[0]
	pay := x.Employment - x.Tax.Income - x.Tax.Social
	if x.Employment != 120000 || pay >= 120000 {
		t.Fatalf("first year: wages %v, pay after tax %v", x.Employment, pay)
	}
	if want := (pay - 40000) / pay; math.Abs(res.Summary.SavingsRate-want) > 1e-12 || want <= 0 {
		t.Errorf("savingsRate = %v, want %v", res.Summary.SavingsRate, want)
	}
	p.People[0].RetirementAge = 40
	if got := run(t, &p).Summary.SavingsRate; got != 0 {
		t.Errorf("retired from the start: savingsRate = %v, want 0", got)
	}
}
