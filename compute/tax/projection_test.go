package tax

import (
	"math"
	"testing"
)

// Projections past the newest published year, each figure by its own
// rule. Every expected figure here is computed: our arithmetic on the
// statute's indexation rule as the country file states it (cited there).

// projected computes in the plan's money of its first year, 2026, with
// prices rising by infl a year.
func projected(t *testing.T, s *System, c int, infl float64, in Income, region string) *Result {
	t.Helper()
	y := s.At(c)
	var sc Scale
	y.Scale(c, &Path{Start: 2026, Inflation: infl}, &sc)
	var r Result
	if err := y.Calculate(&in, region, &sc, &r); err != nil {
		t.Fatalf("%s %d: %v", s.Country, c, err)
	}
	return &r
}

func ruleAmount(r *Result, id string) float64 {
	a := 0.0
	for _, x := range r.RuleTotals() {
		if x.Rule == id {
			a += x.Amount
		}
	}
	return a
}

// TestUSSeniorDeductionEnds: the deduction for seniors of P.L. 119-21
// §70103 applies for 2025 to 2028 only. With prices flat, a retired
// couple's federal tax is that of 2026 through 2028, and from 2029 it is
// the tax on $12,000 more: 10% of it, $1,200, on a return in the 10% band.
func TestUSSeniorDeductionEnds(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	in := Income{Pension: 60000, Joint: true, Age: 70, PartnerAge: 70}
	fit := func(c int) float64 { return ruleAmount(projected(t, s, c, 0, in, ""), "fit") }
	base := fit(2026)
	if got := fit(2028); got != base {
		t.Errorf("2028: %v, want 2026's %v", got, base)
	}
	// taxable 60,000 - 32,200 - 2 x 1,650 - 2 x 6,000 = 12,500 in 2026;
	// 24,500 from 2029: the tax table's midpoints 12,525 and 24,525
	if got := fit(2029) - base; math.Abs(got-1200) > 0.005 {
		t.Errorf("2029 - 2026: %v, want 1200", got)
	}
	has := func(c int) bool {
		for _, r := range s.At(c).Rules {
			for _, d := range r.Deductions {
				if d.Label == "Deduction for seniors" {
					return true
				}
			}
		}
		return false
	}
	if !has(2025) || !has(2026) || !has(2028) || has(2029) || has(2060) {
		t.Errorf("the deduction for seniors in 2025 %v, 2026 %v, 2028 %v, 2029 %v, 2060 %v", has(2025), has(2026), has(2028), has(2029), has(2060))
	}
}

// TestUSNIITNotIndexed: the NIIT thresholds of IRC §1411(b) stay $250,000
// in money; in 2040, prices up 3% a year since 2026, a joint return's
// threshold is 250,000 / 1.03^14 in today's money. On 300,000 of
// interest: 3.8% of 300,000 - 165,279.46 = 5,119.38, rounded to 5,119.
func TestUSNIITNotIndexed(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	r := projected(t, s, 2040, 0.03, Income{Interest: 300000, Joint: true, Age: 50, PartnerAge: 50}, "")
	thr := 250000 / math.Pow(1.03, 14)
	want := math.Round(0.038 * (300000 - thr))
	if got := ruleAmount(r, "niit"); got != want {
		t.Errorf("NIIT 2040: %v, want %v", got, want)
	}
	// in the first year it is the published threshold
	r = projected(t, s, 2026, 0.03, Income{Interest: 300000, Joint: true}, "")
	if got := ruleAmount(r, "niit"); got != 0.038*50000 {
		t.Errorf("NIIT 2026: %v, want 1900", got)
	}
}

// TestGBFreezeTo2031: the personal allowance and the basic rate limit are
// £12,570 and £37,700 to 5 April 2031 (tax year 2030), then rise with the
// CPI, rounded up to £10 and £100 (ITA 2007 ss 57, 21). Prices up 3% a
// year: in 2031 the allowance is 12,570 + 380 = 12,950 in money of 2031,
// 12,950 / 1.03^5 today, and on £30,000 of wages the income tax is 20% of
// the rest.
func TestGBFreezeTo2031(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "gb")
	it := func(c int) float64 { return ruleAmount(projected(t, s, c, 0.03, Income{Employment: 30000}, ""), "it") }
	cases := []struct {
		c  int
		pa float64
	}{
		{2026, 12570},
		{2030, 12570 / math.Pow(1.03, 4)},
		{2031, 12950 / math.Pow(1.03, 5)},
	}
	for _, tc := range cases {
		if got, want := it(tc.c), round2(0.2*(30000-tc.pa)); math.Abs(got-want) > 0.011 {
			t.Errorf("%d: income tax %v, want %v", tc.c, got, want)
		}
	}
}

