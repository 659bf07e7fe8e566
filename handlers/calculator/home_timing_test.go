package calculator_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/internal/testserver"
)

// A signed-in backtest over every 30-year window of 1928-2024, through the
// whole route and uncached: on the embedded record, and on the same record
// stored as the caller's own series (read from the store on every request).
func BenchmarkCalculatorBacktestUserSeries(b *testing.B) {
	s, tok, _ := testserver.BenchServer(b, 64, testserver.LimitOff)
	var rc fasthttp.RequestCtx
	testserver.Request(&rc, "POST", "/api/v1/user/series", "Bearer "+tok, annualAsUserSeries(b))
	testserver.Serve(b, s, &rc)
	if rc.Response.StatusCode() != 201 {
		b.Fatalf("create: %d %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	var created struct{ Data struct{ ID string } }
	if err := json.Unmarshal(rc.Response.Body(), &created); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, dataset string }{{"embedded", "annual"}, {"user", "user:" + created.Data.ID}} {
		b.Run(c.name, func(b *testing.B) {
			var rc fasthttp.RequestCtx
			testserver.Request(&rc, "POST", "/api/v1/calculator", "Bearer "+tok, "")
			buf := make([]byte, 0, 256)
			savings := 1_000_000
			next := func() {
				buf = append(buf[:0], `{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"targetRetirementAge":60,"output":"summary","currentSavings":`...)
				buf = strconv.AppendInt(buf, int64(savings), 10)
				buf = append(buf, `,"historical":{"years":30,"currency":"USD","dataset":"`+c.dataset+`"}}`...)
				rc.Request.SetBody(buf)
				savings++
			}
			next()
			testserver.Serve(b, s, &rc)
			if rc.Response.StatusCode() != 200 {
				b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
			}
			b.ReportAllocs()
			for b.Loop() {
				rc.Response.Reset()
				next()
				s.Serve(&rc)
			}
			if rc.Response.StatusCode() != 200 {
				b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
			}
		})
	}
}
