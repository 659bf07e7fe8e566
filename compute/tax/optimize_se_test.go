package tax

import (
	"math"
	"testing"
)

// A Swedish retiree living on pension withdrawals is compared with
// Stockholm's kommunalskatt, as the country file's localTax names: the
// pension is taxed (it was 0 with national tax alone, every krona of it
// under the skiktgräns), and the option's tax is what the calculator
// answers for the region.
func TestOptimizeSwedishRetireePaysKommunalskatt(t *testing.T) {
	t.Parallel()
	se := loadSystem(t, "se")
	if se.LocalTax.Region != "STHLM" {
		t.Fatalf("localTax region %q, want STHLM", se.LocalTax.Region)
	}
	in := Income{Pension: 300000}
	q := &Query{Home: se, Income: in, Candidates: []Candidate{{System: se}}}
	var r Ranking
	if err := Optimize(q, perUSD{"USD": 1, "SEK": 10.5}, &r); err != nil {
		t.Fatal(err)
	}
	cur := r.Current
	var want Result
	if err := Calculate(se, cur.Year, &in, "STHLM", &want); err != nil {
		t.Fatal(err)
	}
	if cur.Region != "STHLM" || math.Abs(cur.Tax-want.TotalTax) > 1e-6 {
		t.Fatalf("current taxed in %q: %.2f, want STHLM: %.2f", cur.Region, cur.Tax, want.TotalTax)
	}
	// 2026: grundavdrag 45 584 − 10 % × (300 000 − 184 112) = 33 995,20 →
	// 34 000; 266 000 × 30,55 % = 81 263; less 1 500 for förvärvsinkomst.
	if cur.Year != 2026 || math.Abs(cur.Tax-79763) > 1 {
		t.Errorf("%d tax %.2f, want 79 763 in 2026", cur.Year, cur.Tax)
	}
}
