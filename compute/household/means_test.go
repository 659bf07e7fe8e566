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

// payment is a rate's worked example: its yearly payment on an income,
// tagged with where the figures come from.
type payment struct {
	tag, what string
	m         *MeansRate
	income    float64
	want      float64
}

func checkPayments(t *testing.T, cases []payment) {
	t.Helper()
	for _, c := range cases {
		if got := c.m.Payment(c.income, 0, true, 1); !approx(got, c.want, 0.005) {
			t.Errorf("%s (%s): %.2f, want %.2f", c.what, c.tag, got, c.want)
		}
	}
}

// The GIS of April to June 2026 (canada.ca rate card): a single pensioner's
// 1,109.85 a month at no income, nothing at the 22,512 cut-off; a couple
// on the OAS 668.08 a month each, nothing at 29,760 combined. Between, the
// base reduced 50% (25% each for a couple) and the top-up besides.
func TestCAGISPayment(t *testing.T) {
	g := supplement(t, caRules(t), "ca-gis")
	checkPayments(t, []payment{
		{"table", "single, no income: the maximum", &g.Single, 0, 1109.85 * 12},
		{"table", "single at the cut-off", &g.Single, 22512, 0},
		{"computed", "single, 10,000: 11,256 - 5,000 + 2,062.20 - 2,000", &g.Single, 10000, 6256 + 62.20},
		{"computed", "single, 15,000: the base only", &g.Single, 15000, 11256 - 7500},
		{"table", "couple, no income: the maximum each", &g.Couple, 0, 668.08 * 12},
		{"table", "couple at the combined cut-off", &g.Couple, 29760, 0},
		{"computed", "couple, 20,000 combined: 7,440 - 5,000", &g.Couple, 20000, 2440},
		{"computed", "partner without OAS, no income: the single maximum", g.Partner, 0, 1109.85 * 12},
		{"computed", "partner without OAS at its cut-off, 12 x 743.05 + 4 x 11,256", g.Partner, 53940.6, 0},
		{"computed", "partner without OAS, 20,000 combined: 11,256 - 0.25 x 11,083.40 + 2,062.20 - 2,000", g.Partner, 20000, 11256 - 0.25*(20000-8916.6) + 62.2},
	})
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
	for name, p := range map[string]Plan{
		"GIS":                      caPensioner(t, 6000, true),
		"GIS and Allowance":        caCouple(t, 62, 6000),
		"Age Pension, super apart": auCouple(t, 58, 55),
	} {
		var w Work
		var r Result
		if err := Run(&p, &w, &r); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(5, func() { _ = Run(&p, &w, &r) }); n != 0 {
			t.Errorf("%s: %v allocations a run", name, n)
		}
	}
}

// The Allowance and the Allowance for the Survivor of April to June 2026,
// computed from the 2024 tables moved by the indexation (the wrapper
// file's notes): the Allowance's 1,411.13 a month at no income and nothing
// at 41,648.80 combined; the survivor's 1,682.16 and nothing at 30,303.04.
// Between, the OAS-equivalent part (743.05 a month) goes at 75 cents a
// dollar first, then the rest at 25 (each of a couple) or 50 cents, the
// top-up besides.
func TestCAAllowancePayment(t *testing.T) {
	a := supplement(t, caRules(t), "ca-allowance")
	checkPayments(t, []payment{
		{"computed", "Allowance, no income: 743.05 + 668.08 a month", &a.Couple, 0, 1411.13 * 12},
		{"computed", "Allowance at its cut-off", &a.Couple, 41648.8, 0},
		{"computed", "Allowance, 8,000 combined: 16,356.60 - 6,000 + 576.96 - 500", &a.Couple, 8000, 10356.60 + 76.96},
		{"computed", "Allowance, 20,000 combined: the OAS part gone, 7,440 - 0.25 x 8,111.20", &a.Couple, 20000, 7440 - 0.25*(20000-11888.8)},
		{"computed", "Allowance for the Survivor, no income: 1,682.16 a month", &a.Single, 0, 1682.16 * 12},
		{"computed", "Allowance for the Survivor at its cut-off", &a.Single, 30303.04, 0},
		{"computed", "Allowance for the Survivor, 12,000: 18,123.72 - 8,916.60 - 0.5 x 111.20, top-up gone", &a.Single, 12000, 18123.72 - 8916.6 - 0.5*(12000-11888.8)},
		{"computed", "Allowance for the Survivor, 4,000: 18,123.72 - 3,000 + 2,062.20 - 500", &a.Single, 4000, 18123.72 - 3000 + 2062.2 - 500},
	})
	// the moved tables' cut-offs (41,658 and 30,337) are within a few
	// dollars of a month of the computed ones
	if got := a.Couple.Payment(41658, 0, true, 1); got != 0 {
		t.Errorf("Allowance at the moved table's cut-off: %.2f", got)
	}
	if got := a.Single.Payment(30200, 0, true, 1); got <= 0 || got > 12*5 {
		t.Errorf("Allowance for the Survivor just below the cut-off: %.2f", got)
	}
}

