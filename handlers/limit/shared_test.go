package limit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
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
	s := NewShared(rdb, r, prefix, ident, New[string](r, 100, HashString), time.Second, nil)
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
}

// Two nodes (two clients, two local limiters) share one count.
func TestSharedAcrossNodes(t *testing.T) {
	rdb, prefix := testRedis(t)
	other := redis.NewClient(rdb.Options())
	defer other.Close()
	r := Rate{N: 4, Per: time.Minute}
	a := NewShared(rdb, r, prefix, ident, New[string](r, 100, HashString), time.Second, nil)
	b := NewShared(other, r, prefix, ident, New[string](r, 100, HashString), time.Second, nil)
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
	s := NewShared(rdb, r, prefix, ident, New[string](r, 100, HashString), time.Second, nil)
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
	s := NewShared(rdb, r, "x:", ident, New[string](r, 100, HashString), 200*time.Millisecond, log)
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
	s := NewShared(rdb, Rate{}, "x:", ident, New[string](Rate{}, 1, HashString), 0, nil)
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
