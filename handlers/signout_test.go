package handlers

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/errcode"
	testharness "fiplan/handlers/internal/harness"
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
	h, ds, tok, gone := outageWithSignOut(t)
	if r := h.Do("POST", "/api/v1/calculator", signoutCalc); r.Status != 200 {
		t.Fatalf("anonymous calculator with the store down: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("POST", "/api/v1/calculator", signoutCalc, bearer(tok)...); r.Status != 200 {
		t.Fatalf("signed-in calculator with the store down: %d %s", r.Status, r.Raw)
	}
	expectError(t, h.Do("POST", "/api/v1/calculator", signoutCalc, bearer(gone)...), 401, errcode.Unauthorized)
	expectError(t, h.Do("GET", "/api/v1/assets", "", bearer(tok)...), 500, errcode.Database)
	// The web app's cookie is the same door.
	cookie := func(tk string) []string {
		return []string{"Cookie", SessionCookie + "=" + tk, "Origin", "https://fiplan.test"}
	}
	if r := h.Do("POST", "/api/v1/calculator", signoutCalc, cookie(tok)...); r.Status != 200 {
		t.Fatalf("calculator by session cookie with the store down: %d %s", r.Status, r.Raw)
	}
	expectError(t, h.Do("POST", "/api/v1/calculator", signoutCalc, cookie(gone)...), 401, errcode.Unauthorized)
	expectError(t, h.Do("GET", "/api/v1/assets", "", cookie(tok)...), 500, errcode.Database)
	ds.down.Store(false)
	if r := h.Do("GET", "/api/v1/assets", "", bearer(tok)...); r.Status != 200 {
		t.Fatalf("assets once the store answers: %d %s", r.Status, r.Raw)
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
	tok := a.Token("alice", "free", "")
	for _, h := range []*harness{a, b} {
		if r := h.Do("GET", "/api/v1/assets", "", bearer(tok)...); r.Status != 200 {
			t.Fatalf("before the sign-out: %d %s", r.Status, r.Raw)
		}
	}
	p, err := a.S.verifier.Verify([]byte(tok))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.S.db.Revoke(p.Session, a.Clock().Add(time.Hour), a.Clock()); err != nil {
		t.Fatal(err)
	}
	expectError(t, a.Do("GET", "/api/v1/assets", "", bearer(tok)...), 401, errcode.Unauthorized)
	refusedWithin(t, b, bearer(tok)...)
	if !b.S.marks.Known(p.Session, b.Clock()) {
		t.Fatal("the other node refused the session without its mirror holding the mark")
	}
	if lag := b.S.marks.Lag(); lag > store.MirrorStale {
		t.Fatalf("mirror lag %s", lag)
	}
}

// refusedWithin waits until h refuses the credential in headers (401),
// failing if it still serves it past twice the mirror's staleness bound.
func refusedWithin(t *testing.T, h *harness, headers ...string) {
	t.Helper()
	start := time.Now()
	for h.Do("GET", "/api/v1/user/profile", "", headers...).Status != 401 {
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
	db := pg(t, "&pool_max_conns=1")
	h := newHarness(t, withDB(db))
	tok := bearer(h.Token("trips", "free", ""))
	for h.S.marks.Lag() > store.MirrorStale {
		time.Sleep(10 * time.Millisecond)
	}
	fewest := int64(1 << 30)
	for range 6 { // the first prepares the statement and saves the tier
		before := db.RoundTrips()
		if r := h.Do("GET", "/api/v1/assets", "", tok...); r.Status != 200 {
			t.Fatalf("GET /assets: %d %s", r.Status, r.Raw)
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
// An API key is read from the mirror's cache of keys once found, so its
// reads are one round trip each too.
func TestAuthenticatedReadsTakeOneRoundTripEach(t *testing.T) {
	// One connection, which the mirror's polls keep from idling a second
	// (the pool pings a connection idle that long: a round trip too).
	db := pg(t, "&pool_max_conns=1")
	h := newHarness(t, withDB(db))
	key, _ := h.APIKey("trips-key", "free")
	for _, tc := range []struct {
		name  string
		auth  []string
		trips int64 // a read's own
	}{{"session", bearer(h.Token("trips", "free", "")), 1}, {"API key", bearer(key), 1}} {
		for h.S.marks.Lag() > store.MirrorStale {
			time.Sleep(10 * time.Millisecond)
		}
		// The first read prepares the statement and saves the tier.
		if r := h.Do("GET", "/api/v1/assets", "", tc.auth...); r.Status != 200 {
			t.Fatalf("%s: GET /assets: %d %s", tc.name, r.Status, r.Raw)
		}
		const reads = 40
		before, lag, start := db.RoundTrips(), h.S.marks.Lag(), time.Now()
		for range reads {
			if r := h.Do("GET", "/api/v1/assets", "", tc.auth...); r.Status != 200 {
				t.Fatalf("%s: GET /assets: %d %s", tc.name, r.Status, r.Raw)
			}
		}
		// The mirror's ticker keeps its schedule: a poll that ran late (a
		// loaded machine) is followed by the next on time, sooner than its
		// period after it, so one more may fall in the window than its
		// length since the last poll gives.
		polls := int64((lag+time.Since(start)+10*time.Millisecond)/store.MirrorEvery) + 1
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
		ds := &downStore{Store: h.DB}
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
			expectError(t, h.Do("GET", "/readyz", ""), 503, errcode.Unavailable)
		}, errcode.Unavailable)
	})
}

func mcpThroughOutage(t *testing.T, h *harness, down func(), code string) {
	tok, gone := h.Token("alice", "free", ""), h.Token("bob", "free", "")
	p, err := h.S.verifier.Verify([]byte(gone))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.S.db.Revoke(p.Session, h.Clock().Add(time.Hour), h.Clock()); err != nil {
		t.Fatal(err)
	}
	down()
	res := testharness.RawMCP(t, h.HTTPClient("Bearer "+tok), "POST", "", testharness.Initialize)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("initialize with a session token in the outage: %d", res.StatusCode)
	}
	cs, err := h.MCPSession("Bearer " + tok)
	if err != nil {
		t.Fatalf("connecting with a session token in the outage: %v", err)
	}
	defer cs.Close()
	if r := testharness.Call(t, cs, "fi_calculate", signoutCalc); r.IsError {
		t.Fatalf("fi_calculate in the outage: %s", testharness.Text(r))
	}
	if r := testharness.Call(t, cs, "list_my_assets", `{}`); !r.IsError || !strings.HasPrefix(testharness.Text(r), code+":") {
		t.Fatalf("list_my_assets in the outage: %v %s", r.IsError, testharness.Text(r))
	}
	res = testharness.RawMCP(t, h.HTTPClient("Bearer "+gone), "POST", "", testharness.Initialize)
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("initialize with a signed-out session in the outage: %d", res.StatusCode)
	}
}