// The income test's employment exemption (OAS Act s. 2 "income" (b.1)):
// the first 5,000 and half of the next 10,000 of a person's wages are not
// counted; 20,000 of wages count 20,000 - 5,000 - 5,000 = 10,000, 9,000
// count 2,000.
func TestCAGISEmploymentExemption(t *testing.T) {
	g := supplement(t, caRules(t), "ca-gis")
	for _, c := range []struct{ wages, want float64 }{{3000, 0}, {5000, 0}, {9000, 2000}, {15000, 5000}, {20000, 10000}} {
		if got := g.wagesCounted(c.wages, 1); !approx(got, c.want, 1e-9) {
			t.Errorf("wages %.0f count %.2f, want %.2f", c.wages, got, c.want)
		}
	}
	if got := g.wagesCounted(20000*1.1, 1.1); !approx(got, 10000*1.1, 1e-6) {
		t.Errorf("wages moved with prices count %.2f, want %.2f", got, 11000.0)
	}
}

// caCouple is a Canadian pensioner of 66 with the OAS pension and a CPP
// pension, and a partner of the given age with none, cash to live on.
func caCouple(t *testing.T, partnerAge int, cpp float64) Plan {
	p := caPensioner(t, cpp, true)
	r := caRules(t)
	p.People = append(p.People, Person{Age: partnerAge, LifeExpectancy: partnerAge + 6, RetirementAge: 55})
	p.People[0].LifeExpectancy = 72
	p.Pensions = append(p.Pensions, Pension{Owner: 1, FromAge: 65, Amount: 8900, Kind: "ca-oas", Benefit: r.Benefit("ca-oas"), Country: "CA"})
	p.Supplements = append(p.Supplements, supplement(t, r, "ca-allowance"))
	return p
}

