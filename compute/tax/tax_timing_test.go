package tax

import "testing"

// BenchmarkCalculate: one calculation for a typical mixed income (US 2024).
func BenchmarkCalculate(b *testing.B) {
	s := loadSystem(b, "us")
	in := Income{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000}
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Calculate(s, 2024, &in, "", &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAllCountries: the same income in every loaded country, latest year.
func BenchmarkAllCountries(b *testing.B) {
	all := loadAll(b)
	in := Income{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000}
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range all {
			if err := Calculate(s, s.Latest(), &in, "", &r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkApplyRegime: the same income under a pensioner-style regime (a
// flat rate on pension and dividends, at least 5,000), with the breakdown
// and the marginal rate.
func BenchmarkApplyRegime(b *testing.B) {
	s := loadSystem(b, "us")
	flat := covering(TreatFlat, Pension, Dividends, Interest)
	flat.Rate = 0.07
	minimum := covering(TreatMinimumTax, Pension, Dividends, Interest)
	minimum.Amount = 5000
	rg := regimeOf(flat, minimum)
	in := Income{Employment: 85000, Pension: 20000, Interest: 1200, Dividends: 3000, CapitalGains: 5000}
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ApplyRegime(s, 2024, &in, "", rg, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDue: the total alone, as rankings and searches use it.
func BenchmarkDue(b *testing.B) {
	s := loadSystem(b, "us")
	in := Income{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Due(s, 2024, &in, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrossFor: the gross pension and investment income that leaves
// 48,000 after US tax, as the after-tax FI number needs it.
func BenchmarkGrossFor(b *testing.B) {
	s := loadSystem(b, "us")
	mix := Income{Pension: 20000, Interest: 2000, Dividends: 15000, CapitalGains: 10000}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := GrossFor(s, 2024, &mix, "", nil, 48000); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkCalculateState: the same income in a US state, the federal rules
// and the state's (California 2025: brackets, a credit and a surtax).
func BenchmarkCalculateState(b *testing.B) {
	s := loadSystem(b, "us")
	in := Income{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000}
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Calculate(s, 2025, &in, "CA", &r); err != nil {
			b.Fatal(err)
		}
	}
}
