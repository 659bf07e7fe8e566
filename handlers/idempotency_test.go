package handlers

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
	tok := bearer(a.Token("ida", "free", ""))
	key := "7f0c1a52-4f1e-4a5e-9a53-0d2b7e1c9f10"
	asset := `{"name":"World","value":1000,"isin":"IE00B4L5Y983"}`
	first := a.Do("POST", "/api/v1/assets", asset, append(tok, "Idempotency-Key", key)...)
	if first.Status != 201 {
		t.Fatalf("first create: %d %s", first.Status, first.Raw)
	}
	again := b.Do("POST", "/api/v1/assets", asset, append(tok, "Idempotency-Key", key)...)
	if again.Status != 201 || string(again.Raw) != string(first.Raw) || again.Header["Idempotent-Replayed"] != "true" {
		t.Fatalf("retry on the other node: %d %q %s\nfirst %s", again.Status, again.Header["Idempotent-Replayed"], again.Raw, first.Raw)
	}
	if tag := first.Header["Etag"]; tag == "" || again.Header["Etag"] != tag {
		t.Fatalf("ETag of the create %q and of its replay %q", tag, again.Header["Etag"])
	}
	list := a.Do("GET", "/api/v1/assets", "", tok...)
	if n := len(list.Body["data"].([]any)); n != 1 {
		t.Fatalf("%d assets after a retried create", n)
	}
	// The same key with another body: refused, nothing stored.
	other := a.Do("POST", "/api/v1/assets", `{"name":"Bonds","value":5}`, append(tok, "Idempotency-Key", key)...)
	expectError(t, other, 409, errcode.Conflict)
	// Without a key, or with another, a create runs as always (here the
	// ISIN is taken: the answer is the usual conflict, which stored
	// nothing and is not kept: its retry runs again).
	expectError(t, a.Do("POST", "/api/v1/assets", asset, tok...), 409, errcode.Conflict)
	expectError(t, a.Do("POST", "/api/v1/assets", asset, append(tok, "Idempotency-Key", key+"-dup")...), 409, errcode.Conflict)
	if prev, err := db.Idempotent("ida", keyID(key+"-dup"), a.Clock(), idempotencyTTL); err != nil || prev != nil {
		t.Fatalf("a refusal was kept: %+v %v", prev, err)
	}
	// Another user's identical key is their own.
	mia := bearer(a.Token("mia", "free", ""))
	if r := b.Do("POST", "/api/v1/assets", asset, append(mia, "Idempotency-Key", key)...); r.Status != 201 || r.Header["Idempotent-Replayed"] != "" {
		t.Fatalf("another user's key: %d %s", r.Status, r.Raw)
	}
	// A malformed key names the header.
	r := a.Do("POST", "/api/v1/assets", asset, append(tok, "Idempotency-Key", "short")...)
	expectError(t, r, 400, errcode.Validation)
	if !strings.Contains(string(r.Raw), `"path":"Idempotency-Key"`) {
		t.Fatalf("details: %s", r.Raw)
	}

	// An API key's creation answer holds the key, shown once: a retry
	// shows the same key again, and the store keeps it only sealed.
	sess := bearer(a.Token("kim", "free", ""))
	k1 := a.Do("POST", "/api/v1/user/api-keys", `{"name":"laptop"}`, append(sess, "Idempotency-Key", key+"-k")...)
	k2 := b.Do("POST", "/api/v1/user/api-keys", `{"name":"laptop"}`, append(sess, "Idempotency-Key", key+"-k")...)
	if k1.Status != 201 || string(k1.Raw) != string(k2.Raw) {
		t.Fatalf("key create retried: %d %s / %d %s", k1.Status, k1.Raw, k2.Status, k2.Raw)
	}
	plain := k1.Data()["key"].(string)
	if exp, err := db.Export("kim"); err != nil || len(exp.Keys) != 1 {
		t.Fatalf("keys stored: %v %v", exp.Keys, err)
	}
	// What the store holds under the key (by its hash) is sealed.
	kept, err := db.Idempotent("kim", keyID(key+"-k"), a.Clock(), idempotencyTTL)
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

func keyID(k string) string {
	sum := sha256.Sum256([]byte(k))
	return hex.EncodeToString(sum[:])
}

// Racing requests under one key, on two nodes: every one answers the
// create's answer (one ran it, the others replay it); exactly one record
// is stored.
func TestIdempotentRace(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		db, err := store.Open(filepath.Join(t.TempDir(), "shared.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		idempotentRace(t, db)
	})
	t.Run("postgres", func(t *testing.T) { idempotentRace(t, pgStore(t)) })
}

