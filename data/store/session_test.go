package store

import (
	"path/filepath"
	"testing"
	"time"
)

// TestRevocationsOutliveReopen: the in-memory mirror of the marks is
// loaded from the file, so a restart keeps every sign-out.
func TestRevocationsOutliveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fiplan.db")
	d, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := d.Revoke("s-kept", now.Add(time.Hour), now); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Revoke("s-gone", now.Add(time.Minute), now); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if r, err := d.Revoked("s-kept", now); err != nil || !r {
		t.Fatalf("a mark did not outlive the reopen: %v, %v", r, err)
	}
	if r, err := d.Revoked("s-gone", now.Add(2*time.Minute)); err != nil || r {
		t.Fatalf("an expired mark revokes after the reopen: %v, %v", r, err)
	}
	if first, err := d.Revoke("s-kept", now.Add(time.Hour), now); err != nil || first {
		t.Fatalf("Revoke of a kept mark after the reopen: first %v, %v", first, err)
	}
}
