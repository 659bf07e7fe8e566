package storetest

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store"
)

// runSessions checks the store's session records: revocation marks and
// the tier as of a credential's issue time.
func runSessions(t *testing.T, open func(t *testing.T) store.Store) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"Revoke", testRevoke},
		{"RevokeConcurrentFirst", testRevokeConcurrent},
		{"SaveTier", testSaveTier},
		{"MarksAfter", testMarksAfter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func testRevoke(t *testing.T, s store.Store) {
	if r, err := s.Revoked("sid-1", time.Now()); err != nil || r {
		t.Fatalf("Revoked of an unknown id = %v, %v", r, err)
	}
	first, err := s.Revoke("sid-1", time.Now().Add(time.Hour), time.Now())
	if err != nil || !first {
		t.Fatalf("first Revoke = %v, %v", first, err)
	}
	if r, err := s.Revoked("sid-1", time.Now()); err != nil || !r {
		t.Fatalf("Revoked after Revoke = %v, %v", r, err)
	}
	// A second mark is not first, and an earlier until does not shorten it.
	first, err = s.Revoke("sid-1", time.Now().Add(-time.Hour), time.Now())
	if err != nil || first {
		t.Fatalf("second Revoke = %v, %v", first, err)
	}
	if r, err := s.Revoked("sid-1", time.Now()); err != nil || !r {
		t.Fatalf("an earlier until shortened the mark: %v, %v", r, err)
	}
	// The caller's clock decides: past until, the mark revokes nothing.
	if r, err := s.Revoked("sid-1", time.Now().Add(2*time.Hour)); err != nil || r {
		t.Fatalf("Revoked past the mark's until = %v, %v", r, err)
	}
	if r, err := s.Revoked("sid-2", time.Now()); err != nil || r {
		t.Fatalf("another id is revoked: %v, %v", r, err)
	}
	// An expired mark revokes nothing; a later until brings it back.
	if _, err := s.Revoke("sid-3", time.Now().Add(-time.Second), time.Now()); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Revoked("sid-3", time.Now()); err != nil || r {
		t.Fatalf("an expired mark revokes: %v, %v", r, err)
	}
	if _, err := s.Revoke("sid-3", time.Now().Add(time.Hour), time.Now()); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Revoked("sid-3", time.Now()); err != nil || !r {
		t.Fatalf("an extended mark does not revoke: %v, %v", r, err)
	}
	// Expired marks are forgotten in time, so their ids may be marked anew.
	for i := range 3 {
		if _, err := s.Revoke("old-"+string(rune('a'+i)), time.Now().Add(-time.Minute), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Revoke("sweeper", time.Now().Add(time.Hour), time.Now()); err != nil {
		t.Fatal(err)
	}
	if first, err := s.Revoke("old-a", time.Now().Add(time.Hour), time.Now()); err != nil || !first {
		t.Fatalf("Revoke of a swept id = %v, %v", first, err)
	}
	for _, bad := range []string{"", strings.Repeat("x", store.MaxIDLen+1)} {
		if _, err := s.Revoke(bad, time.Now().Add(time.Hour), time.Now()); err == nil || errors.Is(err, store.ErrNotFound) {
			t.Errorf("Revoke(%q) = %v, want a failure", bad, err)
		}
		if r, err := s.Revoked(bad, time.Now()); err != nil || r {
			t.Errorf("Revoked(%q) = %v, %v", bad, r, err)
		}
	}
}

// testRevokeConcurrent: one-use values are spent once, whoever races.
func testRevokeConcurrent(t *testing.T, s store.Store) {
	const n = 8
	var firsts atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first, err := s.Revoke("state-x", time.Now().Add(time.Minute), time.Now())
			if err != nil {
				errs <- err
				return
			}
			if first {
				firsts.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := firsts.Load(); got != 1 {
		t.Fatalf("%d of %d racing Revokes were first, want exactly 1", got, n)
	}
}

func testSaveTier(t *testing.T, s store.Store) {
	t0 := time.Now().Add(-time.Hour).Truncate(time.Second)
	tier := func(want string) {
		t.Helper()
		a, err := s.Account("carol")
		if err != nil || a.Tier != want {
			t.Fatalf("Account = %+v, %v; want tier %s", a, err, want)
		}
	}
	if err := s.SaveTier("carol", "free", t0); err != nil {
		t.Fatal(err)
	}
	tier("free")
	if err := s.SaveTier("carol", "pro", t0.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	tier("pro")
	// An older credential, or one issued at the same time, changes nothing.
	for _, at := range []time.Time{t0.Add(time.Second), t0.Add(2 * time.Second)} {
		if err := s.SaveTier("carol", "free", at); err != nil {
			t.Fatal(err)
		}
		tier("pro")
	}
	// A newer one with the same tier moves the mark: an older one still
	// in use cannot change the tier afterwards.
	if err := s.SaveTier("carol", "pro", t0.Add(4*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTier("carol", "free", t0.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	tier("pro")
	if err := s.SaveTier("carol", "free", t0.Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	tier("free")
	// Erasure forgets the mark with the account.
	if err := s.DeleteUser("carol"); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTier("carol", "pro", t0); err != nil {
		t.Fatal(err)
	}
	tier("pro")
	if err := s.SaveTier("", "pro", t0); err == nil {
		t.Error("SaveTier of an empty user accepted")
	}
}

// testMarksAfter: every mark made or extended takes a number above those
// before it, so that a reader polling from the last number it saw reads
// exactly what is new; a mark left as it was is not read again.
func testMarksAfter(t *testing.T, s store.Store) {
	now := time.Now()
	read := func(after int64) (map[string]time.Time, int64) {
		t.Helper()
		got := map[string]time.Time{}
		last, err := s.MarksAfter(after, func(id string, until time.Time) { got[id] = until })
		if err != nil {
			t.Fatal(err)
		}
		return got, last
	}
	_, start := read(0)
	if _, err := s.Revoke("m-a", now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	got, last := read(start)
	if len(got) != 1 || got["m-a"].Sub(now.Add(time.Hour)).Abs() > time.Millisecond || last <= start {
		t.Fatalf("after the first mark: %v, last %d (from %d)", got, last, start)
	}
	if got, again := read(last); len(got) != 0 || again != last {
		t.Fatalf("nothing new, yet read %v, last %d -> %d", got, last, again)
	}
	if _, err := s.Revoke("m-a", now.Add(time.Minute), now); err != nil { // earlier: no change
		t.Fatal(err)
	}
	if _, err := s.Revoke("m-b", now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	got, next := read(last)
	if _, ok := got["m-a"]; ok || len(got) != 1 || next <= last {
		t.Fatalf("after a mark kept and a new one: %v, last %d -> %d", got, last, next)
	}
	if _, err := s.Revoke("m-a", now.Add(2*time.Hour), now); err != nil { // later: extended
		t.Fatal(err)
	}
	got, final := read(next)
	if u, ok := got["m-a"]; !ok || len(got) != 1 || u.Before(now.Add(2*time.Hour-time.Second)) || final <= next {
		t.Fatalf("after an extension: %v, last %d -> %d", got, next, final)
	}
}
