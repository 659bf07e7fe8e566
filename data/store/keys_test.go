package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	bolt "go.etcd.io/bbolt"
)

func TestCreateKeyLimitAndConflict(t *testing.T) {
	d := openT(t, tempPath(t))
	for i := range 3 {
		if err := d.CreateKey(Key{ID: fmt.Sprint("k", i), Owner: "alice"}, hashOf(fmt.Sprint("a", i)), 3, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.CreateKey(Key{ID: "k9", Owner: "alice"}, hashOf("a9"), 3, nil); !errors.Is(err, ErrLimit) {
		t.Fatalf("4th key with max 3: %v", err)
	}
	if _, _, err := d.LookupKey(hashOf("a9")); !errors.Is(err, ErrNotFound) {
		t.Fatalf("refused key was indexed: %v", err)
	}
	// The limit is per owner.
	if err := d.CreateKey(Key{ID: "k0", Owner: "bob"}, hashOf("b0"), 3, nil); err != nil {
		t.Fatal(err)
	}
	// Duplicate hash, even for another owner.
	if err := d.CreateKey(Key{ID: "k1", Owner: "bob"}, hashOf("a0"), 3, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate hash: %v", err)
	}
	// Duplicate id for the same owner.
	if err := d.CreateKey(Key{ID: "k0", Owner: "bob"}, hashOf("b1"), 3, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate id: %v", err)
	}
	if k, _, err := d.LookupKey(hashOf("a0")); err != nil || k.Owner != "alice" || k.ID != "k0" {
		t.Fatalf("original key after conflicts: %+v %v", k, err)
	}
	if k, _, err := d.LookupKey(hashOf("b0")); err != nil || k.Owner != "bob" {
		t.Fatalf("bob's key after conflicts: %+v %v", k, err)
	}
	if err := d.CreateKey(Key{ID: "k0", Owner: "carol"}, hashOf("c0"), 0, nil); !errors.Is(err, ErrLimit) {
		t.Fatalf("max 0: %v", err)
	}
	// After a revoke there is room again.
	if err := d.RevokeKey("alice", "k1"); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateKey(Key{ID: "k9", Owner: "alice"}, hashOf("a9"), 3, nil); err != nil {
		t.Fatalf("after revoke: %v", err)
	}
	// Invalid ids are refused.
	for _, k := range []Key{{ID: "", Owner: "x"}, {ID: "a\x00b", Owner: "x"}, {ID: "k", Owner: ""},
		{ID: strings.Repeat("i", MaxIDLen+1), Owner: "x"}} {
		if err := d.CreateKey(k, hashOf("zz"+k.ID+k.Owner), 5, nil); err == nil {
			t.Errorf("CreateKey(%q, %q) succeeded", k.Owner, k.ID)
		}
	}
}

func TestCreateKeyCreatesAccount(t *testing.T) {
	d := openT(t, tempPath(t))
	if err := d.CreateKey(Key{ID: "k", Owner: "dave"}, hashOf("d"), 1, nil); err != nil {
		t.Fatal(err)
	}
	a, err := d.Account("dave")
	if err != nil || a.Tier != "free" {
		t.Fatalf("account = %+v %v", a, err)
	}
	// An existing account keeps its tier.
	if err := d.SaveAccount("erin", "pro"); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateKey(Key{ID: "k", Owner: "erin"}, hashOf("e"), 1, nil); err != nil {
		t.Fatal(err)
	}
	if _, a, err := d.LookupKey(hashOf("e")); err != nil || a.Tier != "pro" {
		t.Fatalf("LookupKey tier = %+v %v", a, err)
	}
}

func TestKeysListing(t *testing.T) {
	d := openT(t, tempPath(t))
	ks, err := d.Keys("nobody")
	if err != nil || ks == nil || len(ks) != 0 {
		t.Fatalf("Keys(nobody) = %#v, %v; want empty non-nil", ks, err)
	}
	if err := d.SaveAccount("alice", "free"); err != nil {
		t.Fatal(err)
	}
	if ks, err := d.Keys("alice"); err != nil || ks == nil || len(ks) != 0 {
		t.Fatalf("Keys(alice, none) = %#v, %v", ks, err)
	}
	base := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	in := []Key{
		{ID: "c", CreatedAt: base.Add(time.Hour)},
		{ID: "b", CreatedAt: base},
		{ID: "a", CreatedAt: base},
		{ID: "d", CreatedAt: base.Add(-time.Hour)},
	}
	for i, k := range in {
		k.Owner, k.Name = "alice", "n"+k.ID
		if err := d.CreateKey(k, hashOf(fmt.Sprint("x", i)), 10, nil); err != nil {
			t.Fatal(err)
		}
	}
	ks, err = d.Keys("alice")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, k := range ks {
		order = append(order, k.ID)
		if k.Owner != "alice" || k.Name != "n"+k.ID {
			t.Errorf("key %+v", k)
		}
	}
	if got := strings.Join(order, ","); got != "d,a,b,c" {
		t.Fatalf("order = %s, want d,a,b,c", got)
	}
	if !ks[0].CreatedAt.Equal(base.Add(-time.Hour)) {
		t.Fatalf("CreatedAt = %v", ks[0].CreatedAt)
	}
	// A zero CreatedAt is set by the store.
	if err := d.CreateKey(Key{ID: "z", Owner: "bob"}, hashOf("z"), 1, nil); err != nil {
		t.Fatal(err)
	}
	if ks, _ := d.Keys("bob"); len(ks) != 1 || time.Since(ks[0].CreatedAt) > time.Minute {
		t.Fatalf("zero CreatedAt not defaulted: %+v", ks)
	}
}

func TestKeyJSON(t *testing.T) {
	k := Key{ID: "k1", Owner: "alice", Name: "ci", Hint: "svc_…wxyz", CreatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	raw, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"k1","name":"ci","hint":"svc_…wxyz","createdAt":"2025-01-01T00:00:00Z"}`
	if string(raw) != want {
		t.Fatalf("JSON = %s\nwant   %s", raw, want)
	}
	k.LastUsedAt = k.CreatedAt.Add(time.Hour)
	raw, _ = json.Marshal(k)
	if !strings.Contains(string(raw), `"lastUsedAt":"2025-01-01T01:00:00Z"`) || strings.Contains(string(raw), "alice") {
		t.Fatalf("JSON = %s", raw)
	}
}

func TestRevokeKey(t *testing.T) {
	d := openT(t, tempPath(t))
	if err := d.CreateKey(Key{ID: "k1", Owner: "alice"}, hashOf("a"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateKey(Key{ID: "k2", Owner: "bob"}, hashOf("b"), 5, nil); err != nil {
		t.Fatal(err)
	}
	// Another owner cannot revoke it, nor learn it exists.
	for _, owner := range []string{"bob", "mallory", ""} {
		if err := d.RevokeKey(owner, "k1"); err != ErrNotFound {
			t.Fatalf("RevokeKey(%q, k1) = %v, want ErrNotFound", owner, err)
		}
	}
	if k, _, err := d.LookupKey(hashOf("a")); err != nil || k.ID != "k1" {
		t.Fatalf("key broken by a foreign revoke: %v", err)
	}
	if err := d.RevokeKey("alice", "nope"); err != ErrNotFound {
		t.Fatalf("unknown id: %v", err)
	}
	if err := d.RevokeKey("alice", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.LookupKey(hashOf("a")); err != ErrNotFound {
		t.Fatalf("LookupKey after revoke = %v, want ErrNotFound", err)
	}
	if ks, _ := d.Keys("alice"); len(ks) != 0 {
		t.Fatalf("Keys after revoke = %+v", ks)
	}
	if err := d.RevokeKey("alice", "k1"); err != ErrNotFound {
		t.Fatalf("second revoke: %v", err)
	}
	if _, _, err := d.LookupKey(hashOf("b")); err != nil {
		t.Fatalf("bob's key after alice's revoke: %v", err)
	}
	// The hash can be reused after a revoke (index entry gone).
	if err := d.CreateKey(Key{ID: "k3", Owner: "alice"}, hashOf("a"), 5, nil); err != nil {
		t.Fatalf("reuse hash after revoke: %v", err)
	}
	if n := indexLen(t, d); n != 2 {
		t.Fatalf("index has %d entries, want 2", n)
	}
}

func indexLen(t *testing.T, d *DB) int {
	t.Helper()
	n := 0
	err := d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketAPIKeys).ForEach(func(k, _ []byte) error {
			if len(k) != 32 {
				t.Errorf("index key of %d bytes", len(k))
			}
			n++
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTouchKeys(t *testing.T) {
	d := openT(t, tempPath(t))
	if err := d.CreateKey(Key{ID: "k1", Owner: "alice"}, hashOf("a"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateKey(Key{ID: "k2", Owner: "alice"}, hashOf("b"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if k, _, _ := d.LookupKey(hashOf("a")); !k.LastUsedAt.IsZero() {
		t.Fatal("new key has LastUsedAt")
	}
	t1 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.FixedZone("CEST", 7200))
	t0 := t1.Add(-time.Hour)
	t2 := t1.Add(time.Hour)
	err := d.TouchKeys(map[string]time.Time{
		KeyRef("alice", "k1"): t1,
		KeyRef("alice", "k2"): t2,
		KeyRef("bob", "k1"):   t2, // unknown owner
		KeyRef("alice", "k9"): t2, // unknown id
		"garbage":             t2, // not a ref
	})
	if err != nil {
		t.Fatal(err)
	}
	// An older time does not move LastUsedAt back.
	if err := d.TouchKeys(map[string]time.Time{KeyRef("alice", "k1"): t0, KeyRef("alice", "k2"): t0}); err != nil {
		t.Fatal(err)
	}
	k1, _, _ := d.LookupKey(hashOf("a"))
	k2, _, _ := d.LookupKey(hashOf("b"))
	if !k1.LastUsedAt.Equal(t1) || !k2.LastUsedAt.Equal(t2) {
		t.Fatalf("LastUsedAt = %v, %v; want %v, %v", k1.LastUsedAt, k2.LastUsedAt, t1, t2)
	}
	if err := d.TouchKeys(map[string]time.Time{KeyRef("alice", "k1"): t2}); err != nil {
		t.Fatal(err)
	}
	if k1, _, _ = d.LookupKey(hashOf("a")); !k1.LastUsedAt.Equal(t2) {
		t.Fatalf("later time not kept: %v", k1.LastUsedAt)
	}
	// Touching keeps the index: revoke still removes it.
	if err := d.RevokeKey("alice", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.LookupKey(hashOf("a")); err != ErrNotFound {
		t.Fatalf("touched key survived revoke: %v", err)
	}
	if err := d.TouchKeys(nil); err != nil {
		t.Fatal(err)
	}
	// An owner id containing NUL still splits right.
	if err := d.CreateKey(Key{ID: "k", Owner: "we\x00ird"}, hashOf("w"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.TouchKeys(map[string]time.Time{KeyRef("we\x00ird", "k"): t1}); err != nil {
		t.Fatal(err)
	}
	if k, _, _ := d.LookupKey(hashOf("w")); !k.LastUsedAt.Equal(t1) {
		t.Fatal("NUL-containing owner not touched")
	}
}

func TestDeleteUser(t *testing.T) {
	d := openT(t, tempPath(t))
	for i := range 3 {
		if err := d.CreateKey(Key{ID: fmt.Sprint("k", i), Owner: "alice"}, hashOf(fmt.Sprint("a", i)), 5, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.CreateKey(Key{ID: "k0", Owner: "bob"}, hashOf("b0"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.PutDoc("alice", "profile", map[string]int{"age": 30}); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteUser("alice"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, _, err := d.LookupKey(hashOf(fmt.Sprint("a", i))); err != ErrNotFound {
			t.Fatalf("alice's key %d after DeleteUser: %v", i, err)
		}
	}
	if n := indexLen(t, d); n != 1 {
		t.Fatalf("index has %d entries, want bob's 1", n)
	}
	if _, err := d.Account("alice"); err != ErrNotFound {
		t.Fatalf("account after DeleteUser: %v", err)
	}
	var v any
	if ok, err := d.GetDoc("alice", "profile", &v); ok || err != nil {
		t.Fatalf("profile after DeleteUser: %v %v", ok, err)
	}
	if ks, err := d.Keys("alice"); err != nil || len(ks) != 0 {
		t.Fatalf("keys after DeleteUser: %v %v", ks, err)
	}
	if _, _, err := d.LookupKey(hashOf("b0")); err != nil {
		t.Fatalf("bob's key after deleting alice: %v", err)
	}
	if err := d.DeleteUser("alice"); err != nil {
		t.Fatalf("deleting a missing user: %v", err)
	}
	// The user can start over.
	if err := d.CreateKey(Key{ID: "k0", Owner: "alice"}, hashOf("a0"), 5, nil); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentCreateKey(t *testing.T) {
	d := openT(t, tempPath(t))
	const workers, max = 32, 7
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			err := d.CreateKey(Key{ID: fmt.Sprint("k", i), Owner: "alice"}, hashOf(fmt.Sprint("c", i)), max, nil)
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ErrLimit):
				limited.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	// Concurrent readers at the same time.
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range 20 {
				if _, err := d.Keys("alice"); err != nil {
					t.Error(err)
				}
				_, _, _ = d.LookupKey(hashOf("c0"))
			}
		}()
	}
	close(start)
	wg.Wait()
	if ok.Load() != max || limited.Load() != workers-max {
		t.Fatalf("ok=%d limited=%d, want %d and %d", ok.Load(), limited.Load(), max, workers-max)
	}
	ks, err := d.Keys("alice")
	if err != nil || len(ks) != max {
		t.Fatalf("stored %d keys, want %d (%v)", len(ks), max, err)
	}
	if n := indexLen(t, d); n != max {
		t.Fatalf("index has %d entries, want %d", n, max)
	}
}

func TestDamagedFileNoPanic(t *testing.T) {
	path := tempPath(t)
	d := openT(t, path)
	d.bolt.NoSync = true // only to fill the file quickly
	for i := range 200 {
		if err := d.CreateKey(Key{ID: fmt.Sprint("k", i), Owner: fmt.Sprint("u", i%20), Name: strings.Repeat("n", 200)}, hashOf(fmt.Sprint(i)), 100, nil); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	raw, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the two meta pages, scribble over everything else.
	const page = 4096
	for i := 2 * page; i < len(raw); i++ {
		raw[i] = byte(i*31 + 7)
	}
	if err := writeFile(path, raw); err != nil {
		t.Fatal(err)
	}
	d2, err := Open(path, Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Logf("Open of a damaged file: %v", err)
		if !strings.HasPrefix(err.Error(), "cannot open db ") {
			t.Fatalf("unclear error: %v", err)
		}
		return
	}
	defer d2.Close()
	_, err1 := d2.Keys("u1")
	_, _, err2 := d2.LookupKey(hashOf("1"))
	err3 := d2.CreateKey(Key{ID: "x", Owner: "u1"}, hashOf("x"), 100, nil)
	t.Logf("damaged file: %v / %v / %v", err1, err2, err3)
}

// TestDamagedDataNoPanic keeps the meta, root and freelist pages intact and
// damages every data page of a file already open (Open refuses it
// otherwise): reads and writes must fail with an error, not a panic.
func TestDamagedDataNoPanic(t *testing.T) {
	path := tempPath(t)
	d := openT(t, path)
	d.bolt.NoSync = true // only to fill the file quickly
	for i := range 200 {
		if err := d.CreateKey(Key{ID: fmt.Sprint("k", i), Owner: fmt.Sprint("u", i%20), Name: strings.Repeat("n", 200)}, hashOf(fmt.Sprint(i)), 100, nil); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	d2, err := Open(path, Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d2.Close()
	raw, err := readFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	le := func(b []byte) uint64 {
		var v uint64
		for i := 7; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		return v
	}
	// meta: 16-byte page header, magic, version, pageSize, flags, root{pgid, seq}, freelist, pgid, txid.
	m := raw[16:]
	if le(raw[page+16+48:]) > le(m[48:]) {
		m = raw[page+16:]
	}
	root, free := int(le(m[16:])), int(le(m[32:]))
	overflow := int(uint32(raw[free*page+12]) | uint32(raw[free*page+13])<<8 | uint32(raw[free*page+14])<<16 | uint32(raw[free*page+15])<<24)
	for p := 2; p*page < len(raw); p++ {
		if p >= free && p <= free+overflow || p == root {
			continue
		}
		for i := p * page; i < (p+1)*page; i++ {
			raw[i] = byte(i*31 + 7)
		}
	}
	// In place, under the open file's memory map.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(raw, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err1 := d2.Keys("u1")
	_, _, err2 := d2.LookupKey(hashOf("1"))
	err3 := d2.CreateKey(Key{ID: "x", Owner: "u1"}, hashOf("x"), 100, nil)
	for _, err := range []error{err1, err2, err3} {
		if err == nil {
			t.Fatal("operation on a damaged file succeeded")
		}
		t.Log(err)
	}
	// The failed transactions released their locks: Ping and Close return.
	_ = d2.Ping()
}
