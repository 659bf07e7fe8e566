package limit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// testRedis connects to FI_TEST_REDIS (a database of its own, such as
// redis://127.0.0.1:6379/15) or skips, and returns a fresh key prefix
// whose keys are deleted when the test ends.
func testRedis(t *testing.T) (*redis.Client, string) {
	t.Helper()
	u := os.Getenv("FI_TEST_REDIS")
	if u == "" {
		t.Skip("Redis tests skipped: set FI_TEST_REDIS=redis://127.0.0.1:6379/15 to run them")
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatalf("FI_TEST_REDIS: %v", err)
	}
	rdb := redis.NewClient(opt)
	var b [8]byte
	_, _ = rand.Read(b[:])
	prefix := "fiplan-test:" + hex.EncodeToString(b[:]) + ":"
	t.Cleanup(func() {
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, "rate:"+prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
		rdb.Close()
	})
	return rdb, prefix
}

func ident(s string) string { return s }

func TestSharedBurstThenLimited(t *testing.T) {
	rdb, prefix := testRedis(t)
	r := Rate{N: 5, Per: time.Minute}
	s := NewShared(NewRedis(rdb, time.Second, nil), r, prefix, ident, New[string](r, 100, HashString))
	now := time.Now().UnixNano()
	for i := range 5 {
		d := s.Allow("alice", now)
		if !d.OK || d.Limit != 5 || d.Remaining != 4-i || d.Reset < 1 || d.Reset > 60 {
			t.Fatalf("request %d: %+v", i+1, d)
		}
	}
	d := s.Allow("alice", now)
	// One request every 12 s after the burst.
	if d.OK || d.RetryAfter < 11 || d.RetryAfter > 12 || d.Limit != 5 || d.Remaining != 0 {
		t.Fatalf("6th request: %+v", d)
	}
	if d := s.Allow("bob", now); !d.OK || d.Remaining != 4 {
		t.Fatalf("another key: %+v", d)
	}
	if n := s.r.Fallbacks(); n != 0 {
		t.Fatalf("Fallbacks = %d with Redis up", n)
	}
	if err := s.r.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

// Two nodes (two clients, two local limiters) share one count.
func TestSharedAcrossNodes(t *testing.T) {
	rdb, prefix := testRedis(t)
	other := redis.NewClient(rdb.Options())
	defer other.Close()
	r := Rate{N: 4, Per: time.Minute}
	a := NewShared(NewRedis(rdb, time.Second, nil), r, prefix, ident, New[string](r, 100, HashString))
	b := NewShared(NewRedis(other, time.Second, nil), r, prefix, ident, New[string](r, 100, HashString))
	now := time.Now().UnixNano()
	for i, node := range []*Shared[string]{a, b, a, b} {
		if d := node.Allow("alice", now); !d.OK {
			t.Fatalf("request %d refused: %+v", i+1, d)
		}
	}
	if d := b.Allow("alice", now); d.OK {
		t.Fatalf("5th request across nodes admitted: %+v", d)
	}
}

func TestSharedConcurrentExactCount(t *testing.T) {
	rdb, prefix := testRedis(t)
	r := Rate{N: 20, Per: time.Hour}
	s := NewShared(NewRedis(rdb, time.Second, nil), r, prefix, ident, New[string](r, 100, HashString))
	var ok atomic.Int64
	var wg sync.WaitGroup
	now := time.Now().UnixNano()
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.Allow("alice", now).OK {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 20 {
		t.Fatalf("%d of 50 admitted, want 20", ok.Load())
	}
}

// With Redis unreachable, the local limiter decides (its limit holds), the
// request does not wait for Redis again for a second, and the fall-back is
// logged once a minute at most.
func TestSharedFailOpen(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: closedAddr(t), DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	defer rdb.Close()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	r := Rate{N: 2, Per: time.Minute}
	red := NewRedis(rdb, 200*time.Millisecond, log)
	s := NewShared(red, r, "x:", ident, New[string](r, 100, HashString))
	other := NewShared(red, r, "y:", ident, New[string](r, 100, HashString))
	now := time.Now().UnixNano()
	start := time.Now()
	got := []bool{}
	for i := range 3 {
		got = append(got, s.Allow("alice", now+int64(i)).OK)
	}
	if got[0] != true || got[1] != true || got[2] != false {
		t.Fatalf("local fall-back decisions %v, want [true true false]", got)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("three requests took %s with Redis down", el)
	}
	// Another limiter on the same Redis knows it is down: it decides
	// locally at once, without waiting for Redis.
	start = time.Now()
	if d := other.Allow("alice", now+3); !d.OK || d.Remaining != 1 {
		t.Fatalf("other limiter while Redis is down: %+v", d)
	}
	if el := time.Since(start); el > 50*time.Millisecond {
		t.Fatalf("other limiter waited %s for a Redis known to be down", el)
	}
	if n := red.Fallbacks(); n != 4 {
		t.Fatalf("Fallbacks = %d after 4 locally decided requests", n)
	}
	if err := red.Ping(context.Background()); err == nil {
		t.Fatal("Ping of an unreachable Redis succeeded")
	}
	// After the retry pause Redis is tried again and fails again: no new
	// warning within the minute, one after it.
	s.Allow("bob", now+int64(2*time.Second))
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
		t.Fatalf("%d warnings within a minute, want 1:\n%s", n, logs.String())
	}
	s.Allow("bob", now+int64(61*time.Second))
	if n := strings.Count(logs.String(), "level=WARN"); n != 2 {
		t.Fatalf("%d warnings after a minute, want 2:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "redis is unreachable") {
		t.Fatalf("log = %s", logs.String())
	}
}

func TestSharedOff(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: closedAddr(t)})
	defer rdb.Close()
	s := NewShared(NewRedis(rdb, 0, nil), Rate{}, "x:", ident, New[string](Rate{}, 1, HashString))
	for range 3 {
		if d := s.Allow("a", 1); !d.OK {
			t.Fatalf("off: %+v", d)
		}
	}
	if s.Rate() != (Rate{}) {
		t.Fatal(s.Rate())
	}
}

