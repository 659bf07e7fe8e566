package geo

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// lisbonish is a hand-made city whose figures the tests below work out by
// hand.
func lisbonish() City {
	return City{
		ID: "lisbonish-pt", Name: "Lisbonish",
		Single:      Lines{1000, 300, 200, 60, 150, 40, 100},  // 1850
		Family:      Lines{2000, 900, 500, 180, 250, 40, 400}, // 4270
		RentOutside: 800,
		Safety:      75, Healthcare: 82, InternetMbps: 50,
		ColdestHighC: 10, WarmestHighC: 33, Band: Warm,
		Region: 1, English: High,
		RetirementVisa: "D7 visa",
	}
}

func TestHouseholdLines(t *testing.T) {
	t.Parallel()
	c := lisbonish()
	for _, tc := range []struct {
		n     int
		want  Lines
		total int
	}{
		{1, Lines{1000, 300, 200, 60, 150, 40, 100}, 1850},
		// A third of the way to the family budget: 1333.3 and 183.3 round down.
		{2, Lines{1333, 500, 300, 100, 183, 40, 200}, 2656},
		// Two thirds: 1666.7 and 216.7 round up.
		{3, Lines{1667, 700, 400, 140, 217, 40, 300}, 3464},
		{4, Lines{2000, 900, 500, 180, 250, 40, 400}, 4270},
		// Six: per-person lines x 6/4, rent x 1.2, utilities and internet as for four.
		{6, Lines{2400, 1350, 750, 270, 250, 40, 600}, 5660},
		{8, Lines{2800, 1800, 1000, 360, 250, 40, 800}, 7050},
	} {
		got := HouseholdLines(&c, tc.n)
		if got != tc.want || got.Total() != tc.total {
			t.Errorf("%d people: %v (total %d), want %v (%d)", tc.n, got, got.Total(), tc.want, tc.total)
		}
	}
	// Prepared and unprepared cities agree, and Budget clamps the size.
	cities := []City{c}
	Prepare(cities)
	for n := -1; n <= MaxHousehold+2; n++ {
		want := HouseholdLines(&c, min(max(n, 1), MaxHousehold))
		if got, raw := cities[0].Budget(n), c.Budget(n); got != want || raw != want {
			t.Errorf("Budget(%d): prepared %v, unprepared %v, want %v", n, got, raw, want)
		}
	}
}

func TestStyleLines(t *testing.T) {
	t.Parallel()
	c := lisbonish()
	for _, tc := range []struct {
		style Style
		want  Lines
	}{
		// Lean: the rent outside the centre, 0.8 x four lines, internet and health as they are.
		{Lean, Lines{800, 240, 160, 48, 120, 40, 100}},
		{Normal, c.Single},
		{Fat, Lines{1500, 450, 300, 90, 225, 60, 150}},
		{FamilyStyle, c.Family},
	} {
		if got := StyleLines(&c, tc.style); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.style, got, tc.want)
		}
		if s, ok := ParseStyle(tc.style.String()); !ok || s != tc.style {
			t.Errorf("%s does not parse back", tc.style)
		}
	}
	if _, ok := ParseStyle("luxury"); ok {
		t.Error("luxury parses as a style")
	}
	if Style(NumStyles).String() != "" {
		t.Error("an unknown style has a name")
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	a := lisbonish()
	b := a
	b.Name = "Halfton"
	for k := range b.Single {
		b.Single[k] /= 2 // 925 in all
	}
	c := a
	c.Name = "Nearby"
	c.Single[Groceries] += 80 // 1930: 4.3% dearer, about the same
	cities := []City{a, b, c}

	got := Compare(nil, cities, []int{0, 1, 2}, Normal, 0.04)
	if len(got) != 3 || got[0].City != 0 || got[1].City != 1 || got[2].City != 2 {
		t.Fatalf("entries %v", got)
	}
	ref, half, near := got[0], got[1], got[2]
	if ref.Total != 1850 || ref.Annual != 22200 || ref.FINumber != 555000 || ref.Further != 1 || ref.TotalRatio != 1 || ref.Verdict != VerdictReference {
		t.Errorf("reference %+v", ref)
	}
	for j := range NumLines {
		if ref.Ratio[j] != 1 || half.Ratio[j] != 0.5 {
			t.Errorf("line %d: ratios %v and %v, want 1 and 0.5", j, ref.Ratio[j], half.Ratio[j])
		}
	}
	if half.Total != 925 || half.TotalRatio != 0.5 || half.Further != 2 || half.Verdict != VerdictFurther {
		t.Errorf("half %+v", half)
	}
	if near.Ratio[Groceries] != 380.0/300 || near.Verdict != VerdictSame || math.Abs(near.Further-1850.0/1930) > 1e-12 {
		t.Errorf("near %+v", near)
	}
	for _, tc := range []struct {
		e    *Compared
		want string
	}{
		{&ref, "The reference: every ratio compares a city with Lisbonish"},
		{&half, "Your money goes 2x further in Halfton than in Lisbonish"},
		{&near, "Costs about the same as Lisbonish"},
	} {
		if s := string(AppendSummary(nil, tc.e, &cities[tc.e.City], &a)); s != tc.want {
			t.Errorf("summary %q, want %q", s, tc.want)
		}
	}
	// The other way round: dearer, in one decimal.
	back := Compare(nil, cities, []int{1, 0}, Lean, 0.035)
	if back[1].Verdict != VerdictDearer {
		t.Fatalf("verdict %v", back[1].Verdict)
	}
	// Lean: Halfton keeps the 800 rent outside the centre, so 1154 in all
	// against Lisbonish's 1508: 1.307 times as much.
	hl, al := StyleLines(&b, Lean), StyleLines(&a, Lean)
	if hl.Total() != 1154 || al.Total() != 1508 || back[0].Lines != hl || back[1].Lines != al || back[1].FINumber != float64(al.Total())*12/0.035 {
		t.Fatalf("lean entries %+v", back)
	}
	want := "Living in Lisbonish costs 1.3x as much as in Halfton"
	if s := string(AppendSummary(nil, &back[1], &a, &b)); s != want {
		t.Errorf("summary %q, want %q", s, want)
	}
	// dst is appended to, not overwritten.
	two := Compare(got[:1], cities, []int{1, 0}, Normal, 0.04)
	if len(two) != 3 || two[0] != ref || two[1].City != 1 || two[2].Ratio[Rent] != 2 {
		t.Errorf("appending compare %+v", two)
	}
}

