package bench

import (
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/limit"
)

var secret = []byte("bench-secret-bench-secret-bench!")

// serve starts fiplan on a loopback port with limits high enough not to
// interfere, and returns its address and a pro session token.
func serve(b *testing.B) (string, string) {
	b.Helper()
	return serveWith(b, nil)
}

// serveWith is serve with the rate limits in r when it is not nil.
func serveWith(b *testing.B, r *limit.Redis) (string, string) {
	b.Helper()
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: secret, CacheSize: 1 << 16})
	if err != nil {
		b.Fatal(err)
	}
	high := limit.Rate{N: 1e9, Per: time.Hour}
	s, err := handlers.New(handlers.Config{Version: "bench", DB: db, Verifier: v, RatePublic: high, RateFree: high, RatePro: high, Redis: r})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := s.HTTP()
	go srv.Serve(ln) //nolint:errcheck // ends at Shutdown
	b.Cleanup(func() {
		srv.Shutdown()
		s.Close()
		v.Close()
		db.Close()
	})
	tok, err := auth.Sign(secret, auth.Claims{Sub: "bench", Tier: "pro", TTL: time.Hour}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	return ln.Addr().String(), tok
}

func run(b *testing.B, addr, method, path, authz, body string, want int) {
	c := &fasthttp.HostClient{Addr: addr, MaxConns: 64}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		req := fasthttp.AcquireRequest()
		res := fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(res)
		req.Header.SetMethod(method)
		req.SetRequestURI("http://" + addr + path)
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		if body != "" {
			req.Header.SetContentType("application/json")
			req.SetBodyString(body)
		}
		for pb.Next() {
			if err := c.Do(req, res); err != nil {
				b.Error(err)
				return
			}
			if res.StatusCode() != want {
				b.Errorf("status %d: %s", res.StatusCode(), res.Body())
				return
			}
		}
	})
}

func BenchmarkStatus(b *testing.B) {
	addr, _ := serve(b)
	run(b, addr, "GET", "/api/v1/status", "", "", 200)
}

func BenchmarkNotFound(b *testing.B) {
	addr, _ := serve(b)
	run(b, addr, "GET", "/api/v1/nothing", "", "", 404)
}

func BenchmarkAuthenticatedList(b *testing.B) {
	addr, tok := serve(b)
	run(b, addr, "GET", "/api/v1/user/api-keys", "Bearer "+tok, "", 200)
}

func BenchmarkValidationError(b *testing.B) {
	addr, tok := serve(b)
	run(b, addr, "POST", "/api/v1/user/api-keys", "Bearer "+tok, `{"name":42,"extra":true}`, 400)
}
