package tax

import (
	"errors"
	"math"
	"testing"
)

// synthetic is a small Italian-style system for the regimes of countries
// that have no parameter file yet: the IRPEF bands for 2024 (23% to 28,000,
// 35% to 50,000, 43% above: art. 11 TUIR as amended by d.lgs. 216/2023) and
// an employee social contribution of 9.19% (INPS, IVS employee share),
// without the deductions and credits of the real system, so that every
// expected figure can be checked by hand.
const synthetic = `{
  "country": "IT", "name": "Italy (synthetic test system)", "currency": "EUR",
  "documents": {"tuir": {"publisher": "Repubblica Italiana", "title": "TUIR (DPR 917/1986) as amended by d.lgs. 216/2023"},
                "inps": {"publisher": "INPS", "title": "Aliquote contributive IVS 2024"}},
  "years": [{"year": 2024, "rules": [
    {"id": "inps", "label": "INPS employee share", "category": "social", "src": [{"doc": "inps", "sec": "IVS"}],
     "layers": [{"id": "w", "label": "wages", "base": {"parts": {"employment": 1}}, "bands": [{"from": 0, "rate": 0.0919}]}]},
    {"id": "irpef", "label": "IRPEF", "category": "income", "src": [{"doc": "tuir", "sec": "art. 11"}],
     "layers": [{"id": "all", "label": "all income",
       "base": {"parts": {"employment": 1, "selfEmployment": 1, "pension": 1, "interest": 1, "dividends": 1, "capitalGains": 1}},
       "bands": [{"from": 0, "rate": 0.23}, {"from": 28000, "rate": 0.35}, {"from": 50000, "rate": 0.43}]}]}
  ]}]
}`

