package geo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomCities makes n cities with plausible, varied figures.
func randomCities(rng *rand.Rand, n int) []City {
	cities := make([]City, n)
	for i := range cities {
		c := &cities[i]
		c.ID, c.Name = fmt.Sprintf("city-%d", i), fmt.Sprintf("City %d", i)
		scale := 0.2 + 2*rng.Float64()
		base := Lines{1200, 350, 250, 80, 160, 40, 120}
		for k := range base {
			c.Single[k] = max(1, int(float64(base[k])*scale*(0.7+0.6*rng.Float64())))
			c.Family[k] = c.Single[k] + int(float64(c.Single[k])*(0.3+2*rng.Float64()))
		}
		c.RentOutside = max(1, c.Single[Rent]*(60+rng.IntN(35))/100)
		c.Safety, c.Healthcare = 1+rng.IntN(100), 1+rng.IntN(100)
		c.InternetMbps = 5 + rng.IntN(400)
		c.ColdestHighC = -15 + 45*rng.Float64()
		c.WarmestHighC = c.ColdestHighC + 20*rng.Float64()
		c.Band = Band(rng.IntN(NumBands))
		c.Region = uint8(rng.IntN(13))
		c.English = Native + English(rng.IntN(6))
		if rng.IntN(2) == 0 {
			c.RetirementVisa = "Retirement route"
		}
		if rng.IntN(3) == 0 {
			c.NomadVisa = "Nomad route"
		}
		if rng.IntN(3) == 0 {
			c.TaxProgram = "Newcomer regime"
		}
	}
	return cities
}

// randomQuery sets each preference about one time in three.
func randomQuery(rng *rand.Rand) Query {
	q := Query{Budget: float64(300 + rng.IntN(9000)), Household: 1 + rng.IntN(MaxHousehold)}
	if rng.IntN(3) == 0 {
		q.Regions = uint16(rng.IntN(1 << 13))
	}
	if rng.IntN(3) == 0 {
		q.Bands = uint8(rng.IntN(1 << NumBands))
	}
	if rng.IntN(3) == 0 {
		q.MaxRent = float64(300 + rng.IntN(3000))
	}
	if rng.IntN(3) == 0 {
		q.MinSafety = rng.IntN(95)
	}
	if rng.IntN(3) == 0 {
		q.MinHealthcare = rng.IntN(95)
	}
	if rng.IntN(3) == 0 {
		q.MinInternetMbps = rng.IntN(300)
	}
	if rng.IntN(3) == 0 {
		q.English = Native + English(rng.IntN(6))
	}
	if rng.IntN(3) == 0 {
		q.Visa = RetirementVisa + Visa(rng.IntN(2))
	}
	q.TaxFriendly = rng.IntN(4) == 0
	return q
}

// broken names the first preference of q that c breaks with rent as the
// household's rent, or "": the filter written out again, field by field.
func broken(q *Query, c *City, rent int) string {
	switch {
	case q.Regions != 0 && q.Regions>>c.Region&1 == 0:
		return "region"
	case q.Bands != 0 && q.Bands>>c.Band&1 == 0:
		return "climate"
	case q.MaxRent != 0 && float64(rent) > q.MaxRent:
		return "rent"
	case c.Safety < q.MinSafety:
		return "safety"
	case c.Healthcare < q.MinHealthcare:
		return "healthcare"
	case c.InternetMbps < q.MinInternetMbps:
		return "internet"
	case q.English != AnyEnglish && c.English > q.English:
		return "english"
	case q.Visa == RetirementVisa && c.RetirementVisa == "", q.Visa == NomadVisa && c.NomadVisa == "":
		return "visa"
	case q.TaxFriendly && c.TaxProgram == "":
		return "tax"
	}
	return ""
}

// Every listed city fits the budget and honours every preference; every
// city that does is listed; the list is ranked; each score is 0-100, the
// sum of its parts, each part within its maximum, and its points add up to
// the rounded score; a bigger budget never drops a city.
func TestRecommendProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	listed, empty := 0, 0
	for round := range 40 {
		cities := randomCities(rng, 120)
		if round%2 == 0 {
			Prepare(cities) // unprepared cities must answer the same
		}
		for range 25 {
			q := randomQuery(rng)
			var prev map[int]bool
			for _, factor := range []float64{1, 1.25, 2, 10} {
				bq := q
				bq.Budget *= factor
				got := checkRecommend(t, &bq, cities)
				for i := range prev {
					if !got[i] {
						t.Fatalf("%+v: city %d fitted the smaller budget and is gone", bq, i)
					}
				}
				prev = got
				listed += len(got)
				if len(got) == 0 {
					empty++
				}
			}
		}
	}
	// The random queries cover both lists of many cities and empty ones.
	if listed < 20_000 || empty < 50 {
		t.Fatalf("%d cities listed in all, %d empty answers", listed, empty)
	}
}

