package account_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers"
	"fiplan/handlers/account"
	"fiplan/handlers/auth"
	"fiplan/handlers/internal/testserver"
)

// seedAssets creates n assets for the bench user, concurrently so that
// Batch shares the fsyncs.
func seedAssets(b *testing.B, s *handlers.Server, authz string, n int) {
	b.Helper()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var rc fasthttp.RequestCtx
			cat := []string{"equity", "bond", "cash", "real_estate"}[i%4]
			testserver.Request(&rc, "POST", "/api/v1/assets", authz, fmt.Sprintf(`{"name":"Holding %d","category":%q,"value":%d,"currency":%q,"costBasis":%d,"expenseRatio":0.002,"region":"global","accountType":"taxable","isin":null,"ticker":"T%d"}`,
				i, cat, 1000+i, []string{"USD", "EUR", "GBP"}[i%3], 900+i, i))
			s.Serve(&rc)
			if rc.Response.StatusCode() != 201 {
				b.Errorf("seed: %s", rc.Response.Body())
			}
		}()
	}
	wg.Wait()
}

// BenchmarkAssetList200 is GET /assets?limit=200 with 200 stored assets.
func BenchmarkAssetList200(b *testing.B) {
	s, tok, _ := testserver.BenchServer(b, 1000, testserver.LimitOff)
	seedAssets(b, s, "Bearer "+tok, 200)
	testserver.RunRequest(b, s, "GET", "/api/v1/assets?limit=200", "Bearer "+tok, "", 200)
}

// BenchmarkAssetSummary200 is GET /assets/summary over 200 assets in three
// currencies.
func BenchmarkAssetSummary200(b *testing.B) {
	s, tok, _ := testserver.BenchServer(b, 1000, testserver.LimitOff)
	seedAssets(b, s, "Bearer "+tok, 200)
	testserver.RunRequest(b, s, "GET", "/api/v1/assets/summary", "Bearer "+tok, "", 200)
}

// Cost growth of GET /assets/summary with the stored assets (10 to 1,000,
// the most an account holds): the store's read of the user's assets, the
// summary and the answer, each linear in the assets.
func BenchmarkAssetSummaryGrowth(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("assets=%d", n), func(b *testing.B) {
			s, tok, _ := testserver.BenchServer(b, 1000, testserver.LimitOff)
			seedAssets(b, s, "Bearer "+tok, n)
			testserver.RunRequest(b, s, "GET", "/api/v1/assets/summary", "Bearer "+tok, "", 200)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/asset")
		})
	}
}

// BenchmarkFIScore200 is GET /fi-score with a profile and 200 assets.
func BenchmarkFIScore200(b *testing.B) {
	s, tok, _ := testserver.BenchServer(b, 1000, testserver.LimitOff)
	seedAssets(b, s, "Bearer "+tok, 200)
	var rc fasthttp.RequestCtx
	testserver.Request(&rc, "PUT", "/api/v1/user/profile", "Bearer "+tok, `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000}`)
	s.Serve(&rc)
	testserver.RunRequest(b, s, "GET", "/api/v1/fi-score", "Bearer "+tok, "", 200)
}

// BenchmarkCategorize10 is POST /assets/categorize with ten items.
func BenchmarkCategorize10(b *testing.B) {
	s, tok, _ := testserver.BenchServer(b, 1000, testserver.LimitOff)
	body := `{"items":[{"name":"Vanguard FTSE All-World UCITS ETF","isin":"IE00BK5BQT80"},{"name":"x","ticker":"VTI"},{"name":"US Treasury 2030"},{"name":"Physical Gold ETC"},{"name":"Bitcoin"},{"name":"Realty Income REIT"},{"name":"Money market fund"},{"name":"ACME 2031","isin":"XS0000000009"},{"name":"Apple","isin":"US0378331005"},{"name":"Stamps"}]}`
	testserver.RunRequest(b, s, "POST", "/api/v1/assets/categorize", "Bearer "+tok, body, 200)
}

// BenchmarkAssetCreate is one durable create at a time through the chain.
func BenchmarkAssetCreate(b *testing.B) {
	s, tok, _ := testserver.BenchServer(b, 1000, testserver.LimitOff)
	var rc fasthttp.RequestCtx
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		testserver.Request(&rc, "POST", "/api/v1/assets", "Bearer "+tok, `{"name":"World ETF","value":1000,"currency":"USD"}`)
		s.Serve(&rc)
		if rc.Response.StatusCode() != 201 {
			b.Fatalf("%s", rc.Response.Body())
		}
		if i%900 == 899 { // stay under the per-user limit
			b.StopTimer()
			testserver.Request(&rc, "DELETE", "/api/v1/user", "Bearer "+tok, "")
			s.Serve(&rc)
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
}

// BenchmarkAssetCreate32 is 32 concurrent writers (32 users): bbolt's
// Batch commits their creates together.
func BenchmarkAssetCreate32(b *testing.B) {
	s, _, _ := testserver.BenchServer(b, 1000, testserver.LimitOff)
	var users atomic.Int64
	b.ReportAllocs()
	b.SetParallelism((32 + 1) / 2)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		u := users.Add(1)
		tok := benchToken(b, fmt.Sprint("writer-", u))
		var rc fasthttp.RequestCtx
		n := 0
		for pb.Next() {
			if n++; n == account.MaxAssets {
				b.Error("per-user limit reached; raise the user count")
				return
			}
			testserver.Request(&rc, "POST", "/api/v1/assets", "Bearer "+tok, `{"name":"World ETF","value":1000,"currency":"USD"}`)
			s.Serve(&rc)
			if rc.Response.StatusCode() != 201 {
				b.Errorf("%s", rc.Response.Body())
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
}

func benchToken(b *testing.B, sub string) string {
	tok, err := auth.Sign(testserver.Secret, auth.Claims{Sub: sub, Tier: "pro", TTL: time.Hour}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	return tok
}
