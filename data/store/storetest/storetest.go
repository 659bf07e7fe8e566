// Package storetest is the behaviour every store.Store implementation
// promises, as one test suite: each backend's tests call Run with a function
// that opens a fresh, empty store.
package storetest

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"fiplan/data/store"
)

// Run runs the suite. open returns a new, empty store for one subtest and
// arranges its Close with t.Cleanup.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	runSessions(t, open)
	runIdempotency(t, open)
	runPlans(t, open)
	runOutbox(t, open)
	runWatch(t, open)
	runMails(t, open)
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"PingSize", testPingSize},
		{"Secret", testSecret},
		{"SecretConcurrentFirstCall", testSecretConcurrent},
		{"Account", testAccount},
		{"Docs", testDocs},
		{"UpdateDoc", testUpdateDoc},
		{"UpdateDocConcurrent", testUpdateDocConcurrent},
		{"AssetCreateAndRead", testAssetCreateAndRead},
		{"AssetErrors", testAssetErrors},
		{"AssetList", testAssetList},
		{"AssetUpdate", testAssetUpdate},
		{"AssetDelete", testAssetDelete},
		{"AssetDeleteChecked", testAssetDeleteChecked},
		{"CompareAndSetConcurrent", testCompareAndSetConcurrent},
		{"AssetOwnership", testAssetOwnership},
		{"AssetSameISINConcurrent", testAssetSameISINConcurrent},
		{"AssetCapConcurrent", testAssetCapConcurrent},
		{"KeyCreateAndLookup", testKeyCreateAndLookup},
		{"KeyErrors", testKeyErrors},
		{"KeyCapConcurrent", testKeyCapConcurrent},
		{"KeyRevoke", testKeyRevoke},
		{"TouchKeys", testTouchKeys},
		{"Flags", testFlags},
		{"FlagsVersion", testFlagsVersion},
		{"Exposures", testExposures},
		{"DeleteUser", testDeleteUser},
		{"Export", testExport},
		{"ExportSnapshot", testExportSnapshot},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func hashOf(s string) [32]byte { return sha256.Sum256([]byte(s)) }

// asset returns the meta and JSON of a test asset.
func asset(id, isin string, cat uint8) (store.AssetMeta, []byte) {
	doc := fmt.Sprintf(`{"id":%q,"isin":%q,"category":%d}`, id, isin, cat)
	return store.AssetMeta{ID: id, ISIN: isin, Category: cat}, []byte(doc)
}

func create(t *testing.T, s store.Store, user, id, isin string, cat uint8) {
	t.Helper()
	m, doc := asset(id, isin, cat)
	if err := s.CreateAsset(user, m, doc, 1000, nil); err != nil {
		t.Fatalf("CreateAsset(%q, %q): %v", user, id, err)
	}
}

// ids lists the ids of user's assets via AppendAssets.
func ids(t *testing.T, s store.Store, user string, cat, offset, limit int) ([]string, int) {
	t.Helper()
	raw, total, err := s.AppendAssets([]byte("["), user, cat, offset, limit)
	if err != nil {
		t.Fatalf("AppendAssets: %v", err)
	}
	var docs []struct{ ID string }
	if err := json.Unmarshal(append(raw, ']'), &docs); err != nil {
		t.Fatalf("AppendAssets wrote invalid JSON %q: %v", raw, err)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.ID
	}
	return out, total
}

// parallel runs fn(i) for i in [0, n) on n goroutines and returns the errors.
func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// tally counts nil errors and errors matching want; any other error fails.
func tally(t *testing.T, errs []error, want error) (ok, matched int) {
	t.Helper()
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, want):
			matched++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	return ok, matched
}

func testPingSize(t *testing.T, s store.Store) {
	if err := s.Ping(); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	create(t, s, "alice", "a", "", 0)
	if n, err := s.Size(); err != nil || n <= 0 {
		t.Fatalf("Size = %d, %v", n, err)
	}
}

func testSecret(t *testing.T, s store.Store) {
	if _, ok, err := s.PeekSecret(); err != nil || ok {
		t.Fatalf("PeekSecret of a new store = %v, %v", ok, err)
	}
	s1, err := s.Secret()
	if err != nil || len(s1) != 32 {
		t.Fatalf("Secret = %x, %v", s1, err)
	}
	if bytes.Equal(s1, make([]byte, 32)) {
		t.Fatal("Secret is all zero")
	}
	s2, err := s.Secret()
	if err != nil || !bytes.Equal(s1, s2) {
		t.Fatalf("second Secret = %x, %v; want %x", s2, err, s1)
	}
	s3, ok, err := s.PeekSecret()
	if err != nil || !ok || !bytes.Equal(s1, s3) {
		t.Fatalf("PeekSecret = %x, %v, %v", s3, ok, err)
	}
	s3[0] ^= 0xff // the caller owns the slice
	if s4, _, _ := s.PeekSecret(); !bytes.Equal(s4, s1) {
		t.Fatal("changing a returned secret changed the stored one")
	}
}

func testSecretConcurrent(t *testing.T, s store.Store) {
	got := make([][]byte, 8)
	errs := parallel(8, func(i int) (err error) {
		got[i], err = s.Secret()
		return err
	})
	tally(t, errs, nil)
	for _, g := range got[1:] {
		if !bytes.Equal(g, got[0]) {
			t.Fatal("concurrent first Secret calls disagree")
		}
	}
}