func checkRecommend(t *testing.T, q *Query, cities []City) map[int]bool {
	t.Helper()
	res := Recommend(nil, q, cities)
	listed := map[int]bool{}
	for k := range res {
		r := &res[k]
		c := &cities[r.City]
		l := HouseholdLines(c, q.Household)
		if r.Cost != l.Total() || r.Rent != l[Rent] || float64(r.Cost) > q.Budget {
			t.Fatalf("%+v: city %d cost %d rent %d, lines %v", q, r.City, r.Cost, r.Rent, l)
		}
		if why := broken(q, c, r.Rent); why != "" {
			t.Fatalf("%+v: city %d breaks %s", q, r.City, why)
		}
		if r.Share != float64(r.Cost)/q.Budget || r.Tight != (r.Share >= TightShare) {
			t.Fatalf("%+v: city %d share %v tight %v", q, r.City, r.Share, r.Tight)
		}
		sum := 0.0
		for j, v := range r.Parts {
			if v < 0 || v > float64(PartMax[j]) {
				t.Fatalf("city %d: %s %v out of 0..%d", r.City, PartNames[j], v, PartMax[j])
			}
			sum += v
		}
		if r.Score != sum || r.Score < 0 || r.Score > 100 {
			t.Fatalf("city %d: score %v, parts sum to %v", r.City, r.Score, sum)
		}
		pts, score := r.Points()
		total := 0
		for j, p := range pts {
			if p < 0 || p > PartMax[j] || math.Abs(float64(p)-r.Parts[j]) >= 1 {
				t.Fatalf("city %d: %s %d points for %v", r.City, PartNames[j], p, r.Parts[j])
			}
			total += p
		}
		if total != score || score != int(math.Round(r.Score)) {
			t.Fatalf("city %d: points %v sum to %d, score %d, unrounded %v", r.City, pts, total, score, r.Score)
		}
		if k > 0 && compareResults(res[k-1], *r) >= 0 {
			t.Fatalf("%+v: rank %d (%v) not after rank %d (%v)", q, k+1, r.Score, k, res[k-1].Score)
		}
		listed[r.City] = true
	}
	for i := range cities {
		l := HouseholdLines(&cities[i], q.Household)
		fits := float64(l.Total()) <= q.Budget && broken(q, &cities[i], l[Rent]) == ""
		if fits != listed[i] {
			t.Fatalf("%+v: city %d fits %v, listed %v", q, i, fits, listed[i])
		}
	}
	return listed
}

// More people never cost less, line by line.
func TestHouseholdMonotone(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range randomCities(rng, 500) {
		for n := 2; n <= MaxHousehold; n++ {
			a, b := HouseholdLines(&c, n-1), HouseholdLines(&c, n)
			for k := range b {
				if b[k] < a[k] {
					t.Fatalf("%s %d: %d people pay %d, %d pay %d", c.ID, k, n-1, a[k], n, b[k])
				}
			}
		}
		if HouseholdLines(&c, 1) != c.Single || HouseholdLines(&c, 4) != c.Family {
			t.Fatalf("%s: one person or four do not cost the dataset's budgets", c.ID)
		}
	}
}

// Ratios and further are each other's inverse views: a city compared with
// itself is 1 everywhere, and A's further against B is B's total ratio.
func TestCompareProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	cities := randomCities(rng, 50)
	for range 200 {
		idx := rng.Perm(len(cities))[:2+rng.IntN(4)]
		style := Style(rng.IntN(NumStyles))
		rate := 0.01 + 0.19*rng.Float64()
		got := Compare(nil, cities, idx, style, rate)
		for k, e := range got {
			l := StyleLines(&cities[idx[k]], style)
			if e.City != idx[k] || e.Lines != l || e.Total != l.Total() || e.Annual != 12*e.Total {
				t.Fatalf("entry %d: %+v", k, e)
			}
			if math.Abs(e.FINumber*rate-float64(e.Annual)) > 1e-6*float64(e.Annual) {
				t.Fatalf("FI number %v at %v for %d a year", e.FINumber, rate, e.Annual)
			}
			if math.Abs(e.Further*e.TotalRatio-1) > 1e-12 {
				t.Fatalf("further %v and total ratio %v", e.Further, e.TotalRatio)
			}
			want := VerdictSame
			switch {
			case k == 0:
				want = VerdictReference
			case e.Further >= 1.05:
				want = VerdictFurther
			case e.Further <= 1/1.05:
				want = VerdictDearer
			}
			if e.Verdict != want {
				t.Fatalf("entry %d: verdict %d, want %d (further %v)", k, e.Verdict, want, e.Further)
			}
		}
		self := Compare(nil, cities, idx[:1], style, rate)[0]
		if self.Further != 1 || self.TotalRatio != 1 || slices.ContainsFunc(self.Ratio[:], func(r float64) bool { return r != 1 }) {
			t.Fatalf("a city against itself: %+v", self)
		}
	}
}

// With reused buffers the engine allocates nothing.
func TestZeroAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cities := randomCities(rng, 210)
	Prepare(cities)
	q := Query{Budget: 3000, Household: 2, MinSafety: 40}
	res := Recommend(nil, &q, cities)
	if len(res) == 0 {
		t.Fatal("nothing fits")
	}
	reasons := make([]Reason, 0, 16)
	text := make([]byte, 0, 256)
	var cmp [5]Compared
	idx := []int{3, 1, 4, 5, 9}
	n := testing.AllocsPerRun(100, func() {
		res = Recommend(res[:0], &q, cities)
		for k := range min(20, len(res)) {
			r := &res[k]
			r.Points()
			reasons = AppendReasons(reasons[:0], &q, &cities[r.City], r)
			for _, why := range reasons {
				text = AppendReason(text[:0], why, &q, &cities[r.City], r)
			}
		}
		got := Compare(cmp[:0], cities, idx, Lean, 0.04)
		for k := range got {
			text = AppendSummary(text[:0], &got[k], &cities[got[k].City], &cities[got[0].City])
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per request", n)
	}
}
