package household

import (
	"testing"

	"fiplan/compute/tax"
)

// auSuper decodes Australia's wrapper file and returns its super fund.
func auSuper(t *testing.T) *Wrapper {
	t.Helper()
	r := parseWrapperFile(t, "au")
	if len(r.Benefits) != 0 {
		t.Errorf("AU lists benefits %v; the means-tested Age Pension is left out", r.Benefits)
	}
	w := r.Wrapper("au-super")
	if w == nil {
		t.Fatal("no au-super")
	}
	return w
}

// Concessional contributions caps, by the income year that begins on 1 July
// of the year given.
func TestAUSuperCaps(t *testing.T) {
	c := auSuper(t).Contrib
	for _, tc := range []struct {
		year int
		want float64
	}{{2023, 27500}, {2024, 30000}, {2025, 30000}, {2026, 32500}} {
		if got, ok := c.LimitFor(tc.year, 45, 1); !ok || got != tc.want {
			t.Errorf("table: concessional cap %d-%02d %v, want %v", tc.year, (tc.year+1)%100, got, tc.want)
		}
	}
	// Computed: indexed after the last year on file (the law indexes to
	// earnings in steps of 2,500; inflation stands in for it here).
	if got, _ := c.LimitFor(2029, 45, 1.1); !approx(got, 35750, 1e-6) {
		t.Errorf("computed: cap 2029-30 at 10%% growth %v, want 35,750", got)
	}
	if !c.PreTax || !c.Employer || !c.EmployerInLimit {
		t.Errorf("concessional contributions: preTax %v employer %v employerInLimit %v, want all true", c.PreTax, c.Employer, c.EmployerInLimit)
	}
}

// The 15% contributions tax and the 15% tax on earnings in the fund.
func TestAUSuperTax(t *testing.T) {
	w := auSuper(t)
	// Computed from the rules: a full 30,000 of concessional contributions
	// in 2024-25 pays 4,500 of contributions tax, leaving 25,500 invested.
	limit, _ := w.Contrib.LimitFor(2024, 45, 1)
	tax := limit * w.Contrib.Tax
	if tax != 4500 || limit-tax != 25500 {
		t.Errorf("computed: contributions tax %v leaving %v, want 4,500 and 25,500", tax, limit-tax)
	}
	// Computed: 10,000 of earnings in accumulation pays 1,500.
	if got := 10000 * w.EarningsTax; got != 1500 {
		t.Errorf("computed: earnings tax on 10,000 %v, want 1,500", got)
	}
	if w.Withdrawal.Taxed != TaxedNone {
		t.Errorf("benefits from 60 are tax-free: taxed %v", w.Withdrawal.Taxed)
	}
}

// Preservation age: 60 for people born on or after 1 July 1964, and the money
// is locked before it.
func TestAUSuperPreservationAge(t *testing.T) {
	a := auSuper(t).Access
	if !a.Locked || a.Penalty != 0 {
		t.Errorf("super is locked before preservation age: %+v", a)
	}
	for _, tc := range []struct {
		born int
		want float64
	}{{1958, 55}, {1960, 56}, {1962, 58}, {1963, 59}, {1964, 60}, {1985, 60}} {
		if got := ByBirth(a.ByBirth, tc.born); got != tc.want {
			t.Errorf("table: born %d, preservation age %v, want %v", tc.born, got, tc.want)
		}
	}
}

// The wrapper ids the contract names for these three countries exist with
// the kind it implies.
func TestContractWrapperIDsGBCAAU(t *testing.T) {
	want := map[string]map[string]Kind{
		"gb": {"gb-isa": KindTaxFree, "gb-lisa": KindTaxFree, "gb-sipp": KindPension},
		"ca": {"ca-rrsp": KindTaxDeferred, "ca-tfsa": KindTaxFree},
		"au": {"au-super": KindPension},
	}
	benefits := map[string][]string{"gb": {"gb-state-pension"}, "ca": {"ca-cpp", "ca-oas"}}
	for cc, ids := range want {
		r := parseWrapperFile(t, cc)
		for id, kind := range ids {
			w := r.Wrapper(id)
			if w == nil {
				t.Errorf("%s: no wrapper %s", cc, id)
				continue
			}
			if w.Kind != kind {
				t.Errorf("%s: kind %v, want %v", id, w.Kind, kind)
			}
		}
		for _, kind := range benefits[cc] {
			if r.Benefit(kind) == nil {
				t.Errorf("%s: no benefit %s", cc, kind)
			}
		}
	}
}