func testAccount(t *testing.T, s store.Store) {
	if _, err := s.Account("alice"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Account of unknown user: %v", err)
	}
	if _, err := s.Account(""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Account(\"\"): %v", err)
	}
	before := time.Now().Add(-time.Second)
	if err := s.SaveAccount("alice", "free"); err != nil {
		t.Fatal(err)
	}
	a, err := s.Account("alice")
	if err != nil || a.Tier != "free" || a.CreatedAt.Before(before) || a.CreatedAt.After(time.Now().Add(time.Second)) {
		t.Fatalf("Account = %+v, %v", a, err)
	}
	if err := s.SaveAccount("alice", "pro"); err != nil {
		t.Fatal(err)
	}
	b, err := s.Account("alice")
	if err != nil || b.Tier != "pro" || !b.CreatedAt.Equal(a.CreatedAt) || b.UpdatedAt.Before(a.UpdatedAt) {
		t.Fatalf("Account after tier change = %+v, %v (was %+v)", b, err, a)
	}
	if err := s.SaveAccount("alice", "pro"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", strings.Repeat("u", store.MaxIDLen+1)} {
		if err := s.SaveAccount(bad, "free"); err == nil {
			t.Errorf("SaveAccount(%q) accepted", bad)
		}
	}
	if _, err := s.Account("bob"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another user's account: %v", err)
	}
}

type profile struct {
	Age  int    `json:"age"`
	Name string `json:"name"`
}

