package calculator_test

import (
	"strconv"
	"testing"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/internal/testserver"
)

// benchCalc serves the same body b.N times from the answer cache, which
// takes an answer the second time it is asked for.
func benchCalc(b *testing.B, body string) {
	s, _, _ := testserver.BenchServer(b, 0, testserver.LimitOff)
	var rc fasthttp.RequestCtx
	testserver.Request(&rc, "POST", "/api/v1/calculator", "", body)
	s.Serve(&rc)
	s.Serve(&rc)
	s.Calculator().WaitCache()
	testserver.RunRequest(b, s, "POST", "/api/v1/calculator", "", body, 200)
	if s.Calculator().CacheHits() < uint64(b.N) {
		b.Fatalf("%d hits in %d requests", s.Calculator().CacheHits(), b.N)
	}
}

// benchCalcUncached serves body (which must not set currentSavings) with a
// new currentSavings on every request, so that each one is computed (and
// handed to the cache).
func benchCalcUncached(b *testing.B, accept, body string) {
	s, _, _ := testserver.BenchServer(b, 0, testserver.LimitOff)
	var rc fasthttp.RequestCtx
	testserver.Request(&rc, "POST", "/api/v1/calculator", "", "")
	if accept != "" {
		rc.Request.Header.Set("Accept", accept)
	}
	buf := make([]byte, 0, len(body)+32)
	savings := 50_000
	next := func() {
		buf = append(buf[:0], `{"currentSavings":`...)
		buf = strconv.AppendInt(buf, int64(savings), 10)
		buf = append(append(buf, ','), body[1:]...)
		rc.Request.SetBody(buf)
		savings++
	}
	next()
	testserver.Serve(b, s, &rc)
	if rc.Response.StatusCode() != 200 {
		b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	b.SetBytes(int64(len(rc.Response.Body())))
	b.ReportAllocs()
	for b.Loop() {
		rc.Response.Reset()
		next()
		s.Serve(&rc)
	}
	if rc.Response.StatusCode() != 200 || s.Calculator().CacheHits() != 0 {
		b.Fatalf("status %d, %d hits: %s", rc.Response.StatusCode(), s.Calculator().CacheHits(), rc.Response.Body())
	}
}

const benchPlan = `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,
	"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`

// A 60-year timeline with 3 scenarios: decode, validate, 4 projections,
// encode 240 rows.
func BenchmarkCalculatorPOST(b *testing.B) {
	benchCalc(b, `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,
		"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`)
}

func BenchmarkCalculatorPOSTUncached(b *testing.B) { benchCalcUncached(b, "", benchPlan) }

func BenchmarkCalculatorPOSTCSVUncached(b *testing.B) { benchCalcUncached(b, "text/csv", benchPlan) }

// The same plan after UK tax (with a row's tax on every row) and a city's
// budget for two in retirement.
func BenchmarkCalculatorPOSTTaxCityUncached(b *testing.B) {
	benchCalcUncached(b, "", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"tax":{"country":"GB"},"cityId":"lisbon-pt","householdSize":2,
	"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`)
}

func BenchmarkCalculatorPOSTMonteCarlo(b *testing.B) {
	benchCalc(b, `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"monteCarlo":{"simulations":10000}}`)
}

func BenchmarkCalculatorPOSTMonteCarloUncached(b *testing.B) {
	benchCalcUncached(b, "", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"monteCarlo":{"simulations":10000}}`)
}
