package household

import (
	"testing"
)

// supplement returns the country's supplement of kind.
func supplement(t *testing.T, r *Rules, kind string) *Supplement {
	t.Helper()
	for i := range r.Supplements {
		if r.Supplements[i].Kind == kind {
			return &r.Supplements[i]
		}
	}
	t.Fatalf("%s has no supplement %s", r.Country, kind)
	return nil
}

// The GIS of April to June 2026 (canada.ca rate card): a single pensioner's
// 1,109.85 a month at no income, nothing at the 22,512 cut-off; a couple
// on the OAS 668.08 a month each, nothing at 29,760 combined. Between, the
// base reduced 50% (25% each for a couple) and the top-up besides.
func TestCAGISPayment(t *testing.T) {
	g := supplement(t, caRules(t), "ca-gis")
	for _, c := range []struct {
		tag, what string
		m         *MeansRate
		income    float64
		want      float64
	}{
		{"table", "single, no income: the maximum", &g.Single, 0, 1109.85 * 12},
		{"table", "single at the cut-off", &g.Single, 22512, 0},
		{"computed", "single, 10,000: 11,256 - 5,000 + 2,062.20 - 2,000", &g.Single, 10000, 6256 + 62.20},
		{"computed", "single, 15,000: the base only", &g.Single, 15000, 11256 - 7500},
		{"table", "couple, no income: the maximum each", &g.Couple, 0, 668.08 * 12},
		{"table", "couple at the combined cut-off", &g.Couple, 29760, 0},
		{"computed", "couple, 20,000 combined: 7,440 - 5,000", &g.Couple, 20000, 2440},
	} {
		if got := c.m.Payment(c.income, 0, true, 1); !approx(got, c.want, 0.005) {
			t.Errorf("%s (%s): %.2f, want %.2f", c.what, c.tag, got, c.want)
		}
	}
}

// caPensioner is a single Canadian of 66 with the OAS pension from 65, a
// CPP pension and cash to live on.
func caPensioner(t *testing.T, cpp float64, oas bool) Plan {
	r := caRules(t)
	p := Plan{
		People:         []Person{{Age: 66, LifeExpectancy: 69, RetirementAge: 60}},
		Accounts:       []Account{{ID: "cash", Type: "cash", Balance: 3e5, CostBasis: -1}},
		Pensions:       []Pension{{Owner: 0, FromAge: 65, Amount: cpp, Kind: "ca-cpp", Benefit: r.Benefit("ca-cpp"), Country: "CA"}},
		Expenses:       30000,
		Inflation:      0.02,
		StartYear:      2026,
		Residences:     []Residence{{Country: "CA", System: taxSystem(t, "ca"), Year: 2026, Region: "ON"}},
		WithdrawalRate: 0.04,
		Supplements:    []*Supplement{supplement(t, r, "ca-gis")},
	}
	if oas {
		p.Pensions = append(p.Pensions, Pension{Owner: 0, FromAge: 65, Amount: 8900, Kind: "ca-oas", Benefit: r.Benefit("ca-oas"), Country: "CA"})
	}
	return p
}

// A single pensioner with 6,000 of CPP and the OAS: the first year reads
// its own income (no year before in the plan), the next the year before's
// 6,000 against the thresholds moved with prices. Without the OAS there is
// no GIS. The GIS is not taxed.
func TestCAGISInThePlan(t *testing.T) {
	p := caPensioner(t, 6000, true)
	g := p.Supplements[0]
	res := run(t, &p)
	if got, want := res.Extra[0].MeansTested, g.Single.Payment(6000, 0, true, 1); !approx(got, want, 0.01) || want <= 0 {
		t.Errorf("first year GIS %.2f, want %.2f", got, want)
	}
	cpp0 := res.Extra[0].Pensions - res.Extra[0].MeansTested - 8900
	if got, want := res.Extra[1].MeansTested, g.Single.Payment(cpp0, 0, true, 1.02); !approx(got, want, 0.01) {
		t.Errorf("second year GIS %.2f, want %.2f (on last year's %.2f)", got, want, cpp0)
	}
	q := caPensioner(t, 6000, true)
	q.Supplements = nil
	without := run(t, &q)
	if a, b := res.Extra[0].Tax.Total, without.Extra[0].Tax.Total; !approx(a, b, 0.01) {
		t.Errorf("tax %.2f with the GIS, %.2f without: the GIS is not taxed", a, b)
	}
	n := caPensioner(t, 6000, false)
	if got := run(t, &n).Extra[0].MeansTested; got != 0 {
		t.Errorf("GIS %.2f without the OAS pension", got)
	}
}

