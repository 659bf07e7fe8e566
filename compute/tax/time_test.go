package tax

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// timeFile is a small country whose figures move in every way a file can
// say: a threshold frozen until 2030 then indexed with a ceiling step, an
// amount not indexed, a wage-indexed ceiling, a deduction that ends after
// 2028, and a dated rate. The 2025 rules are dated inside one list.
const timeFile = `{
 "country": "ZZ", "name": "Testland", "currency": "ZZD",
 "documents": {"law": {"publisher": "Parliament", "title": "Tax Act"}},
 "uprating": {"realWageGrowth": 0.01, "note": "earnings outgrow prices by 1% a year", "src": [{"doc": "law", "sec": "s 9"}]},
 "years": [{"year": 2024}, {"year": 2025}],
 "rules": [
  {"id": "it", "label": "income tax", "category": "income", "src": [{"doc": "law", "sec": "s 1"}],
   "layers": [{"base": {"parts": {"employment": 1, "pension": 1}}, "bands": [
     {"from": 0, "rate": 0},
     {"from": {"values": {"2024": 10000, "2025": 10500}, "frozenUntil": 2030, "round": {"mode": "ceil", "unit": 10}, "src": [{"doc": "law", "sec": "s 2"}]}, "rate": {"values": {"2024": 0.2, "2025": 0.21}}},
     {"from": {"value": 50000, "indexed": "none", "src": [{"doc": "law", "sec": "s 3"}]}, "rate": 0.4}]}],
   "deductions": [
     {"label": "senior", "amount": {"value": 2000, "indexed": "none", "src": [{"doc": "law", "sec": "s 4"}]}, "when": {"minAge": 65}, "since": 2025, "until": 2028},
     {"label": "other", "amount": {"value": 1000, "until": 2029, "then": 500}}]},
  {"id": "ss", "label": "social", "category": "social", "src": [{"doc": "law", "sec": "s 5"}],
   "layers": [{"base": {"parts": {"employment": 1}}, "bands": [
     {"from": 0, "rate": 0.1},
     {"from": {"value": 60000, "indexed": "wages", "round": {"mode": "floor", "unit": 300}, "src": [{"doc": "law", "sec": "s 6"}]}, "rate": 0}]}]}
 ]
}`

