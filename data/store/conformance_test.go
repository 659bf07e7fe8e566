package store_test

import (
	"path/filepath"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		d, err := store.Open(filepath.Join(t.TempDir(), "fiplan.db"), store.Options{LockTimeout: 200 * time.Millisecond})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { _ = d.Close() })
		return d
	})
}