// TestSESkiktgransPlusTwo: the skiktgräns moves with the CPI plus two
// percentage points, rounded down to 100 kr (IL 65 kap. 5-6 §§): with
// prices up 2%, 643,000 kr in 2026 becomes 643,000 + 25,900 = 668,900 kr
// in 2027 (the increase 25,977 rounded down), 668,900 / 1.02 today. The
// skattereduktion för förvärvsinkomst's 40,000 kr stays in money.
func TestSESkiktgransPlusTwo(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "se")
	y := s.At(2027)
	var sc Scale
	y.Scale(2027, &Path{Start: 2026, Inflation: 0.02}, &sc)
	band := ruleBand(t, y, "statlig", 0, 1)
	if got, want := sc.Of(band.From, band.cls), 668900/1.02; math.Abs(got-want) > 1e-6 {
		t.Errorf("skiktgräns 2027: %v, want %v", got, want)
	}
	for _, r := range y.Rules {
		for _, c := range r.Credits {
			if c.Label == "Skattereduktion för förvärvsinkomst" {
				sg := c.Segments[1]
				if got := sc.Of(sg.From, sg.fromCls); math.Abs(got-40000/1.02) > 1e-6 {
					t.Errorf("40,000 kr in 2027: %v", got)
				}
			}
		}
	}
}

// TestCAIndexation: the federal bracket thresholds move with the CPI,
// rounded to the dollar (ITA s. 117.1): $58,523 in 2026 is 58,523 + 1,170
// in 2027 with prices up 2%; the CPP basic exemption, $3,500, does not
// move; the YMPE follows wages, here (no wage growth given) prices,
// rounded down to $100: 74,600 + 1,400.
func TestCAIndexation(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "ca")
	y := s.At(2027)
	var sc Scale
	y.Scale(2027, &Path{Start: 2026, Inflation: 0.02}, &sc)
	for _, tc := range []struct {
		rule        string
		layer, band int
		want        float64
	}{
		{"fed", 0, 1, 59693 / 1.02},
		{"cpp", 0, 1, 3500 / 1.02},
		{"cpp", 0, 2, 76000 / 1.02},
	} {
		b := ruleBand(t, y, tc.rule, tc.layer, tc.band)
		if got := sc.Of(b.From, b.cls); math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("%s band %d in 2027: %v, want %v", tc.rule, tc.band, got, tc.want)
		}
	}
}

func ruleBand(t *testing.T, y *Year, id string, layer, band int) *Band {
	t.Helper()
	for i := range y.Rules {
		if y.Rules[i].ID == id {
			return &y.Rules[i].Layers[layer].Bands[band]
		}
	}
	t.Fatalf("no rule %s", id)
	return nil
}

// TestProjectedProperties runs every country's projected years, with and
// without a region, on a path of 4% inflation: the tax is never negative
// or NaN, more income never lowers it beyond the rounding, flat prices
// leave the newest year's figures as stored, and an evaluation under a
// moved scale does not allocate.
func TestProjectedProperties(t *testing.T) {
	for _, s := range loadAll(t) {
		regions := []string{""}
		for _, rg := range s.Regions {
			if s.CoversFrom(s.Latest(), rg.Code) {
				regions = append(regions, rg.Code)
			}
		}
		for _, c := range []int{s.Latest() + 1, s.Latest() + 5, s.Latest() + 40} {
			y := s.At(c)
			var flat, sc Scale
			y.Scale(c, &Path{Start: s.Latest()}, &flat)
			grows := false // a class with real growth moves even on flat prices
			for k, cl := range s.Classes() {
				grows = grows || (y.Used(uint8(k)) && cl.Plus != 0)
			}
			if flat.Moved() != grows {
				t.Errorf("%s %d: flat prices move a figure: %v", s.Country, c, flat.Moved())
			}
			y.Scale(c, &Path{Start: s.Latest(), Inflation: 0.04, RealWages: 0.01}, &sc)
			for _, region := range regions {
				prev := -1.0
				for _, g := range []float64{0, 5000, 20000, 60000, 150000, 400000, 2e6, 2e7} {
					in := Income{Employment: g * 0.6, Pension: g * 0.2, Interest: g * 0.05, Dividends: g * 0.05, CapitalGains: g * 0.1, Age: 70}
					d, err := y.Due(&in, region, nil, &sc)
					if err != nil {
						t.Fatalf("%s %d %q: %v", s.Country, c, region, err)
					}
					if !(d >= 0) || d < prev-s.RoundingSlack(y, region)-1 {
						t.Errorf("%s %d %q: tax %v on %v after %v", s.Country, c, region, d, g, prev)
					}
					prev = d
				}
				in := Income{Employment: 85000, Pension: 20000, Interest: 1200, Dividends: 3000, CapitalGains: 5000}
				if n := testing.AllocsPerRun(20, func() { _, _ = y.DueByCategory(&in, region, &sc) }); n != 0 {
					t.Errorf("%s %d %q: %v allocs", s.Country, c, region, n)
				}
			}
		}
	}
}