// The web app's GET /auth/session judges its cookie by the API's one
// session check: with the store failing, a signed-in visitor still shows
// as signed in (as the calculator serves the same cookie), and a session
// this node signed out shows as signed out.
func TestWebSessionThroughOutage(t *testing.T) {
	h, _, tok, gone := outageWithSignOut(t, withWeb(t))
	for _, tc := range []struct {
		tok  string
		want bool
	}{{tok, true}, {gone, false}} {
		res := h.Send("GET", "/auth/session", "", "Cookie", SessionCookie+"="+tc.tok)
		var si struct {
			SignedIn bool   `json:"signedIn"`
			User     string `json:"user"`
		}
		if err := json.Unmarshal(res.Raw, &si); err != nil || res.Status != 200 {
			t.Fatalf("GET /auth/session in the outage: %d %s", res.Status, res.Raw)
		}
		if si.SignedIn != tc.want {
			t.Errorf("GET /auth/session in the outage for %s: signedIn %v, want %v", si.User, si.SignedIn, tc.want)
		}
	}
}

// outageWithSignOut is a harness whose store (ds) fails every call, with
// alice's session (tok) alive and bob's (gone) signed out by this node
// before the outage began.
func outageWithSignOut(t *testing.T, opts ...option) (h *harness, ds *downStore, tok, gone string) {
	t.Helper()
	h = newHarness(t)
	ds = &downStore{Store: h.DB}
	h = newHarness(t, append([]option{withDB(ds)}, opts...)...)
	tok, gone = h.Token("alice", "free", ""), h.Token("bob", "free", "")
	p, err := h.S.verifier.Verify([]byte(gone))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.S.db.Revoke(p.Session, h.Clock().Add(time.Hour), h.Clock()); err != nil {
		t.Fatal(err)
	}
	ds.down.Store(true)
	return h, ds, tok, gone
}
