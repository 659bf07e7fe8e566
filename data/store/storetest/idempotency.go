package storetest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store"
)

// runIdempotency checks the Idempotency-Key claims.
func runIdempotency(t *testing.T, open func(t *testing.T) store.Store) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"IdempotentReplay", testIdempotentReplay},
		{"IdempotentConcurrentClaim", testIdempotentConcurrent},
		{"IdempotentExpiryAndErasure", testIdempotentExpiry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

const claimTTL = 24 * time.Hour

func testIdempotentReplay(t *testing.T, s store.Store) {
	now := time.Now()
	h := sha256.Sum256([]byte("POST /assets {}"))
	prev, err := s.BeginIdempotent("u1", "k1", h, now, claimTTL)
	if err != nil || prev != nil {
		t.Fatalf("first claim: %v %v", prev, err)
	}
	// While the first request runs, a retry sees the claim, not done.
	prev, err = s.BeginIdempotent("u1", "k1", h, now.Add(time.Second), claimTTL)
	if err != nil || prev == nil || prev.Done || prev.Hash != h {
		t.Fatalf("claim while running: %+v %v", prev, err)
	}
	body := []byte{0, 1, 2, 250, 255} // opaque: the store keeps bytes as given
	if err := s.FinishIdempotent("u1", "k1", 201, body); err != nil {
		t.Fatal(err)
	}
	prev, err = s.BeginIdempotent("u1", "k1", sha256.Sum256([]byte("other")), now.Add(time.Hour), claimTTL)
	if err != nil || prev == nil || !prev.Done || prev.Status != 201 || !bytes.Equal(prev.Body, body) || prev.Hash != h {
		t.Fatalf("replay: %+v %v", prev, err)
	}
	// Keys are per user.
	if prev, err := s.BeginIdempotent("u2", "k1", h, now, claimTTL); err != nil || prev != nil {
		t.Fatalf("another user's key: %+v %v", prev, err)
	}
	// An abandoned claim is free again.
	if err := s.AbandonIdempotent("u2", "k1"); err != nil {
		t.Fatal(err)
	}
	if prev, err := s.BeginIdempotent("u2", "k1", h, now, claimTTL); err != nil || prev != nil {
		t.Fatalf("after abandon: %+v %v", prev, err)
	}
	if err := s.FinishIdempotent("u3", "never-claimed", 201, nil); err == nil {
		t.Fatal("finishing an unclaimed key succeeded")
	}
	for _, bad := range [][2]string{{"", "k"}, {"u", ""}} {
		if _, err := s.BeginIdempotent(bad[0], bad[1], h, now, claimTTL); err == nil {
			t.Errorf("claim %q accepted", bad)
		}
	}
}

// Of racing claims of one key exactly one wins.
func testIdempotentConcurrent(t *testing.T, s store.Store) {
	const n = 8
	var wins atomic.Int32
	var wg sync.WaitGroup
	h := sha256.Sum256([]byte("race"))
	now := time.Now()
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev, err := s.BeginIdempotent("racer", "same", h, now, claimTTL)
			if err != nil {
				errs <- err
				return
			}
			if prev == nil {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if wins.Load() != 1 {
		t.Fatalf("%d claims won", wins.Load())
	}
}

func testIdempotentExpiry(t *testing.T, s store.Store) {
	now := time.Now()
	h := sha256.Sum256([]byte("x"))
	for i := range 3 {
		if _, err := s.BeginIdempotent("old", fmt.Sprint("k", i), h, now, claimTTL); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.FinishIdempotent("old", "k0", 201, []byte("first")); err != nil {
		t.Fatal(err)
	}
	// Past the ttl the claim is gone: the key starts afresh.
	later := now.Add(claimTTL + time.Second)
	if prev, err := s.BeginIdempotent("old", "k0", h, later, claimTTL); err != nil || prev != nil {
		t.Fatalf("after the ttl: %+v %v", prev, err)
	}
	// Erasure takes the user's claims with it.
	if err := s.DeleteUser("old"); err != nil {
		t.Fatal(err)
	}
	if prev, err := s.BeginIdempotent("old", "k0", h, later, claimTTL); err != nil || prev != nil {
		t.Fatalf("after erasure: %+v %v", prev, err)
	}
}