func syntheticSystem(t testing.TB) *System {
	t.Helper()
	s, err := Parse([]byte(synthetic))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// irpef is the synthetic system's income tax on x, by hand.
func irpef(x float64) float64 {
	return 0.23*math.Min(x, 28000) + 0.35*math.Max(0, math.Min(x, 50000)-28000) + 0.43*math.Max(0, x-50000)
}

func covering(t Treatment, parts ...Part) RegimeRule {
	r := RegimeRule{Treatment: t, Label: t.String()}
	for _, p := range parts {
		r.Parts[p] = true
		r.PartLabels[p] = p.String() + ": " + t.String()
	}
	return r
}

var allParts = []Part{Employment, SelfEmployment, Pension, Interest, Dividends, CapitalGains}

func regimeOf(rules ...RegimeRule) *Regime {
	rg := &Regime{ID: "test", Label: "test regime"}
	for _, r := range rules {
		if !rg.Add(r) {
			panic("too many rules")
		}
	}
	return rg
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 0.005 {
		t.Errorf("%s: got %.4f, want %.4f", what, got, want)
	}
}

func apply(t *testing.T, s *System, in Income, rg *Regime) (*Result, RegimeEffect) {
	t.Helper()
	var r Result
	eff, err := ApplyRegime(s, s.Latest(), &in, "", rg, &r)
	if err != nil {
		t.Fatal(err)
	}
	// The breakdown and the totals add up to the result.
	progLines, totals := 0.0, 0.0
	for _, l := range r.Breakdown() {
		if l.Kind == KindProgram {
			progLines += l.Amount
		}
	}
	for _, x := range r.RuleTotals() {
		totals += x.Amount
	}
	near(t, "program lines vs effect", progLines, eff.Tax)
	near(t, "rule totals vs total", totals, r.TotalTax)
	near(t, "categories vs total", r.IncomeTax+r.SocialContributions+r.CapitalTax+r.RegionalTax, r.TotalTax)
	if tt, err := Due(s, s.Latest(), &in, "", rg); err != nil || tt != r.TotalTax {
		t.Errorf("Due %v (%v), ApplyRegime %v", tt, err, r.TotalTax)
	}
	if t.Failed() {
		for _, l := range r.Breakdown() {
			t.Logf("%-8s %-8s %-40s base %12.2f rate %.4f amount %12.2f", l.Rule, l.Kind, l.Label, l.Base, l.Rate, l.Amount)
		}
	}
	return &r, eff
}

// Italy's 7% regime for pensioners (art. 24-ter TUIR): 7% on all foreign
// income instead of IRPEF. A 50,000 foreign pension pays 3,500.
func TestRegimeItalyPensionerFlat7(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	flat := covering(TreatFlat, allParts...)
	flat.Rate = 0.07
	r, eff := apply(t, s, Income{Pension: 50000}, regimeOf(flat))
	near(t, "incomeTax", r.IncomeTax, 3500)
	near(t, "totalTax", r.TotalTax, 3500)
	near(t, "social", r.SocialContributions, 0)
	near(t, "effectiveRate", r.EffectiveRate, 0.07)
	near(t, "marginalRate", r.MarginalRate, 0.07)
	// Without the regime: 28,000 × 23% + 22,000 × 35% = 6,440 + 7,700.
	near(t, "without", eff.Without, 14140)
	near(t, "relieved", eff.Relieved, 50000)
	near(t, "regime tax", eff.Tax, 3500)
	if l := r.Lines[0]; l.Kind != KindProgram || l.Rule != "test" || l.Base != 50000 || l.Rate != 0.07 || math.Abs(l.Amount-3500) > 1e-9 {
		t.Errorf("first line %+v", l)
	}
	if r.Totals[0].Rule != "test" || r.Totals[0].Amount != 3500 {
		t.Errorf("first total %+v", r.Totals[0])
	}
}

// Italy's lump sum for new residents (art. 24-bis TUIR): 200,000 a year
// replaces the tax on foreign income; Italian income stays under IRPEF.
func TestRegimeLumpSum(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	lump := covering(TreatLumpSum, Dividends) // the foreign part
	lump.Amount = 200000
	r, eff := apply(t, s, Income{Employment: 50000, Dividends: 1e6}, regimeOf(lump))
	near(t, "incomeTax", r.IncomeTax, irpef(50000)+200000) // 14,140 + 200,000
	near(t, "social", r.SocialContributions, 0.0919*50000)
	near(t, "totalTax", r.TotalTax, 14140+200000+4595)
	near(t, "without", eff.Without, irpef(1.05e6)+4595) // 444,140 + 4,595
	near(t, "marginal on the dividends", r.MarginalRate, 0)

	// No covered income: no lump sum, the normal rules alone.
	r, eff = apply(t, s, Income{Employment: 50000}, regimeOf(lump))
	near(t, "no covered income", r.TotalTax, 14140+4595)
	near(t, "regime tax", eff.Tax, 0)
}

// A foreign pension exempt under a territorial regime: the rest is taxed as
// if the pension were not there; social contributions do not change.
func TestRegimeExemptForeignPension(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	rg := regimeOf(covering(TreatExempt, Pension))
	r, eff := apply(t, s, Income{Employment: 40000, Pension: 30000}, rg)
	near(t, "incomeTax", r.IncomeTax, 6440+4200) // IRPEF on 40,000
	near(t, "social", r.SocialContributions, 3676)
	near(t, "totalTax", r.TotalTax, 6440+4200+3676)
	near(t, "without", eff.Without, irpef(70000)+3676)
	near(t, "relieved", eff.Relieved, 30000)
	near(t, "effectiveRate", r.EffectiveRate, (6440+4200+3676)/70000.0)

	// The same on a real system: every category but social equals the
	// calculation without the pension; social equals the one with it.
	for _, sys := range loadAll(t) {
		in := Income{Employment: 60000, Pension: 25000, Dividends: 4000}
		var got, without, with Result
		if _, err := ApplyRegime(sys, sys.Latest(), &in, "", rg, &got); err != nil {
			t.Fatal(err)
		}
		noPension := in
		noPension.Pension = 0
		if err := Calculate(sys, sys.Latest(), &noPension, "", &without); err != nil {
			t.Fatal(err)
		}
		if err := Calculate(sys, sys.Latest(), &in, "", &with); err != nil {
			t.Fatal(err)
		}
		if got.SocialContributions != with.SocialContributions {
			t.Errorf("%s social %v, want %v", sys.Country, got.SocialContributions, with.SocialContributions)
		}
		// Social contributions that the income tax deducts or absorbs
		// credits from (DE, FR, NL) may differ with the pension taken out.
		if got.CapitalTax != without.CapitalTax {
			t.Errorf("%s capital %v, want %v", sys.Country, got.CapitalTax, without.CapitalTax)
		}
		if sys.Country == "US" || sys.Country == "GB" {
			if got.IncomeTax != without.IncomeTax {
				t.Errorf("%s income tax %v, want %v", sys.Country, got.IncomeTax, without.IncomeTax)
			}
		}
	}
}

// Partly exempt work income: the Dutch 30% ruling (no floor), Ireland's
// SARP (30% of the income between 100,000 and 1,000,000) and Cyprus's 20%
// exemption capped at 8,550.
func TestRegimePartialExempt(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	cases := []struct {
		name                 string
		fraction, floor, cap float64
		reliefCap            float64
		wage, relief         float64
	}{
		{"30% ruling", 0.3, 0, 246000, 0, 100000, 30000},
		{"30% ruling above the cap", 0.3, 0, 246000, 0, 300000, 73800},
		{"SARP floor", 0.3, 100000, 1e6, 0, 300000, 60000},
		{"SARP below the floor", 0.3, 100000, 1e6, 0, 90000, 0},
		{"20% capped at 8,550", 0.2, 0, 0, 8550, 100000, 8550},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pe := covering(TreatPartialExempt, Employment)
			pe.Fraction, pe.Floor, pe.Cap, pe.ReliefCap = c.fraction, c.floor, c.cap, c.reliefCap
			r, eff := apply(t, s, Income{Employment: c.wage}, regimeOf(pe))
			near(t, "relieved", eff.Relieved, c.relief)
			near(t, "incomeTax", r.IncomeTax, irpef(c.wage-c.relief))
			near(t, "social on the whole wage", r.SocialContributions, 0.0919*c.wage)
			near(t, "regime tax", eff.Tax, 0)
		})
	}
}

