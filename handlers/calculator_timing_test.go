package handlers

import (
	"testing"

	"github.com/valyala/fasthttp"
)

func benchCalc(b *testing.B, body string) {
	s, _, _ := benchServer(b, 0, limitOff)
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("192.0.2.1"), nil)
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI("/api/v1/calculator")
	rc.Request.SetBodyString(body)
	s.Serve(&rc)
	if rc.Response.StatusCode() != 200 {
		b.Fatalf("%d %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	b.SetBytes(int64(len(rc.Response.Body())))
	b.ReportAllocs()
	for b.Loop() {
		rc.Response.Reset()
		s.Serve(&rc)
	}
}

// A 60-year timeline with 3 scenarios: decode, validate, 4 projections,
// encode 240 rows.
func BenchmarkCalculatorPOST(b *testing.B) {
	benchCalc(b, `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,
		"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`)
}

func BenchmarkCalculatorPOSTMonteCarlo(b *testing.B) {
	benchCalc(b, `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"monteCarlo":{"simulations":10000}}`)
}
