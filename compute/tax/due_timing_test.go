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

// BenchmarkDueByCategoryRetiredJointProjected: the retired couple's year
// 2028 of a plan from 2026 at 3% inflation: a projected year whose fixed
// thresholds (the NIIT's, the Medicare surtax's, the deduction for
// seniors') the scale moves.
func BenchmarkDueByCategoryRetiredJointProjected(b *testing.B) {
	benchDueProjected(b, 2028, Income{Pension: 60000, CapitalGains: 10000, Age: 70, PartnerAge: 68, Joint: true})
}

// BenchmarkDueByCategoryWorkingJointProjected: the working couple in 2040.
func BenchmarkDueByCategoryWorkingJointProjected(b *testing.B) {
	benchDueProjected(b, 2040, Income{Employment: 240000, PartnerEmployment: 90000, Age: 40, PartnerAge: 38, Joint: true})
}

func benchDueProjected(b *testing.B, c int, in Income) {
	s := loadSystem(b, "us")
	y := s.At(c)
	var sc Scale
	y.Scale(c, &Path{Start: 2026, Inflation: 0.03}, &sc)
	if !sc.Moved() {
		b.Fatal("the scale moves nothing")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := y.DueByCategory(&in, "", &sc); err != nil {
			b.Fatal(err)
		}
	}
}