// A pensioner of 66 with 6,000 of CPP and the OAS, a partner of 62: the
// partner is paid the Allowance on the couple's 6,000 (the OAS not
// counted), the pensioner the GIS at the couple rate; at 65 the partner's
// own OAS and GIS replace it. A partner of 58 is paid nothing.
func TestCAAllowanceInThePlan(t *testing.T) {
	p := caCouple(t, 62, 6000)
	g, a := p.Supplements[0], p.Supplements[1]
	res := run(t, &p)
	want := g.Couple.Payment(6000, 0, true, 1) + a.Couple.Payment(6000, 0, true, 1)
	if got := res.Extra[0].MeansTested; !approx(got, want, 0.01) {
		t.Errorf("first year: %.2f means-tested, want the GIS %.2f and the Allowance %.2f", got, g.Couple.Payment(6000, 0, true, 1), a.Couple.Payment(6000, 0, true, 1))
	}
	if a.Couple.Payment(6000, 0, true, 1) < 10000 {
		t.Errorf("Allowance on 6,000: %.2f, want most of its maximum", a.Couple.Payment(6000, 0, true, 1))
	}
	// the partner turns 65 in the plan's fourth year: both have the OAS,
	// both the couple's GIS, no Allowance
	y := res.Extra[3]
	inc := y.Pensions - y.MeansTested - 2*8900*pow(1.02, 3)
	if want := 2 * g.Couple.Payment(res.Extra[2].Pensions-res.Extra[2].MeansTested-8900*pow(1.02, 2), 0, true, pow(1.02, 3)); !approx(y.MeansTested, want, 1) {
		t.Errorf("at 65: %.2f means-tested (other income %.2f), want two GIS %.2f", y.MeansTested, inc, want)
	}
	// a partner of 58 is paid nothing; the pensioner, whose partner has no
	// OAS pension, the partner rate: 11,256 - 0.25 x 0 + 2,062.20 - 0.125
	// x 2,000 = 13,068.20
	young := caCouple(t, 58, 6000)
	if got := run(t, &young).Extra[0].MeansTested; !approx(got, 13068.20, 0.01) || !approx(g.Partner.Payment(6000, 0, true, 1), 13068.20, 0.01) {
		t.Errorf("partner of 58: %.2f, want the pensioner's GIS at the partner rate 13,068.20", got)
	}
	// On 35,000 of CPP the couple rate pays nothing (cut-off 29,760); the
	// Allowance 7,440 - 0.25 x (35,000 - 11,888.80) = 1,662.20; the
	// partner rate 11,256 - 0.25 x (35,000 - 8,916.60) = 4,735.15, less the
	// Allowance: 3,072.95 to the pensioner (s. 22(6)). Together 4,735.15.
	rich := caCouple(t, 62, 35000)
	if got := run(t, &rich).Extra[0].MeansTested; !approx(got, 4735.15, 0.01) {
		t.Errorf("35,000 of CPP: %.2f means-tested, want the Allowance 1,662.20 and the reinstated GIS 3,072.95", got)
	}
	// without the OAS pension the partner is paid no Allowance (nor the
	// pensioner a GIS)
	noOAS := caCouple(t, 62, 6000)
	noOAS.Pensions = noOAS.Pensions[:1]
	if got := run(t, &noOAS).Extra[0].MeansTested; got != 0 {
		t.Errorf("no OAS pensioner: %.2f means-tested", got)
	}
}

// The Allowance for the Survivor: the pensioner dies at 67 (the plan's
// second year); from the next year the partner, 63, is paid the survivor's
// rate on their own income; a person alone in the plan is not.
func TestCAAllowanceForTheSurvivor(t *testing.T) {
	p := caCouple(t, 62, 6000)
	p.People[0].LifeExpectancy = 67
	a := p.Supplements[1]
	res := run(t, &p)
	y := res.Extra[2]
	if y.MeansTested <= 0 || y.MeansTested > a.Single.Max*pow(1.02, 2)+0.01 {
		t.Fatalf("survivor at 64: %.2f means-tested", y.MeansTested)
	}
	if y.MeansTested <= a.Couple.Max*pow(1.02, 2) {
		t.Errorf("survivor at 64: %.2f, want the survivor's rate above the Allowance's maximum %.2f on little income", y.MeansTested, a.Couple.Max*pow(1.02, 2))
	}
	alone := Plan{
		People:         []Person{{Age: 62, LifeExpectancy: 64, RetirementAge: 55}},
		Accounts:       []Account{{ID: "cash", Type: "cash", Balance: 3e5, CostBasis: -1}},
		Expenses:       20000,
		StartYear:      2026,
		Residences:     []Residence{{Country: "CA", System: taxSystem(t, "ca"), Year: 2026, Region: "ON"}},
		WithdrawalRate: 0.04,
		Supplements:    []*Supplement{a},
	}
	if got := run(t, &alone).Extra[0].MeansTested; got != 0 {
		t.Errorf("a person alone in the plan: %.2f", got)
	}
}

