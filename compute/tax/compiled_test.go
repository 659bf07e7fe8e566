package tax

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// walkCategories is the walker's tax on in by category, each rounded to
// the cent: the reference the compiled path is held to.
func walkCategories(t testing.TB, y *Year, in *Income, region string, sc *Scale) [numCategories]float64 {
	t.Helper()
	v, err := y.sys.viewFor(y, region, in)
	if err != nil {
		t.Fatal(err)
	}
	var st state
	st.sc = scaleOrNil(sc)
	st.parts, _ = cleanParts(in)
	st.who = filerOf(in, &st.parts)
	st.run(v)
	var cat [numCategories]float64
	for i := range v.rules {
		cat[v.rules[i].Category] += st.amt[i]
	}
	for k := range cat {
		cat[k] = round2(cat[k])
	}
	return cat
}

// toCent reports whether the compiled answer got is the walker's want to
// the cent in every category. The compiled path may add a rule's terms in
// another order than the walker (constants summed once, deductions taken
// together), so the two may part in the last bit before the rounding to
// the cent, and a sum falling on half a cent may then round one cent
// apart: never more.
func toCent(got Categories, want [numCategories]float64) bool {
	g := [numCategories]float64{got.Income, got.Social, got.Capital, got.Regional}
	for k := range g {
		if !centApart(g[k], want[k]) {
			return false
		}
	}
	return true
}

// centApart reports whether a and b are at most a cent apart (with the
// slack of a last bit on amounts up to a billion).
func centApart(a, b float64) bool {
	return math.Abs(a-b) <= 0.01+1e-9*math.Max(1, math.Abs(b))
}

// randomReturn is a return of filing joint or single: each part present
// half the time, from cents to tens of millions (a yen or krona income
// included), a partner's share of the earnings, ages from unknown to 100.
func randomReturn(r *rand.Rand, joint bool) Income {
	amount := func() float64 {
		if r.IntN(2) == 0 {
			return 0
		}
		return math.Round(math.Pow(10, r.Float64()*7.5)*100) / 100
	}
	in := Income{Employment: amount(), SelfEmployment: amount(), Pension: amount(), Interest: amount(),
		Dividends: amount(), CapitalGains: amount(), Age: r.IntN(101)}
	if r.IntN(8) == 0 {
		in.SelfEmployment = -in.SelfEmployment // a loss counts as 0
	}
	if joint {
		in.Joint, in.PartnerAge = true, r.IntN(101)
		in.PartnerEmployment = math.Round(in.Employment*r.Float64()*100) / 100
		in.PartnerSelfEmployment = math.Round(in.SelfEmployment*r.Float64()*100) / 100
		if r.IntN(4) == 0 {
			in.PartnerEmployment = 0
		}
	}
	return in
}

// moved is a scale that moves the year's figures: a path from some years
// before it (a published year deflated, a projected one grown by each
// class's own rule), its prices drawn.
func moved(r *rand.Rand, y *Year, c int) Scale {
	start := c - 1 - r.IntN(c-y.Year+8)
	levels := []float64{1}
	for i := 1; i <= c-start; i++ {
		levels = append(levels, levels[i-1]*(1+r.Float64()*0.12-0.02))
	}
	var sc Scale
	y.Scale(c, &Path{Start: start, Levels: levels, Inflation: 0.03, RealWages: r.Float64() * 0.02}, &sc)
	return sc
}

// TestCompiledMatchesWalker: in every country, every published and
// projected year and every filing the year models, random returns in
// every region (and none) are taxed by the compiled path as by the
// walker to the cent, category by category, with the figures as stored and under
// a moved scale; and GrossFor finds the same gross by both.
func TestCompiledMatchesWalker(t *testing.T) {
	t.Parallel()
	n, grossN := 10000, 100
	if testing.Short() {
		n, grossN = 600, 10
	}
	for _, s := range loadAll(t) {
		t.Run(s.Country, func(t *testing.T) {
			t.Parallel()
			years := make([]*Year, 0, len(s.years)+len(s.projected))
			for i := range s.years {
				years = append(years, &s.years[i])
			}
			for i := range s.projected {
				years = append(years, &s.projected[i])
			}
			for yi, y := range years {
				for _, joint := range []bool{false, true} {
					if joint && !y.view(-1).joint {
						continue
					}
					checkCompiled(t, s, y, joint, n, grossN, uint64(yi))
				}
			}
		})
	}
}

