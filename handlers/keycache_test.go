package handlers

import (
	"path/filepath"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
)

// sharedStores opens one store of each kind for two nodes to share.
func sharedStores(t *testing.T) map[string]func(t *testing.T) store.Store {
	return map[string]func(t *testing.T) store.Store{
		"bbolt": func(t *testing.T) store.Store {
			db, err := store.Open(filepath.Join(t.TempDir(), "shared.db"), store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
		"postgres": func(t *testing.T) store.Store {
			return pgStore(t)
		},
	}
}

// fresh waits for the node's first poll of the sign-out marks.
func fresh(h *harness) {
	for h.S.marks.Lag() > store.MirrorStale {
		time.Sleep(5 * time.Millisecond)
	}
}

// Two nodes on one store, each serving an API key from its cache: the key
// revoked on one is refused there from the next request, and on the other
// within a second, by the mark its mirror reads (the key's row is gone, but
// only the mark keeps the other node's cache from serving it).
func TestKeyRevokedReachesOtherNodes(t *testing.T) {
	for kind, open := range sharedStores(t) {
		t.Run(kind, func(t *testing.T) {
			db := open(t)
			a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
			fresh(a)
			fresh(b)
			tok := bearer(a.Token("alice", "free", ""))
			key, id := a.APIKey("alice", "free")
			for _, h := range []*harness{a, b} {
				if r := h.Do("GET", "/api/v1/user/profile", "", bearer(key)...); r.Status != 200 {
					t.Fatalf("before the revocation: %d %s", r.Status, r.Raw)
				}
			}
			if r := a.Do("DELETE", "/api/v1/user/api-keys/"+id, "", tok...); r.Status != 204 {
				t.Fatalf("revoke: %d %s", r.Status, r.Raw)
			}
			expectError(t, a.Do("GET", "/api/v1/user/profile", "", bearer(key)...), 401, errcode.Unauthorized)
			refusedWithin(t, b, bearer(key)...)
			// The mark is what refuses the key on a node whose cache holds
			// it (a mirror stale for a moment on a busy machine reads the
			// store instead): it reaches the other node within a second.
			for start := time.Now(); !b.S.marks.Known(store.KeyMark("alice", id), b.Clock()); {
				if time.Since(start) > 2*store.MirrorStale {
					t.Fatal("the key's mark did not reach the other node's mirror")
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// An erased account's keys are refused on the node that erased it at
// once and on the other within a second.
func TestErasedOwnersKeyReachesOtherNodes(t *testing.T) {
	for kind, open := range sharedStores(t) {
		t.Run(kind, func(t *testing.T) {
			db := open(t)
			a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
			fresh(a)
			fresh(b)
			key, _ := a.APIKey("erin", "free")
			for _, h := range []*harness{a, b} {
				if r := h.Do("GET", "/api/v1/user/profile", "", bearer(key)...); r.Status != 200 {
					t.Fatalf("before the erasure: %d %s", r.Status, r.Raw)
				}
			}
			if r := a.Do("DELETE", "/api/v1/user", "", bearer(a.Token("erin", "free", ""))...); r.Status != 204 {
				t.Fatalf("erase: %d %s", r.Status, r.Raw)
			}
			expectError(t, a.Do("GET", "/api/v1/user/profile", "", bearer(key)...), 401, errcode.Unauthorized)
			refusedWithin(t, b, bearer(key)...)
		})
	}
}

// A node whose mirror cannot read the marks (stale) reads every key in the
// store: a key revoked on another node is refused there from the next
// request, with no mark read.
func TestKeyStaleMirrorReadsStore(t *testing.T) {
	for kind, open := range sharedStores(t) {
		t.Run(kind, func(t *testing.T) {
			db := open(t)
			a, b := newHarness(t, withDB(db)), newHarness(t, withDB(&downStore{Store: db}))
			fresh(a)
			key, id := a.APIKey("stan", "free")
			if r := b.Do("GET", "/api/v1/user/profile", "", bearer(key)...); r.Status != 200 {
				t.Fatalf("before the revocation: %d %s", r.Status, r.Raw)
			}
			if lag := b.S.marks.Lag(); lag <= store.MirrorStale {
				t.Fatalf("the node with marks that cannot be read has a mirror %s old", lag)
			}
			if r := a.Do("DELETE", "/api/v1/user/api-keys/"+id, "", bearer(a.Token("stan", "free", ""))...); r.Status != 204 {
				t.Fatalf("revoke: %d %s", r.Status, r.Raw)
			}
			expectError(t, b.Do("GET", "/api/v1/user/profile", "", bearer(key)...), 401, errcode.Unauthorized)
		})
	}
}

// A key's cached entry lives KeyCacheFor on the node's clock: past it the
// store is read, so a key whose row is gone without a mark (deleted behind
// the service's back) is refused then, and served from the cache before.
func TestKeyCacheEntryExpires(t *testing.T) {
	h := newHarness(t)
	fresh(h)
	key, id := h.APIKey("kate", "free")
	if r := h.Do("GET", "/api/v1/user/profile", "", bearer(key)...); r.Status != 200 {
		t.Fatalf("first read: %d %s", r.Status, r.Raw)
	}
	if err := h.DB.RevokeKey("kate", id); err != nil { // the store itself: no mark
		t.Fatal(err)
	}
	h.Advance(store.KeyCacheFor - time.Second)
	if r := h.Do("GET", "/api/v1/user/profile", "", bearer(key)...); r.Status != 200 {
		t.Fatalf("inside the entry's life: %d %s", r.Status, r.Raw)
	}
	h.Advance(time.Second)
	expectError(t, h.Do("GET", "/api/v1/user/profile", "", bearer(key)...), 401, errcode.Unauthorized)
}
