package store

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// failing is a store whose sign-out marks cannot be read or written.
type failing struct{ Store }

var errDown = errors.New("store down")

func (failing) MarksAfter(after int64, _ func(string, time.Time)) (int64, error) {
	return after, errDown
}
func (failing) Revoked(string, time.Time) (bool, error) { return false, errDown }

// A mark made through the mirror holds at once; one made by another node
// (straight into the store) is read by the next poll; an expired one is
// forgotten.
func TestMirrorReadsNewMarks(t *testing.T) {
	db := openT(t, filepath.Join(t.TempDir(), "m.db"))
	now := time.Now()
	m := NewMirror(db, nil)
	defer m.Stop()
	if _, err := m.Revoke("own", now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if !m.Known("own", now) {
		t.Fatal("the mirror does not know its own mark")
	}
	if _, err := db.Revoke("other", now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Revoke("brief", now.Add(time.Millisecond), now); err != nil {
		t.Fatal(err)
	}
	for !m.Known("other", time.Now()) {
		time.Sleep(10 * time.Millisecond)
	}
	if r, err := m.Revoked("other", time.Now()); err != nil || !r {
		t.Fatalf("Revoked(other) = %v, %v", r, err)
	}
	if lag := m.Lag(); lag > MirrorStale {
		t.Fatalf("lag %s after a poll", lag)
	}
	for {
		m.mu.RLock()
		_, kept := m.marks["brief"]
		m.mu.RUnlock()
		if !kept {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A mirror that has never read the store is stale: Revoked asks the store,
// and Known answers from what it has.
func TestMirrorStaleReadsStore(t *testing.T) {
	db := openT(t, filepath.Join(t.TempDir(), "m.db"))
	m := NewMirror(failing{db}, nil)
	defer m.Stop()
	if m.Lag() < MirrorStale {
		t.Fatalf("lag %s without a poll", m.Lag())
	}
	if _, err := m.Revoked("x", time.Now()); !errors.Is(err, errDown) {
		t.Fatalf("Revoked on a stale mirror = %v, want the store's error", err)
	}
	now := time.Now()
	if _, err := m.Revoke("x", now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if !m.Known("x", now) {
		t.Fatal("Known forgets the mirror's own mark")
	}
}