func TestScoreComponents(t *testing.T) {
	t.Parallel()
	c := lisbonish()
	for _, tc := range []struct {
		name  string
		q     Query
		cost  int
		parts [NumParts]float64
		pts   [NumParts]int
		score int
		tight bool
	}{
		{
			// Cost half the budget: every affordability point. Climate 6 °C
			// too cold and 2 °C too hot: 15 x (1 - 8/15) = 7.
			name: "roomy", q: Query{Budget: 3700, Household: 1}, cost: 1850,
			parts: [NumParts]float64{30, 15, 16.4, 7, 2.5, 3, 5},
			pts:   [NumParts]int{30, 15, 16, 7, 3, 3, 5}, score: 79,
		},
		{
			// 92.5% of the budget: 30 x 0.075/0.5 = 4.5, and tight. Bands asked
			// for: every climate point. In binary the affordability is a hair
			// under 4.5, so internet's half point wins the point to round to 61.
			name: "tight", q: Query{Budget: 2000, Household: 1, Bands: 1 << Warm}, cost: 1850,
			parts: [NumParts]float64{4.5, 15, 16.4, 15, 2.5, 3, 5},
			pts:   [NumParts]int{4, 15, 16, 15, 3, 3, 5}, score: 61, tight: true,
		},
		{
			name: "at the budget", q: Query{Budget: 1850, Household: 1}, cost: 1850,
			parts: [NumParts]float64{0, 15, 16.4, 7, 2.5, 3, 5},
			pts:   [NumParts]int{0, 15, 16, 7, 3, 3, 5}, score: 49, tight: true,
		},
	} {
		r := Result{Cost: tc.cost}
		Score(&tc.q, &c, &r)
		sum := 0.0
		for j := range NumParts {
			if math.Abs(r.Parts[j]-tc.parts[j]) > 1e-9 {
				t.Errorf("%s: %s %v, want %v", tc.name, PartNames[j], r.Parts[j], tc.parts[j])
			}
			sum += r.Parts[j]
		}
		if r.Score != sum || r.Tight != tc.tight {
			t.Errorf("%s: score %v (parts sum to %v), tight %v", tc.name, r.Score, sum, r.Tight)
		}
		if pts, score := r.Points(); pts != tc.pts || score != tc.score {
			t.Errorf("%s: points %v = %d, want %v = %d", tc.name, pts, score, tc.pts, tc.score)
		}
	}

	// Each component on its own.
	base := Query{Budget: 1e6, Household: 1}
	one := func(mod func(*City), part int) float64 {
		c := lisbonish()
		mod(&c)
		r := Result{Cost: 1}
		Score(&base, &c, &r)
		return r.Parts[part]
	}
	for _, tc := range []struct {
		name string
		mod  func(*City)
		part int
		want float64
	}{
		{"safety 100", func(c *City) { c.Safety = 100 }, Safety, 20},
		{"healthcare 1", func(c *City) { c.Healthcare = 1 }, Healthcare, 0.2},
		{"mild climate", func(c *City) { c.ColdestHighC, c.WarmestHighC = 16, 31 }, Climate, 15},
		{"far too cold", func(c *City) { c.ColdestHighC, c.WarmestHighC = -5, 20 }, Climate, 0},
		{"a little hot", func(c *City) { c.ColdestHighC, c.WarmestHighC = 20, 34 }, Climate, 12},
		{"fast internet", func(c *City) { c.InternetMbps = 400 }, InternetSpeed, 5},
		{"native English", func(c *City) { c.English = Native }, EnglishSpoken, 5},
		{"very low English", func(c *City) { c.English = VeryLow }, EnglishSpoken, 0},
		{"nomad visa only", func(c *City) { c.RetirementVisa, c.NomadVisa = "", "DN" }, Visas, 5},
		{"no visa", func(c *City) { c.RetirementVisa = "" }, Visas, 0},
	} {
		if got := one(tc.mod, tc.part); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %s %v, want %v", tc.name, PartNames[tc.part], got, tc.want)
		}
	}
	total := 0
	for _, m := range PartMax {
		total += m
	}
	if total != 100 {
		t.Errorf("maxima sum to %d", total)
	}
}

