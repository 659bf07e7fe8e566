package tax

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// runAll is run without skipping idle rules: every rule whose condition
// holds is evaluated in full.
func (st *state) runAll(v *view) {
	for i := range v.rules {
		r := &v.rules[i]
		st.off[i] = !st.who.holds(&r.When)
		switch {
		case st.off[i]:
			st.amt[i], st.taxable[i], st.gross[i], st.deducted[i] = 0, 0, 0, 0
			st.layerAmt[i] = [MaxLayers]float64{}
		case r.PerEarner && st.who.joint && st.who.earned != [2]float64{}:
			st.perEarner(i, r)
		default:
			st.once(i, r)
		}
	}
}

// A rule skipped because every part its bases read is 0 leaves exactly
// what evaluating it would: the same amount, taxable base, gross and
// deductions for it and for every rule after it, in every country, year
// and region, on incomes with some parts 0.
func TestIdleRulesSkipExactly(t *testing.T) {
	t.Parallel()
	files, err := os.ReadDir(countryDir)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	skipped := 0
	for _, f := range files {
		s := loadSystem(t, strings.TrimSuffix(f.Name(), ".json"))
		for yi := range s.years {
			y := &s.years[yi]
			for k := -1; k < len(y.views)-1; k++ {
				v := y.view(k)
				for n := 0; n < 40; n++ {
					in := Income{Age: 30 + rng.IntN(50)}
					for _, x := range []*float64{&in.Employment, &in.SelfEmployment, &in.Pension, &in.Interest, &in.Dividends, &in.CapitalGains} {
						if rng.IntN(2) == 0 {
							*x = rng.Float64() * 200000
						}
					}
					if v.joint && rng.IntN(2) == 0 {
						in.Joint, in.PartnerAge, in.PartnerEmployment = true, 30+rng.IntN(50), in.Employment*rng.Float64()
					}
					parts, _ := cleanParts(&in)
					var a, b state
					a.parts, a.who = parts, filerOf(&in, &parts)
					b.parts, b.who = parts, a.who
					a.run(v)
					b.runAll(v)
					for i := range v.rules {
						if a.amt[i] != b.amt[i] || a.taxable[i] != b.taxable[i] || a.gross[i] != b.gross[i] || a.deducted[i] != b.deducted[i] || a.layerAmt[i] != b.layerAmt[i] {
							t.Fatalf("%s %d view %d %+v: rule %s differs: %v/%v against %v/%v", s.Country, y.Year, k, in, v.rules[i].ID, a.amt[i], a.taxable[i], b.amt[i], b.taxable[i])
						}
						r := &v.rules[i]
						if !a.off[i] && r.idleable && a.present()&r.reads == 0 {
							skipped++
						}
					}
				}
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no rule was skipped: the test checks nothing")
	}
	t.Logf("%d rule evaluations skipped", skipped)
}
