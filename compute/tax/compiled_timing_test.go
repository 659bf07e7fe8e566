package tax

import "testing"

// BenchmarkCompiledRetiredJoint: the retired US couple's return (70 and
// 68, pensions and gains, filing jointly) on the evaluator compiled for
// it, as a household projection holds it for a year.
func BenchmarkCompiledRetiredJoint(b *testing.B) {
	benchCompiled(b, "us", Income{Pension: 60000, CapitalGains: 10000, Age: 70, PartnerAge: 68, Joint: true})
}

// BenchmarkCompiledWorkingJoint: the working couple (the payroll rules
// charged per earner).
func BenchmarkCompiledWorkingJoint(b *testing.B) {
	benchCompiled(b, "us", Income{Employment: 240000, PartnerEmployment: 90000, Age: 40, PartnerAge: 38, Joint: true})
}

// BenchmarkWalkerRetiredJoint: the retired couple's return by the walker,
// the reference the compiled path is measured against.
func BenchmarkWalkerRetiredJoint(b *testing.B) {
	s := loadSystem(b, "us")
	y := s.At(s.Latest())
	in := Income{Pension: 60000, CapitalGains: 10000, Age: 70, PartnerAge: 68, Joint: true}
	b.ReportAllocs()
	for b.Loop() {
		walkCategories(b, y, &in, "", nil)
	}
}

func benchCompiled(b *testing.B, cc string, in Income) {
	s := loadSystem(b, cc)
	y := s.At(s.Latest())
	c, err := y.Compiled("", &in)
	if err != nil || c.Walks() != "" {
		b.Fatal(err, c.Walks())
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Due(&in, nil)
	}
}

// BenchmarkCompiledCountries: each country's compiled return for a mixed
// income (wages, interest, dividends, gains), newest year, no region.
func BenchmarkCompiledCountries(b *testing.B) {
	for _, s := range loadAll(b) {
		b.Run(s.Country, func(b *testing.B) {
			y := s.At(s.Latest())
			in := Income{Employment: 85000, Interest: 1200, Dividends: 3000, CapitalGains: 5000, Age: 45}
			c, err := y.Compiled("", &in)
			if err != nil || c.Walks() != "" {
				b.Fatal(err, c.Walks())
			}
			b.ReportAllocs()
			for b.Loop() {
				c.Due(&in, nil)
			}
		})
	}
}

// BenchmarkCompiledRetiredJointMoved: the retired couple's return ten
// years into a plan, its figures moved by the path's prices (a projected
// year), as a household projection reads it.
func BenchmarkCompiledRetiredJointMoved(b *testing.B) {
	c, in, sc := retiredMoved(b)
	b.ReportAllocs()
	for b.Loop() {
		c.Due(&in, sc)
	}
}

// BenchmarkCompiledRetiredJointMovedOnce: the same return on an
// evaluator whose figures were moved once for the year (Moved).
func BenchmarkCompiledRetiredJointMovedOnce(b *testing.B) {
	c, in, sc := retiredMoved(b)
	m := c.Moved(sc)
	b.ReportAllocs()
	for b.Loop() {
		m.Due(&in, nil)
	}
}

// BenchmarkCompiledMove: moving the retired couple's evaluator's figures
// once and taxing one return, what a projection pays per year for Moved.
func BenchmarkCompiledMove(b *testing.B) {
	c, in, sc := retiredMoved(b)
	b.ReportAllocs()
	for b.Loop() {
		c.Moved(sc).Due(&in, nil)
	}
}

// retiredMoved is the retired couple's evaluator ten years past the
// newest published year, their return, and the year's scale on a path
// from the newest year at 3% inflation.
func retiredMoved(b *testing.B) (*Compiled, Income, *Scale) {
	s := loadSystem(b, "us")
	c0 := s.Latest() + 10
	y := s.At(c0)
	in := Income{Pension: 60000, CapitalGains: 10000, Age: 70, PartnerAge: 68, Joint: true}
	sc := new(Scale)
	y.Scale(c0, &Path{Start: c0 - 10, Inflation: 0.03, RealWages: s.RealWageGrowth()}, sc)
	c, err := y.Compiled("", &in)
	if err != nil || c.Walks() != "" || !sc.Moved() {
		b.Fatal(err, c.Walks(), sc.Moved())
	}
	return c, in, sc
}