// Points rounds down, then gives the missing points to the largest
// remainders, first component first on ties, never above a maximum.
func TestPoints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		parts [NumParts]float64
		pts   [NumParts]int
		score int
	}{
		{[NumParts]float64{30, 20, 20, 15, 5, 5, 5}, PartMax, 100},
		{[NumParts]float64{}, [NumParts]int{}, 0},
		// 96 in all: 93 rounded down, then .75, .75 and the first .5.
		{[NumParts]float64{29.75, 19.5, 19.25, 14.75, 4.5, 4.25, 4}, [NumParts]int{30, 20, 19, 15, 4, 4, 4}, 96},
		// 99.5 rounds half away from zero to 100.
		{[NumParts]float64{30, 20, 20, 15, 5, 5, 4.5}, PartMax, 100},
		// A remainder on a component already at its maximum earns nothing.
		{[NumParts]float64{30.5, 20, 20, 15, 5, 5, 4}, [NumParts]int{30, 20, 20, 15, 5, 5, 4}, 99},
	} {
		r := Result{Parts: tc.parts}
		if pts, score := r.Points(); pts != tc.pts || score != tc.score {
			t.Errorf("%v: %v = %d, want %v = %d", tc.parts, pts, score, tc.pts, tc.score)
		}
	}
}

func TestReasons(t *testing.T) {
	t.Parallel()
	c := lisbonish()
	q := Query{Budget: 2000, Household: 1}
	r := Result{Cost: 1850, Rent: 1000}
	Score(&q, &c, &r)
	texts := func(q *Query, c *City, r *Result) []string {
		var out []string
		for _, why := range AppendReasons(nil, q, c, r) {
			out = append(out, string(AppendReason(nil, why, q, c, r)))
		}
		return out
	}
	want := []string{
		"Fits only just: $1,850 a month for 1 person, 93% of your $2,000 budget",
		"Safe: safety index 75 of 100",
		"Strong healthcare: index 82 of 100",
		"Warm climate: average highs from 10 °C in the coldest month to 33 °C in the warmest",
		"Retirement visa: D7 visa",
		"English widely spoken (EF band high)",
	}
	if got := texts(&q, &c, &r); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("reasons\n%q\nwant\n%q", got, want)
	}

	// Another city and household: the other wordings and every optional reason.
	d := lisbonish()
	d.Safety, d.Healthcare, d.InternetMbps, d.English = 85, 72, 150, Native
	d.ColdestHighC, d.WarmestHighC, d.Band = -3.25, 24.04, Cold
	d.NomadVisa, d.TaxProgram = "Nomad permit", "Newcomer regime"
	q = Query{Budget: 12345.6, Household: 3}
	r = Result{Cost: 3464, Rent: 1667}
	Score(&q, &d, &r)
	want = []string{
		"$3,464 a month for 3 people, 28% of your $12,346 budget",
		"Very safe: safety index 85 of 100",
		"Good healthcare: index 72 of 100",
		"Cold climate: average highs from -3.3 °C in the coldest month to 24 °C in the warmest",
		"Retirement visa: D7 visa",
		"Digital nomad visa: Nomad permit",
		"Special tax program for newcomers: Newcomer regime",
		"English is the main language",
		"Fast internet: about 150 Mbps",
	}
	if got := texts(&q, &d, &r); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("reasons\n%q\nwant\n%q", got, want)
	}
	// Asking for one kind of visa leaves the other kind's reason out.
	for visa, gone := range map[Visa]string{RetirementVisa: "Digital nomad", NomadVisa: "Retirement"} {
		q.Visa = visa
		for _, s := range texts(&q, &d, &r) {
			if strings.HasPrefix(s, gone) {
				t.Errorf("visa %d: %q", visa, s)
			}
		}
	}
	// Weak figures give no reason of their own; the budget and climate always come.
	e := lisbonish()
	e.Safety, e.Healthcare, e.English, e.RetirementVisa = 64, 69, Moderate, ""
	got := AppendReasons(nil, &Query{Budget: 1e4, Household: 1}, &e, &r)
	if len(got) != 2 || got[0] != ReasonBudget || got[1] != ReasonClimate {
		t.Errorf("weak city reasons %v", got)
	}
}

