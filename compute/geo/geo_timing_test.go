package geo

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchCities is a dataset-sized set of prepared cities.
func benchCities() []City {
	cities := randomCities(rand.New(rand.NewPCG(9, 9)), 210)
	Prepare(cities)
	return cities
}

// benchQuery has a few preferences, like the handlers' benchmark request.
var benchQuery = Query{Budget: 3000, Household: 2, Regions: 1<<1 | 1<<6 | 1<<8, MinSafety: 50, English: Moderate}

// BenchmarkRecommend filters, scores and ranks 210 cities into a reused
// slice. Target: 0 allocs/op.
func BenchmarkRecommend(b *testing.B) {
	cities := benchCities()
	res := Recommend(nil, &benchQuery, cities)
	b.ReportMetric(float64(len(res)), "fit")
	b.ReportAllocs()
	for b.Loop() {
		res = Recommend(res[:0], &benchQuery, cities)
	}
}

// BenchmarkRecommendAll ranks every city: the largest sort.
func BenchmarkRecommendAll(b *testing.B) {
	cities := benchCities()
	q := Query{Budget: 1e6, Household: 1}
	res := Recommend(nil, &q, cities)
	b.ReportAllocs()
	for b.Loop() {
		res = Recommend(res[:0], &q, cities)
	}
}

// BenchmarkRecommendUnprepared is Recommend on cities without Prepare:
// what precomputing the household budgets saves.
func BenchmarkRecommendUnprepared(b *testing.B) {
	cities := randomCities(rand.New(rand.NewPCG(9, 9)), 210)
	res := Recommend(nil, &benchQuery, cities)
	b.ReportAllocs()
	for b.Loop() {
		res = Recommend(res[:0], &benchQuery, cities)
	}
}

// BenchmarkReasons renders the points and every reason of the first 20
// recommendations, as the handler writes them.
func BenchmarkReasons(b *testing.B) {
	cities := benchCities()
	res := Recommend(nil, &benchQuery, cities)
	reasons := make([]Reason, 0, 16)
	text := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		for k := range min(20, len(res)) {
			r := &res[k]
			r.Points()
			reasons = AppendReasons(reasons[:0], &benchQuery, &cities[r.City], r)
			for _, why := range reasons {
				text = AppendReason(text[:0], why, &benchQuery, &cities[r.City], r)
			}
		}
	}
}

// BenchmarkCompare compares five cities with their summaries.
func BenchmarkCompare(b *testing.B) {
	cities := benchCities()
	idx := []int{10, 20, 30, 40, 50}
	var buf [5]Compared
	text := make([]byte, 0, 160)
	b.ReportAllocs()
	for b.Loop() {
		got := Compare(buf[:0], cities, idx, Lean, 0.04)
		for k := range got {
			text = AppendSummary(text[:0], &got[k], &cities[got[k].City], &cities[got[0].City])
		}
	}
}

// Cost growth with the number of cities (20, 50, 100, 210): filtering and
// scoring are linear, the ranking's sort n log n.
func BenchmarkRecommendGrowth(b *testing.B) {
	all := benchCities()
	q := Query{Budget: 1e6, Household: 1}
	for _, n := range []int{20, 50, 100, len(all)} {
		b.Run("cities="+strconv.Itoa(n), func(b *testing.B) {
			cities := all[:n]
			res := Recommend(nil, &q, cities)
			b.ReportAllocs()
			for b.Loop() {
				res = Recommend(res[:0], &q, cities)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/city")
		})
	}
}
