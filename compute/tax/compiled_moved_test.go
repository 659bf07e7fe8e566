package tax

import "testing"

// TestCompiledMoved: an evaluator whose figures are moved once answers as
// the compiled kind under the scale, whatever scale it is then given; its
// rules read no figure through a scale but a formula's; a scale that
// moves nothing gives the evaluator itself.
func TestCompiledMoved(t *testing.T) {
	for _, cc := range []string{"US", "DE", "GB"} {
		s := loadSystem(t, cc)
		// the newest published year five years into a plan: every figure
		// deflated by the path's prices
		c0 := s.Latest()
		y := s.At(c0)
		in := Income{Pension: 60000, CapitalGains: 10000, Employment: 30000, Age: 70}
		var sc Scale
		y.Scale(c0, &Path{Start: c0 - 5, Inflation: 0.03, RealWages: s.RealWageGrowth()}, &sc)
		c, err := y.Compiled("", &in)
		if err != nil || c.Walks() != "" || !sc.Moved() {
			t.Fatal(cc, err, c.Walks(), sc.Moved())
		}
		m := c.Moved(&sc)
		if m == c {
			t.Fatalf("%s: a moving scale gave the evaluator itself", cc)
		}
		for k := range m.rules {
			r := &m.rules[k]
			formula := false
			for li := range r.layers {
				formula = formula || r.layers[li].below != nil
			}
			if r.classes&sc.mask != 0 && !formula {
				t.Errorf("%s: rule %d still reads its figures through the scale", cc, k)
			}
		}
		for _, p := range []float64{0, 9000, 25000, 60000, 140000, 700000} {
			in.Pension = p
			want := walkCategories(t, y, &in, "", &sc)
			for _, given := range []*Scale{nil, &sc, {}} {
				if got := m.DueByCategory(&in, given); !toCent(got, want) {
					t.Fatalf("%s pension %v: moved %+v, walker %v", cc, p, got, want)
				}
			}
			if p == 140000 && c.Due(&in, nil) == m.Due(&in, nil) {
				t.Errorf("%s: the moved figures tax as the stored ones", cc)
			}
		}
		if c.Moved(nil) != c || c.Moved(&Scale{}) != c {
			t.Errorf("%s: a scale moving nothing made another evaluator", cc)
		}
		if allocs := testing.AllocsPerRun(50, func() { m.Due(&in, nil) }); allocs != 0 {
			t.Errorf("%s: a moved evaluator allocates %v times a return", cc, allocs)
		}
	}
}