// Bad supplements do not load: an end before the start, a partner benefit
// the file lacks, a first part beyond the maximum, an exemption of an
// unknown wrapper, negative wages left out.
func TestSupplementErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(s *Supplement)
	}{
		{"toAge", func(s *Supplement) { s.ToAge = 59 }},
		{"partnerNeeds", func(s *Supplement) { s.PartnerNeeds = "ca-nothing" }},
		{"first", func(s *Supplement) { s.Couple.First = s.Couple.Max }},
		{"firstRate", func(s *Supplement) { s.Single.FirstRate = 1.5 }},
		{"cutoff", func(s *Supplement) { s.Single.Cutoff = 1000 }},
		{"exempt", func(s *Supplement) { s.Exempt = &Exempt{Wrappers: []string{"ca-nothing"}, Src: s.Src} }},
		{"exempt empty", func(s *Supplement) { s.Exempt = &Exempt{Src: s.Src} }},
		{"wagesHalf", func(s *Supplement) { s.WagesHalf = -1 }},
		{"partner without needs", func(s *Supplement) { s.Partner = &s.Couple }},
	} {
		r := caRules(t)
		c.edit(supplement(t, r, "ca-allowance"))
		if err := r.checkSupplements(); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if err := caRules(t).checkSupplements(); err != nil {
		t.Errorf("the file's own: %v", err)
	}
}

// auCouple is a homeowner couple: a person of 67 with 400,000 in a taxable
// account and a partner of the given age, retired at retire, with 300,000
// of super.
func auCouple(t *testing.T, partnerAge, retire int) Plan {
	r := parseWrapperFile(t, "au")
	s := acct(r, "au-super", 3e5, -1, 0, 0)
	s.Owner = 1
	return Plan{
		People:         []Person{{Age: 67, LifeExpectancy: 70, RetirementAge: 60}, {Age: partnerAge, LifeExpectancy: partnerAge + 3, RetirementAge: retire}},
		Accounts:       []Account{{ID: "t", Type: "taxable", Balance: 4e5, CostBasis: -1}, s},
		Expenses:       40000,
		StartYear:      2026,
		Residences:     []Residence{{Country: "AU", System: taxSystem(t, "au"), Year: 2026}},
		WithdrawalRate: 0.04,
		Supplements:    []*Supplement{supplement(t, r, "au-age-pension")},
	}
}

// Super in accumulation below Age Pension age is neither deemed nor
// assessed (Social Security Act 1991 s. 1118(1)(f); DSS guide 4.6.5.75).
// The couple of 67 and 58: only the 400,000 counts. Deemed 1.75% of
// 110,600 and 3.75% of 289,400 = 12,788; income test 24,258 - 0.25 x
// (12,788 - 10,296) = 23,635; the assets test (below 499,000) takes
// nothing: 23,635 to the one of pension age. Were the 300,000 counted
// (the engine before): 16,419. A partner of 62, retired, has the super in
// the retirement phase (an account-based pension), which counts at any
// age: 16,419.
func TestAUSuperBelowPensionAge(t *testing.T) {
	for _, c := range []struct {
		tag, what   string
		age, retire int
		want        float64
	}{
		{"computed", "partner of 58, accumulation: not counted", 58, 55, 23635},
		{"computed", "partner of 62, retired: the pension phase counts", 62, 60, 16419},
	} {
		p := auCouple(t, c.age, c.retire)
		if got := run(t, &p).Extra[0].MeansTested; !approx(got, c.want, 0.01) {
			t.Errorf("%s (%s): %.2f, want %.2f", c.what, c.tag, got, c.want)
		}
	}
	// at 67 the accumulation account counts: the partner of 58 reaches it
	// in the plan's tenth year; the year before it is still left out
	p := auCouple(t, 58, 80)
	p.People[0].LifeExpectancy, p.People[1].LifeExpectancy = 80, 70
	res := run(t, &p)
	for _, y := range []int{8, 9} {
		row := res.Extra[y]
		super := res.Accounts(y)[1].Start
		taxable := res.Accounts(y)[0].Start
		if super <= 0 {
			t.Fatalf("year %d: no super left", y)
		}
		assets := taxable
		if y == 9 {
			assets += super
		}
		_ = row
		g := supplement(t, parseWrapperFile(t, "au"), "au-age-pension")
		cpi := 1.0 // the plan's inflation is 0
		deemed := g.Deeming.Deemed(assets, true, cpi)
		want := g.Couple.Payment(deemed, assets, true, cpi)
		if y == 9 {
			want *= 2 // both of pension age
		}
		if got := row.MeansTested; !approx(got, want, 0.5) {
			t.Errorf("year %d (partner %d): %.2f, want %.2f on assets %.0f", y, 58+y, got, want, assets)
		}
	}
}
