package handlers

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/data/store/postgres/pgtest"
	"fiplan/handlers/errcode"
)

const signoutCalc = `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000}`

// downStore is a store that stops answering when down is set; its
// sign-out marks never reach a mirror.
type downStore struct {
	store.Store
	down atomic.Bool
}

var errStoreDown = errors.New("cannot reach db: connection refused")

func (d *downStore) MarksAfter(after int64, _ func(string, time.Time)) (int64, error) {
	return after, errStoreDown
}

func (d *downStore) Revoked(id string, now time.Time) (bool, error) {
	if d.down.Load() {
		return false, errStoreDown
	}
	return d.Store.Revoked(id, now)
}

func (d *downStore) SaveTier(user, tier string, issued time.Time) error {
	if d.down.Load() {
		return errStoreDown
	}
	return d.Store.SaveTier(user, tier, issued)
}

func (d *downStore) AppendAssets(dst []byte, user string, category, offset, limit int) ([]byte, int, error) {
	if d.down.Load() {
		return dst, 0, errStoreDown
	}
	return d.Store.AppendAssets(dst, user, category, offset, limit)
}

// With the store down, a signed-in caller keeps the routes that need no
// database (the calculator answers 200 to the session token as it does
// anonymously), a route that needs it fails as a storage error, and a
// session this node signed out stays refused.
func TestSignedInThroughOutage(t *testing.T) {
	h := newHarness(t)
	ds := &downStore{Store: h.db}
	h = newHarness(t, withDB(ds))
	tok, gone := h.token("alice", "free", ""), h.token("bob", "free", "")
	p, err := h.s.verifier.Verify([]byte(gone))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.db.Revoke(p.Session, h.clock().Add(time.Hour), h.clock()); err != nil {
		t.Fatal(err)
	}
	ds.down.Store(true)
	if r := h.do("POST", "/api/v1/calculator", signoutCalc); r.status != 200 {
		t.Fatalf("anonymous calculator with the store down: %d %s", r.status, r.raw)
	}
	if r := h.do("POST", "/api/v1/calculator", signoutCalc, bearer(tok)...); r.status != 200 {
		t.Fatalf("signed-in calculator with the store down: %d %s", r.status, r.raw)
	}
	expectError(t, h.do("POST", "/api/v1/calculator", signoutCalc, bearer(gone)...), 401, errcode.Unauthorized)
	expectError(t, h.do("GET", "/api/v1/assets", "", bearer(tok)...), 500, errcode.Database)
	// The web app's cookie is the same door.
	cookie := func(tk string) []string {
		return []string{"Cookie", SessionCookie + "=" + tk, "Origin", "https://fiplan.test"}
	}
	if r := h.do("POST", "/api/v1/calculator", signoutCalc, cookie(tok)...); r.status != 200 {
		t.Fatalf("calculator by session cookie with the store down: %d %s", r.status, r.raw)
	}
	expectError(t, h.do("POST", "/api/v1/calculator", signoutCalc, cookie(gone)...), 401, errcode.Unauthorized)
	expectError(t, h.do("GET", "/api/v1/assets", "", cookie(tok)...), 500, errcode.Database)
	ds.down.Store(false)
	if r := h.do("GET", "/api/v1/assets", "", bearer(tok)...); r.status != 200 {
		t.Fatalf("assets once the store answers: %d %s", r.status, r.raw)
	}
}

// Two nodes on one store: a session signed out on one is refused there
// from the next request, and on the other within a second, read from its
// own mirror of the marks (no store read per request).
func TestSignOutReachesOtherNodes(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "shared.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
	tok := a.token("alice", "free", "")
	for _, h := range []*harness{a, b} {
		if r := h.do("GET", "/api/v1/assets", "", bearer(tok)...); r.status != 200 {
			t.Fatalf("before the sign-out: %d %s", r.status, r.raw)
		}
	}
	p, err := a.s.verifier.Verify([]byte(tok))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.s.db.Revoke(p.Session, a.clock().Add(time.Hour), a.clock()); err != nil {
		t.Fatal(err)
	}
	expectError(t, a.do("GET", "/api/v1/assets", "", bearer(tok)...), 401, errcode.Unauthorized)
	refusedWithin(t, b, bearer(tok)...)
	if !b.s.marks.Known(p.Session, b.clock()) {
		t.Fatal("the other node refused the session without its mirror holding the mark")
	}
	if lag := b.s.marks.Lag(); lag > store.MirrorStale {
		t.Fatalf("mirror lag %s", lag)
	}
}

