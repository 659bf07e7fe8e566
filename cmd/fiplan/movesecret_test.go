package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"fiplan/data/store"
)

// migrate -from does not copy a kept secret shorter than a server
// accepts: it says so, and the first node on the database makes a new
// one that is long enough.
func TestMoveShortSecret(t *testing.T) {
	t.Parallel()
	pg := pgSchema(t)
	file := filepath.Join(t.TempDir(), "fiplan.db")
	d, err := store.Open(file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	b, err := bolt.Open(file, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		m, err := tx.CreateBucketIfNotExists([]byte("meta"))
		if err != nil {
			return err
		}
		return m.Put([]byte("jwt_secret"), []byte{7})
	})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, code := runCmd(t, []string{"FI_DB=" + pg}, "migrate", "-from", file)
	if code != 0 || !strings.Contains(out, "1 bytes, fewer than the 32") {
		t.Fatalf("migrate -from with a 1-byte secret: exit %d\n%s", code, out)
	}
	db, err := startStore(t.Context(), pg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if s, ok, err := db.PeekSecret(); err != nil || ok {
		t.Fatalf("a short secret was copied: %d bytes, %v, %v", len(s), ok, err)
	}
	if s, err := db.Secret(); err != nil || len(s) < minSecret {
		t.Fatalf("the new secret: %d bytes, %v", len(s), err)
	}
}
