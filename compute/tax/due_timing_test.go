package tax

import "testing"

// BenchmarkDueByCategoryRetiredJoint: a household plan's typical year in
// drawdown, a US couple of 70 and 68 filing jointly on pensions and gains
// (the payroll rules idle).
func BenchmarkDueByCategoryRetiredJoint(b *testing.B) {
	benchDueByCategory(b, Income{Pension: 60000, CapitalGains: 10000, Age: 70, PartnerAge: 68, Joint: true})
}

// BenchmarkDueByCategoryWorkingJoint: a working year of the same couple,
// both earning (the investment-income rules idle).
func BenchmarkDueByCategoryWorkingJoint(b *testing.B) {
	benchDueByCategory(b, Income{Employment: 240000, PartnerEmployment: 90000, Age: 40, PartnerAge: 38, Joint: true})
}

func benchDueByCategory(b *testing.B, in Income) {
	s := loadSystem(b, "us")
	year := s.Latest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DueByCategory(s, year, &in, ""); err != nil {
			b.Fatal(err)
		}
	}
}
