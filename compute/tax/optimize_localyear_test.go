package tax

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// localYearSystem has a national 10 % and, in region R (its comparison
// region), a regional tax of 5 % in 2024 and 6 % in 2025; 2026 raises the
// national rate to 12 % and models no region. local is its comparison
// region: R, or Q, which no year models.
func localYearSystem(t *testing.T, cc, local string) *System {
	t.Helper()
	national := func(rate string) string {
		return `{"id":"n","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":` + rate + `}]}]}`
	}
	regional := func(rate string) string {
		return `{"id":"r","category":"regional","regions":["R"],"src":[{"doc":"d","sec":"2"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":` + rate + `}]}]}`
	}
	s, err := Parse([]byte(`{"country":"` + cc + `","currency":"USD",
		"regions":[{"code":"R","name":"r"},{"code":"Q","name":"q"}],
		"localTax":{"region":"` + local + `","note":"n"},
		"documents":{"d":{"publisher":"p","title":"t"}},
		"years":[
			{"year":2024,"regions":["R"],"rules":[` + national("0.1") + `,` + regional("0.05") + `]},
			{"year":2025,"regions":["R"],"rules":[` + national("0.1") + `,` + regional("0.06") + `]},
			{"year":2026,"regions":[],"rules":[` + national("0.12") + `]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A country whose latest year does not model its comparison region is
// ranked, with its local tax, at the latest year that does; a year that
// models it is kept; a region no year models leaves the year and counts
// the national tax alone; a region the candidate names is still skipped
// where the year does not model it.
func TestOptimizeComparisonRegionYear(t *testing.T) {
	t.Parallel()
	xr := localYearSystem(t, "XR", "R")
	xq := localYearSystem(t, "XQ", "Q") // Q: declared, modelled in no year
	in := Income{Employment: 100000}
	for _, c := range []struct {
		year      int
		wantYear  int
		wantTaxXR float64 // national + regional rate × 100 000
	}{
		{0, 2025, 16000},    // latest 2026 lacks R: 10 % + 6 % in 2025
		{2026, 2025, 16000}, // asked for 2026: the same
		{2025, 2025, 16000},
		{2024, 2024, 15000}, // 10 % + 5 %
		{2031, 2025, 16000}, // a year no country has: latest, then back
	} {
		q := &Query{Home: xr, Income: in, Year: c.year,
			Candidates: []Candidate{{System: xr}, {System: xq}, {System: xr, Region: "R"}}}
		var r Ranking
		if err := Optimize(q, testRates, &r); err != nil {
			t.Fatal(err)
		}
		if cur := r.Current; cur.Year != c.wantYear || cur.Region != "R" || math.Abs(cur.Tax-c.wantTaxXR) > 1e-6 {
			t.Errorf("year %d: current taxed %v in %q: %v, want %v in R: %v", c.year, cur.Year, cur.Region, cur.Tax, c.wantYear, c.wantTaxXR)
		}
		got := map[string]Option{}
		for _, o := range r.Options {
			got[o.System.Country] = o
		}
		if o := got["XR"]; o.Year != c.wantYear || o.Region != "R" || math.Abs(o.Tax-c.wantTaxXR) > 1e-6 {
			t.Errorf("year %d: XR taxed %v in %q: %v, want %v in R: %v", c.year, o.Year, o.Region, o.Tax, c.wantYear, c.wantTaxXR)
		}
		// XQ's comparison region is modelled in no year: the year compared
		// is kept, with the national tax alone (10 %, 12 % in 2026).
		wantYear, wantTax := 2026, 12000.0
		if c.year == 2024 || c.year == 2025 {
			wantYear, wantTax = c.year, 10000
		}
		if o := got["XQ"]; o.Year != wantYear || o.Region != "" || math.Abs(o.Tax-wantTax) > 1e-6 {
			t.Errorf("year %d: XQ taxed %v in %q: %v, want %v nationally: %v", c.year, o.Year, o.Region, o.Tax, wantYear, wantTax)
		}
		// The candidate naming R keeps the year asked and is skipped where
		// that year does not model R.
		named := slices.ContainsFunc(r.Skipped, func(s Skip) bool {
			return s.Country == "XR" && strings.Contains(s.Reason, "R is not modelled for 2026")
		})
		if want := c.year == 0 || c.year == 2026 || c.year == 2031; named != want {
			t.Errorf("year %d: skipped %v, want the named region skipped: %v", c.year, r.Skipped, want)
		}
	}
}

// Denmark is compared in Copenhagen, its comparison region: at the
// latest year that models it, whichever that is.
func TestOptimizeDenmarkInCopenhagen(t *testing.T) {
	t.Parallel()
	dk := loadSystem(t, "dk")
	want := 0
	for _, y := range dk.Years() {
		if dk.Covers(y, dk.LocalTax.Region) {
			want = y
		}
	}
	if dk.LocalTax.Region != "KBH" || want == 0 {
		t.Fatalf("DK compares in %q, modelled in %v", dk.LocalTax.Region, want)
	}
	q := &Query{Home: loadSystem(t, "us"), Income: Income{Employment: 60000},
		Candidates: []Candidate{{System: dk}}}
	var r Ranking
	if err := Optimize(q, testRates, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Options) != 1 {
		t.Fatalf("options %v", r.Options)
	}
	o := r.Options[0]
	in := Income{Employment: 60000 * testRates["DKK"]}
	tt, err := Due(dk, want, &in, "KBH", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Year != want || o.Region != "KBH" || math.Abs(o.Tax-tt) > 1e-6 {
		t.Errorf("DK taxed %v in %q: %v, want %v in KBH: %v", o.Year, o.Region, o.Tax, want, tt)
	}
}