// The Age Pension from 20 September 2026: a single homeowner of 67 with
// 400,000 of financial assets and no other income. Deemed income 1.75% of
// 66,800 and 3.75% of the rest: 13,664; the income test leaves
// 32,180.20 - 0.5 x (13,664 - 5,876) = 28,286.20, the assets test
// 32,180.20 - 0.078 x 67,000 = 26,954.20, the lower. A renter's assets
// test allows 600,000: the income test decides.
func TestAUAgePension(t *testing.T) {
	r := parseWrapperFile(t, "au")
	ap := supplement(t, r, "au-age-pension")
	for _, c := range []struct {
		tag, what string
		home      bool
		want      float64
	}{
		{"computed", "homeowner: the assets test", true, 26954.20},
		{"computed", "renter: the income test", false, 28286.20},
	} {
		p := Plan{
			People:         []Person{{Age: 67, LifeExpectancy: 70, RetirementAge: 60}},
			Accounts:       []Account{{ID: "t", Type: "taxable", Balance: 4e5, CostBasis: -1}},
			Expenses:       30000,
			StartYear:      2026,
			Residences:     []Residence{{Country: "AU", System: taxSystem(t, "au"), Year: 2026}},
			WithdrawalRate: 0.04,
			Supplements:    []*Supplement{ap},
			NoHome:         !c.home,
		}
		res := run(t, &p)
		if got := res.Extra[0].MeansTested; !approx(got, c.want, 0.01) {
			t.Errorf("%s (%s): %.2f, want %.2f", c.what, c.tag, got, c.want)
		}
		if res.Extra[0].Pensions < c.want-0.01 {
			t.Errorf("%s: pensions %.2f do not hold the Age Pension", c.what, res.Extra[0].Pensions)
		}
	}
	// below pension age, and abroad, nothing
	p := Plan{
		People:         []Person{{Age: 66, LifeExpectancy: 67, RetirementAge: 60}},
		Accounts:       []Account{{ID: "t", Type: "taxable", Balance: 1e5, CostBasis: -1}},
		Expenses:       30000,
		StartYear:      2026,
		Residences:     []Residence{{Country: "AU", System: taxSystem(t, "au"), Year: 2026}},
		WithdrawalRate: 0.04,
		Supplements:    []*Supplement{ap},
	}
	if got := run(t, &p).Extra[0].MeansTested; got != 0 {
		t.Errorf("Age Pension %.2f at 66", got)
	}
	p.People[0].Age, p.People[0].LifeExpectancy = 70, 71
	p.Residences = []Residence{{Country: "GB", System: taxSystem(t, "gb"), Year: 2026}}
	if got := run(t, &p).Extra[0].MeansTested; got != 0 {
		t.Errorf("Age Pension %.2f while living in GB", got)
	}
}

// A couple of 67 and 68, homeowners, 600,000 combined: each is paid the
// couple rate on the combined assets and deemed income. Deemed: 1.75% of
// 110,600 and 3.75% of 489,400 = 20,288; income test 24,258 - 0.25 x
// (20,288 - 10,296) = 21,760; assets test 24,258 - 0.039 x 101,000 =
// 20,319, the lower, each.
func TestAUAgePensionCouple(t *testing.T) {
	r := parseWrapperFile(t, "au")
	p := Plan{
		People:         []Person{{Age: 67, LifeExpectancy: 70, RetirementAge: 60}, {Age: 68, LifeExpectancy: 71, RetirementAge: 60}},
		Accounts:       []Account{{ID: "t", Type: "taxable", Balance: 6e5, CostBasis: -1}},
		Expenses:       40000,
		StartYear:      2026,
		Residences:     []Residence{{Country: "AU", System: taxSystem(t, "au"), Year: 2026}},
		WithdrawalRate: 0.04,
		Supplements:    []*Supplement{supplement(t, r, "au-age-pension")},
	}
	if got := run(t, &p).Extra[0].MeansTested; !approx(got, 2*20319, 0.01) {
		t.Errorf("couple's Age Pension %.2f, want %.2f", got, 2*20319.0)
	}
}

func TestSupplementsAllocateNothing(t *testing.T) {
	p := caPensioner(t, 6000, true)
	var w Work
	var r Result
	if err := Run(&p, &w, &r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(5, func() { _ = Run(&p, &w, &r) }); n != 0 {
		t.Errorf("%v allocations a run", n)
	}
}