func parseTime(t *testing.T, text string) *System {
	t.Helper()
	s, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAtProjectsAndEnds(t *testing.T) {
	t.Parallel()
	s := parseTime(t, timeFile)
	for _, tc := range []struct {
		c, year, base int
		projected     bool
		deductions    int
	}{
		{2020, 2024, 2024, false, 1}, // before the first year: the first
		{2024, 2024, 2024, false, 1},
		{2025, 2025, 2025, false, 2},
		{2026, 2026, 2025, true, 2},
		{2028, 2026, 2025, true, 2},
		{2029, 2029, 2025, true, 1}, // the senior deduction ended with 2028
		{2030, 2030, 2025, true, 1}, // "other" takes its later value
		{2090, 2030, 2025, true, 1},
	} {
		y := s.At(tc.c)
		if y.Year != tc.year || y.Base != tc.base || y.Projected != tc.projected || len(y.Rules[0].Deductions) != tc.deductions {
			t.Errorf("At(%d): year %d base %d projected %v, %d deductions; want %d %d %v %d", tc.c, y.Year, y.Base, y.Projected,
				len(y.Rules[0].Deductions), tc.year, tc.base, tc.projected, tc.deductions)
		}
	}
	if got := s.At(2024).Rules[0].Layers[0].Bands[1]; got.From != 10000 || got.Rate != 0.2 {
		t.Errorf("2024 band %+v", got)
	}
	if got := s.At(2025).Rules[0].Layers[0].Bands[1]; got.From != 10500 || got.Rate != 0.21 {
		t.Errorf("2025 band %+v", got)
	}
	if a := s.At(2029).Rules[0].Deductions[0].Segments[0].Base; a != 1000 {
		t.Errorf("other in 2029: %v", a)
	}
	if a := s.At(2030).Rules[0].Deductions[0].Segments[0].Base; a != 500 {
		t.Errorf("other in 2030: %v", a)
	}
	if len(s.Classes()) != 4 || s.RealWageGrowth() != 0.01 {
		t.Errorf("classes %+v, wage growth %v", s.Classes(), s.RealWageGrowth())
	}
}

// TestScaleClasses checks each class's factor on a path whose prices rise
// 10% a year from the plan's first year, 2025.
func TestScaleClasses(t *testing.T) {
	t.Parallel()
	s := parseTime(t, timeFile)
	p := &Path{Start: 2025, Inflation: 0.10, RealWages: 0.02}
	band := s.At(2025).Rules[0].Layers[0].Bands[1] // frozen to 2030, ceil 10
	top := s.At(2025).Rules[0].Layers[0].Bands[2]  // not indexed
	ceil := s.At(2025).Rules[1].Layers[0].Bands[1] // wages, floor 300
	var sc Scale
	s.At(2025).Scale(2025, p, &sc)
	if sc.Moved() {
		t.Fatal("the first year of a plan in its newest year moves nothing")
	}
	lv := func(n int) float64 { return math.Pow(1.1, float64(n)) }
	for _, tc := range []struct {
		c               float64
		band, top, ceil float64
		note            string
	}{
		{2026, 10500 / lv(1), 50000 / lv(1), (60000 + 300*math.Floor(60000*(1.02*1.1-1)/300)) / lv(1), "frozen: fixed in money"},
		{2030, 10500 / lv(5), 50000 / lv(5), 0, "the last frozen year"},
		// from 2031 the frozen threshold grows with prices from 2030: its
		// nominal value 10500·1.1 rounded up to 10 (11550), deflated
		{2031, 11550 / lv(6), 50000 / lv(6), 0, "indexed again"},
	} {
		c := int(tc.c)
		y := s.At(c)
		y.Scale(c, p, &sc)
		if got := sc.Of(band.From, band.cls); math.Abs(got-tc.band) > 1e-6 {
			t.Errorf("%d %s: band %v, want %v", c, tc.note, got, tc.band)
		}
		if got := sc.Of(top.From, top.cls); math.Abs(got-tc.top) > 1e-6 {
			t.Errorf("%d: top %v, want %v", c, got, tc.top)
		}
		if tc.ceil != 0 {
			if got := sc.Of(ceil.From, ceil.cls); math.Abs(got-tc.ceil) > 1e-6 {
				t.Errorf("%d: ceiling %v, want %v", c, got, tc.ceil)
			}
		}
	}
	// a published year later than the plan's first is in its own money
	p.Start = 2024
	s.At(2025).Scale(2025, p, &sc)
	if got := sc.Of(band.From, band.cls); math.Abs(got-10500/1.1) > 1e-9 {
		t.Errorf("2025 from a 2024 start: %v", got)
	}
}

// TestScaledTax runs the walker under a scale: income that stays the same
// in real terms pays more once the frozen threshold erodes, and the same
// income in the money of each year pays what the year's nominal rules
// charge.
func TestScaledTax(t *testing.T) {
	t.Parallel()
	s := parseTime(t, timeFile)
	p := &Path{Start: 2025, Inflation: 0.05}
	in := Income{Pension: 40000}
	var sc Scale
	due := func(c int) float64 {
		y := s.At(c)
		y.Scale(c, p, &sc)
		d, err := y.Due(&in, "", nil, &sc)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// 2025: (40000 - 1000 - 10500)·0.21
	if got, want := due(2025), round2((40000-1000-10500)*0.21); got != want {
		t.Errorf("2025: %v, want %v", got, want)
	}
	// 2027: the threshold fixed in money is worth 1/1.05² of it in today's
	// money; the deduction moves with prices
	l := 1.05 * 1.05
	if got, want := due(2027), round2((40000-1000-10500/l)*0.21); math.Abs(got-want) > 0.01 {
		t.Errorf("2027: %v, want %v", got, want)
	}
	if due(2027) <= due(2025) {
		t.Error("a frozen threshold did not raise the tax on a constant real income")
	}
	// Calculate under the scale reads the same figures
	var r Result
	y := s.At(2027)
	y.Scale(2027, p, &sc)
	if err := y.Calculate(&in, "", &sc, &r); err != nil || r.TotalTax != due(2027) {
		t.Errorf("Calculate %v (%v), Due %v", r.TotalTax, err, due(2027))
	}
}

// TestOlderFormEqualsDated: the same rules written out year by year parse
// to the same years, published and projected.
func TestOlderFormEqualsDated(t *testing.T) {
	t.Parallel()
	dated := parseTime(t, timeFile)
	tree, err := decodeNode([]byte(timeFile))
	if err != nil {
		t.Fatal(err)
	}
	rules := tree.get("rules")
	tree.del("rules")
	years := tree.get("years")
	// 2024 written out; the newest year keeps its sunsets and dated values
	r := resolver{year: 2024, last: 2025}
	y24, err := r.resolve(rules)
	if err != nil {
		t.Fatal(err)
	}
	years.vals[0].set("rules", y24)
	years.vals[1].set("rules", rules)
	older := parseTime(t, string(tree.compact()))
	for _, c := range []int{2024, 2025, 2026, 2029, 2030} {
		a, b := dated.At(c), older.At(c)
		if a.Year != b.Year || a.Base != b.Base || !reflect.DeepEqual(a.Rules, b.Rules) {
			t.Errorf("%d: the two forms differ", c)
		}
	}
}

// TestTimeParseErrors: what Parse refuses in dated rules and figures.
func TestTimeParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ old, new, want string }{
		{`"values": {"2024": 0.2, "2025": 0.21}`, `"values": {"2024": 0.2, "2027": 0.21}`, "past the newest published year 2025"},
		{`"values": {"2024": 0.2, "2025": 0.21}`, `"values": {"2025": 0.21}`, "none from 2024 or before"},
		{`"values": {"2024": 0.2, "2025": 0.21}`, `"values": {"twenty": 0.21}`, "is not a year"},
		{`"since": 2025, "until": 2028`, `"since": 2026`, "since 2026 is past the newest published year"},
		{`"since": 2025, "until": 2028`, `"since": 2025, "until": 2024`, "until 2024 before since 2025"},
		{`"until": 2029, "then": 500`, `"until": 2029`, "until 2029 without then"},
		{`"until": 2029, "then": 500`, `"then": 500`, "then without until"},
		{`"indexed": "none", "src": [{"doc": "law", "sec": "s 3"}]`, `"indexed": "never", "src": [{"doc": "law", "sec": "s 3"}]`, `indexed "never"`},
		{`"indexed": "none", "src": [{"doc": "law", "sec": "s 3"}]`, `"indexed": "none", "frozenUntil": 2030, "src": [{"doc": "law", "sec": "s 3"}]`, "not indexed has no freeze"},
		{`"indexed": "none", "src": [{"doc": "law", "sec": "s 3"}]`, `"indexed": "none"`, "no source"},
		{`"indexed": "none", "src": [{"doc": "law", "sec": "s 3"}]`, `"indexed": "none", "src": [{"doc": "act", "sec": "s 3"}]`, `unknown document "act"`},
		{`"indexed": "none", "src": [{"doc": "law", "sec": "s 3"}]`, `"indexed": "none", "label": "x", "src": [{"doc": "law", "sec": "s 3"}]`, `no key "label"`},
		{`"rate": 0.4}]}]`, `"rate": {"value": 0.4, "indexed": "none", "src": [{"doc": "law", "sec": "s 3"}]}}]}]`, "cannot unmarshal"},
		{`"realWageGrowth": 0.01`, `"realWageGrowth": 0.5`, "realWageGrowth"},
		{`"years": [{"year": 2024}, {"year": 2025}]`, `"years": [{"year": 2024}, {"year": 2025, "rules": []}]`, "rules both in the year and for every year"},
	} {
		if !strings.Contains(timeFile, tc.old) {
			t.Fatalf("the file has no %s", tc.old)
		}
		_, err := Parse([]byte(strings.Replace(timeFile, tc.old, tc.new, 1)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.new, err, tc.want)
		}
	}
}

// TestNextChange: the years whose rules may change are the published ones
// and each projected year's start.
func TestNextChange(t *testing.T) {
	t.Parallel()
	s := parseTime(t, timeFile)
	var got []int
	for c := 2020; c != 0; c = s.NextChange(c) {
		got = append(got, c)
	}
	if want := []int{2020, 2024, 2025, 2026, 2029, 2030}; !reflect.DeepEqual(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
}
