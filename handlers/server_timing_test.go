package handlers

import (
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/auth"
	testharness "fiplan/handlers/internal/harness"
	"fiplan/handlers/limit"
	"fiplan/handlers/rest"
)

// benchServer has two no-op routes, one public and one authenticated, so
// that these benchmarks measure the middleware chain alone.
func benchServer(b *testing.B, cacheSize int, public limit.Rate, opts ...option) (*Server, string, string) {
	b.Helper()
	s, _, tok, key := testharness.Bench(b, cacheSize, func(db *store.DB, v *auth.Verifier, _ func() time.Time) (*Server, error) {
		cfg := Config{Version: "bench", DB: db, Verifier: v, RatePublic: public,
			RateFree: limit.Rate{N: 1e9, Per: time.Hour}, RatePro: limit.Rate{N: 1e9, Per: time.Hour}}
		for _, o := range opts {
			o(&cfg)
		}
		return New(cfg)
	})
	noop := func(c *rest.Ctx) {
		w := c.Begin()
		w.Begin()
		w.End()
		c.Send(200)
	}
	for _, r := range []*rest.Route{rest.Get("/api/v1/test/public", rest.Public, noop, nil), rest.Get("/api/v1/test/user", rest.User, noop, nil)} {
		if err := s.router.Add(r); err != nil {
			b.Fatal(err)
		}
	}
	return s, tok, key
}

var limitOff = limit.Rate{}

func BenchmarkChainPublic(b *testing.B) {
	s, _, _ := benchServer(b, 0, limit.Rate{N: 1e9, Per: time.Hour})
	runRequest(b, s, "GET", "/api/v1/test/public", "", "", 200)
}

// The health check a balancer polls: the chain, the storage probe and the
// status document.
func BenchmarkStatus(b *testing.B) {
	s, _, _ := benchServer(b, 0, limit.Rate{N: 1e9, Per: time.Hour})
	runRequest(b, s, "GET", "/api/v1/status", "", "", 200)
}

func BenchmarkChainNotFound(b *testing.B) {
	s, _, _ := benchServer(b, 0, limit.Rate{N: 1e9, Per: time.Hour})
	runRequest(b, s, "GET", "/api/v1/nothing/here", "", "", 404)
}

func BenchmarkChainJWTCached(b *testing.B) {
	s, tok, _ := benchServer(b, 1<<16, limit.Rate{})
	time.Sleep(10 * time.Millisecond) // ristretto applies sets asynchronously
	runRequest(b, s, "GET", "/api/v1/test/user", "Bearer "+tok, "", 200)
}

// BenchmarkChainJWTRedis is BenchmarkChainJWTCached with the per-user
// limit kept in Redis (FI_TEST_REDIS): one round trip per request.
func BenchmarkChainJWTRedis(b *testing.B) {
	u := os.Getenv("FI_TEST_REDIS")
	if u == "" {
		b.Skip("set FI_TEST_REDIS=redis://127.0.0.1:6379/15 to run it")
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		b.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	b.Cleanup(func() { rdb.Close() })
	r := limit.NewRedis(rdb, time.Second, nil)
	s, tok, _ := benchServer(b, 1<<16, limit.Rate{}, withRedis(r))
	time.Sleep(10 * time.Millisecond) // ristretto applies sets asynchronously
	runRequest(b, s, "GET", "/api/v1/test/user", "Bearer "+tok, "", 200)
	if n := r.Fallbacks(); n != 0 {
		b.Fatalf("%d requests fell back to the local limit", n)
	}
}

func BenchmarkChainJWTUncached(b *testing.B) {
	s, tok, _ := benchServer(b, 0, limit.Rate{})
	runRequest(b, s, "GET", "/api/v1/test/user", "Bearer "+tok, "", 200)
}

// BenchmarkChainAPIKey is a request with an API key through the whole
// chain on bbolt, the key read from the sign-out mirror's key cache.
func BenchmarkChainAPIKey(b *testing.B) {
	s, _, key := benchServer(b, 0, limit.Rate{})
	for s.marks.Lag() > store.MirrorStale {
		time.Sleep(5 * time.Millisecond)
	}
	runRequest(b, s, "GET", "/api/v1/test/user", "Bearer "+key, "", 200)
}

// BenchmarkChainAPIKeyPostgres is BenchmarkChainAPIKey on PostgreSQL
// (FI_TEST_POSTGRES), where a key read from the store is a round trip.
func BenchmarkChainAPIKeyPostgres(b *testing.B) {
	db := pg(b, "")
	s, _, _ := benchServer(b, 0, limit.Rate{}, withDB(db))
	plain, hash, err := auth.NewKey()
	if err != nil {
		b.Fatal(err)
	}
	if err := db.CreateKey(store.Key{ID: "key_bench", Owner: "alice", Name: "b"}, hash, 10, nil); err != nil {
		b.Fatal(err)
	}
	for s.marks.Lag() > store.MirrorStale {
		time.Sleep(5 * time.Millisecond)
	}
	runRequest(b, s, "GET", "/api/v1/test/user", "Bearer "+plain, "", 200)
}

func BenchmarkChainRateLimited(b *testing.B) {
	s, _, _ := benchServer(b, 0, limit.Rate{N: 1, Per: time.Hour})
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("192.0.2.1"), nil)
	rc.Request.SetRequestURI("/api/v1/test/public")
	s.Serve(&rc) // spends the allowance
	runRequest(b, s, "GET", "/api/v1/test/public", "", "", 429)
}
