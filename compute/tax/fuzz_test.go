package tax

import (
	"errors"
	"math"
	"sync"
	"testing"
)

var (
	fuzzOnce    sync.Once
	fuzzSystems []*System
)

// FuzzCalculate sends random returns through every country's rules, in
// every year a file has, with and without its local region: the engine
// answers every return it accepts with finite figures, refuses the rest
// only with its sentinels, and charges no less tax on more pension income.
// (Tax is not monotone in wages everywhere: work credits that phase in,
// such as Finland's earned income deductions, lower a pensioner's tax on
// their first wages.)
func FuzzCalculate(f *testing.F) {
	fuzzOnce.Do(func() { fuzzSystems = loadAll(f) })
	f.Add(uint8(0), uint8(0), uint32(60000), uint32(0), uint32(0), uint32(0), uint32(0), uint8(40), false, false)
	f.Add(uint8(5), uint8(1), uint32(150000), uint32(20000), uint32(3000), uint32(10000), uint32(500), uint8(67), true, true)
	f.Add(uint8(30), uint8(2), uint32(0), uint32(45000), uint32(0), uint32(0), uint32(0), uint8(72), false, true)
	f.Fuzz(func(t *testing.T, country, yearIdx uint8, wages, pension, dividends, gains, interest uint32, age uint8, joint, local bool) {
		s := fuzzSystems[int(country)%len(fuzzSystems)]
		years := s.Years()
		year := years[int(yearIdx)%len(years)]
		region := ""
		if local {
			region = s.LocalRegion(year)
		}
		in := Income{Employment: float64(wages % 5_000_000), Pension: float64(pension % 1_000_000),
			Dividends: float64(dividends % 1_000_000), CapitalGains: float64(gains % 2_000_000),
			Interest: float64(interest % 500_000), Age: int(age % 110), Joint: joint}
		if joint {
			in.PartnerAge = in.Age
			in.PartnerEmployment = in.Employment / 3
		}
		var r Result
		err := Calculate(s, year, &in, region, &r)
		if err != nil {
			if errors.Is(err, ErrYear) || errors.Is(err, ErrRegion) || errors.Is(err, ErrJoint) {
				return
			}
			t.Fatalf("%s %d %+v: %v", s.Country, year, in, err)
		}
		for name, v := range map[string]float64{"income": r.IncomeTax, "social": r.SocialContributions, "capital": r.CapitalTax,
			"regional": r.RegionalTax, "total": r.TotalTax, "effective": r.EffectiveRate, "marginal": r.MarginalRate} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s %d %+v: %s tax %v", s.Country, year, in, name, v)
			}
		}
		more := in
		more.Pension += 1000
		var r2 Result
		if err := Calculate(s, year, &more, region, &r2); err != nil {
			t.Fatalf("%s %d: more pension refused: %v", s.Country, year, err)
		}
		if r2.TotalTax < r.TotalTax-0.01 {
			t.Fatalf("%s %d region %q %+v: tax %.2f on 1,000 more pension, %.2f before", s.Country, year, region, in, r2.TotalTax, r.TotalTax)
		}
	})
}
