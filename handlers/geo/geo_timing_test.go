package geo

import "testing"

const benchRecoBody = `{"monthlyBudgetUSD":3000,"householdSize":2,"limit":20,
	"preferences":{"regions":["europe-south","southeast-asia","south-america"],"minSafety":50,"englishMin":"moderate"}}`

// Every recommendation computed (the cache is off), without the chain.
func BenchmarkRecommendCold(b *testing.B) {
	g := newTestHandlers(b)
	g.cache.Close()
	g.cache = nil
	if a := recommend(b, g, benchRecoBody); a.status != 200 {
		b.Fatalf("%d %s", a.status, a.raw)
	}
	b.ReportAllocs()
	for b.Loop() {
		recommend(b, g, benchRecoBody)
	}
}

// The unfiltered list's first page: a body built at start.
func BenchmarkListFirstPage(b *testing.B) {
	g := newTestHandlers(b)
	b.SetBytes(int64(len(g.firstPage.Body())))
	b.ReportAllocs()
	for b.Loop() {
		serve(b, g.List, "GET", "/api/v1/geo/cities", "")
	}
}
