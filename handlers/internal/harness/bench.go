package harness

import (
	"path/filepath"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/auth"
)

// Bench builds a server for benchmarks (and tests that measure) on a
// fresh bbolt store, its verifier keeping a token cache of cacheSize and
// the clock the wall's. It returns the server, its store, a pro session
// token of "alice" and an API key of hers.
func Bench[S Server](tb testing.TB, cacheSize int, build Build[S]) (s S, db *store.DB, token, key string) {
	tb.Helper()
	db, err := store.Open(filepath.Join(tb.TempDir(), "b.db"), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: Secret, CacheSize: cacheSize})
	if err != nil {
		tb.Fatal(err)
	}
	s, err = build(db, v, time.Now)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close(); v.Close(); db.Close() })
	token, err = auth.Sign(Secret, auth.Claims{Sub: "alice", Tier: "pro", TTL: time.Hour}, time.Now())
	if err != nil {
		tb.Fatal(err)
	}
	plain, hash, err := auth.NewKey()
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.CreateKey(store.Key{ID: "key_bench", Owner: "alice", Name: "b", CreatedAt: time.Now()}, hash, 10, nil); err != nil {
		tb.Fatal(err)
	}
	return s, db, token, plain
}
