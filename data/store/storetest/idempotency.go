package storetest

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
)

// runIdempotency checks the answers kept under Idempotency-Keys.
func runIdempotency(t *testing.T, open func(t *testing.T) store.Store) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"KeptWithTheCreate", testKeptWithCreate},
		{"KeptOnEveryCreate", testKeptEveryCreate},
		{"KeptNotOnRefusal", testKeptNotOnRefusal},
		{"KeptConcurrent", testKeptConcurrent},
		{"KeptExpiryAndErasure", testKeptExpiry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

const claimTTL = 24 * time.Hour

func keepOf(user, key, request string, at time.Time, body []byte) *store.Keep {
	return &store.Keep{User: user, Key: key, Hash: sha256.Sum256([]byte(request)), At: at, TTL: claimTTL, Status: 201, Body: body}
}

// usedBy checks that err is *store.KeyUsed naming the answer k kept.
func usedBy(t *testing.T, what string, err error, k *store.Keep) {
	t.Helper()
	var used *store.KeyUsed
	if !errors.As(err, &used) {
		t.Fatalf("%s: %v, want *store.KeyUsed", what, err)
	}
	p := used.Prev
	if !p.Done || p.Status != k.Status || !bytes.Equal(p.Body, k.Body) || p.Hash != k.Hash {
		t.Fatalf("%s: the claim %+v is not the kept answer %+v", what, p, k)
	}
}

// An answer kept with a create is read back, and a second create under
// the key writes nothing and names it.
func testKeptWithCreate(t *testing.T, s store.Store) {
	now := time.Now()
	body := []byte{0, 1, 2, 250, 255} // opaque: the store keeps bytes as given
	k := keepOf("u1", "k1", "POST /assets a1", now, body)
	if prev, err := s.Idempotent("u1", "k1", now, claimTTL); err != nil || prev != nil {
		t.Fatalf("before the create: %+v %v", prev, err)
	}
	m, doc := asset("a1", "US0378331005", 1)
	if err := s.CreateAsset("u1", m, doc, 10, k); err != nil {
		t.Fatal(err)
	}
	prev, err := s.Idempotent("u1", "k1", now.Add(time.Hour), claimTTL)
	if err != nil || prev == nil || !prev.Done || prev.Status != 201 || !bytes.Equal(prev.Body, body) || prev.Hash != k.Hash {
		t.Fatalf("kept: %+v %v", prev, err)
	}
	// A retry, even of another asset, writes nothing.
	m2, doc2 := asset("a2", "", 1)
	usedBy(t, "second create", s.CreateAsset("u1", m2, doc2, 10, keepOf("u1", "k1", "other", now.Add(time.Minute), []byte("x"))), k)
	if got, total := ids(t, s, "u1", store.AnyCategory, 0, 10); total != 1 || got[0] != "a1" {
		t.Fatalf("assets after the retry: %v", got)
	}
	// Keys are per user.
	if prev, err := s.Idempotent("u2", "k1", now, claimTTL); err != nil || prev != nil {
		t.Fatalf("another user's key: %+v %v", prev, err)
	}
	if err := s.CreateAsset("u2", m2, doc2, 10, keepOf("u2", "k1", "x", now, []byte("u2"))); err != nil {
		t.Fatalf("another user's key: %v", err)
	}
	// A Keep must be the create's user's, with a key.
	for _, bad := range []*store.Keep{keepOf("u3", "", "x", now, nil), keepOf("u2", "k9", "x", now, nil)} {
		m3, doc3 := asset("a3", "", 1)
		if err := s.CreateAsset("u3", m3, doc3, 10, bad); err == nil {
			t.Errorf("keep %+v accepted", bad)
		}
	}
	if _, total := ids(t, s, "u3", store.AnyCategory, 0, 10); total != 0 {
		t.Fatalf("a refused keep wrote the asset")
	}
}

// Plans and API keys keep their answers as assets do.
func testKeptEveryCreate(t *testing.T, s store.Store) {
	now := time.Now()
	kp := keepOf("u1", "plan-key", "plan", now, []byte("plan answer"))
	if err := s.CreatePlan("u1", "p1", planDoc("p1", "one"), 10, kp, nil); err != nil {
		t.Fatal(err)
	}
	usedBy(t, "second plan", s.CreatePlan("u1", "p2", planDoc("p2", "two"), 10, keepOf("u1", "plan-key", "plan", now, []byte("y")), nil), kp)
	if got, total := planIDs(t, s, "u1", 0, 10); total != 1 || got[0] != "p1" {
		t.Fatalf("plans after the retry: %v", got)
	}
	kk := keepOf("u1", "key-key", "key", now, []byte("the plain key, sealed"))
	if err := s.CreateKey(store.Key{ID: "k1", Owner: "u1"}, hashOf("svc_1"), 5, kk); err != nil {
		t.Fatal(err)
	}
	usedBy(t, "second key", s.CreateKey(store.Key{ID: "k2", Owner: "u1"}, hashOf("svc_2"), 5, keepOf("u1", "key-key", "key", now, nil)), kk)
	if keys, err := s.Keys("u1"); err != nil || len(keys) != 1 {
		t.Fatalf("keys after the retry: %v %v", keys, err)
	}
	if _, _, err := s.LookupKey(hashOf("svc_2")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the retry's key was stored: %v", err)
	}
	// One key space per user, whatever the route.
	usedBy(t, "a plan under an asset's key", s.CreatePlan("u1", "p3", planDoc("p3", "x"), 10, keepOf("u1", "key-key", "x", now, nil), nil), kk)
}

// A create refused (conflict, limit) keeps nothing: the retry runs again.
func testKeptNotOnRefusal(t *testing.T, s store.Store) {
	now := time.Now()
	m, doc := asset("a1", "US0378331005", 1)
	if err := s.CreateAsset("u1", m, doc, 10, nil); err != nil {
		t.Fatal(err)
	}
	dup, ddoc := asset("a2", "US0378331005", 1)
	if err := s.CreateAsset("u1", dup, ddoc, 10, keepOf("u1", "k1", "dup", now, []byte("no"))); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate ISIN: %v", err)
	}
	more, mdoc := asset("a3", "", 1)
	if err := s.CreateAsset("u1", more, mdoc, 1, keepOf("u1", "k2", "more", now, []byte("no"))); !errors.Is(err, store.ErrLimit) {
		t.Fatalf("over the cap: %v", err)
	}
	if err := s.CreateKey(store.Key{ID: "k", Owner: "u1"}, hashOf("svc"), 0, keepOf("u1", "k3", "key", now, []byte("no"))); !errors.Is(err, store.ErrLimit) {
		t.Fatalf("key over the cap: %v", err)
	}
	for _, key := range []string{"k1", "k2", "k3"} {
		if prev, err := s.Idempotent("u1", key, now, claimTTL); err != nil || prev != nil {
			t.Fatalf("%s kept after a refusal: %+v %v", key, prev, err)
		}
	}
	// The retry, once the cause is gone, runs.
	if err := s.CreateAsset("u1", more, mdoc, 10, keepOf("u1", "k2", "more", now, []byte("yes"))); err != nil {
		t.Fatal(err)
	}
}

