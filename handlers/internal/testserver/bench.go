package testserver

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/limit"
)

// LimitOff is a rate that turns the public limit off.
var LimitOff = limit.Rate{}

// BenchServer is a Server for benchmarks (and tests that measure): a token cache of cacheSize, the
// public rate given and the signed-in tiers unlimited. It returns the
// server, a pro session token of "alice" and an API key of hers.
func BenchServer(b testing.TB, cacheSize int, public limit.Rate, opts ...Option) (*handlers.Server, string, string) {
	b.Helper()
	db, err := store.Open(filepath.Join(b.TempDir(), "b.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: Secret, CacheSize: cacheSize})
	if err != nil {
		b.Fatal(err)
	}
	cfg := handlers.Config{Version: "bench", DB: db, Verifier: v, RatePublic: public,
		RateFree: limit.Rate{N: 1e9, Per: time.Hour}, RatePro: limit.Rate{N: 1e9, Per: time.Hour}}
	for _, o := range opts {
		o(&cfg)
	}
	s, err := handlers.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close(); v.Close(); db.Close() })
	tok, err := auth.Sign(Secret, auth.Claims{Sub: "alice", Tier: "pro", TTL: time.Hour}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	plain, hash, err := auth.NewKey()
	if err != nil {
		b.Fatal(err)
	}
	if err := db.CreateKey(store.Key{ID: "key_bench", Owner: "alice", Name: "b", CreatedAt: time.Now()}, hash, 10, nil); err != nil {
		b.Fatal(err)
	}
	return s, tok, plain
}

// Request sets rc up as one request from 192.0.2.1.
func Request(rc *fasthttp.RequestCtx, method, path, authz, body string) {
	rc.Init(&fasthttp.Request{}, TCPAddr("192.0.2.1"), nil)
	rc.Request.Header.SetMethod(method)
	rc.Request.SetRequestURI(path)
	if authz != "" {
		rc.Request.Header.Set("Authorization", authz)
	}
	rc.Request.SetBodyString(body)
}

// RunRequest serves one request through the whole chain b.N times with
// one reused RequestCtx, checking the status before and after.
func RunRequest(b *testing.B, s *handlers.Server, method, path, authz, body string, want int) {
	b.Helper()
	var rc fasthttp.RequestCtx
	Request(&rc, method, path, authz, body)
	Serve(b, s, &rc)
	if rc.Response.StatusCode() != want {
		b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	b.SetBytes(int64(len(rc.Response.Body())))
	b.ReportAllocs()
	for b.Loop() {
		rc.Response.Reset()
		s.Serve(&rc)
	}
	if rc.Response.StatusCode() != want {
		b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
	}
}