func idempotentRace(t *testing.T, db store.Store) {
	a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
	tok := bearer(a.Token("racer", "free", ""))
	const n = 8
	var wg sync.WaitGroup
	answers := make([]*resp, n)
	for i := range n {
		h := a
		if i%2 == 1 {
			h = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = h.Do("POST", "/api/v1/plans", `{"name":"Raced","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, append(tok, "Idempotency-Key", "race-key-0001")...)
		}()
	}
	wg.Wait()
	ran := 0
	for _, r := range answers {
		if r.Status != 201 || string(r.Raw) != string(answers[0].Raw) {
			t.Fatalf("answer %d %s, another %s", r.Status, r.Raw, answers[0].Raw)
		}
		if r.Header["Idempotent-Replayed"] == "" {
			ran++
		}
	}
	if ran != 1 {
		t.Fatalf("%d requests ran the create", ran)
	}
	list := a.Do("GET", "/api/v1/plans", "", tok...)
	if n := len(list.Body["data"].([]any)); n != 1 {
		t.Fatalf("%d plans stored by racing retries", n)
	}
}

// hangingCreate is a store whose asset creates never commit: they wait,
// as a node killed in the middle of one would, until released, then fail.
type hangingCreate struct {
	store.Store
	entered, release chan struct{}
}

func (h *hangingCreate) CreateAsset(string, store.AssetMeta, []byte, int, *store.Keep) error {
	close(h.entered)
	<-h.release
	return errors.New("the node died before its transaction committed")
}

// A node that dies in the middle of a create leaves nothing behind under
// the key: its client's retry, on another node, runs at once (it used to
// answer 409 "still running" for a day), and a later retry replays it.
func TestIdempotentKeyNotStuckByADeadNode(t *testing.T) {
	db := pgStore(t)
	dying := &hangingCreate{Store: db, entered: make(chan struct{}), release: make(chan struct{})}
	a, b := newHarness(t, withDB(dying)), newHarness(t, withDB(db))
	tok := append(bearer(a.Token("kay", "free", "")), "Idempotency-Key", "dies-midway-0001")
	asset := `{"name":"World","value":1000}`
	lost := make(chan *resp, 1)
	go func() { lost <- a.Do("POST", "/api/v1/assets", asset, tok...) }()
	<-dying.entered
	retry := b.Do("POST", "/api/v1/assets", asset, tok...)
	if retry.Status != 201 || retry.Header["Idempotent-Replayed"] != "" {
		t.Fatalf("the retry while the first node hangs: %d %s", retry.Status, retry.Raw)
	}
	close(dying.release)
	if r := <-lost; r.Status != 500 {
		t.Fatalf("the dead node's answer: %d %s", r.Status, r.Raw)
	}
	again := b.Do("POST", "/api/v1/assets", asset, tok...)
	if again.Status != 201 || string(again.Raw) != string(retry.Raw) || again.Header["Idempotent-Replayed"] != "true" {
		t.Fatalf("a later retry: %d %s", again.Status, again.Raw)
	}
	if n := len(b.Do("GET", "/api/v1/assets", "", tok[:2]...).Body["data"].([]any)); n != 1 {
		t.Fatalf("%d assets", n)
	}
}

// A create with an Idempotency-Key costs at most four database round
// trips on PostgreSQL, counted by the store's tracer once each statement
// has been prepared on the pool's one connection: the key's read, the
// settings' read when the asset names no currency, and the create's one
// pipeline with its kept answer, beside what authentication reads. The
// plans are another user's: an asset write of a user with saved plans
// also judges the assets against them in a transaction of its own (16
// round trips with two plans off track).
func TestIdempotentCreateRoundTrips(t *testing.T) {
	db := pg(t, "&pool_max_conns=1")
	h := newHarness(t, withDB(db))
	tok := bearer(h.Token("trips", "free", ""))
	planner := bearer(h.Token("trips-plans", "free", ""))
	creates := []struct{ path, body string }{
		{"/api/v1/assets", `{"name":"World","value":1000}`},
		{"/api/v1/plans", `{"name":"Plan","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`},
		{"/api/v1/user/api-keys", `{"name":"laptop"}`},
	}
	for i := range 2 { // the first round prepares the statements
		for j, c := range creates {
			who := tok
			if c.path == "/api/v1/plans" {
				who = planner
			}
			// The sign-out mirror polls on the same connection every
			// MirrorEvery: a poll that falls inside the request is the
			// mirror's round trip, not the create's.
			before, lag, start := db.RoundTrips(), h.S.marks.Lag(), time.Now()
			r := h.Do("POST", c.path, c.body, append(who, "Idempotency-Key", fmt.Sprintf("round-trips-%d-%d", i, j))...)
			n := db.RoundTrips() - before
			polls := int64((lag + time.Since(start) + 10*time.Millisecond) / store.MirrorEvery)
			if r.Status != 201 {
				t.Fatalf("%s: %d %s", c.path, r.Status, r.Raw)
			}
			if i == 1 {
				t.Logf("%s with an Idempotency-Key: %d round trips (%d polls of the mirror may fall inside)", c.path, n, polls)
				if n > 4+polls {
					t.Errorf("%s with an Idempotency-Key: %d round trips, want at most 4 (and %d polls of the mirror)", c.path, n, polls)
				}
			}
		}
	}
}
