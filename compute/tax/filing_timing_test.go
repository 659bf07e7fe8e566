package tax

import "testing"

// BenchmarkCalculateJoint: a 66/64 couple's joint return (US 2025), with
// the partner's wages charged apart for Social Security and the deductions
// at 65 and for seniors.
func BenchmarkCalculateJoint(b *testing.B) {
	s := loadSystem(b, "us")
	in := Income{Employment: 85000, Pension: 40000, Interest: 1200, Dividends: 3000, CapitalGains: 5000,
		Joint: true, Age: 66, PartnerAge: 64, PartnerEmployment: 85000}
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Calculate(s, 2025, &in, "", &r); err != nil {
			b.Fatal(err)
		}
	}
}
