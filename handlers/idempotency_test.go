package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
)

// A create retried under one Idempotency-Key, on any node sharing the
// store, answers the first answer again and stores nothing new; another
// request under the key is 409; the key is the caller's own.
func TestIdempotentCreates(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		db, err := store.Open(filepath.Join(t.TempDir(), "shared.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		idempotentCreates(t, db)
	})
	t.Run("postgres", func(t *testing.T) { idempotentCreates(t, pgStore(t)) })
}

func idempotentCreates(t *testing.T, db store.Store) {
	a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
	tok := bearer(a.token("ida", "free", ""))
	key := "7f0c1a52-4f1e-4a5e-9a53-0d2b7e1c9f10"
	asset := `{"name":"World","value":1000,"isin":"IE00B4L5Y983"}`
	first := a.do("POST", "/api/v1/assets", asset, append(tok, "Idempotency-Key", key)...)
	if first.status != 201 {
		t.Fatalf("first create: %d %s", first.status, first.raw)
	}
	again := b.do("POST", "/api/v1/assets", asset, append(tok, "Idempotency-Key", key)...)
	if again.status != 201 || string(again.raw) != string(first.raw) || again.header["Idempotent-Replayed"] != "true" {
		t.Fatalf("retry on the other node: %d %q %s\nfirst %s", again.status, again.header["Idempotent-Replayed"], again.raw, first.raw)
	}
	list := a.do("GET", "/api/v1/assets", "", tok...)
	if n := len(list.body["data"].([]any)); n != 1 {
		t.Fatalf("%d assets after a retried create", n)
	}
	// The same key with another body: refused, nothing stored.
	other := a.do("POST", "/api/v1/assets", `{"name":"Bonds","value":5}`, append(tok, "Idempotency-Key", key)...)
	expectError(t, other, 409, errcode.Conflict)
	// Without a key, or with another, a create runs as always (here the
	// ISIN is taken: the answer is the usual conflict, and is kept too).
	expectError(t, a.do("POST", "/api/v1/assets", asset, tok...), 409, errcode.Conflict)
	// Another user's identical key is their own.
	mia := bearer(a.token("mia", "free", ""))
	if r := b.do("POST", "/api/v1/assets", asset, append(mia, "Idempotency-Key", key)...); r.status != 201 || r.header["Idempotent-Replayed"] != "" {
		t.Fatalf("another user's key: %d %s", r.status, r.raw)
	}
	// A malformed key names the header.
	r := a.do("POST", "/api/v1/assets", asset, append(tok, "Idempotency-Key", "short")...)
	expectError(t, r, 400, errcode.Validation)
	if !strings.Contains(string(r.raw), `"path":"Idempotency-Key"`) {
		t.Fatalf("details: %s", r.raw)
	}

	// An API key's creation answer holds the key, shown once: a retry
	// shows the same key again, and the store keeps it only sealed.
	sess := bearer(a.token("kim", "free", ""))
	k1 := a.do("POST", "/api/v1/user/api-keys", `{"name":"laptop"}`, append(sess, "Idempotency-Key", key+"-k")...)
	k2 := b.do("POST", "/api/v1/user/api-keys", `{"name":"laptop"}`, append(sess, "Idempotency-Key", key+"-k")...)
	if k1.status != 201 || string(k1.raw) != string(k2.raw) {
		t.Fatalf("key create retried: %d %s / %d %s", k1.status, k1.raw, k2.status, k2.raw)
	}
	plain := k1.data()["key"].(string)
	if exp, err := db.Export("kim"); err != nil || len(exp.Keys) != 1 {
		t.Fatalf("keys stored: %v %v", exp.Keys, err)
	}
	// What the store holds under the key (by its hash) is sealed.
	sum := sha256.Sum256([]byte(key + "-k"))
	kept, err := db.BeginIdempotent("kim", hex.EncodeToString(sum[:]), [32]byte{}, a.clock(), idempotencyTTL)
	if err != nil || kept == nil || !kept.Done || len(kept.Body) < len(plain) {
		t.Fatalf("the kept answer: %+v %v", kept, err)
	}
	if strings.Contains(string(kept.Body), plain) || strings.Contains(string(kept.Body), plain[4:20]) {
		t.Fatal("the plain API key is kept in the clear")
	}
	if raw, ok := db.(interface{ Path() string }); ok {
		file, err := os.ReadFile(raw.Path())
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(file), plain) || strings.Contains(string(file), key) {
			t.Fatal("the plain API key or the Idempotency-Key is in the bbolt file")
		}
	}
}

// Racing requests under one key: one runs, the others are told it runs
// or get its answer; exactly one record is stored.
func TestIdempotentRace(t *testing.T) {
	db := pgStore(t)
	a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
	tok := bearer(a.token("racer", "free", ""))
	const n = 8
	var wg sync.WaitGroup
	statuses := make(chan int, n)
	for i := range n {
		h := a
		if i%2 == 1 {
			h = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := h.do("POST", "/api/v1/assets", `{"name":"Raced","value":1}`, append(tok, "Idempotency-Key", "race-key-0001")...)
			statuses <- r.status
		}()
	}
	wg.Wait()
	close(statuses)
	created := 0
	for st := range statuses {
		switch st {
		case 201:
			created++
		case 409:
		default:
			t.Fatalf("status %d", st)
		}
	}
	if created == 0 {
		t.Fatal("no request created the asset")
	}
	list := a.do("GET", "/api/v1/assets", "", tok...)
	if n := len(list.body["data"].([]any)); n != 1 {
		t.Fatalf("%d assets stored by racing retries", n)
	}
}