func checkCompiled(t *testing.T, s *System, y *Year, joint bool, n, grossN int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, uint64(len(s.Country))<<8|uint64(s.Country[0])))
	regions := []string{""}
	for _, rg := range s.Regions {
		if v, ok := s.viewOf(y, rg.Code); ok && (!joint || v.joint) {
			regions = append(regions, rg.Code)
		}
	}
	compiled := 0
	for i := 0; i < n; i++ {
		in := randomReturn(r, joint)
		region := regions[r.IntN(len(regions))]
		var sc *Scale
		if i%2 == 1 {
			c := y.Year + r.IntN(3)
			if y.Projected {
				c += r.IntN(50) // decades on: freezes ended, rounding steps in force
			}
			m := moved(r, y, c)
			sc = &m
		}
		c, err := y.Compiled(region, &in)
		if err != nil {
			t.Fatalf("%d %s: %v", y.Year, region, err)
		}
		if c.Walks() == "" {
			compiled++
		}
		got := c.DueByCategory(&in, sc)
		want := walkCategories(t, y, &in, region, sc)
		if !toCent(got, want) {
			t.Fatalf("%d (projected %v) region %q, %+v, scale moved %v: compiled %+v, walker %v", y.Year, y.Projected, region, in, sc.Moved(), got, want)
		}
		if i%16 == 1 {
			// the figures moved once, read with no scale given
			if got := c.Moved(sc).DueByCategory(&in, nil); !toCent(got, want) {
				t.Fatalf("%d (projected %v) region %q, %+v: moved once %+v, walker %v", y.Year, y.Projected, region, in, got, want)
			}
		}
		due, _ := y.Due(&in, region, nil, sc)
		if w := round2(want[0] + want[1] + want[2] + want[3]); !centApart(due, w) {
			t.Fatalf("%d region %q, %+v: Due %v, walker %v", y.Year, region, in, due, w)
		}
		if i < grossN {
			net := math.Round(math.Pow(10, 2+r.Float64()*5)*100) / 100
			g1, ok1, err1 := y.GrossFor(&in, region, nil, sc, net)
			g2, ok2, err2 := y.grossFor(&in, region, nil, sc, net, true)
			if g1 != g2 || ok1 != ok2 || err1 != err2 {
				t.Fatalf("%d region %q, %+v, net %v: GrossFor compiled %v %v %v, walker %v %v %v", y.Year, region, in, net, g1, ok1, err1, g2, ok2, err2)
			}
		}
	}
	if compiled == 0 {
		t.Errorf("%d: no return of %d took the compiled path", y.Year, n)
	}
}

// TestCompiledWalksUnknownConstructs: a rule holding a construct the
// compiler does not know (here: it is told it does not know PerEarner)
// is evaluated by the walker, and the answers stay the walker's.
func TestCompiledWalksUnknownConstructs(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "US")
	rule := handledFields[reflect.TypeFor[Rule]()]
	delete(rule, "PerEarner")
	defer func() { rule["PerEarner"] = true }()
	y := s.At(s.Latest())
	in := Income{Employment: 250000, PartnerEmployment: 190000, Age: 50, PartnerAge: 48, Joint: true}
	c, err := y.Compiled("", &in)
	if err != nil {
		t.Fatal(err)
	}
	if c.Walks() == "" {
		t.Fatal("a rule with an unknown construct was compiled")
	}
	want := walkCategories(t, y, &in, "", nil)
	if got := c.DueByCategory(&in, nil); !toCent(got, want) {
		t.Fatalf("walked %+v, walker %v", got, want)
	}
	// the payroll tax is charged per earner: the two wage bases, not one
	if want[Social] <= 0 {
		t.Fatalf("social %v", want[Social])
	}
	g, ok, err := y.GrossFor(&in, "", nil, nil, 300000)
	g2, ok2, err2 := y.grossFor(&in, "", nil, nil, 300000, true)
	if g != g2 || ok != ok2 || err != err2 || !ok {
		t.Fatalf("GrossFor %v %v %v, walker %v %v %v", g, ok, err, g2, ok2, err2)
	}
}