func testDocs(t *testing.T, s store.Store) {
	var p profile
	if ok, err := s.GetDoc("alice", "profile", &p); err != nil || ok {
		t.Fatalf("GetDoc of unknown user = %v, %v", ok, err)
	}
	if err := s.PutDoc("alice", "profile", profile{Age: 40, Name: "Alice"}); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Account("alice"); err != nil || a.Tier != "free" {
		t.Fatalf("PutDoc did not create a free account: %+v, %v", a, err)
	}
	if ok, err := s.GetDoc("alice", "profile", &p); err != nil || !ok || p != (profile{40, "Alice"}) {
		t.Fatalf("GetDoc = %+v, %v, %v", p, ok, err)
	}
	p = profile{Age: 7}
	if ok, err := s.GetDoc("alice", "settings", &p); err != nil || ok || p.Age != 7 {
		t.Fatalf("GetDoc of an absent document = %v, %v and changed v to %+v", ok, err, p)
	}
	if ok, err := s.GetDoc("bob", "profile", &p); err != nil || ok {
		t.Fatalf("GetDoc of another user = %v, %v", ok, err)
	}
	if err := s.PutDoc("alice", "series-x", profile{Age: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDoc("alice", "series-x"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.GetDoc("alice", "series-x", &p); err != nil || ok {
		t.Fatalf("GetDoc after DeleteDoc = %v, %v", ok, err)
	}
	if err := s.DeleteDoc("alice", "series-x"); err != nil {
		t.Fatalf("DeleteDoc of an absent document: %v", err)
	}
	if err := s.DeleteDoc("nobody", "series-x"); err != nil {
		t.Fatalf("DeleteDoc of an absent user: %v", err)
	}
	if err := s.DeleteDoc("alice", ""); err == nil {
		t.Fatal("DeleteDoc of the empty name succeeded")
	}
	if err := s.PutDoc("alice", "profile", profile{Age: 41}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetDoc("alice", "profile", &p); err != nil || p.Age != 41 || p.Name != "" {
		t.Fatalf("replaced document = %+v, %v", p, err)
	}
	var wrongType []int
	if _, err := s.GetDoc("alice", "profile", &wrongType); err == nil {
		t.Fatal("decoding an object into a slice succeeded")
	}
	for _, name := range []string{"", "account", "keys", "assets", "assetIDs", "isins"} {
		if err := s.PutDoc("alice", name, 1); err == nil {
			t.Errorf("PutDoc(%q) accepted a reserved name", name)
		}
		if _, err := s.GetDoc("alice", name, &p); err == nil {
			t.Errorf("GetDoc(%q) accepted a reserved name", name)
		}
	}
	if err := s.PutDoc("", "profile", 1); err == nil {
		t.Error("PutDoc for an empty user id accepted")
	}
}

var errAbort = errors.New("abort from fn")

func testUpdateDoc(t *testing.T, s store.Store) {
	err := s.UpdateDoc("alice", "settings", func(old []byte) ([]byte, error) {
		if old != nil {
			t.Errorf("first UpdateDoc saw %q, want nil", old)
		}
		return []byte(`{"n":1}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.UpdateDoc("alice", "settings", func(old []byte) ([]byte, error) {
		if string(old) != `{"n":1}` {
			t.Errorf("UpdateDoc saw %q", old)
		}
		return []byte(`{"n":2}`), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateDoc("alice", "settings", func([]byte) ([]byte, error) { return nil, errAbort }); err != errAbort {
		t.Fatalf("fn's error came back as %v, want it unchanged", err)
	}
	var v struct{ N int }
	if ok, err := s.GetDoc("alice", "settings", &v); err != nil || !ok || v.N != 2 {
		t.Fatalf("after an aborted update: %+v, %v, %v", v, ok, err)
	}
	if err := s.UpdateDoc("alice", "keys", func([]byte) ([]byte, error) { return []byte(`1`), nil }); err == nil {
		t.Fatal("UpdateDoc of a reserved name accepted")
	}
}

// UpdateDoc is read-change-write with no writer between: concurrent
// increments all count.
func testUpdateDocConcurrent(t *testing.T, s store.Store) {
	const n = 20
	errs := parallel(n, func(int) error {
		return s.UpdateDoc("alice", "counter", func(old []byte) ([]byte, error) {
			var v struct{ N int }
			if old != nil {
				if err := json.Unmarshal(old, &v); err != nil {
					return nil, err
				}
			}
			v.N++
			return json.Marshal(v)
		})
	})
	tally(t, errs, nil)
	var v struct{ N int }
	if _, err := s.GetDoc("alice", "counter", &v); err != nil || v.N != n {
		t.Fatalf("counter = %d, %v; want %d", v.N, err, n)
	}
}

func testAssetCreateAndRead(t *testing.T, s store.Store) {
	m, doc := asset("a1", "IE00BK5BQT80", store.CategoryEquity)
	if err := s.CreateAsset("alice", m, doc, 10, nil); err != nil {
		t.Fatal(err)
	}
	got, err := s.AppendAsset([]byte("x"), "alice", "a1")
	if err != nil || string(got) != "x"+string(doc) {
		t.Fatalf("AppendAsset = %q, %v", got, err)
	}
	if a, err := s.Account("alice"); err != nil || a.Tier != "free" {
		t.Fatalf("CreateAsset did not create a free account: %+v, %v", a, err)
	}
	if _, err := s.AppendAsset(nil, "alice", "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AppendAsset of an unknown id: %v", err)
	}
	if _, err := s.AppendAsset(nil, "nobody", "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AppendAsset of an unknown user: %v", err)
	}
	// Assets without an ISIN do not collide with each other.
	create(t, s, "alice", "a2", "", store.CategoryCash)
	create(t, s, "alice", "a3", "", store.CategoryCash)
	var seen []string
	err = s.Assets("alice", func(doc []byte) error {
		var v struct{ ID string }
		if err := json.Unmarshal(doc, &v); err != nil {
			return err
		}
		seen = append(seen, v.ID)
		return nil
	})
	if err != nil || !slices.Equal(seen, []string{"a1", "a2", "a3"}) {
		t.Fatalf("Assets = %v, %v", seen, err)
	}
	if err := s.Assets("alice", func([]byte) error { return errAbort }); !errors.Is(err, errAbort) {
		t.Fatalf("Assets did not pass fn's error back: %v", err)
	}
	if err := s.Assets("nobody", func([]byte) error { return errAbort }); err != nil {
		t.Fatalf("Assets of an unknown user: %v", err)
	}
}

func testAssetErrors(t *testing.T, s store.Store) {
	create(t, s, "alice", "a1", "IE00BK5BQT80", 0)
	cases := []struct {
		name      string
		user      string
		id, isin  string
		max       int
		sentinel  error
		wantError bool
	}{
		{"duplicate ISIN", "alice", "a2", "IE00BK5BQT80", 10, store.ErrConflict, true},
		{"duplicate id", "alice", "a1", "", 10, store.ErrConflict, true},
		{"cap", "alice", "a3", "", 1, store.ErrLimit, true},
		{"cap zero", "carol", "c1", "", 0, store.ErrLimit, true},
		{"same ISIN, other user", "bob", "a1", "IE00BK5BQT80", 10, nil, false},
		{"empty user", "", "x", "", 10, nil, true},
		{"long user", strings.Repeat("u", store.MaxIDLen+1), "x", "", 10, nil, true},
		{"empty id", "alice", "", "", 10, nil, true},
		{"id with NUL", "alice", "a\x00b", "", 10, nil, true},
		{"long id", "alice", strings.Repeat("i", store.MaxIDLen+1), "", 10, nil, true},
		{"long ISIN", "alice", "a9", strings.Repeat("I", 65), 10, nil, true},
	}
	for _, c := range cases {
		m, doc := asset(c.id, c.isin, 0)
		err := s.CreateAsset(c.user, m, doc, c.max, nil)
		switch {
		case !c.wantError && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantError && err == nil:
			t.Errorf("%s: accepted", c.name)
		case c.sentinel != nil && !errors.Is(err, c.sentinel):
			t.Errorf("%s: %v, want %v", c.name, err, c.sentinel)
		case c.sentinel == nil && (errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrLimit)):
			t.Errorf("%s: %v, want an invalid-input error", c.name, err)
		}
	}
	if got, total := ids(t, s, "alice", store.AnyCategory, 0, 10); total != 1 || got[0] != "a1" {
		t.Fatalf("refused creates were stored: %v", got)
	}
}

func testAssetList(t *testing.T, s store.Store) {
	cats := []uint8{store.CategoryEquity, store.CategoryBond, store.CategoryEquity, store.CategoryCash, store.CategoryEquity}
	for i, c := range cats {
		// Ids out of byte order: listing follows creation, not the id.
		create(t, s, "alice", fmt.Sprint("z", 9-i), "", c)
	}
	cases := []struct {
		cat, offset, limit int
		want               []string
		total              int
	}{
		{store.AnyCategory, 0, 10, []string{"z9", "z8", "z7", "z6", "z5"}, 5},
		{store.AnyCategory, 1, 2, []string{"z8", "z7"}, 5},
		{store.AnyCategory, 5, 2, []string{}, 5},
		{store.AnyCategory, 0, 0, []string{}, 5},
		{int(store.CategoryEquity), 0, 10, []string{"z9", "z7", "z5"}, 3},
		{int(store.CategoryEquity), 1, 1, []string{"z7"}, 3},
		{int(store.CategoryCash), 0, 10, []string{"z6"}, 1},
		{int(store.CategoryCrypto), 0, 10, []string{}, 0},
	}
	for _, c := range cases {
		got, total := ids(t, s, "alice", c.cat, c.offset, c.limit)
		if !slices.Equal(got, c.want) || total != c.total {
			t.Errorf("AppendAssets(cat %d, offset %d, limit %d) = %v, total %d; want %v, %d", c.cat, c.offset, c.limit, got, total, c.want, c.total)
		}
	}
	if got, total := ids(t, s, "nobody", store.AnyCategory, 0, 10); len(got) != 0 || total != 0 {
		t.Errorf("unknown user lists %v, %d", got, total)
	}
	raw, _, err := s.AppendAssets([]byte("prefix"), "alice", int(store.CategoryCash), 0, 10)
	if err != nil || !bytes.HasPrefix(raw, []byte("prefix{")) {
		t.Errorf("AppendAssets does not append to dst: %q, %v", raw, err)
	}
}

func testAssetUpdate(t *testing.T, s store.Store) {
	create(t, s, "alice", "a1", "IE00BK5BQT80", store.CategoryEquity)
	create(t, s, "alice", "a2", "US0378331005", store.CategoryEquity)
	update := func(id string, m store.AssetMeta) error {
		return s.UpdateAsset("alice", id, func(old []byte) (store.AssetMeta, []byte, error) {
			_, doc := asset(m.ID, m.ISIN, m.Category)
			return m, doc, nil
		})
	}
	// Change the ISIN and the category.
	if err := update("a1", store.AssetMeta{ID: "a1", ISIN: "LU0274208692", Category: store.CategoryBond}); err != nil {
		t.Fatal(err)
	}
	if got, _ := ids(t, s, "alice", int(store.CategoryBond), 0, 10); !slices.Equal(got, []string{"a1"}) {
		t.Fatalf("after the category change, bonds = %v", got)
	}
	// The old ISIN is free again, the new one is taken.
	create(t, s, "alice", "a3", "IE00BK5BQT80", 0)
	m, doc := asset("a4", "LU0274208692", 0)
	if err := s.CreateAsset("alice", m, doc, 10, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("create with the updated ISIN: %v", err)
	}
	cases := []struct {
		name string
		id   string
		m    store.AssetMeta
		want error
	}{
		{"ISIN held by another asset", "a1", store.AssetMeta{ID: "a1", ISIN: "US0378331005"}, store.ErrConflict},
		{"unknown id", "nope", store.AssetMeta{ID: "nope"}, store.ErrNotFound},
	}
	for _, c := range cases {
		if err := update(c.id, c.m); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if err := update("a1", store.AssetMeta{ID: "other"}); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Errorf("changing the id: %v", err)
	}
	if err := s.UpdateAsset("alice", "a1", func([]byte) (store.AssetMeta, []byte, error) {
		return store.AssetMeta{}, nil, errAbort
	}); err != errAbort {
		t.Errorf("fn's error came back as %v", err)
	}
	if err := s.UpdateAsset("bob", "a1", func([]byte) (store.AssetMeta, []byte, error) {
		t.Error("fn called for another user's asset")
		return store.AssetMeta{}, nil, nil
	}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("update of another user's asset: %v", err)
	}
	// Dropping the ISIN frees it; the refused updates changed nothing.
	if err := update("a2", store.AssetMeta{ID: "a2"}); err != nil {
		t.Fatal(err)
	}
	create(t, s, "alice", "a5", "US0378331005", 0)
	got, err := s.AppendAsset(nil, "alice", "a1")
	if _, want := asset("a1", "LU0274208692", store.CategoryBond); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("a1 = %s, %v; want %s", got, err, want)
	}
	var old []byte
	_ = s.UpdateAsset("alice", "a1", func(o []byte) (store.AssetMeta, []byte, error) {
		old = bytes.Clone(o)
		return store.AssetMeta{}, nil, errAbort
	})
	if !bytes.Equal(old, got) {
		t.Fatalf("UpdateAsset passed %q, stored %q", old, got)
	}
}

func testAssetDelete(t *testing.T, s store.Store) {
	create(t, s, "alice", "a1", "IE00BK5BQT80", 0)
	create(t, s, "alice", "a2", "", 0)
	if err := s.DeleteAsset("alice", "nope", nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete unknown: %v", err)
	}
	if err := s.DeleteAsset("bob", "a1", nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete another user's asset: %v", err)
	}
	if err := s.DeleteAsset("alice", "a1", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAsset("alice", "a1", nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := s.AppendAsset(nil, "alice", "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("read after delete: %v", err)
	}
	// Both the id and the ISIN are free again, and the cap counts what is left.
	create(t, s, "alice", "a1", "IE00BK5BQT80", 0)
	m, doc := asset("a3", "", 0)
	if err := s.CreateAsset("alice", m, doc, 2, nil); !errors.Is(err, store.ErrLimit) {
		t.Fatalf("cap after delete and re-create: %v", err)
	}
	if got, total := ids(t, s, "alice", store.AnyCategory, 0, 10); total != 2 || !slices.Equal(got, []string{"a2", "a1"}) {
		t.Fatalf("after delete = %v, %d", got, total)
	}
}

// DeleteAsset's check sees the stored JSON inside the transaction; its
// error keeps the asset and comes back unchanged.
func testAssetDeleteChecked(t *testing.T, s store.Store) {
	create(t, s, "alice", "a1", "IE00BK5BQT80", 0)
	_, want := asset("a1", "IE00BK5BQT80", 0)
	var seen []byte
	err := s.DeleteAsset("alice", "a1", func(doc []byte) error {
		seen = append(seen[:0], doc...)
		return store.ErrStale
	})
	if err != store.ErrStale || !bytes.Equal(seen, want) {
		t.Fatalf("refused delete: %v, saw %q", err, seen)
	}
	if _, err := s.AppendAsset(nil, "alice", "a1"); err != nil {
		t.Fatalf("the refused delete removed the asset: %v", err)
	}
	called := false
	if err := s.DeleteAsset("alice", "nope", func([]byte) error { called = true; return nil }); !errors.Is(err, store.ErrNotFound) || called {
		t.Fatalf("checked delete of an unknown asset: %v, check called %v", err, called)
	}
	if err := s.DeleteAsset("alice", "a1", func([]byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendAsset(nil, "alice", "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after a checked delete: %v", err)
	}
	// The ISIN is free again.
	create(t, s, "alice", "a2", "IE00BK5BQT80", 0)
}

// A callback that compares the stored JSON with what its caller read makes
// each write a compare-and-set: of writers that all read the same version,
// exactly one wins and the others see ErrStale (or, after a delete,
// ErrNotFound).
func testCompareAndSetConcurrent(t *testing.T, s store.Store) {
	const n = 8
	unchanged := func(read []byte) func(old []byte) error {
		return func(old []byte) error {
			if !bytes.Equal(old, read) {
				return store.ErrStale
			}
			return nil
		}
	}
	// Documents, one never written (nil) and one written.
	for _, first := range [][]byte{nil, []byte(`{"v":0}`)} {
		if first != nil {
			if err := s.UpdateDoc("alice", "cas", func([]byte) ([]byte, error) { return first, nil }); err != nil {
				t.Fatal(err)
			}
		}
		errs := parallel(n, func(i int) error {
			return s.UpdateDoc("alice", "cas", func(old []byte) ([]byte, error) {
				if err := unchanged(first)(old); err != nil {
					return nil, err
				}
				return []byte(fmt.Sprintf(`{"v":%d}`, 100+i)), nil
			})
		})
		if ok, stale := tally(t, errs, store.ErrStale); ok != 1 || stale != n-1 {
			t.Fatalf("document from %q: %d writes won, %d stale", first, ok, stale)
		}
	}
	// Assets: rewrite, then delete.
	create(t, s, "alice", "a1", "", 0)
	read, err := s.AppendAsset(nil, "alice", "a1")
	if err != nil {
		t.Fatal(err)
	}
	errs := parallel(n, func(i int) error {
		return s.UpdateAsset("alice", "a1", func(old []byte) (store.AssetMeta, []byte, error) {
			if err := unchanged(read)(old); err != nil {
				return store.AssetMeta{}, nil, err
			}
			m, doc := asset("a1", fmt.Sprintf("ISIN%d", i), 1)
			return m, doc, nil
		})
	})
	if ok, stale := tally(t, errs, store.ErrStale); ok != 1 || stale != n-1 {
		t.Fatalf("asset rewrite: %d won, %d stale", ok, stale)
	}
	read, err = s.AppendAsset(nil, "alice", "a1")
	if err != nil {
		t.Fatal(err)
	}
	errs = parallel(n, func(i int) error {
		if i%2 == 0 {
			return s.DeleteAsset("alice", "a1", unchanged(read))
		}
		return s.UpdateAsset("alice", "a1", func(old []byte) (store.AssetMeta, []byte, error) {
			if err := unchanged(read)(old); err != nil {
				return store.AssetMeta{}, nil, err
			}
			m, doc := asset("a1", "", 2)
			return m, doc, nil
		})
	})
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case errors.Is(err, store.ErrStale), errors.Is(err, store.ErrNotFound):
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("asset delete and rewrite: %d won", won)
	}
}

func testAssetOwnership(t *testing.T, s store.Store) {
	create(t, s, "alice", "shared-id", "IE00BK5BQT80", 0)
	create(t, s, "bob", "shared-id", "IE00BK5BQT80", 1)
	a, _ := s.AppendAsset(nil, "alice", "shared-id")
	b, _ := s.AppendAsset(nil, "bob", "shared-id")
	if _, want := asset("shared-id", "IE00BK5BQT80", 0); !bytes.Equal(a, want) {
		t.Fatalf("alice's asset = %s", a)
	}
	if _, want := asset("shared-id", "IE00BK5BQT80", 1); !bytes.Equal(b, want) {
		t.Fatalf("bob's asset = %s", b)
	}
	if err := s.DeleteAsset("bob", "shared-id", nil); err != nil {
		t.Fatal(err)
	}
	if got, total := ids(t, s, "alice", store.AnyCategory, 0, 10); total != 1 || got[0] != "shared-id" {
		t.Fatalf("bob's delete touched alice's assets: %v", got)
	}
	if _, total := ids(t, s, "bob", store.AnyCategory, 0, 10); total != 0 {
		t.Fatalf("bob still has %d assets", total)
	}
}

// Racing creates of one ISIN: exactly one wins, whatever the batching.
func testAssetSameISINConcurrent(t *testing.T, s store.Store) {
	const n = 16
	errs := parallel(n, func(i int) error {
		m, doc := asset(fmt.Sprint("r", i), "IE00BK5BQT80", 0)
		return s.CreateAsset("alice", m, doc, 1000, nil)
	})
	if won, lost := tally(t, errs, store.ErrConflict); won != 1 || lost != n-1 {
		t.Fatalf("%d creates won, %d conflicted; want 1 and %d", won, lost, n-1)
	}
	if _, total := ids(t, s, "alice", store.AnyCategory, 0, 0); total != 1 {
		t.Fatalf("%d assets stored, want 1", total)
	}
}

// At 998 assets, 40 parallel creates: exactly two succeed and 1000 are
// stored.
func testAssetCapConcurrent(t *testing.T, s store.Store) {
	const max, have, racers = 1000, 998, 40
	var next atomic.Int64
	fill := parallel(8, func(int) error {
		for {
			i := next.Add(1) - 1
			if i >= have {
				return nil
			}
			m, doc := asset(fmt.Sprint("f", i), fmt.Sprintf("XS%010d", i), 0)
			if err := s.CreateAsset("alice", m, doc, max, nil); err != nil {
				return err
			}
		}
	})
	tally(t, fill, nil)
	errs := parallel(racers, func(i int) error {
		m, doc := asset(fmt.Sprint("r", i), fmt.Sprintf("US%010d", i), 0)
		return s.CreateAsset("alice", m, doc, max, nil)
	})
	won, refused := tally(t, errs, store.ErrLimit)
	if _, total := ids(t, s, "alice", store.AnyCategory, 0, 0); total != max || won != max-have || refused != racers-(max-have) {
		t.Fatalf("%d stored, %d creates won, %d refused; want %d, %d, %d", total, won, refused, max, max-have, racers-(max-have))
	}
}

func testKeyCreateAndLookup(t *testing.T, s store.Store) {
	if keys, err := s.Keys("alice"); err != nil || keys == nil || len(keys) != 0 {
		t.Fatalf("Keys of unknown user = %#v, %v", keys, err)
	}
	created := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	k := store.Key{ID: "k2", Owner: "alice", Name: "ci", Hint: "svc_…abcd", CreatedAt: created}
	if err := s.CreateKey(k, hashOf("svc_two"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Account("alice"); err != nil || a.Tier != "free" {
		t.Fatalf("CreateKey did not create a free account: %+v, %v", a, err)
	}
	if err := s.SaveAccount("alice", "pro"); err != nil {
		t.Fatal(err)
	}
	// Same CreatedAt: ordered by id. Zero CreatedAt: now, so last.
	if err := s.CreateKey(store.Key{ID: "k1", Owner: "alice", CreatedAt: created}, hashOf("svc_one"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateKey(store.Key{ID: "k0", Owner: "alice"}, hashOf("svc_zero"), 5, nil); err != nil {
		t.Fatal(err)
	}
	keys, err := s.Keys("alice")
	if err != nil || len(keys) != 3 {
		t.Fatalf("Keys = %+v, %v", keys, err)
	}
	if got := []string{keys[0].ID, keys[1].ID, keys[2].ID}; !slices.Equal(got, []string{"k1", "k2", "k0"}) {
		t.Fatalf("Keys order = %v", got)
	}
	if !sameKey(keys[1], k) {
		t.Fatalf("Keys[1] = %+v, want %+v", keys[1], k)
	}
	if time.Since(keys[2].CreatedAt) > time.Minute || !keys[2].LastUsedAt.IsZero() {
		t.Fatalf("key with zero CreatedAt = %+v", keys[2])
	}
	got, acct, err := s.LookupKey(hashOf("svc_two"))
	if err != nil || !sameKey(got, k) || acct.Tier != "pro" {
		t.Fatalf("LookupKey = %+v, %+v, %v", got, acct, err)
	}
	if _, _, err := s.LookupKey(hashOf("svc_never")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LookupKey of an unknown hash: %v", err)
	}
	if keys, _ := s.Keys("bob"); len(keys) != 0 {
		t.Fatalf("bob sees %d keys", len(keys))
	}
}

func testKeyErrors(t *testing.T, s store.Store) {
	if err := s.CreateKey(store.Key{ID: "k0", Owner: "alice"}, hashOf("a0"), 3, nil); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		k        store.Key
		hash     string
		max      int
		sentinel error
	}{
		{"duplicate hash, other owner", store.Key{ID: "k1", Owner: "bob"}, "a0", 3, store.ErrConflict},
		{"duplicate id", store.Key{ID: "k0", Owner: "alice"}, "a1", 3, store.ErrConflict},
		{"max zero", store.Key{ID: "k0", Owner: "carol"}, "c0", 0, store.ErrLimit},
		{"cap", store.Key{ID: "k5", Owner: "alice"}, "a5", 1, store.ErrLimit},
		{"empty id", store.Key{ID: "", Owner: "alice"}, "e1", 3, nil},
		{"id with NUL", store.Key{ID: "a\x00b", Owner: "alice"}, "e2", 3, nil},
		{"empty owner", store.Key{ID: "k", Owner: ""}, "e3", 3, nil},
		{"long id", store.Key{ID: strings.Repeat("i", store.MaxIDLen+1), Owner: "alice"}, "e4", 3, nil},
		{"name with NUL", store.Key{ID: "k6", Owner: "alice", Name: "a\x00b"}, "e5", 3, nil},
		{"name not UTF-8", store.Key{ID: "k7", Owner: "alice", Name: "a\xffb"}, "e6", 3, nil},
	}
	for _, c := range cases {
		err := s.CreateKey(c.k, hashOf(c.hash), c.max, nil)
		switch {
		case err == nil:
			t.Errorf("%s: accepted", c.name)
		case c.sentinel != nil && !errors.Is(err, c.sentinel):
			t.Errorf("%s: %v, want %v", c.name, err, c.sentinel)
		case c.sentinel == nil && (errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrLimit)):
			t.Errorf("%s: %v, want an invalid-input error", c.name, err)
		}
		if c.hash != "a0" {
			if _, _, err := s.LookupKey(hashOf(c.hash)); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: the refused key was indexed (%v)", c.name, err)
			}
		}
	}
	if k, _, err := s.LookupKey(hashOf("a0")); err != nil || k.Owner != "alice" || k.ID != "k0" {
		t.Fatalf("original key after conflicts: %+v, %v", k, err)
	}
}

func testKeyCapConcurrent(t *testing.T, s store.Store) {
	const max, racers = 25, 40
	errs := parallel(racers, func(i int) error {
		return s.CreateKey(store.Key{ID: fmt.Sprint("k", i), Owner: "alice"}, hashOf(fmt.Sprint("svc_", i)), max, nil)
	})
	won, refused := tally(t, errs, store.ErrLimit)
	keys, err := s.Keys("alice")
	if err != nil || len(keys) != max || won != max || refused != racers-max {
		t.Fatalf("%d keys stored (%v), %d won, %d refused; want %d, %d, %d", len(keys), err, won, refused, max, max, racers-max)
	}
}

func testKeyRevoke(t *testing.T, s store.Store) {
	for i := range 2 {
		if err := s.CreateKey(store.Key{ID: fmt.Sprint("k", i), Owner: "alice"}, hashOf(fmt.Sprint("a", i)), 2, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.LookupKey(hashOf("a0")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ owner, id string }{{"bob", "k0"}, {"alice", "nope"}, {"", "k0"}, {"alice", ""}} {
		if err := s.RevokeKey(c.owner, c.id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("RevokeKey(%q, %q) = %v, want ErrNotFound", c.owner, c.id, err)
		}
	}
	if err := s.RevokeKey("alice", "k0"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.LookupKey(hashOf("a0")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LookupKey right after revoke: %v", err)
	}
	if err := s.RevokeKey("alice", "k0"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second revoke: %v", err)
	}
	if _, _, err := s.LookupKey(hashOf("a1")); err != nil {
		t.Fatalf("the other key after revoke: %v", err)
	}
	// The slot and the hash are free again.
	if err := s.CreateKey(store.Key{ID: "k0", Owner: "alice"}, hashOf("a0"), 2, nil); err != nil {
		t.Fatalf("re-create after revoke: %v", err)
	}
}

func testTouchKeys(t *testing.T, s store.Store) {
	for _, id := range []string{"k0", "k1"} {
		if err := s.CreateKey(store.Key{ID: id, Owner: "alice"}, hashOf(id), 5, nil); err != nil {
			t.Fatal(err)
		}
	}
	t1 := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	if err := s.TouchKeys(nil); err != nil {
		t.Fatal(err)
	}
	err := s.TouchKeys(map[string]time.Time{
		store.KeyRef("alice", "k0"):   t2,
		store.KeyRef("alice", "k1"):   t1,
		store.KeyRef("alice", "gone"): t1,
		store.KeyRef("nobody", "k0"):  t1,
		"no separator":                t1,
	})
	if err != nil {
		t.Fatal(err)
	}
	last := func() map[string]time.Time {
		keys, err := s.Keys("alice")
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]time.Time{}
		for _, k := range keys {
			m[k.ID] = k.LastUsedAt
		}
		return m
	}
	if m := last(); !m["k0"].Equal(t2) || !m["k1"].Equal(t1) {
		t.Fatalf("after touch: %v", m)
	}
	// An earlier time does not move LastUsedAt back; a later one moves it.
	if err := s.TouchKeys(map[string]time.Time{store.KeyRef("alice", "k0"): t1, store.KeyRef("alice", "k1"): t2}); err != nil {
		t.Fatal(err)
	}
	if m := last(); !m["k0"].Equal(t2) || !m["k1"].Equal(t2) {
		t.Fatalf("after second touch: %v", m)
	}
	if k, _, err := s.LookupKey(hashOf("k1")); err != nil || !k.LastUsedAt.Equal(t2) {
		t.Fatalf("LookupKey after touch: %+v, %v", k, err)
	}
}

func sameKey(a, b store.Key) bool {
	return a.ID == b.ID && a.Owner == b.Owner && a.Name == b.Name && a.Hint == b.Hint &&
		a.CreatedAt.Equal(b.CreatedAt) && a.LastUsedAt.Equal(b.LastUsedAt)
}

type flagDef struct {
	Enabled bool `json:"enabled"`
	Percent int  `json:"percent"`
}

func flags(t *testing.T, s store.Store) (keys []string, defs map[string]flagDef) {
	t.Helper()
	defs = map[string]flagDef{}
	err := s.Flags(func(key string, raw []byte) error {
		var d flagDef
		if err := json.Unmarshal(raw, &d); err != nil {
			return err
		}
		keys = append(keys, key)
		defs[key] = d
		return nil
	})
	if err != nil {
		t.Fatalf("Flags: %v", err)
	}
	return keys, defs
}

func testFlags(t *testing.T, s store.Store) {
	if keys, _ := flags(t, s); len(keys) != 0 {
		t.Fatalf("new store has flags %v", keys)
	}
	for _, c := range []struct {
		key     string
		def     flagDef
		created bool
	}{
		{"beta", flagDef{true, 10}, true},
		{"Zeta", flagDef{false, 0}, true},
		{"alpha", flagDef{true, 100}, true},
		{"beta", flagDef{true, 50}, false},
	} {
		created, err := s.PutFlag(c.key, c.def)
		if err != nil || created != c.created {
			t.Fatalf("PutFlag(%q) = %v, %v; want created %v", c.key, created, err, c.created)
		}
	}
	// Byte order, whatever the database's collation says.
	keys, defs := flags(t, s)
	if !slices.Equal(keys, []string{"Zeta", "alpha", "beta"}) || defs["beta"] != (flagDef{true, 50}) {
		t.Fatalf("Flags = %v %v", keys, defs)
	}
	if err := s.Flags(func(string, []byte) error { return errAbort }); !errors.Is(err, errAbort) {
		t.Fatalf("Flags did not pass fn's error back: %v", err)
	}
	if err := s.DeleteFlag("nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteFlag of unknown: %v", err)
	}
	if err := s.DeleteFlag("Zeta"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteFlag("Zeta"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second DeleteFlag: %v", err)
	}
	if keys, _ := flags(t, s); !slices.Equal(keys, []string{"alpha", "beta"}) {
		t.Fatalf("after delete: %v", keys)
	}
}

// Every flag write moves the version; reads and exposures do not.
func testFlagsVersion(t *testing.T, s store.Store) {
	version := func() int64 {
		t.Helper()
		v, err := s.FlagsVersion()
		if err != nil {
			t.Fatalf("FlagsVersion: %v", err)
		}
		return v
	}
	v0 := version()
	if _, err := s.PutFlag("a", flagDef{true, 1}); err != nil {
		t.Fatal(err)
	}
	v1 := version()
	if v1 == v0 {
		t.Fatalf("version %d unchanged by a create", v1)
	}
	flags(t, s)
	if err := s.RecordExposures(map[string]map[string]string{"a": {"u": ""}}); err != nil {
		t.Fatal(err)
	}
	if v := version(); v != v1 {
		t.Fatalf("version %d -> %d without a flag write", v1, v)
	}
	if _, err := s.PutFlag("a", flagDef{false, 1}); err != nil {
		t.Fatal(err)
	}
	v2 := version()
	if v2 == v1 {
		t.Fatalf("version %d unchanged by a replace", v2)
	}
	if err := s.DeleteFlag("a"); err != nil {
		t.Fatal(err)
	}
	if v := version(); v == v2 {
		t.Fatalf("version %d unchanged by a delete", v)
	}
}

func testExposures(t *testing.T, s store.Store) {
	for _, k := range []string{"ab", "other"} {
		if _, err := s.PutFlag(k, flagDef{Enabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordExposures(nil); err != nil {
		t.Fatal(err)
	}
	err := s.RecordExposures(map[string]map[string]string{
		"ab":      {"u1": "red", "u2": "red", "u3": "blue", "u4": store.Disabled, "u5": ""},
		"other":   {"u1": ""},
		"no-flag": {"u1": "red"},
	})
	if err != nil {
		t.Fatal(err)
	}
	// A user counts once per flag: a new variant replaces the old one.
	if err := s.RecordExposures(map[string]map[string]string{"ab": {"u2": "blue"}}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		flag string
		want map[string]int
	}{
		{"ab", map[string]int{"red": 1, "blue": 2, store.Disabled: 1, "": 1}},
		{"other", map[string]int{"": 1}},
		{"no-flag", map[string]int{}},
	}
	for _, c := range cases {
		got, err := s.Exposures(c.flag)
		if err != nil || got == nil || !mapsEqual(got, c.want) {
			t.Errorf("Exposures(%q) = %v, %v; want %v", c.flag, got, err, c.want)
		}
	}
	// Deleting a flag drops its exposures; a new flag of that name starts empty.
	if err := s.DeleteFlag("ab"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutFlag("ab", flagDef{}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Exposures("ab"); err != nil || len(got) != 0 {
		t.Fatalf("exposures survived the flag's deletion: %v, %v", got, err)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// fill stores one of everything for user.
func fill(t *testing.T, s store.Store, user string) {
	t.Helper()
	if err := s.SaveAccount(user, "pro"); err != nil {
		t.Fatal(err)
	}
	if err := s.PutDoc(user, "profile", profile{Age: 40, Name: user}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutDoc(user, "settings", map[string]string{"baseCurrency": "EUR"}); err != nil {
		t.Fatal(err)
	}
	create(t, s, user, "a1", "IE00BK5BQT80", 0)
	create(t, s, user, "a2", "", 2)
	if err := s.CreateKey(store.Key{ID: "k1", Owner: user, Name: "ci"}, hashOf(user+"-key"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutFlag("ab", flagDef{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordExposures(map[string]map[string]string{"ab": {user: "red"}}); err != nil {
		t.Fatal(err)
	}
}

func testDeleteUser(t *testing.T, s store.Store) {
	fill(t, s, "alice")
	fill(t, s, "bob")
	// An exposure without an account is erased too.
	if err := s.RecordExposures(map[string]map[string]string{"ab": {"carol": "blue"}}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"alice", "carol", "nobody", ""} {
		if err := s.DeleteUser(u); err != nil {
			t.Fatalf("DeleteUser(%q): %v", u, err)
		}
	}
	var p profile
	if _, err := s.Account("alice"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("account after erase: %v", err)
	}
	if ok, err := s.GetDoc("alice", "profile", &p); ok || err != nil {
		t.Errorf("profile after erase: %v, %v", ok, err)
	}
	if _, total := ids(t, s, "alice", store.AnyCategory, 0, 10); total != 0 {
		t.Errorf("%d assets after erase", total)
	}
	if keys, err := s.Keys("alice"); err != nil || len(keys) != 0 {
		t.Errorf("keys after erase: %v, %v", keys, err)
	}
	if _, _, err := s.LookupKey(hashOf("alice-key")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LookupKey after erase: %v", err)
	}
	if got, err := s.Exposures("ab"); err != nil || !mapsEqual(got, map[string]int{"red": 1}) {
		t.Errorf("exposures after erase = %v, %v; want bob's only", got, err)
	}
	e, err := s.Export("alice")
	if err != nil || e.Account != nil || len(e.Docs)+len(e.Assets)+len(e.Keys)+len(e.Exposures) != 0 {
		t.Errorf("export after erase = %+v, %v", e, err)
	}
	// Bob is untouched, and alice can start again.
	if k, _, err := s.LookupKey(hashOf("bob-key")); err != nil || k.Owner != "bob" {
		t.Errorf("bob's key: %+v, %v", k, err)
	}
	if _, total := ids(t, s, "bob", store.AnyCategory, 0, 10); total != 2 {
		t.Errorf("bob has %d assets", total)
	}
	create(t, s, "alice", "a1", "IE00BK5BQT80", 0)
}

func testExport(t *testing.T, s store.Store) {
	e, err := s.Export("alice")
	if err != nil || e.Account != nil || e.Docs == nil || e.Assets == nil || e.Keys == nil || e.Exposures == nil ||
		len(e.Docs)+len(e.Assets)+len(e.Keys)+len(e.Exposures) != 0 {
		t.Fatalf("Export of unknown user = %#v, %v", e, err)
	}
	fill(t, s, "alice")
	fill(t, s, "bob")
	e, err = s.Export("alice")
	if err != nil {
		t.Fatal(err)
	}
	if e.Account == nil || e.Account.Tier != "pro" {
		t.Errorf("Account = %+v", e.Account)
	}
	var p profile
	if len(e.Docs) != 2 || json.Unmarshal(e.Docs["profile"], &p) != nil || p.Name != "alice" || e.Docs["settings"] == nil {
		t.Errorf("Docs = %q", e.Docs)
	}
	_, a1 := asset("a1", "IE00BK5BQT80", 0)
	_, a2 := asset("a2", "", 2)
	if len(e.Assets) != 2 || !bytes.Equal(e.Assets[0], a1) || !bytes.Equal(e.Assets[1], a2) {
		t.Errorf("Assets = %q", e.Assets)
	}
	if len(e.Keys) != 1 || e.Keys[0].ID != "k1" || e.Keys[0].Owner != "alice" || e.Keys[0].Name != "ci" {
		t.Errorf("Keys = %+v", e.Keys)
	}
	if len(e.Exposures) != 1 || e.Exposures["ab"] != "red" {
		t.Errorf("Exposures = %v", e.Exposures)
	}
}

// Export reads one snapshot: while a writer creates assets (each create
// also creates the account) and erases the user (everything in one
// transaction), an export never shows assets without the account.
func testExportSnapshot(t *testing.T, s store.Store) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			m, doc := asset(fmt.Sprint("a", i), "", 0)
			if err := s.CreateAsset("alice", m, doc, 1000, nil); err != nil {
				t.Error(err)
				return
			}
			if i%3 == 2 {
				if err := s.DeleteUser("alice"); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	defer wg.Wait()
	defer close(stop)
	deadline := time.Now().Add(300 * time.Millisecond)
	for n := 0; n < 30 || time.Now().Before(deadline); n++ {
		e, err := s.Export("alice")
		if err != nil {
			t.Fatal(err)
		}
		if e.Account == nil && len(e.Assets) > 0 {
			t.Fatalf("export %d shows %d assets and no account", n, len(e.Assets))
		}
		if len(e.Assets) > 3 {
			t.Fatalf("export %d shows %d assets; erase runs every third create", n, len(e.Assets))
		}
	}
}
