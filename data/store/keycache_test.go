package store

import (
	"crypto/sha256"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// counting counts the store's key lookups, and may have its marks fail to
// load (a stale mirror).
type counting struct {
	Store
	lookups atomic.Int64
	down    bool
}

func (c *counting) LookupKey(hash [32]byte) (Key, Account, error) {
	c.lookups.Add(1)
	return c.Store.LookupKey(hash)
}

func (c *counting) MarksAfter(after int64, fn func(string, time.Time)) (int64, error) {
	if c.down {
		return after, errDown
	}
	return c.Store.MarksAfter(after, fn)
}

// fakeClock is a clock a test moves.
type fakeClock struct{ ns atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock {
	f := &fakeClock{}
	f.ns.Store(t.UnixNano())
	return f
}

func (f *fakeClock) now() time.Time      { return time.Unix(0, f.ns.Load()) }
func (f *fakeClock) add(d time.Duration) { f.ns.Add(int64(d)) }

func keyHash(plain string) [32]byte { return sha256.Sum256([]byte(plain)) }

// freshT waits for the mirror's first poll.
func freshT(t *testing.T, m *Mirror) {
	t.Helper()
	for m.Lag() > MirrorStale {
		time.Sleep(5 * time.Millisecond)
	}
}

// keyStore is a bbolt store holding alice's key k1 (plain "svc_alice").
func keyStore(t *testing.T) *DB {
	t.Helper()
	db := openT(t, filepath.Join(t.TempDir(), "k.db"))
	if err := db.CreateKey(Key{ID: "k1", Owner: "alice"}, keyHash("svc_alice"), 5, nil); err != nil {
		t.Fatal(err)
	}
	return db
}

// A key found once is served from the cache while the marks' copy is
// fresh: the store is not read again. Revoked through the mirror, it is
// refused from the next lookup; an unknown key is read from the store
// every time and never cached.
func TestMirrorCachesFoundKeys(t *testing.T) {
	c := &counting{Store: keyStore(t)}
	m := NewMirror(c, nil)
	defer m.Stop()
	freshT(t, m)
	for range 5 {
		k, a, err := m.LookupKey(keyHash("svc_alice"))
		if err != nil || k.Owner != "alice" || k.ID != "k1" || a.Tier != "free" {
			t.Fatalf("LookupKey = %+v, %+v, %v", k, a, err)
		}
	}
	if n := c.lookups.Load(); n != 1 {
		t.Fatalf("five lookups of one key read the store %d times, want 1", n)
	}
	for range 3 {
		if _, _, err := m.LookupKey(keyHash("svc_nobody")); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown key: %v", err)
		}
	}
	if n := c.lookups.Load(); n != 4 {
		t.Fatalf("three lookups of an unknown key read the store %d times, want 3", n-1)
	}
	if err := m.RevokeKey("alice", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.LookupKey(keyHash("svc_alice")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a key revoked through the mirror: %v, want ErrNotFound at once", err)
	}
}

// A key revoked on another node (through its own mirror) is refused here
// once this mirror has polled its mark; the cache is why it was not
// refused before: the key's row is already gone.
func TestMirrorKeyRevokedElsewhere(t *testing.T) {
	db := keyStore(t)
	here, there := NewMirror(db, nil), NewMirror(db, nil)
	defer here.Stop()
	defer there.Stop()
	freshT(t, here)
	if _, _, err := here.LookupKey(keyHash("svc_alice")); err != nil {
		t.Fatal(err)
	}
	if err := there.RevokeKey("alice", "k1"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for {
		_, _, err := here.LookupKey(keyHash("svc_alice"))
		if errors.Is(err, ErrNotFound) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(start) > 2*MirrorStale {
			t.Fatal("a key revoked on another node is still served two seconds later")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !here.Known(KeyMark("alice", "k1"), time.Now()) {
		t.Fatal("refused without the mark: the cache was not in use")
	}
}

// An erased owner's keys are marked as a revoked key is; an account made
// again under the same id, with a new key, is served (the mark sends its
// lookup to the store, which finds the new key).
func TestMirrorUserErased(t *testing.T) {
	db := keyStore(t)
	here, there := NewMirror(db, nil), NewMirror(db, nil)
	defer here.Stop()
	defer there.Stop()
	freshT(t, here)
	if _, _, err := here.LookupKey(keyHash("svc_alice")); err != nil {
		t.Fatal(err)
	}
	if err := there.DeleteUser("alice"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := there.LookupKey(keyHash("svc_alice")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("erased owner's key on the erasing node: %v", err)
	}
	for !here.Known(UserMark("alice"), time.Now()) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, _, err := here.LookupKey(keyHash("svc_alice")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("erased owner's key on another node: %v", err)
	}
	if err := db.CreateKey(Key{ID: "k1", Owner: "alice"}, keyHash("svc_alice_again"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if k, _, err := here.LookupKey(keyHash("svc_alice_again")); err != nil || k.Owner != "alice" {
		t.Fatalf("a new key of the account made again: %+v, %v", k, err)
	}
}

// While the marks' copy is stale the store is read on every lookup, so a
// key deleted in the store (with no mark at all) is refused at once; with
// a fresh copy the same unmarked delete would be served from the cache.
func TestMirrorStaleKeyReadsStore(t *testing.T) {
	db := keyStore(t)
	c := &counting{Store: db, down: true}
	m := NewMirror(c, nil)
	defer m.Stop()
	for range 3 {
		if _, _, err := m.LookupKey(keyHash("svc_alice")); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.lookups.Load(); n != 3 {
		t.Fatalf("a stale mirror read the store %d times for 3 lookups, want 3", n)
	}
	if err := db.RevokeKey("alice", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.LookupKey(keyHash("svc_alice")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a key deleted in the store, with a stale mirror: %v, want ErrNotFound", err)
	}
}

// A cached entry lasts KeyCacheFor by the mirror's clock: past it the
// store is read again, and a key deleted there (here without a mark, so
// only the entry's age can refuse it) is refused.
func TestMirrorKeyEntryExpires(t *testing.T) {
	db := keyStore(t)
	clock := newFakeClock(time.Now())
	m := NewMirror(db, clock.now)
	defer m.Stop()
	freshT(t, m)
	if _, _, err := m.LookupKey(keyHash("svc_alice")); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeKey("alice", "k1"); err != nil {
		t.Fatal(err)
	}
	clock.add(KeyCacheFor - time.Millisecond)
	if _, _, err := m.LookupKey(keyHash("svc_alice")); err != nil {
		t.Fatalf("an entry inside its life: %v, want it served from the cache", err)
	}
	clock.add(time.Millisecond)
	if _, _, err := m.LookupKey(keyHash("svc_alice")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an entry past its life: %v, want the store's ErrNotFound", err)
	}
}

// The marks of keys outlast every entry that could hold the key: a mark
// is written after the delete, and an entry lives KeyCacheFor from before
// the read that filled it.
func TestKeyMarkOutlivesEntries(t *testing.T) {
	if KeyMarkFor <= KeyCacheFor {
		t.Fatalf("KeyMarkFor %s, KeyCacheFor %s", KeyMarkFor, KeyCacheFor)
	}
	long := string(make([]byte, MaxIDLen))
	if a, b := KeyMark(long, "k1"), KeyMark(long, "k2"); a == b || !validID(a) || a == UserMark(long) {
		t.Fatalf("marks %q, %q", a, b)
	}
}

// A tier saved through the mirror reaches the owner's cached key at once.
func TestMirrorKeyTakesSavedTier(t *testing.T) {
	m := NewMirror(keyStore(t), nil)
	defer m.Stop()
	freshT(t, m)
	if _, a, err := m.LookupKey(keyHash("svc_alice")); err != nil || a.Tier != "free" {
		t.Fatalf("LookupKey = %+v, %v", a, err)
	}
	if err := m.SaveTier("alice", "pro", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, a, err := m.LookupKey(keyHash("svc_alice")); err != nil || a.Tier != "pro" {
		t.Fatalf("after SaveTier pro: %+v, %v", a, err)
	}
}

// noMarks is a store whose sign-out marks cannot be written.
type noMarks struct{ Store }

func (noMarks) Revoke(string, time.Time, time.Time) (bool, error) { return false, errDown }

// A revocation whose mark cannot be written deletes nothing: the mark is
// written first, so no node can keep serving a deleted key from its
// cache for want of it; the key stays until a revocation succeeds.
func TestMirrorRevokeMarksFirst(t *testing.T) {
	db := keyStore(t)
	m := NewMirror(noMarks{db}, nil)
	defer m.Stop()
	freshT(t, m)
	if err := m.RevokeKey("alice", "k1"); !errors.Is(err, errDown) {
		t.Fatalf("RevokeKey with marks that cannot be written: %v, want the mark's error", err)
	}
	if _, _, err := db.LookupKey(keyHash("svc_alice")); err != nil {
		t.Fatalf("the key was deleted although its mark was not written: %v", err)
	}
	if err := m.DeleteUser("alice"); !errors.Is(err, errDown) {
		t.Fatalf("DeleteUser with marks that cannot be written: %v", err)
	}
	if _, _, err := db.LookupKey(keyHash("svc_alice")); err != nil {
		t.Fatalf("the account was erased although its mark was not written: %v", err)
	}
}