// Malta's retirement programme: 15% on foreign pension and investment
// income remitted, at least 7,500 a year.
func TestRegimeMinimumTax(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	flat := covering(TreatFlat, Pension, Interest, Dividends)
	flat.Rate = 0.15
	minimum := covering(TreatMinimumTax, Pension, Interest, Dividends)
	minimum.Amount = 7500
	rg := regimeOf(flat, minimum)
	r, eff := apply(t, s, Income{Pension: 20000}, rg) // 3,000 + a top-up of 4,500
	near(t, "regime tax", eff.Tax, 7500)
	near(t, "totalTax", r.TotalTax, 7500)
	last := r.Lines[1]
	if last.Kind != KindProgram || last.Label != "minimumTax" || last.Base != 3000 || last.Amount != 4500 {
		t.Errorf("top-up line %+v", last)
	}
	r, eff = apply(t, s, Income{Pension: 60000}, rg) // 9,000: above the minimum
	near(t, "regime tax", eff.Tax, 9000)
	if r.NLines != 1 {
		t.Errorf("%d lines, want the flat line alone", r.NLines)
	}
	r, _ = apply(t, s, Income{Employment: 30000}, rg) // nothing covered: no minimum
	near(t, "uncovered", r.TotalTax, irpef(30000)+0.0919*30000)
}

// Spain's Beckham law: 24% on work income up to 600,000; above that the
// normal rules apply (here).
func TestRegimeFlatCap(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	flat := covering(TreatFlat, Employment)
	flat.Rate, flat.Cap = 0.24, 600000
	r, eff := apply(t, s, Income{Employment: 700000}, regimeOf(flat))
	near(t, "regime tax", eff.Tax, 144000)
	near(t, "incomeTax", r.IncomeTax, 144000+irpef(100000))
	near(t, "social", r.SocialContributions, 0.0919*700000)
	near(t, "marginal above the cap", r.MarginalRate, 0.43+0.0919)
}

// A part covered by two taxing rules belongs to the first.
func TestRegimeFirstRuleWins(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	flat := covering(TreatFlat, Pension)
	flat.Rate = 0.1
	r, _ := apply(t, s, Income{Pension: 40000}, regimeOf(flat, covering(TreatExempt, Pension, Dividends)))
	near(t, "flat, not exempt", r.TotalTax, 4000)
	r, _ = apply(t, s, Income{Pension: 40000, Dividends: 1000}, regimeOf(flat, covering(TreatExempt, Pension, Dividends)))
	near(t, "dividends exempt by the second", r.TotalTax, 4000)
}

