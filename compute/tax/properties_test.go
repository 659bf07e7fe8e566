package tax

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range loadAll(t) {
		for _, year := range s.Years() {
			y, _ := s.Year(year)
			bound := y.MaxMarginal()
			regions := []string{""}
			for _, r := range s.Regions {
				regions = append(regions, r.Code)
			}
			for _, region := range regions {
				var r Result
				if err := Calculate(s, year, &Income{}, region, &r); err != nil {
					t.Fatal(err)
				}
				if r.TotalTax != 0 {
					t.Errorf("%s %d %s: zero income taxed %v", s.Country, year, region, r.TotalTax)
				}
				scale := s.MarginalStep * 10000 // ~1,000,000 in EUR/USD/GBP
				for k := 0; k < 300; k++ {
					var in Income
					f := []*float64{&in.Employment, &in.SelfEmployment, &in.Pension, &in.Interest, &in.Dividends, &in.CapitalGains}
					for _, p := range f {
						if rng.IntN(3) == 0 {
							*p = math.Floor(rng.Float64() * rng.Float64() * scale)
						}
					}
					var a Result
					if err := Calculate(s, year, &in, region, &a); err != nil {
						t.Fatal(err)
					}
					for _, v := range []float64{a.IncomeTax, a.SocialContributions, a.CapitalTax, a.RegionalTax, a.TotalTax, a.EffectiveRate, a.MarginalRate} {
						if math.IsNaN(v) || math.IsInf(v, 0) || v < -1e-9 {
							t.Fatalf("%s %d %+v: bad value in %+v", s.Country, year, in, a)
						}
					}
					if a.MarginalRate > bound+1e-9 {
						t.Errorf("%s %d %s %+v: marginal %.4f above statutory bound %.4f", s.Country, year, region, in, a.MarginalRate, bound)
					}
					// more income never lowers tax, part by part
					for pi, p := range f {
						old := *p
						*p += math.Floor(rng.Float64() * scale / 20)
						var b Result
						if err := Calculate(s, year, &in, region, &b); err != nil {
							t.Fatal(err)
						}
						if b.TotalTax < a.TotalTax-1e-6 {
							t.Errorf("%s %d %s: raising %v from %.0f to %.0f lowered tax %.2f → %.2f", s.Country, year, region, Part(pi), old, *p, a.TotalTax, b.TotalTax)
						}
						*p = old
					}
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	s := loadSystem(t, "gb")
	var r Result
	if err := Calculate(s, 1999, &Income{}, "", &r); !errors.Is(err, ErrYear) {
		t.Errorf("year: %v", err)
	}
	if err := Calculate(s, 2024, &Income{}, "XX", &r); !errors.Is(err, ErrRegion) {
		t.Errorf("region: %v", err)
	}
	if err := Calculate(s, 2024, &Income{}, "sct", &r); err != nil {
		t.Errorf("region case: %v", err)
	}
	us := loadSystem(t, "us")
	if err := Calculate(us, 2024, &Income{}, "CA", &r); !errors.Is(err, ErrRegion) {
		t.Errorf("US state: %v", err)
	}
}

func TestParseRejects(t *testing.T) {
	bad := []string{
		`{}`,
		`{"country":"us","currency":"USD","years":[]}`,
		// rule without a source
		`{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},"years":[{"year":2024,"rules":[{"id":"a","category":"income","layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1}]}]}]}]}`,
		// unknown document
		`{"country":"XX","currency":"XXX","documents":{},"years":[{"year":2024,"rules":[{"id":"a","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1}]}]}]}]}`,
		// bands not ascending
		`{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},"years":[{"year":2024,"rules":[{"id":"a","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1},{"from":0,"rate":0.2}]}]}]}]}`,
		// forward reference
		`{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},"years":[{"year":2024,"rules":[{"id":"a","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"refs":{"b":1}},"bands":[{"from":0,"rate":0.1}]}]}]}]}`,
		// unknown field
		`{"country":"XX","currency":"XXX","bogus":1}`,
	}
	for i, b := range bad {
		if _, err := Parse([]byte(b)); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	for _, s := range loadAll(t) {
		in := Income{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000, Pension: 2000, SelfEmployment: 10000}
		var r Result
		year := s.Latest()
		n := testing.AllocsPerRun(200, func() {
			if err := Calculate(s, year, &in, "", &r); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocs per Calculate", s.Country, n)
		}
	}
}

func TestBreakdownSums(t *testing.T) {
	for _, s := range loadAll(t) {
		in := Income{Employment: 70000, Interest: 2500, Dividends: 4000, CapitalGains: 9000}
		var r Result
		if err := Calculate(s, s.Latest(), &in, "", &r); err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, x := range r.RuleTotals() {
			sum += x.Amount
		}
		if math.Abs(sum-r.TotalTax) > 0.05 {
			t.Errorf("%s: rule totals %.2f ≠ total %.2f", s.Country, sum, r.TotalTax)
		}
		if r.NLines == 0 || r.Truncated {
			t.Errorf("%s: %d lines, truncated %v", s.Country, r.NLines, r.Truncated)
		}
	}
}
