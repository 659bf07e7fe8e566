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