func TestRegimeErrors(t *testing.T) {
	t.Parallel()
	s := syntheticSystem(t)
	in := Income{Pension: 1000}
	var r Result
	ok := regimeOf(covering(TreatExempt, Pension))
	if _, err := ApplyRegime(s, 2023, &in, "", ok, &r); !errors.Is(err, ErrYear) {
		t.Errorf("year: %v", err)
	}
	if _, err := ApplyRegime(s, 2024, &in, "XX", ok, &r); !errors.Is(err, ErrRegion) {
		t.Errorf("region: %v", err)
	}
	bad := []RegimeRule{
		{Treatment: 0},
		{Treatment: TreatMinimumTax + 1},
		{Treatment: TreatFlat, Rate: 1.5},
		{Treatment: TreatPartialExempt, Fraction: -0.1},
		{Treatment: TreatLumpSum, Amount: -1},
		{Treatment: TreatFlat, Rate: math.NaN()},
		{Treatment: TreatFlat, Cap: math.Inf(1)},
	}
	for _, b := range bad {
		if _, err := ApplyRegime(s, 2024, &in, "", regimeOf(b), &r); !errors.Is(err, ErrRegime) {
			t.Errorf("%+v: %v", b, err)
		}
		if _, err := Due(s, 2024, &in, "", regimeOf(b)); !errors.Is(err, ErrRegime) {
			t.Errorf("Due %+v: %v", b, err)
		}
	}
	full := &Regime{}
	for full.Add(covering(TreatExempt, Pension)) {
	}
	if full.N != MaxRegimeRules {
		t.Fatalf("Add filled %d rules", full.N)
	}
	full.N = MaxRegimeRules + 1
	if _, err := ApplyRegime(s, 2024, &in, "", full, &r); !errors.Is(err, ErrRegime) {
		t.Errorf("too many rules: %v", err)
	}
	// The empty regime is the normal rules.
	var plain Result
	if err := Calculate(s, 2024, &in, "", &plain); err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyRegime(s, 2024, &in, "", &Regime{}, &r); err != nil || r.TotalTax != plain.TotalTax || r.MarginalRate != plain.MarginalRate {
		t.Errorf("empty regime: %v %v, want %v", err, r.TotalTax, plain.TotalTax)
	}
}

// Due is the total Calculate reports, in every loaded country.
func TestDueMatchesCalculate(t *testing.T) {
	t.Parallel()
	incomes := []Income{
		{},
		{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000},
		{SelfEmployment: 40000, Pension: 20000},
		{Pension: 30000, Dividends: 20000, CapitalGains: 15000},
		{Employment: 400000},
	}
	for _, s := range loadAll(t) {
		for _, y := range s.Years() {
			for _, in := range incomes {
				var r Result
				if err := Calculate(s, y, &in, "", &r); err != nil {
					t.Fatal(err)
				}
				got, err := Due(s, y, &in, "", nil)
				if err != nil || got != r.TotalTax {
					t.Errorf("%s %d %+v: Due %v (%v), Calculate %v", s.Country, y, in, got, err, r.TotalTax)
				}
			}
		}
	}
}

