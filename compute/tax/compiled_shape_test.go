package tax

import "testing"

// TestCompiledShapes: a retired couple's return (pensions and gains, no
// earnings) is charged by a shape that leaves the payroll rules out and
// charges the income tax as a flat rule; one shape serves every return
// with the same parts present, another set of parts gets its own, and the
// answers stay the walker's.
func TestCompiledShapes(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "US")
	y := s.At(2026)
	in := Income{Pension: 60000, CapitalGains: 10000, Age: 70, PartnerAge: 68, Joint: true}
	c, err := y.Compiled("", &in)
	if err != nil || c.Walks() != "" {
		t.Fatal(err, c.Walks())
	}
	present := uint8(always | 1<<Pension | 1<<CapitalGains)
	sh := c.shape(present)
	if sh == c || sh.shapes != nil {
		t.Fatal("no shape was made")
	}
	if len(sh.steps) >= len(c.steps) {
		t.Errorf("the shape charges %d rules of %d: none left out", len(sh.steps), len(c.steps))
	}
	flat := 0
	for i := range sh.steps {
		if r := &sh.rules[sh.steps[i].k]; r.perEarner {
			t.Errorf("rule %d, a payroll rule on earnings, is charged on a return without any", sh.steps[i].k)
		}
		if sh.steps[i].fr != nil {
			flat++
		}
	}
	if flat == 0 {
		t.Error("no rule of the shape is flat")
	}
	if c.shape(present) != sh {
		t.Error("a second return of the shape got another evaluator")
	}
	if c.shape(present|1<<Employment) == sh {
		t.Error("a return with wages shares the shape of one without")
	}
	for _, x := range []Income{in, {Pension: 20000, CapitalGains: 900000, Age: 80, PartnerAge: 66, Joint: true},
		{Pension: 60000, CapitalGains: 10000, Employment: 50000, Age: 70, PartnerAge: 68, Joint: true}} {
		if got, want := c.DueByCategory(&x, nil), walkCategories(t, y, &x, "", nil); !toCent(got, want) {
			t.Errorf("%+v: compiled %+v, walker %v", x, got, want)
		}
	}
}
