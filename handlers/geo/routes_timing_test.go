package geo_test

import (
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers"
	"fiplan/handlers/internal/testserver"
	"fiplan/handlers/limit"
)

// geoBenchServer is benchServer with the token cache on, so that the
// authenticated geo routes are measured with the usual warm token.
func geoBenchServer(b *testing.B) (*handlers.Server, string) {
	s, tok, _ := testserver.BenchServer(b, 1<<16, limit.Rate{N: 1e9, Per: time.Hour})
	time.Sleep(10 * time.Millisecond) // ristretto applies sets asynchronously
	return s, "Bearer " + tok
}

// The first page of the unfiltered list: a body built at start, sent
// without a copy.
func BenchmarkGeoListUnfiltered(b *testing.B) {
	s, _ := geoBenchServer(b)
	testserver.RunRequest(b, s, "GET", citiesPath, "", "", 200)
}

// Another unfiltered page: one contiguous slice of the pre-encoded list.
func BenchmarkGeoListUnfilteredPage(b *testing.B) {
	s, _ := geoBenchServer(b)
	testserver.RunRequest(b, s, "GET", citiesPath+"?sort=cost&offset=50&limit=50", "", "", 200)
}

// A filtered list: scan every city, copy the matches' pre-encoded bytes.
func BenchmarkGeoListFiltered(b *testing.B) {
	s, _ := geoBenchServer(b)
	testserver.RunRequest(b, s, "GET", citiesPath+"?region=europe-south&maxMonthlyCost=2500&minSafety=70&climate=warm,hot&sort=-cost", "", "", 200)
}

func BenchmarkGeoListSearch(b *testing.B) {
	s, _ := geoBenchServer(b)
	testserver.RunRequest(b, s, "GET", citiesPath+"?q=S%C3%A3o", "", "", 200)
}

func BenchmarkGeoDetail(b *testing.B) {
	s, tok := geoBenchServer(b)
	testserver.RunRequest(b, s, "GET", citiesPath+"/lisbon-pt", tok, "", 200)
}

func BenchmarkGeoCompare(b *testing.B) {
	s, tok := geoBenchServer(b)
	testserver.RunRequest(b, s, "GET", comparePath+"?ids=zurich-ch,lisbon-pt,chiang-mai-th&style=lean", tok, "", 200)
}

const benchRecoBody = `{"monthlyBudgetUSD":3000,"householdSize":2,"limit":20,
	"preferences":{"regions":["europe-south","southeast-asia","south-america"],"minSafety":50,"englishMin":"moderate"}}`

// Every request answered from the cache.
func BenchmarkGeoRecommendCached(b *testing.B) {
	s, tok := geoBenchServer(b)
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, testserver.TCPAddr("192.0.2.1"), nil)
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI(recoPath)
	rc.Request.Header.Set("Authorization", tok)
	rc.Request.SetBodyString(benchRecoBody)
	s.Serve(&rc)
	s.Places().WaitCache()
	hits := s.Places().CacheHits()
	testserver.RunRequest(b, s, "POST", recoPath, tok, benchRecoBody, 200)
	if s.Places().CacheHits() == hits {
		b.Fatal("no cache hits")
	}
}