// TestUnhandledFindsFields: every field of a rule is either translated
// by the compiler or, set, sends the rule to the walker.
func TestUnhandledFindsFields(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "GB")
	y := s.At(s.Latest())
	for i := range y.Rules {
		if why := unhandled(&y.Rules[i]); why != "" {
			t.Fatalf("rule %s: %s", y.Rules[i].ID, why)
		}
	}
	r := y.Rules[0]
	r.Layers = append([]Layer(nil), r.Layers...)
	r.Layers[0].Base.Refs = []Ref{{Rule: 0, Layer: -1, What: 7, Weight: 1}}
	if unhandled(&r) == "" {
		t.Fatal("a reference to an unknown value was taken as known")
	}
}

// TestCompiledKinds: one evaluator serves every return of one kind, and
// returns that differ in a condition get their own.
func TestCompiledKinds(t *testing.T) {
	s := loadSystem(t, "US")
	y := s.At(2026)
	get := func(in Income) *Compiled {
		c, err := y.Compiled("", &in)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := get(Income{Pension: 50000, Age: 70, PartnerAge: 68, Joint: true})
	if b := get(Income{Pension: 90000, Age: 80, PartnerAge: 72, Joint: true}); a != b {
		t.Error("two couples over 65 got two evaluators")
	}
	if b := get(Income{Pension: 50000, Age: 70, PartnerAge: 60, Joint: true}); a == b {
		t.Error("a couple with one spouse under 65 shares the evaluator of two over 65")
	}
	if b := get(Income{Pension: 50000, Age: 70}); a == b || b.Joint() {
		t.Error("a single return shares the joint one's evaluator")
	}
	if _, err := s.At(2026).Compiled("XX", &Income{}); err != ErrRegion {
		t.Errorf("unknown region: %v", err)
	}
	in := Income{Pension: 50000, Age: 70, PartnerAge: 68, Joint: true}
	if allocs := testing.AllocsPerRun(100, func() { a.Due(&in, nil) }); allocs != 0 {
		t.Errorf("Due allocates %v times", allocs)
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = y.Compiled("", &in) }); allocs != 0 {
		t.Errorf("finding a compiled kind allocates %v times", allocs)
	}
}

// TestCompiledBandsOutOfOrder: under a scale decades on, a threshold
// fixed in money (the UK additional rate's) falls below one that is
// indexed after its freeze (the higher rate's), and the compiled path
// charges the bands as the walker does, in their stored order.
func TestCompiledBandsOutOfOrder(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "GB")
	y := s.At(2076)
	var sc Scale
	y.Scale(2076, &Path{Start: 2026, Inflation: 0.03, RealWages: s.RealWageGrowth()}, &sc)
	in := Income{Pension: 34707.08, Age: 85}
	var res Result
	if err := y.Calculate(&in, "", &sc, &res); err != nil {
		t.Fatal(err)
	}
	top := 0.0
	for _, l := range res.Breakdown() {
		if l.Kind == KindBand {
			top = l.Rate
		}
	}
	if top != 0.45 {
		t.Fatalf("the additional rate's threshold did not fall below the income: top band %v", top)
	}
	c, err := y.Compiled("", &in)
	if err != nil {
		t.Fatal(err)
	}
	for p := 20000.0; p < 60000; p += 37.19 {
		in.Pension = p
		got := c.DueByCategory(&in, &sc)
		if want := walkCategories(t, y, &in, "", &sc); !toCent(got, want) {
			t.Fatalf("pension %v: compiled %+v, walker %v", p, got, want)
		}
	}
}