func TestAppendUSD(t *testing.T) {
	t.Parallel()
	for v, want := range map[int]string{0: "$0", 7: "$7", 999: "$999", 1000: "$1,000", 12345: "$12,345", 1234567: "$1,234,567", -1234: "$-1,234"} {
		if got := string(appendUSD(nil, v)); got != want {
			t.Errorf("%d: %q, want %q", v, got, want)
		}
	}
}

func TestAppendTenths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {-0.04, "0"}, {0.05, "0.1"}, {-0.05, "-0.1"}, {22.35, "22.4"}, {12.04, "12"},
		{-3.25, "-3.3"}, {2, "2"}, {1.96, "2"}, {-0.5, "-0.5"}, {123456.78, "123456.8"},
		{1e15, "1000000000000000"}, {math.NaN(), "null"}, {math.Inf(1), "null"},
	} {
		if got := string(appendTenths([]byte("x"), tc.x)); got != "x"+tc.want {
			t.Errorf("%v: %q, want %q", tc.x, got, "x"+tc.want)
		}
	}
}

func TestParseNames(t *testing.T) {
	t.Parallel()
	for b := Band(0); b < NumBands; b++ {
		if got, ok := ParseBand(b.String()); !ok || got != b {
			t.Errorf("band %d", b)
		}
	}
	for e := Native; e <= VeryLow; e++ {
		if got, ok := ParseEnglish(e.String()); !ok || got != e {
			t.Errorf("English %d", e)
		}
	}
	if _, ok := ParseBand("arctic"); ok {
		t.Error("arctic is a band")
	}
	if e, ok := ParseEnglish(""); ok || e != AnyEnglish {
		t.Error(`"" is an English band`)
	}
	if Band(NumBands).String() != "" || English(99).String() != "" {
		t.Error("unknown values have names")
	}
}

func TestQueryKey(t *testing.T) {
	t.Parallel()
	q := Query{Budget: 2800, Household: 2, Regions: 1<<1 | 1<<8, Bands: 1<<Warm | 1<<Hot, MinSafety: 60}
	k := q.AppendKey(nil)
	if len(k) != KeyLen {
		t.Fatalf("key of %d bytes, want %d", len(k), KeyLen)
	}
	same := q
	same.Budget = 2.8e3
	if !bytes.Equal(same.AppendKey(nil), k) {
		t.Fatal("equal queries have different keys")
	}
	// Changing any one field changes the key.
	for name, mod := range map[string]func(*Query){
		"budget":    func(q *Query) { q.Budget = 2800.01 },
		"household": func(q *Query) { q.Household = 3 },
		"regions":   func(q *Query) { q.Regions = 1 << 1 },
		"bands":     func(q *Query) { q.Bands = 0 },
		"maxRent":   func(q *Query) { q.MaxRent = 900 },
		"safety":    func(q *Query) { q.MinSafety = 61 },
		"health":    func(q *Query) { q.MinHealthcare = 60 },
		"internet":  func(q *Query) { q.MinInternetMbps = 300 },
		"english":   func(q *Query) { q.English = High },
		"visa":      func(q *Query) { q.Visa = NomadVisa },
		"tax":       func(q *Query) { q.TaxFriendly = true },
	} {
		other := q
		mod(&other)
		if bytes.Equal(other.AppendKey(nil), k) {
			t.Errorf("%s: the key did not change", name)
		}
	}
}
