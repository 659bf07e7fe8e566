package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func asset(id, isin string, cat uint8) (AssetMeta, []byte) {
	return AssetMeta{ID: id, ISIN: isin, Category: cat}, []byte(`{"id":"` + id + `"}`)
}

func list(t *testing.T, d *DB, user string, cat, offset, limit int) (string, int) {
	t.Helper()
	b, total, err := d.AppendAssets(nil, user, cat, offset, limit)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), total
}

func TestAssetLifecycle(t *testing.T) {
	d := openT(t, tempPath(t))
	for i, isin := range []string{"US0378331005", "", "IE00B4L5Y983"} {
		m, doc := asset(fmt.Sprintf("a%d", i), isin, uint8(i%2))
		if err := d.CreateAsset("alice", m, doc, 10, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got, total := list(t, d, "alice", AnyCategory, 0, 10); total != 3 || got != `{"id":"a0"},{"id":"a1"},{"id":"a2"}` {
		t.Fatalf("list = %s (%d)", got, total)
	}
	if got, total := list(t, d, "alice", 0, 0, 10); total != 2 || got != `{"id":"a0"},{"id":"a2"}` {
		t.Fatalf("category 0 = %s (%d)", got, total)
	}
	if got, total := list(t, d, "alice", AnyCategory, 1, 1); total != 3 || got != `{"id":"a1"}` {
		t.Fatalf("page = %s (%d)", got, total)
	}
	if got, total := list(t, d, "alice", AnyCategory, 5, 10); total != 3 || got != "" {
		t.Fatalf("past the end = %q (%d)", got, total)
	}

	// The same ISIN twice for one user conflicts; another user may hold it.
	m, doc := asset("dup", "US0378331005", 0)
	if err := d.CreateAsset("alice", m, doc, 10, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate ISIN: %v", err)
	}
	if err := d.CreateAsset("bob", m, doc, 10, nil); err != nil {
		t.Fatalf("other user, same ISIN: %v", err)
	}
	m, doc = asset("a0", "", 0)
	if err := d.CreateAsset("alice", m, doc, 10, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate id: %v", err)
	}

	// Another user's id is not found, on every operation.
	if _, err := d.AppendAsset(nil, "bob", "a0"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bob reads alice's asset: %v", err)
	}
	if err := d.DeleteAsset("bob", "a0", nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bob deletes alice's asset: %v", err)
	}
	err := d.UpdateAsset("bob", "a0", func([]byte) (AssetMeta, []byte, error) {
		t.Fatal("fn called for another user's asset")
		return AssetMeta{}, nil, nil
	})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("bob updates alice's asset: %v", err)
	}

	// Update: moving a0 onto a2's ISIN conflicts and changes nothing.
	err = d.UpdateAsset("alice", "a0", func(old []byte) (AssetMeta, []byte, error) {
		return AssetMeta{ID: "a0", ISIN: "IE00B4L5Y983"}, []byte(`{"id":"a0","v":2}`), nil
	})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("update onto a held ISIN: %v", err)
	}
	if b, _ := d.AppendAsset(nil, "alice", "a0"); string(b) != `{"id":"a0"}` {
		t.Fatalf("a failed update wrote: %s", b)
	}
	// Changing the ISIN frees the old one.
	err = d.UpdateAsset("alice", "a0", func(old []byte) (AssetMeta, []byte, error) {
		if string(old) != `{"id":"a0"}` {
			t.Errorf("old = %s", old)
		}
		return AssetMeta{ID: "a0", ISIN: "DE0005140008", Category: 1}, []byte(`{"id":"a0","v":2}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m, doc = asset("a3", "US0378331005", 0)
	if err := d.CreateAsset("alice", m, doc, 10, nil); err != nil {
		t.Fatalf("the old ISIN is free again: %v", err)
	}
	if got, total := list(t, d, "alice", 1, 0, 10); total != 2 || got != `{"id":"a0","v":2},{"id":"a1"}` {
		t.Fatalf("category 1 after update = %s (%d)", got, total)
	}
	// An error from fn aborts; the id cannot change.
	boom := errors.New("boom")
	if err := d.UpdateAsset("alice", "a0", func([]byte) (AssetMeta, []byte, error) { return AssetMeta{}, nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("fn error: %v", err)
	}
	if err := d.UpdateAsset("alice", "a0", func([]byte) (AssetMeta, []byte, error) { return AssetMeta{ID: "zz"}, nil, nil }); err == nil {
		t.Fatal("id change accepted")
	}

	// Delete frees the ISIN and the id.
	if err := d.DeleteAsset("alice", "a0", nil); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteAsset("alice", "a0", nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	m, doc = asset("a4", "DE0005140008", 0)
	if err := d.CreateAsset("alice", m, doc, 10, nil); err != nil {
		t.Fatalf("ISIN of a deleted asset: %v", err)
	}
	var n int
	if err := d.Assets("alice", func([]byte) error { n++; return nil }); err != nil || n != 4 {
		t.Fatalf("Assets: %d, %v", n, err)
	}
}

func TestAssetLimit(t *testing.T) {
	d := openT(t, tempPath(t))
	for i := range 3 {
		m, doc := asset(fmt.Sprint(i), "", 0)
		if err := d.CreateAsset("alice", m, doc, 3, nil); err != nil {
			t.Fatal(err)
		}
	}
	m, doc := asset("x", "", 0)
	if err := d.CreateAsset("alice", m, doc, 3, nil); !errors.Is(err, ErrLimit) {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestAssetInvalidInput(t *testing.T) {
	d := openT(t, tempPath(t))
	for _, c := range []struct{ user, id string }{{"", "a"}, {"u", ""}, {"u", "a\x00b"}, {strings.Repeat("u", MaxIDLen+1), "a"}} {
		m, doc := asset(c.id, "", 0)
		if err := d.CreateAsset(c.user, m, doc, 10, nil); err == nil || errors.Is(err, ErrConflict) {
			t.Errorf("CreateAsset(%q, %q) = %v", c.user, c.id, err)
		}
	}
	// Document names cannot shadow the asset buckets.
	for _, name := range []string{"assets", "assetIDs", "isins"} {
		if err := d.PutDoc("u", name, 1); err == nil {
			t.Errorf("PutDoc(%q) accepted", name)
		}
	}
}

// Two creates racing for one ISIN: exactly one wins, whatever the batching.
func TestAssetConcurrentSameISIN(t *testing.T) {
	d := openT(t, tempPath(t))
	for round := range 5 {
		isin := fmt.Sprintf("US%010d", round)
		const n = 16
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m, doc := asset(fmt.Sprintf("r%d-%d", round, i), isin, 0)
				errs[i] = d.CreateAsset("alice", m, doc, 1000, nil)
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, ErrConflict):
				t.Fatal(err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d creates won", round, won)
		}
	}
	if _, total := list(t, d, "alice", AnyCategory, 0, 1); total != 5 {
		t.Fatalf("total = %d, want 5", total)
	}
}

func TestAssetsPersistAndErase(t *testing.T) {
	path := tempPath(t)
	d := openT(t, path)
	m, doc := asset("a", "US0378331005", 2)
	if err := d.CreateAsset("alice", m, doc, 10, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.PutDoc("alice", "profile", map[string]string{"displayName": "A"}); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateKey(Key{ID: "k1", Owner: "alice", Name: "ci"}, hashOf("svc_x"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = openT(t, path)
	if got, total := list(t, d, "alice", 2, 0, 10); total != 1 || got != string(doc) {
		t.Fatalf("after reopen: %s (%d)", got, total)
	}
	e, err := d.Export("alice")
	if err != nil {
		t.Fatal(err)
	}
	if e.Account == nil || len(e.Assets) != 1 || string(e.Assets[0]) != string(doc) ||
		len(e.Keys) != 1 || e.Keys[0].ID != "k1" || string(e.Docs["profile"]) != `{"displayName":"A"}` || len(e.Docs) != 1 {
		t.Fatalf("export = %+v", e)
	}
	if err := d.DeleteUser("alice"); err != nil {
		t.Fatal(err)
	}
	e, err = d.Export("alice")
	if err != nil {
		t.Fatal(err)
	}
	if e.Account != nil || len(e.Assets)+len(e.Keys)+len(e.Docs)+len(e.Exposures) != 0 {
		t.Fatalf("export after erase = %+v", e)
	}
	// The ISIN index went with the user: the same ISIN can be created again.
	if err := d.CreateAsset("alice", m, doc, 10, nil); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateDoc(t *testing.T) {
	d := openT(t, tempPath(t))
	err := d.UpdateDoc("alice", "settings", func(old []byte) ([]byte, error) {
		if old != nil {
			t.Errorf("old = %s, want nil", old)
		}
		return []byte(`{"a":1}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := d.UpdateDoc("alice", "settings", func(old []byte) ([]byte, error) { return nil, boom }); err != boom {
		t.Fatalf("fn error = %v", err)
	}
	var v map[string]int
	if ok, err := d.GetDoc("alice", "settings", &v); !ok || err != nil || v["a"] != 1 {
		t.Fatalf("after aborted update: %v %v %v", v, ok, err)
	}
	if err := d.UpdateDoc("alice", "account", func([]byte) ([]byte, error) { return nil, nil }); err == nil {
		t.Fatal("reserved name accepted")
	}
}