// refusedWithin waits until h refuses the credential in headers (401),
// failing if it still serves it past twice the mirror's staleness bound.
func refusedWithin(t *testing.T, h *harness, headers ...string) {
	t.Helper()
	start := time.Now()
	for h.do("GET", "/api/v1/user/profile", "", headers...).status != 401 {
		if time.Since(start) > 2*store.MirrorStale {
			t.Fatal("the other node still serves the session two seconds after its sign-out")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An authenticated read on PostgreSQL is one round trip: the session's
// sign-out check reads the node's mirror, and the tier is saved once per
// token. Counted by the store's tracer on a pool of one connection; the
// mirror's own polls (one query every quarter second) may fall inside a
// request, so the fewest of five requests is the request's own count.
func TestAuthenticatedReadRoundTrips(t *testing.T) {
	db, err := postgres.Open(context.Background(), pgtest.Schema(t, "fiplan_handlers_")+"&pool_max_conns=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	h := newHarness(t, withDB(db))
	tok := bearer(h.token("trips", "free", ""))
	for h.s.marks.Lag() > store.MirrorStale {
		time.Sleep(10 * time.Millisecond)
	}
	fewest := int64(1 << 30)
	for range 6 { // the first prepares the statement and saves the tier
		before := db.RoundTrips()
		if r := h.do("GET", "/api/v1/assets", "", tok...); r.status != 200 {
			t.Fatalf("GET /assets: %d %s", r.status, r.raw)
		}
		fewest = min(fewest, db.RoundTrips()-before)
	}
	if fewest != 1 {
		t.Fatalf("GET /assets with a session token: %d round trips, want 1", fewest)
	}
}

// Every session read on PostgreSQL is one round trip, not only the
// fewest: forty reads with a session token make at most one round trip
// each, plus the mirror's own polls that fall among them (one every
// quarter second). A sign-out check that read the store would double it.
// An API key is looked up in the store on every request, so that a
// revoked key fails at once on every node: its reads are two round trips
// each, and no more.
func TestAuthenticatedReadsTakeOneRoundTripEach(t *testing.T) {
	// One connection, which the mirror's polls keep from idling a second
	// (the pool pings a connection idle that long: a round trip too).
	db, err := postgres.Open(context.Background(), pgtest.Schema(t, "fiplan_handlers_")+"&pool_max_conns=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	h := newHarness(t, withDB(db))
	key, _ := h.apiKey("trips-key", "free")
	for _, tc := range []struct {
		name  string
		auth  []string
		trips int64 // a read's own
	}{{"session", bearer(h.token("trips", "free", "")), 1}, {"API key", bearer(key), 2}} {
		for h.s.marks.Lag() > store.MirrorStale {
			time.Sleep(10 * time.Millisecond)
		}
		// The first read prepares the statement and saves the tier.
		if r := h.do("GET", "/api/v1/assets", "", tc.auth...); r.status != 200 {
			t.Fatalf("%s: GET /assets: %d %s", tc.name, r.status, r.raw)
		}
		const reads = 40
		before, lag, start := db.RoundTrips(), h.s.marks.Lag(), time.Now()
		for range reads {
			if r := h.do("GET", "/api/v1/assets", "", tc.auth...); r.status != 200 {
				t.Fatalf("%s: GET /assets: %d %s", tc.name, r.status, r.raw)
			}
		}
		polls := int64((lag + time.Since(start) + 10*time.Millisecond) / store.MirrorEvery)
		trips := db.RoundTrips() - before
		t.Logf("%s: %d reads, %d round trips, %d polls of the mirror among them at most", tc.name, reads, trips, polls)
		if trips > tc.trips*reads+polls {
			t.Errorf("%s: %d reads took %d round trips, want at most %d each (and %d polls of the mirror)", tc.name, reads, trips, tc.trips, polls)
		}
	}
}

// /mcp judges a session token as the API does: with the store failing,
// or its circuit breaker open, a signed-in client opens a session and
// calls a tool that needs no database, a tool that needs it answers the
// store's error, and a session this node signed out stays refused.
func TestMCPSignedInThroughOutage(t *testing.T) {
	t.Run("store fails", func(t *testing.T) {
		h := newHarness(t)
		ds := &downStore{Store: h.db}
		h = newHarness(t, withDB(ds), withMCP(false))
		mcpThroughOutage(t, h, func() { ds.down.Store(true) }, errcode.Database)
	})
	t.Run("breaker open", func(t *testing.T) {
		db, err := store.Open(filepath.Join(t.TempDir(), "hang.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		// The mirror never reads the marks, so session checks go to the
		// store, which the open breaker refuses at once.
		hs := &hangingStore{Store: db}
		h := newHarness(t, withDB(&downStore{Store: hs}), withMCP(false), func(c *Config) { c.breakerOpen = 20 * time.Millisecond })
		mcpThroughOutage(t, h, func() {
			hs.down.Store(true)
			expectError(t, h.do("GET", "/readyz", ""), 503, errcode.Unavailable)
		}, errcode.Unavailable)
	})
}

func mcpThroughOutage(t *testing.T, h *harness, down func(), code string) {
	tok, gone := h.token("alice", "free", ""), h.token("bob", "free", "")
	p, err := h.s.verifier.Verify([]byte(gone))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.db.Revoke(p.Session, h.clock().Add(time.Hour), h.clock()); err != nil {
		t.Fatal(err)
	}
	down()
	res := rawMCP(t, h.httpClient("Bearer "+tok), "POST", "", initialize)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("initialize with a session token in the outage: %d", res.StatusCode)
	}
	cs, err := h.mcpSession("Bearer " + tok)
	if err != nil {
		t.Fatalf("connecting with a session token in the outage: %v", err)
	}
	defer cs.Close()
	if r := call(t, cs, "fi_calculate", signoutCalc); r.IsError {
		t.Fatalf("fi_calculate in the outage: %s", text(r))
	}
	if r := call(t, cs, "list_my_assets", `{}`); !r.IsError || !strings.HasPrefix(text(r), code+":") {
		t.Fatalf("list_my_assets in the outage: %v %s", r.IsError, text(r))
	}
	res = rawMCP(t, h.httpClient("Bearer "+gone), "POST", "", initialize)
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("initialize with a signed-out session in the outage: %d", res.StatusCode)
	}
}