// closedAddr returns a local address nothing listens on, rather than a
// fixed port assumed to be closed.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A Redis that accepts connections and never answers costs a request the
// limiter's timeout, not go-redis's socket timeouts, once the client's
// options come from ClientOptions.
func TestSharedFrozenRedis(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { // read and drop, never answer
				_, _ = io.Copy(io.Discard, c) // until the client hangs up
				c.Close()
			}()
		}
	}()
	rdb := redis.NewClient(ClientOptions(&redis.Options{Addr: ln.Addr().String()}))
	defer rdb.Close()
	if o := rdb.Options(); !o.ContextTimeoutEnabled || o.ReadTimeout != PingTimeout || o.DialTimeout != PingTimeout || o.PoolTimeout != PingTimeout {
		t.Fatalf("options %+v", o)
	}
	r := Rate{N: 2, Per: time.Minute}
	red := NewRedis(rdb, 0, nil)
	s := NewShared(red, r, "x:", ident, New[string](r, 100, HashString))
	start := time.Now()
	if d := s.Allow("alice", time.Now().UnixNano()); !d.OK || d.Remaining != 1 {
		t.Fatalf("decision with Redis frozen: %+v", d)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("a request waited %s for a frozen Redis; the budget is %s", el, DefaultRedisTimeout)
	}
	if n := red.Fallbacks(); n != 1 {
		t.Fatalf("Fallbacks = %d", n)
	}
	start = time.Now()
	if err := red.Ping(context.Background()); err == nil {
		t.Fatal("Ping of a frozen Redis succeeded")
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("Ping waited %s for a frozen Redis; its bound is %s", el, PingTimeout)
	}
	rdb.Close()
	ln.Close()
}