// ApplyRegime and Due allocate nothing.
func TestRegimeAllocs(t *testing.T) {
	s := loadSystem(t, "us")
	flat := covering(TreatFlat, Pension, Dividends)
	flat.Rate = 0.07
	minimum := covering(TreatMinimumTax, Pension)
	minimum.Amount = 5000
	rg := regimeOf(flat, covering(TreatPartialExempt, Employment), minimum)
	rg.Rules[1].Fraction = 0.3
	in := Income{Employment: 85000, Pension: 20000, Dividends: 3000, CapitalGains: 5000}
	var r Result
	if n := testing.AllocsPerRun(100, func() {
		if _, err := ApplyRegime(s, 2024, &in, "", rg, &r); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("ApplyRegime: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := Due(s, 2024, &in, "", rg); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Due: %v allocations", n)
	}
}

func TestTreatmentNames(t *testing.T) {
	t.Parallel()
	for tr := TreatFlat; tr <= TreatMinimumTax; tr++ {
		if got, ok := ParseTreatment(tr.String()); !ok || got != tr {
			t.Errorf("%v round trip: %v %v", tr, got, ok)
		}
	}
	if _, ok := ParseTreatment(""); ok {
		t.Error("empty name parsed")
	}
	if Treatment(0).String() != "invalid" || KindProgram.String() != "program" {
		t.Error("names")
	}
}

// GrossFor inverts the tax: the gross whose after-tax amount is net.
func TestGrossFor(t *testing.T) {
	s := syntheticSystem(t)
	flat := covering(TreatFlat, allParts...)
	flat.Rate = 0.07
	lump := covering(TreatLumpSum, Dividends)
	lump.Amount = 100000
	cases := []struct {
		name      string
		mix       Income
		rg        *Regime
		net, want float64
	}{
		// 7% of everything: gross = net / 0.93.
		{"flat 7%", Income{Pension: 1}, regimeOf(flat), 40000, 40000 / 0.93},
		// Exempt: gross = net.
		{"exempt", Income{Pension: 5, Dividends: 5}, regimeOf(covering(TreatExempt, Pension, Dividends)), 40000, 40000},
		// IRPEF alone, in the 35% band: g − (6,440 + 0.35 (g − 28,000)) =
		// 30,000, so 0.65 g = 26,640 and g = 40,984.62.
		{"progressive", Income{Pension: 3}, nil, 30000, 26640 / 0.65},
		// A lump sum of 100,000 on dividends: g − 100,000 = 50,000.
		{"lump sum", Income{Dividends: 1}, regimeOf(lump), 50000, 150000},
		// Half pension (taxed), half exempt dividends: 60,000 is 30,000 of
		// each, IRPEF on 30,000 is 6,440 + 700 = 7,140, leaving 52,860.
		{"mixed", Income{Pension: 1, Dividends: 1}, regimeOf(covering(TreatExempt, Dividends)), 52860, 60000},
		{"nothing to cover", Income{Pension: 1}, nil, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, ok, err := GrossFor(s, 2024, &c.mix, "", c.rg, c.net)
			if err != nil || !ok || math.Abs(g-c.want) > 0.011 {
				t.Fatalf("GrossFor = %.4f %v %v, want %.4f", g, ok, err, c.want)
			}
			if c.net == 0 {
				return
			}
			left := func(g float64) float64 {
				parts, total := cleanParts(&c.mix)
				in := Income{Employment: parts[0] / total * g, SelfEmployment: parts[1] / total * g, Pension: parts[2] / total * g,
					Interest: parts[3] / total * g, Dividends: parts[4] / total * g, CapitalGains: parts[5] / total * g}
				tt, err := Due(s, 2024, &in, "", c.rg)
				if err != nil {
					t.Fatal(err)
				}
				return g - tt
			}
			if left(g) < c.net-1e-9 || left(g-0.02) >= c.net {
				t.Errorf("gross %.4f leaves %.4f, 2 cents less leaves %.4f; net %.2f", g, left(g), left(g-0.02), c.net)
			}
		})
	}
	// On every real system the answer leaves the net, as the search says.
	for _, sys := range loadAll(t) {
		mix := Income{Pension: 20000, Dividends: 15000, CapitalGains: 10000, Interest: 2000}
		g, ok, err := GrossFor(sys, sys.Latest(), &mix, "", nil, 48000)
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", sys.Country, ok, err)
		}
		scale := g / mix.Total()
		in := Income{Pension: 20000 * scale, Dividends: 15000 * scale, CapitalGains: 10000 * scale, Interest: 2000 * scale}
		tt, _ := Due(sys, sys.Latest(), &in, "", nil)
		if g-tt < 48000-1e-6 || g-tt > 48000+0.05*g {
			t.Errorf("%s: gross %.2f leaves %.2f", sys.Country, g, g-tt)
		}
	}
	if _, ok, _ := GrossFor(s, 2024, &Income{}, "", nil, 1000); ok {
		t.Error("no income mix: found a gross")
	}
	if _, _, err := GrossFor(s, 2023, &Income{Pension: 1}, "", nil, 1000); !errors.Is(err, ErrYear) {
		t.Errorf("year: %v", err)
	}
	rg := regimeOf(flat)
	mix := Income{Pension: 1, Dividends: 2}
	if n := testing.AllocsPerRun(50, func() {
		if _, _, err := GrossFor(s, 2024, &mix, "", rg, 50000); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("GrossFor: %v allocations", n)
	}
}
