package handlers

import (
	"testing"

	"github.com/valyala/fasthttp"
)

// Compression's cost against the bytes it saves on real responses: each
// body served through the whole chain with each coding. bytes/resp is what
// goes on the wire; ns/op includes building the response, so the cost of a
// coding is its ns/op less identity's. CompressMin and the levels in
// handlers/rest were chosen from this table.
func BenchmarkCompression(b *testing.B) {
	s, tok, _ := benchServer(b, 0, limitOff)
	bodies := []struct{ name, method, path, authz, body string }{
		{"calculator-60y", "POST", "/api/v1/calculator", "", `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,
			"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`},
		{"cities-100", "GET", "/api/v1/geo/cities?limit=100", "", ""},
		{"optimize-US", "POST", "/api/v1/tax/optimize", "Bearer " + tok, `{"country":"US","income":{"pension":30000,"interest":2000,"dividends":20000,"capitalGains":15000},"monthlyBudgetUSD":4000}`},
		{"status", "GET", "/api/v1/status", "", ""},
	}
	for _, r := range bodies {
		for _, enc := range []string{"identity", "gzip", "br", "zstd"} {
			b.Run(r.name+"/"+enc, func(b *testing.B) {
				var rc fasthttp.RequestCtx
				request(&rc, r.method, r.path, r.authz, r.body)
				rc.Request.Header.Set("Accept-Encoding", enc)
				serve(b, s, &rc)
				if rc.Response.StatusCode() != 200 {
					b.Fatalf("status %d", rc.Response.StatusCode())
				}
				if got := string(rc.Response.Header.ContentEncoding()); got != enc && !(enc == "identity" && got == "") && len(rc.Response.Body()) >= 1024 {
					b.Fatalf("Content-Encoding %q, asked for %s", got, enc)
				}
				b.ReportAllocs()
				for b.Loop() {
					rc.Response.Reset()
					s.Serve(&rc)
				}
				b.ReportMetric(float64(len(rc.Response.Body())), "bytes/resp")
			})
		}
	}
}