// A key that came back in the last second takes a batch in one round trip
// and spends it here: far fewer round trips than requests, and the limit
// still exact across nodes.
func TestSharedBatchesAKeyThatComesBack(t *testing.T) {
	rdb, prefix := testRedis(t)
	red := NewRedis(rdb, time.Second, nil)
	r := Rate{N: 6000, Per: time.Minute}
	s := NewShared(red, r, prefix, ident, New[string](r, 100, HashString))
	start := time.Now().UnixNano()
	const perSecond, seconds = 200, 3
	for sec := range seconds {
		for i := range perSecond {
			now := start + int64(sec)*int64(time.Second) + int64(i)*int64(time.Second)/perSecond
			if d := s.Allow("busy", now); !d.OK || d.Remaining <= 0 || d.Limit != r.N {
				t.Fatalf("request %d of second %d: %+v", i, sec, d)
			}
		}
	}
	// The first second goes to Redis every time; the next ones take a
	// second's worth at once.
	trips := red.RoundTrips()
	if trips > perSecond+2*seconds+2 {
		t.Fatalf("%d round trips for %d requests", trips, perSecond*seconds)
	}
	t.Logf("%d requests, %d round trips", perSecond*seconds, trips)

	// Near the limit, two nodes never admit more than it together, and
	// what batching strands stays small.
	other := redis.NewClient(rdb.Options())
	defer other.Close()
	tight := Rate{N: 100, Per: time.Hour}
	a := NewShared(NewRedis(rdb, time.Second, nil), tight, prefix+"t:", ident, New[string](tight, 100, HashString))
	b := NewShared(NewRedis(other, time.Second, nil), tight, prefix+"t:", ident, New[string](tight, 100, HashString))
	admitted := 0
	for i := range 400 {
		node, now := a, start+int64(i)*int64(time.Second)/100 // 100 a second, alternating
		if i%3 == 0 {
			node = b
		}
		if node.Allow("near", now).OK {
			admitted++
		}
	}
	if admitted > tight.N+1 || admitted < tight.N-2*tight.N/maxGrantShare {
		// At most the limit, and the one unit the limit regains over the
		// four seconds (100 an hour); at least the limit less what two
		// nodes can strand.
		t.Fatalf("%d admitted against a limit of %d", admitted, tight.N)
	}
}

// A key that calls now and then takes exactly what it asks for.
func TestSharedSlowKeyIsExact(t *testing.T) {
	rdb, prefix := testRedis(t)
	r := Rate{N: 10, Per: time.Hour}
	s := NewShared(NewRedis(rdb, time.Second, nil), r, prefix, ident, New[string](r, 100, HashString))
	now := time.Now().UnixNano()
	for i := range 10 {
		d := s.Allow("slow", now+int64(i)*int64(3*time.Second))
		if !d.OK || d.Remaining != 9-i {
			t.Fatalf("request %d: %+v, want remaining %d", i, d, 9-i)
		}
	}
}

// Shared alike: more than the whole allowance is Never, charges nothing in
// Redis, and says where the key stands; Redis down, the local limiter
// answers the same.
func TestSharedOverTheWholeAllowance(t *testing.T) {
	rdb, prefix := testRedis(t)
	r := Rate{N: 5, Per: time.Minute}
	s := NewShared(NewRedis(rdb, time.Second, nil), r, prefix, ident, New[string](r, 100, HashString))
	now := time.Now().UnixNano()
	if d := s.AllowN("alice", 2, now); !d.OK {
		t.Fatalf("2 of 5: %+v", d)
	}
	d := s.AllowN("alice", 6, now)
	if d.OK || !d.Never || d.RetryAfter != 0 || d.Limit != 5 || d.Remaining != 3 || d.Reset < 1 {
		t.Fatalf("6 of 5: %+v", d)
	}
	if d := s.AllowN("alice", 3, now); !d.OK || d.Remaining != 0 {
		t.Fatalf("the 3 left after the refusal: %+v", d)
	}
	down := NewShared(NewRedis(redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1}), 50*time.Millisecond, slog.New(slog.DiscardHandler)), r, prefix, ident, New[string](r, 100, HashString))
	if d := down.AllowN("bob", 6, now); d.OK || !d.Never || d.RetryAfter != 0 {
		t.Fatalf("6 of 5, Redis down: %+v", d)
	}
}