// auPlan is one Australian of age, retiring at retire, with a super
// balance, a 7% return and no inflation, taxed under the 2025-26 rules.
func auPlan(t *testing.T, age, retire int, income, bal float64) Plan {
	t.Helper()
	r := parseWrapperFile(t, "au")
	return Plan{
		People:         []Person{{Age: age, LifeExpectancy: age + 3, RetirementAge: retire, Income: income}},
		Accounts:       []Account{acct(r, "au-super", bal, -1, 0, 0)},
		Expenses:       40000,
		Return:         0.07,
		StartYear:      2025,
		Residences:     []Residence{{Country: "AU", System: taxSystem(t, "au"), Year: 2025}},
		WithdrawalRate: 0.04,
	}
}

// The retirement phase: from 60, retired, the balance up to the transfer
// balance cap (2,000,000 in 2025-26) earns untaxed (ITAA 1997 s 295-385);
// the rest stays in accumulation at 15%, and the tax is in the row's income
// tax. Computed from the statute's rules.
func TestAUSuperRetirementPhase(t *testing.T) {
	t.Parallel()
	// 1,000,000, all under the cap: no tax at all.
	p := auPlan(t, 60, 60, 0, 1e6)
	res := run(t, &p)
	a := res.Accounts(0)[0]
	if x := res.Extra[0]; x.Tax.Total != 0 || !approx(a.Growth, 0.07*(1e6-a.Withdrawals), 0.01) {
		t.Errorf("1,000,000 retired at 60: growth %v taxed %+v, want the whole 7%% untaxed", a.Growth, x.Tax)
	}
	// 3,000,000: a third stays in accumulation.
	p = auPlan(t, 60, 60, 0, 3e6)
	res = run(t, &p)
	for y := 0; y < 2; y++ {
		a := res.Accounts(y)[0]
		g := 0.07 * (a.Start - a.Withdrawals)
		accum := 1.0 / 3
		if y == 1 {
			// the accumulation part grew less (taxed), the phase part
			// more; both were drawn in proportion
			start := res.Accounts(0)[0]
			ph := 2e6 * (start.Start - start.Withdrawals) / start.Start * 1.07
			accum = 1 - ph/start.End
		}
		want := 0.15 * g * accum
		if x := res.Extra[y]; !approx(x.Tax.Income, want, 0.01) || !approx(x.Tax.Total, want, 0.01) || !approx(a.Growth, g-want, 0.01) {
			t.Errorf("3,000,000, year %d: growth %v taxed %+v, want %v of earnings tax on %v", y, a.Growth, x.Tax, want, g)
		}
	}
	if !approx(res.LifetimeTax, res.Extra[0].Tax.Total+res.Extra[1].Tax.Total+res.Extra[2].Tax.Total, 0.01) {
		t.Errorf("lifetime tax %v leaves out the earnings tax", res.LifetimeTax)
	}
	// Still working at 62: all of the fund is in accumulation, and the
	// 15% shows beside the income tax on the wages.
	p = auPlan(t, 62, 65, 100000, 1e6)
	res = run(t, &p)
	c, err := tax.DueByCategory(taxSystem(t, "au"), 2025, &tax.Income{Employment: 100000, Age: 62}, "")
	if err != nil {
		t.Fatal(err)
	}
	if x := res.Extra[0]; !approx(x.Tax.Income, c.Income+c.Regional+0.15*70000, 0.01) {
		t.Errorf("working at 62: income tax %v, want %v on wages and 10,500 on earnings", x.Tax.Income, c.Income+c.Regional)
	}
}

// The transfer balance cap is indexed to prices in steps of 100,000,
// rounded down (ITAA 1997 s 960-285). Computed.
func TestAUTransferBalanceCap(t *testing.T) {
	t.Parallel()
	ph := auSuper(t).Phase
	for _, c := range []struct {
		year       int
		infl, want float64
	}{{2017, 1, 1600000}, {2024, 1, 1900000}, {2025, 1, 2000000}, {2030, 1.04, 2000000}, {2030, 1.1, 2200000}} {
		if got := ph.CapFor(c.year, c.infl); got != c.want {
			t.Errorf("cap %d at index %v: %v, want %v", c.year, c.infl, got, c.want)
		}
	}
}
