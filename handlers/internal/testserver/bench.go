package testserver

import (
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/limit"
)

// LimitOff is a rate that turns the public limit off.
var LimitOff = limit.Rate{}

// BenchServer is a Server for benchmarks (and tests that measure): a token cache of cacheSize, the
// public rate given and the signed-in tiers unlimited. It returns the
// server, a pro session token of "alice" and an API key of hers.
func BenchServer(b testing.TB, cacheSize int, public limit.Rate, opts ...Option) (*handlers.Server, string, string) {
	b.Helper()
	s, _, tok, key := harness.Bench(b, cacheSize, func(db *store.DB, v *auth.Verifier, _ func() time.Time) (*handlers.Server, error) {
		cfg := handlers.Config{Version: "bench", DB: db, Verifier: v, RatePublic: public,
			RateFree: limit.Rate{N: 1e9, Per: time.Hour}, RatePro: limit.Rate{N: 1e9, Per: time.Hour}}
		for _, o := range opts {
			o(&cfg)
		}
		return handlers.New(cfg)
	})
	return s, tok, key
}

// Request sets rc up as one request from 192.0.2.1.
func Request(rc *fasthttp.RequestCtx, method, path, authz, body string) {
	harness.Request(rc, method, path, authz, body)
}

// RunRequest serves one request through the whole chain b.N times with
// one reused RequestCtx, checking the status before and after.
func RunRequest(b *testing.B, s *handlers.Server, method, path, authz, body string, want int) {
	b.Helper()
	harness.RunRequest(b, s, method, path, authz, body, want)
}
