package main

import (
	"net/url"
	"os"
	"testing"
	"time"
)

// TestRedisFrozen: a Redis that keeps its connections open but answers
// nothing costs a limited request the limiter's budget, not go-redis's
// socket timeouts: the request is answered under the node's own limit
// well within a second, and so is /status, which reports Redis
// unreachable.
func TestRedisFrozen(t *testing.T) {
	env := clusterEnv(t, "FI_RATE_PUBLIC=3/1m")
	u, err := url.Parse(os.Getenv("FI_TEST_REDIS"))
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	n := startNode(t, append(env, "FI_REDIS_URL="+u.String()))

	ip := []string{"X-Forwarded-For", clientIP()}
	// Through Redis while it answers: the shared count.
	if r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...); r.status != 200 || r.header.Get("RateLimit-Remaining") != "2" {
		t.Fatalf("with Redis answering: %d remaining %q", r.status, r.header.Get("RateLimit-Remaining"))
	}

	p.mode.Store(2) // frozen: connections stay open, nothing is forwarded
	// Each request below may be the one that finds Redis frozen (the
	// limiter tries it again every second): every one must stay within
	// the bound, and the node's own limit (3, counted from here) holds.
	for i := range 3 {
		start := time.Now()
		r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...)
		el := time.Since(start)
		if r.status != 200 || r.header.Get("RateLimit-Limit") != "3" {
			t.Fatalf("request %d with Redis frozen: %d %v", i+1, r.status, r.body)
		}
		if el > time.Second {
			t.Fatalf("request %d with Redis frozen took %s; the limiter's budget is 50 ms", i+1, el)
		}
		t.Logf("request %d with Redis frozen: %s", i+1, el.Round(time.Millisecond))
	}
	start := time.Now()
	if r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", ip...); r.status != 429 || time.Since(start) > time.Second {
		t.Fatalf("4th request with Redis frozen: %d after %s, want 429 (the local limit)", r.status, time.Since(start))
	}
	// After the retry pause the limiter asks the frozen Redis again, and
	// again gives up within its budget.
	time.Sleep(1100 * time.Millisecond)
	start = time.Now()
	if r := must(t, n.addr, "GET", "/api/v1/geo/cities?limit=1", "", "X-Forwarded-For", clientIP()); r.status != 200 {
		t.Fatalf("after the retry pause: %d %v", r.status, r.body)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("request after the retry pause took %s with Redis frozen", el)
	}

	start = time.Now()
	r := must(t, n.addr, "GET", "/api/v1/status", "", "X-Forwarded-For", clientIP())
	el := time.Since(start)
	rd, _ := r.data()["redis"].(map[string]any)
	if r.status != 200 || rd["state"] != "unreachable" || el > 2*time.Second {
		t.Fatalf("status with Redis frozen: %d %v after %s", r.status, r.body, el)
	}
	t.Logf("status with Redis frozen: %s", el.Round(time.Millisecond))
}
