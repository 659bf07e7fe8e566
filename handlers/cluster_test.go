package handlers

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/limit"
)

func withDB(db store.Store) option { return func(c *Config) { c.DB = db } }

func withRedis(r *limit.Redis) option { return func(c *Config) { c.Redis = r } }

// testRedis connects to FI_TEST_REDIS or skips.
func testRedis(t *testing.T) *redis.Client {
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
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// randomIP is a documentation-range address no other test run uses, so
// that counts kept in Redis by earlier runs do not leak in.
func randomIP() string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("198.51.%d.%d", b[0], b[1]|1)
}

// Two servers on one store: a flag written through one is evaluated by the
// other within a second, from its own snapshot, and so is its removal.
func TestFlagsReachOtherNodes(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "shared.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
	admin := bearer(a.Token("ops", "pro", "admin"))
	user := bearer(b.Token("alice", "free", ""))
	exists := func() bool {
		r := b.Do("GET", "/api/v1/features/new-ui", "", user...)
		if r.Status != 200 {
			t.Fatalf("GET on b: %d %s", r.Status, r.Raw)
		}
		return r.Data()["exists"] == true
	}
	waitFor := func(want bool) time.Duration {
		start := time.Now()
		for exists() != want {
			if time.Since(start) > time.Second {
				t.Fatalf("b still answers exists=%v a second after the write on a", !want)
			}
			time.Sleep(20 * time.Millisecond)
		}
		return time.Since(start)
	}
	if exists() {
		t.Fatal("flag exists before it was written")
	}
	if r := a.Do("PUT", "/api/v1/features/new-ui", `{"enabled":true}`, admin...); r.Status != 201 {
		t.Fatalf("PUT on a: %d %s", r.Status, r.Raw)
	}
	t.Logf("write seen on b after %s", waitFor(true))
	if r := a.Do("DELETE", "/api/v1/features/new-ui", "", admin...); r.Status != 204 {
		t.Fatalf("DELETE on a: %d %s", r.Status, r.Raw)
	}
	t.Logf("delete seen on b after %s", waitFor(false))
}

// Two servers on one Redis count one anonymous limit between them.
func TestSharedPublicLimit(t *testing.T) {
	r := limit.NewRedis(testRedis(t), time.Second, nil)
	a := newHarness(t, withRedis(r), withRates("3/1m", "600/1m", "6000/1m"))
	b := newHarness(t, withRedis(r), withRates("3/1m", "600/1m", "6000/1m"))
	a.IP = randomIP()
	b.IP = a.IP
	for i, h := range []*harness{a, b, a} {
		res := h.Do("GET", "/api/v1/geo/cities?limit=1", "")
		if res.Status != 200 || res.Header["Ratelimit-Remaining"] != fmt.Sprint(2-i) {
			t.Fatalf("request %d: %d remaining %q", i+1, res.Status, res.Header["Ratelimit-Remaining"])
		}
	}
	expectError(t, b.Do("GET", "/api/v1/geo/cities?limit=1", ""), 429, errcode.RateLimited)
	st := a.Do("GET", "/api/v1/status", "")
	if st.Status == 200 {
		t.Fatal("status is not limited with the rest")
	}
	a.IP = randomIP()
	st = a.Do("GET", "/api/v1/status", "")
	rd, _ := st.Data()["redis"].(map[string]any)
	if st.Status != 200 || rd["state"] != "ok" || rd["fallbacks"] != 0.0 {
		t.Fatalf("status with Redis up: %d %s", st.Status, st.Raw)
	}
}

// With Redis unreachable, requests are limited by the server's own counts
// (the limit still holds), status says so and stays ok, the fall-backs are
// counted and logged once.
func TestRedisDownFallsBack(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 100 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	r := limit.NewRedis(rdb, 100*time.Millisecond, log)
	h := newHarness(t, withRedis(r), withRates("2/1m", "600/1m", "6000/1m"))
	start := time.Now()
	for i := range 2 {
		if res := h.Do("GET", "/api/v1/geo/cities?limit=1", ""); res.Status != 200 || res.Header["Ratelimit-Limit"] != "2" {
			t.Fatalf("request %d with Redis down: %d %s", i+1, res.Status, res.Raw)
		}
	}
	expectError(t, h.Do("GET", "/api/v1/geo/cities?limit=1", ""), 429, errcode.RateLimited)
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("three requests took %s with Redis down", el)
	}
	if n := h.S.LimitFallbacks(); n != 3 {
		t.Fatalf("LimitFallbacks = %d, want 3", n)
	}
	h.IP = "192.0.2.77"
	st := h.Do("GET", "/api/v1/status", "")
	rd, _ := st.Data()["redis"].(map[string]any)
	if st.Status != 200 || rd["state"] != "unreachable" || rd["fallbacks"] != 4.0 {
		t.Fatalf("status with Redis down: %d %s", st.Status, st.Raw)
	}
	if n := strings.Count(logs.String(), "redis is unreachable"); n != 1 {
		t.Fatalf("%d warnings, want 1:\n%s", n, logs.String())
	}
	if err := r.Ping(context.Background()); err == nil {
		t.Fatal("Ping succeeded")
	}
}
