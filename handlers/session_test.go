package handlers

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/data/store/postgres/pgtest"
	"fiplan/handlers/auth"
	"fiplan/handlers/web"
)

// pgStore opens a store in a fresh schema of FI_TEST_POSTGRES, dropped
// when the test ends; without FI_TEST_POSTGRES the test is skipped.
func pgStore(t *testing.T) store.Store {
	t.Helper()
	db, err := postgres.Open(context.Background(), pgtest.Schema(t, "fiplan_handlers_"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestKeyTierFollowsDowngradeOnEveryNode: two servers on one PostgreSQL
// store. The tier a key acts with is the one of the user's most recently
// issued session token, whichever node saw it: at once on that node, on
// the other within about a second (its cached key is read again once its
// mirror has the tier's mark); an older token still in use does not bring
// the old tier back.
func TestKeyTierFollowsDowngradeOnEveryNode(t *testing.T) {
	db := pgStore(t)
	a, b := newHarness(t, withDB(db)), newHarness(t, withDB(db))
	sign := func(h *harness, tier string) string {
		h.Advance(time.Second) // one issue time per token
		return h.Token("dave", tier, "")
	}
	ok := func(h *harness, tok string) {
		t.Helper()
		if r := h.Do("GET", "/api/v1/user/profile", "", bearer(tok)...); r.Status != 200 {
			t.Fatalf("profile: %d %s", r.Status, r.Raw)
		}
	}
	keyLimit := func(h *harness, key string) string {
		t.Helper()
		r := h.Do("GET", "/api/v1/user/profile", "", bearer(key)...)
		if r.Status != 200 {
			t.Fatalf("profile with key: %d %s", r.Status, r.Raw)
		}
		return r.Header["Ratelimit-Limit"]
	}
	optimize := func(h *harness, key string) string {
		t.Helper()
		return h.Do("POST", "/api/v1/tax/optimize", `{}`, bearer(key)...).Code()
	}
	// within waits for the key's limit on h to become want, for at most
	// twice the mirror's staleness bound.
	within := func(h *harness, key, want string) string {
		t.Helper()
		start := time.Now()
		for {
			got := keyLimit(h, key)
			if got == want || time.Since(start) > 2*store.MirrorStale {
				return got
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	ok(a, sign(a, "free"))
	b.Advance(time.Second)
	pro := sign(b, "pro")
	ok(b, pro)
	key, _ := b.Do("POST", "/api/v1/user/api-keys", `{"name":"ci"}`, bearer(pro)...).Data()["key"].(string)
	if key == "" {
		t.Fatal("no key")
	}
	if got := keyLimit(a, key); got != "6000" || optimize(a, key) == "SUBSCRIPTION_REQUIRED" {
		t.Fatalf("key of a pro user on the other node: limit %s", got)
	}

	// The downgrade: node a sees a newer token with tier free. Node a
	// saw free before, which it must not take for the stored tier.
	a.Advance(3 * time.Second)
	ok(a, sign(a, "free"))
	if got := keyLimit(a, key); got != "600" {
		t.Fatalf("after the downgrade, the key acts as pro on the node that saw it (limit %s)", got)
	}
	for _, h := range []*harness{a, b} {
		if got := within(h, key, "600"); got != "600" || optimize(h, key) != "SUBSCRIPTION_REQUIRED" {
			t.Fatalf("after the downgrade, the key acts as pro (limit %s)", got)
		}
	}
	// The older pro token, still valid, shown to a node that has not seen it.
	ok(a, pro)
	if got := keyLimit(b, key); got != "600" || optimize(b, key) != "SUBSCRIPTION_REQUIRED" {
		t.Fatalf("an older pro token brought the pro tier back (limit %s)", got)
	}
	// An upgrade is as immediate.
	b.Advance(10 * time.Second)
	ok(b, sign(b, "pro"))
	if got := keyLimit(b, key); got != "6000" {
		t.Fatalf("after the upgrade, the key's limit on the node that saw it is %s", got)
	}
	if got := within(a, key, "6000"); got != "6000" {
		t.Fatalf("after the upgrade, the key's limit is %s", got)
	}
}

// TestRevokedSessionRefused: a session token whose session the store
// holds as revoked is refused at once, whatever the token cache holds;
// other sessions of the user are not.
func TestRevokedSessionRefused(t *testing.T) {
	h := newHarness(t)
	tok, other := h.Token("erin", "free", ""), ""
	h.Advance(time.Second)
	other = h.Token("erin", "free", "")
	for _, tk := range []string{tok, other} {
		if r := h.Do("GET", "/api/v1/user/profile", "", bearer(tk)...); r.Status != 200 {
			t.Fatalf("before revocation: %d %s", r.Status, r.Raw)
		}
	}
	p, err := h.S.verifier.Verify([]byte(tok))
	if err != nil {
		t.Fatal(err)
	}
	if p.Session != auth.TokenID(tok) {
		t.Fatalf("a token without sid is named %q", p.Session)
	}
	if _, err := h.S.db.Revoke(p.Session, time.Unix(p.Expires, 0), h.Clock()); err != nil {
		t.Fatal(err)
	}
	r := h.Do("GET", "/api/v1/user/profile", "", bearer(tok)...)
	expectError(t, r, 401, "UNAUTHORIZED")
	r = h.Do("GET", "/api/v1/user/profile", "", "Cookie", SessionCookie+"="+tok)
	expectError(t, r, 401, "UNAUTHORIZED")
	if _, err := h.S.Credential([]byte(tok)); err == nil {
		t.Fatal("Credential (MCP) accepts a revoked session")
	}
	if r := h.Do("GET", "/api/v1/user/profile", "", bearer(other)...); r.Status != 200 {
		t.Fatalf("another session of the user: %d %s", r.Status, r.Raw)
	}

	// A token carrying a sid is named by it: revoking the sid ends every
	// token of that sign-in.
	sign := func() string {
		h.Advance(time.Second)
		s, err := auth.Sign(testSecret, auth.Claims{Sub: "erin", Sid: "sign-in-1"}, h.Clock())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s1, s2 := sign(), sign()
	if r := h.Do("GET", "/api/v1/user/profile", "", bearer(s2)...); r.Status != 200 {
		t.Fatalf("before revocation: %d %s", r.Status, r.Raw)
	}
	if _, err := h.S.db.Revoke(auth.SessionID("sign-in-1"), h.Clock().Add(time.Hour), h.Clock()); err != nil {
		t.Fatal(err)
	}
	for _, tk := range []string{s1, s2} {
		expectError(t, h.Do("GET", "/api/v1/user/profile", "", bearer(tk)...), 401, "UNAUTHORIZED")
	}
}

// withWeb serves the web app in local mode beside the API, signing with
// the harness's secret and sharing its store and clock.
func withWeb(t *testing.T) option {
	return func(c *Config) {
		// One mirror of the sign-out marks for the app and the API, as
		// cmd/fiplan builds them.
		marks := store.NewMirror(c.DB, c.Now)
		t.Cleanup(marks.Stop)
		c.DB = marks
		// The app's session check is the server's, bound once it is built.
		var srv atomic.Pointer[Server]
		afterNew.Store(c, srv.Store)
		app, err := web.New(context.Background(), web.Config{
			PublicURL: "http://fiplan.test", LocalSecret: testSecret, Secrets: [][]byte{testSecret},
			Verifier: c.Verifier, Now: c.Now, Revocations: marks,
			Session: func(tok []byte) (auth.Principal, error) { return srv.Load().Session(tok) },
		})
		if err != nil {
			t.Fatal(err)
		}
		c.Web = app.Serve
	}
}

// raw sends one request and returns the whole response (the caller
// releases it); headers alternate name, value.
func (h *harness) raw(method, path, body string, headers ...string) *fasthttp.Response {
	h.T.Helper()
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	res := fasthttp.AcquireResponse()
	req.Header.SetMethod(method)
	req.SetRequestURI("http://fiplan.test" + path)
	req.SetBodyString(body)
	for i := 0; i+1 < len(headers); i += 2 {
		if strings.EqualFold(headers[i], "Cookie") {
			k, v, _ := strings.Cut(headers[i+1], "=")
			req.Header.SetCookie(k, v)
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	ip := h.IP
	c := &fasthttp.Client{Dial: func(string) (net.Conn, error) {
		return h.LN.DialWithLocalAddr(&net.TCPAddr{IP: net.ParseIP(ip), Port: 40000})
	}}
	if err := c.DoTimeout(req, res, 10*time.Second); err != nil {
		h.T.Fatalf("%s %s: %v", method, path, err)
	}
	return res
}

func setCookie(res *fasthttp.Response, name string) string {
	c := fasthttp.AcquireCookie()
	defer fasthttp.ReleaseCookie(c)
	c.SetKey(name)
	if !res.Header.Cookie(c) {
		return ""
	}
	return string(c.Value())
}

// TestLogoutEndsSessionOnEveryNode: two nodes on one store (bbolt, and
// PostgreSQL when there is one), each with the web app. After a sign-out
// on one, the session cookie, the same token as a bearer token and the
// refresh cookie fail there at once and on the other within a second.
func TestLogoutEndsSessionOnEveryNode(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		db, err := store.Open(filepath.Join(t.TempDir(), "shared.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		logoutOnEveryNode(t, db)
	})
	t.Run("postgres", func(t *testing.T) { logoutOnEveryNode(t, pgStore(t)) })
}

func logoutOnEveryNode(t *testing.T, db store.Store) {
	a, b := newHarness(t, withDB(db), withWeb(t)), newHarness(t, withDB(db), withWeb(t))
	origin := []string{"Origin", "http://fiplan.test"}
	res := a.raw("POST", "/auth/login", "name=frank&tier=pro", append(origin, "Content-Type", "application/x-www-form-urlencoded")...)
	sess, ref := setCookie(res, "fiplan_session"), setCookie(res, "fiplan_refresh")
	fasthttp.ReleaseResponse(res)
	if sess == "" || ref == "" {
		t.Fatal("sign-in set no cookies")
	}
	if r := b.Do("GET", "/api/v1/user/profile", "", "Cookie", SessionCookie+"="+sess); r.Status != 200 {
		t.Fatalf("the other node: %d %s", r.Status, r.Raw)
	}
	res = a.raw("POST", "/auth/logout", "", append(origin, "Cookie", SessionCookie+"="+sess, "Cookie", "fiplan_refresh="+ref)...)
	if res.StatusCode() != 303 || string(res.Header.Peek("Location")) != "/" {
		t.Fatalf("logout: %d, Location %q", res.StatusCode(), res.Header.Peek("Location"))
	}
	fasthttp.ReleaseResponse(res)
	expectError(t, a.Do("GET", "/api/v1/user/profile", "", "Cookie", SessionCookie+"="+sess), 401, "UNAUTHORIZED")
	refusedWithin(t, b, "Cookie", SessionCookie+"="+sess)
	expectError(t, b.Do("GET", "/api/v1/user/profile", "", "Cookie", SessionCookie+"="+sess), 401, "UNAUTHORIZED")
	expectError(t, b.Do("GET", "/api/v1/user/profile", "", bearer(sess)...), 401, "UNAUTHORIZED")
	res = b.raw("POST", "/auth/refresh", "", append(origin, "Cookie", "fiplan_refresh="+ref)...)
	if res.StatusCode() != 401 {
		t.Fatalf("refresh after logout: %d %s", res.StatusCode(), res.Body())
	}
	fasthttp.ReleaseResponse(res)
}

// TestSignInRoutesRateLimited: /auth/* counts against the public limit
// per client address, and past it answers the API's 429 envelope.
func TestSignInRoutesRateLimited(t *testing.T) {
	h := newHarness(t, withRates("3/1m", "600/1m", "6000/1m"), withWeb(t))
	for i := range 3 {
		res := h.raw("GET", "/auth/session", "")
		if res.StatusCode() != 200 {
			t.Fatalf("request %d: %d", i, res.StatusCode())
		}
		fasthttp.ReleaseResponse(res)
	}
	for _, p := range []string{"/auth/session", "/auth/login", "/auth/callback?state=x&code=y", "/auth/refresh", "/auth/logout"} {
		method := "GET"
		if p == "/auth/refresh" || p == "/auth/logout" {
			method = "POST"
		}
		r := h.Do(method, p, "")
		expectError(t, r, 429, "RATE_LIMITED")
		if r.Header["Retry-After"] == "" || r.Body["retryAfter"] == nil {
			t.Fatalf("%s: no Retry-After: %v", p, r.Header)
		}
	}
	// Another address has its own allowance; pages are not counted.
	h.IP = "192.0.2.77"
	if res := h.raw("GET", "/auth/session", ""); res.StatusCode() != 200 {
		t.Fatalf("another address: %d", res.StatusCode())
	}
	h.IP = "192.0.2.1"
	res := h.raw("GET", "/", "")
	if res.StatusCode() != 200 {
		t.Fatalf("a page past the sign-in limit: %d", res.StatusCode())
	}
	fasthttp.ReleaseResponse(res)
}