// Of racing creates under one key, from any node, exactly one writes; the
// others name its answer.
func testKeptConcurrent(t *testing.T, s store.Store) {
	const n = 8
	now := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, doc := asset(fmt.Sprint("r", i), "", 1)
			errs[i] = s.CreateAsset("racer", m, doc, 100, keepOf("racer", "same", "race", now, []byte(fmt.Sprint("answer ", i))))
		}()
	}
	wg.Wait()
	won := -1
	for i, err := range errs {
		if err == nil {
			if won >= 0 {
				t.Fatalf("creates %d and %d both won", won, i)
			}
			won = i
		}
	}
	if won < 0 {
		t.Fatalf("no create won: %v", errs)
	}
	winner := keepOf("racer", "same", "race", now, []byte(fmt.Sprint("answer ", won)))
	for i, err := range errs {
		if i != won {
			usedBy(t, fmt.Sprint("create ", i), err, winner)
		}
	}
	if got, total := ids(t, s, "racer", store.AnyCategory, 0, 100); total != 1 || got[0] != fmt.Sprint("r", won) {
		t.Fatalf("assets: %v", got)
	}
}

func testKeptExpiry(t *testing.T, s store.Store) {
	now := time.Now()
	for i := range 3 {
		m, doc := asset(fmt.Sprint("a", i), "", 1)
		if err := s.CreateAsset("old", m, doc, 100, keepOf("old", fmt.Sprint("k", i), "x", now, []byte("first"))); err != nil {
			t.Fatal(err)
		}
	}
	// Past the ttl the claim is gone: the key starts afresh.
	later := now.Add(claimTTL + time.Second)
	if prev, err := s.Idempotent("old", "k0", later, claimTTL); err != nil || prev != nil {
		t.Fatalf("after the ttl: %+v %v", prev, err)
	}
	m, doc := asset("again", "", 1)
	if err := s.CreateAsset("old", m, doc, 100, keepOf("old", "k0", "y", later, []byte("second"))); err != nil {
		t.Fatalf("a create under an expired key: %v", err)
	}
	if prev, err := s.Idempotent("old", "k0", later, claimTTL); err != nil || prev == nil || string(prev.Body) != "second" {
		t.Fatalf("after the second create: %+v %v", prev, err)
	}
	// Erasure takes the user's claims with it.
	if err := s.DeleteUser("old"); err != nil {
		t.Fatal(err)
	}
	if prev, err := s.Idempotent("old", "k0", later, claimTTL); err != nil || prev != nil {
		t.Fatalf("after erasure: %+v %v", prev, err)
	}
	if prev, err := s.Idempotent("", "k0", now, claimTTL); err != nil || prev != nil {
		t.Fatalf("an invalid user: %+v %v", prev, err)
	}
}
