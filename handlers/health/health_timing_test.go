package health_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/internal/testserver"
)

// The whole POST for a 50-holding portfolio.
func BenchmarkPortfolioHealthPOST(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"holdings":[`)
	classes := []string{"equity", "bond", "cash", "real_estate", "crypto", "commodity", "other"}
	for i := range 50 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"Holding %d","value":%d,"assetClass":"%s","expenseRatio":0.00%d,"region":"global"}`, i, 1000+i*137, classes[i%7], i%9+1)
	}
	sb.WriteString(`],"age":42,"annualExpenses":48000,"riskTolerance":"medium","targetRetirementAge":55}`)
	s, _, _ := testserver.BenchServer(b, 0, testserver.LimitOff)
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, testserver.TCPAddr("192.0.2.1"), nil)
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI("/api/v1/portfolio-health")
	rc.Request.SetBodyString(sb.String())
	testserver.Serve(b, s, &rc)
	if rc.Response.StatusCode() != 200 {
		b.Fatalf("%d %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	b.ReportAllocs()
	for b.Loop() {
		rc.Response.Reset()
		s.Serve(&rc)
	}
}
