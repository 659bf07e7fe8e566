package store

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
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

// TestRevokeSweepsABoundedBatch: each Revoke forgets at most sweepMarks
// expired marks, so one write after a long quiet spell does not hold the
// write lock while it clears the whole backlog; the rest go with later
// writes, and an expired mark left behind never revokes.
func TestRevokeSweepsABoundedBatch(t *testing.T) {
	d, err := Open(filepath.Join(t.TempDir(), "fiplan.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	now := time.Now()
	const backlog = sweepMarks + 36
	for i := range backlog {
		if _, err := d.Revoke(fmt.Sprintf("s-%03d", i), now.Add(time.Minute), now); err != nil {
			t.Fatal(err)
		}
	}
	later := now.Add(time.Hour)
	count := func() (n int) {
		if err := d.view(func(tx *bolt.Tx) error {
			n = tx.Bucket(bucketRevokedBy).Stats().KeyN
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if _, err := d.Revoke("s-new", later.Add(time.Minute), later); err != nil {
		t.Fatal(err)
	}
	if got, want := count(), backlog-sweepMarks+1; got != want {
		t.Fatalf("after one Revoke the order bucket holds %d marks, want %d (a sweep of at most %d)", got, want, sweepMarks)
	}
	if r, err := d.Revoked("s-099", later); err != nil || r {
		t.Fatalf("an expired mark left for a later sweep revokes: %v, %v", r, err)
	}
	if _, err := d.Revoke("s-newer", later.Add(time.Minute), later); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != 2 {
		t.Fatalf("after the second Revoke the order bucket holds %d marks, want the 2 unexpired", got)
	}
}
