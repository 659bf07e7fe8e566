package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/oauth2"

	"fiplan/handlers/auth"
)

// pair is two nodes of one deployment: the same secrets, one store.
func pair(t *testing.T, public string) (*fixture, *fixture) {
	t.Helper()
	db := testStore(t)
	clk := &clock{}
	mk := func() *fixture {
		v, err := auth.NewVerifier(auth.Config{Secret: testSecret, CacheSize: 100, Now: clk.now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(v.Close)
		h, err := New(context.Background(), Config{PublicURL: public, Secrets: [][]byte{testSecret}, Verifier: v, Now: clk.now,
			LocalSecret: testSecret, Revocations: db, Session: sessionCheck(v, db, clk.now)})
		if err != nil {
			t.Fatal(err)
		}
		return &fixture{h: h, v: v, clk: clk}
	}
	return mk(), mk()
}

func sessionOf(t *testing.T, f *fixture, cookies map[string]string) sessionInfo {
	t.Helper()
	var si sessionInfo
	if err := json.Unmarshal(f.do(req{path: "/auth/session", cookies: cookies}).Body(), &si); err != nil {
		t.Fatal(err)
	}
	return si
}

// TestLogoutEndsSessionOnEveryNode: after a logout on one node, neither
// the session token (nor an earlier token of the same sign-in) nor the
// refresh cookie works on the other.
func TestLogoutEndsSessionOnEveryNode(t *testing.T) {
	a, b := pair(t, "")
	sess, ref := a.signIn(t, "alice", "pro")
	origin := "http://" + host
	cookies := map[string]string{SessionCookie: sess, RefreshCookie: ref}
	if si := sessionOf(t, b, cookies); !si.SignedIn {
		t.Fatalf("the other node does not see the session: %+v", si)
	}
	// A refresh on the other node: a new token of the same sign-in.
	a.clk.add(time.Second)
	r := b.do(req{method: "POST", path: "/auth/refresh", origin: origin, cookies: cookies})
	if r.StatusCode() != 200 {
		t.Fatalf("refresh: %d %s", r.StatusCode(), r.Body())
	}
	sess2, ref2 := string(cookie(r, SessionCookie).Value()), string(cookie(r, RefreshCookie).Value())
	p1, err1 := a.v.Verify([]byte(sess))
	p2, err2 := a.v.Verify([]byte(sess2))
	if err1 != nil || err2 != nil || sess2 == sess || p1.Session != p2.Session {
		t.Fatalf("the refreshed token is not of the same sign-in: %v %v %q %q", err1, err2, p1.Session, p2.Session)
	}

	r = a.do(req{method: "POST", path: "/auth/logout", origin: origin, cookies: map[string]string{SessionCookie: sess2, RefreshCookie: ref2}})
	if r.StatusCode() != fasthttp.StatusSeeOther || !deleted(cookie(r, SessionCookie)) || !deleted(cookie(r, RefreshCookie)) {
		t.Fatalf("logout: %d %s", r.StatusCode(), r.Header.String())
	}
	for _, tok := range []string{sess, sess2} {
		p, err := b.v.Verify([]byte(tok))
		if err != nil {
			t.Fatal(err) // the signature and times are still good: only the store knows
		}
		if revoked, err := b.h.revocations.Revoked(p.Session, b.clk.now()); err != nil || !revoked {
			t.Errorf("a token of the ended sign-in is not revoked: %v", err)
		}
		if si := sessionOf(t, b, map[string]string{SessionCookie: tok}); si.SignedIn {
			t.Errorf("the other node shows an ended session as signed in: %+v", si)
		}
	}
	// Both refresh cookies, replayed on either node, are refused.
	for _, f := range []*fixture{a, b} {
		for _, rf := range []string{ref, ref2} {
			r := f.do(req{method: "POST", path: "/auth/refresh", origin: origin, cookies: map[string]string{RefreshCookie: rf}})
			if r.StatusCode() != 401 || cookie(r, SessionCookie) != nil && !deleted(cookie(r, SessionCookie)) {
				t.Errorf("refresh after logout: %d %s", r.StatusCode(), r.Body())
			}
		}
	}
	// Another sign-in of the same person is not affected.
	other, otherRef := b.signIn(t, "alice", "pro")
	if si := sessionOf(t, a, map[string]string{SessionCookie: other}); !si.SignedIn {
		t.Errorf("a new sign-in is refused: %+v", si)
	}
	if r := a.do(req{method: "POST", path: "/auth/refresh", origin: origin, cookies: map[string]string{RefreshCookie: otherRef}}); r.StatusCode() != 200 {
		t.Errorf("refresh of a new sign-in: %d %s", r.StatusCode(), r.Body())
	}
}

// TestRefreshCookieWithoutSessionRefused: a refresh cookie sealed before
// sessions had ids cannot be revoked, so it no longer refreshes.
func TestRefreshCookieWithoutSessionRefused(t *testing.T) {
	f := newFixture(t, "", true)
	sealed, err := f.h.sealer.seal(RefreshCookie, refreshState{Mode: "local", Sub: "alice", Tier: "pro", Expires: time.Now().Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	r := f.do(req{method: "POST", path: "/auth/refresh", origin: "http://" + host, cookies: map[string]string{RefreshCookie: sealed}})
	if r.StatusCode() != 401 {
		t.Fatalf("refresh with a cookie without a session id: %d", r.StatusCode())
	}
}

// TestRedirectsKeepThePublicScheme: behind a TLS-terminating proxy the
// request arrives over plain HTTP; no redirect may send the browser to
// http://.
func TestRedirectsKeepThePublicScheme(t *testing.T) {
	f := newFixture(t, "https://x.example", true)
	sess, ref := f.signIn(t, "alice", "free")
	origin := f.origin()
	check := func(name string, r *fasthttp.Response) {
		t.Helper()
		loc := string(r.Header.Peek("Location"))
		if r.StatusCode()/100 != 3 || loc == "" {
			t.Fatalf("%s: status %d, Location %q", name, r.StatusCode(), loc)
		}
		if !strings.HasPrefix(loc, "https://x.example/") && !(strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "//")) {
			t.Errorf("%s: Location %q is neither on https://x.example nor relative", name, loc)
		}
	}
	check("sign-in", f.do(req{method: "POST", path: "/auth/login", origin: origin, form: url.Values{"name": {"bob"}, "next": {"/app/tax"}}}))
	check("private page", f.do(req{path: "/app/portfolio"}))
	check("logout", f.do(req{method: "POST", path: "/auth/logout", origin: origin, cookies: map[string]string{SessionCookie: sess, RefreshCookie: ref}}))
}

// TestSignInFlowIsOneUse: the flow cookie and the provider's answer,
// replayed, on this node or another, fail before the code is sent to the
// token endpoint again.
func TestSignInFlowIsOneUse(t *testing.T) {
	var calls atomic.Int32
	op := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_, _ = w.Write([]byte(`{"error":"invalid_grant"}`))
	}))
	t.Cleanup(op.Close)
	a, b := pair(t, "https://x.example")
	for _, f := range []*fixture{a, b} {
		f.h.local = false
		f.h.oidc = &provider{oauth: oauth2.Config{ClientID: "fiplan", Endpoint: oauth2.Endpoint{TokenURL: op.URL + "/token", AuthStyle: oauth2.AuthStyleInParams}}, client: op.Client()}
	}
	st := flowState{State: "state-1", Nonce: "n", Verifier: oauth2.GenerateVerifier(), Next: "/app", Expires: time.Now().Add(flowTTL).Unix()}
	sealed, err := a.h.sealer.seal(flowCookie, st)
	if err != nil {
		t.Fatal(err)
	}
	callback := req{path: "/auth/callback?state=state-1&code=abc", cookies: map[string]string{flowCookie: sealed}}
	r := a.do(callback)
	if r.StatusCode() != 400 || !strings.Contains(string(r.Body()), "did not accept the sign-in code") || calls.Load() != 1 {
		t.Fatalf("first callback: %d, token endpoint calls %d: %s", r.StatusCode(), calls.Load(), r.Body())
	}
	for i := range 20 {
		f := []*fixture{a, b}[i%2]
		r := f.do(callback)
		if r.StatusCode() != 400 || !strings.Contains(string(r.Body()), "already used") {
			t.Fatalf("replay %d: %d %s", i, r.StatusCode(), r.Body())
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("20 replays made %d more token endpoint calls", n-1)
	}
}
