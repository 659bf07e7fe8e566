package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"golang.org/x/oauth2"

	"fiplan/handlers/auth"
)

// opModule is the OpenID Provider the sign-in flow is tested against: the
// example server of zitadel/oidc, a certified OP implementation, pinned.
const opModule = "github.com/zitadel/oidc/v3/example/server@v3.51.17"

// Its built-in user and client.
const (
	opUser     = "test-user@localhost"
	opPassword = "verysecure"
	opClient   = "web"
	opSecret   = "secret"
)

func freePort(t *testing.T) (net.Listener, int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln, ln.Addr().(*net.TCPAddr).Port
}

// startOP builds the provider into a temporary directory and runs it with
// redirect as the web client's redirect URI. It returns the issuer.
func startOP(t *testing.T, redirect string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs an OpenID Provider; not in -short")
	}
	dir := t.TempDir()
	build := exec.Command("go", "install", opModule)
	build.Dir = dir // outside this module: the provider's own go.mod decides its dependencies
	build.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cannot build the OpenID Provider %s: %v\n%s", opModule, err, out)
	}
	ln, port := freePort(t)
	ln.Close()
	cmd := exec.Command(filepath.Join(dir, "server"))
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port), "REDIRECT_URI="+redirect)
	logf, _ := os.Create(filepath.Join(dir, "op.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, "op.log"))
			t.Logf("OpenID Provider log:\n%s", b)
		}
	})
	issuer := fmt.Sprintf("http://localhost:%d/", port)
	for i := 0; ; i++ {
		r, err := http.Get(issuer + ".well-known/openid-configuration")
		if err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return issuer
			}
		}
		if i > 100 {
			t.Fatalf("the OpenID Provider did not start: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

type oidcFixture struct {
	*fixture
	base   string // fiplan's public URL
	issuer string
	jar    *cookiejar.Jar
	client *http.Client
	// tokenCalls counts fiplan's calls to the provider's token endpoint.
	tokenCalls *countTokenCalls
}

// countTokenCalls counts the requests to the provider's token endpoint.
type countTokenCalls struct {
	path string
	n    atomic.Int32
}

func (c *countTokenCalls) RoundTrip(r *http.Request) (*http.Response, error) {
	if c.path != "" && r.URL.Path == c.path {
		c.n.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func newOIDCFixture(t *testing.T) *oidcFixture {
	t.Helper()
	ln, port := freePort(t)
	base := fmt.Sprintf("http://localhost:%d", port)
	issuer := startOP(t, base+"/auth/callback")
	clk := &clock{}
	v, err := auth.NewVerifier(auth.Config{Discovery: issuer, Issuer: issuer, Audience: opClient, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	calls := &countTokenCalls{}
	db := testStore(t)
	h, err := New(context.Background(), Config{
		PublicURL: base, Secrets: [][]byte{testSecret, []byte(opSecret)}, Verifier: v,
		OIDC: OIDC{Issuer: issuer, ClientID: opClient, ClientSecret: opSecret}, Revocations: db, Session: sessionCheck(v, db, clk.now),
		Client: &http.Client{Transport: calls, Timeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	if u, err := url.Parse(h.oidc.oauth.Endpoint.TokenURL); err == nil {
		calls.path = u.Path
	}
	srv := &fasthttp.Server{Handler: h.Serve}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	jar, _ := cookiejar.New(nil)
	return &oidcFixture{
		fixture: &fixture{h: h, v: v, clk: clk}, base: base, issuer: issuer, jar: jar,
		client: &http.Client{Jar: jar, Timeout: 20 * time.Second}, tokenCalls: calls,
	}
}

// get follows redirects until stop says so (or the chain ends) and returns
// the last response, its body read.
func (f *oidcFixture) get(t *testing.T, u string, stop func(*url.URL) bool) (*http.Response, string) {
	t.Helper()
	c := *f.client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if stop != nil && stop(req.URL) {
			return http.ErrUseLastResponse
		}
		return nil
	}
	r, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r, string(b)
}

func (f *oidcFixture) post(t *testing.T, u string, form url.Values, origin bool) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin {
		req.Header.Set("Origin", f.base)
	}
	c := *f.client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	r, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r, string(b)
}

func (f *oidcFixture) cookie(name string) string {
	u, _ := url.Parse(f.base + "/auth/")
	for _, c := range f.jar.Cookies(u) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

func (f *oidcFixture) setCookie(name, value, path string) {
	u, _ := url.Parse(f.base + path)
	f.jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: path}})
}

// login runs the flow up to the provider's redirect back to fiplan and
// returns that callback URL, unvisited.
func (f *oidcFixture) login(t *testing.T) *url.URL {
	t.Helper()
	r, _ := f.get(t, f.base+"/auth/login?next=/app/portfolio", nil)
	if !strings.Contains(r.Request.URL.Path, "/login/username") {
		t.Fatalf("sign-in did not reach the provider's login page: %s", r.Request.URL)
	}
	// The authorization request fiplan made: code flow with PKCE S256.
	var authz *url.URL
	for req := r.Request; req != nil; {
		if strings.HasPrefix(req.URL.String(), f.issuer) && req.URL.Query().Has("client_id") {
			authz = req.URL
		}
		if req.Response == nil {
			break
		}
		req = req.Response.Request
	}
	if authz == nil {
		t.Fatalf("no authorization request seen; final %s", r.Request.URL)
	}
	q := authz.Query()
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) < 43 ||
		q.Get("state") == "" || q.Get("nonce") == "" || q.Get("client_id") != opClient || q.Get("redirect_uri") != f.base+"/auth/callback" {
		t.Fatalf("authorization request %s", authz)
	}
	id := r.Request.URL.Query().Get("authRequestID")
	var callback *url.URL
	c := *f.client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), f.base+"/auth/callback") {
			callback = req.URL
			return http.ErrUseLastResponse
		}
		return nil
	}
	resp, err := c.PostForm(strings.TrimSuffix(f.issuer, "/")+"/login/username", url.Values{"username": {opUser}, "password": {opPassword}, "id": {id}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if callback == nil {
		t.Fatalf("the provider did not redirect back (status %d at %s)", resp.StatusCode, resp.Request.URL)
	}
	return callback
}

func (f *oidcFixture) session(t *testing.T) sessionInfo {
	t.Helper()
	_, body := f.get(t, f.base+"/auth/session", nil)
	var si sessionInfo
	if err := json.Unmarshal([]byte(body), &si); err != nil {
		t.Fatalf("GET /auth/session: %v: %s", err, body)
	}
	return si
}

// TestOIDC runs the authorization code flow against a real OpenID Provider.
func TestOIDC(t *testing.T) {
	f := newOIDCFixture(t)

	t.Run("local sign-in is off", func(t *testing.T) {
		r, _ := f.post(t, f.base+"/auth/login", url.Values{"name": {"mallory"}}, true)
		if r.StatusCode != 404 {
			t.Errorf("POST /auth/login: status %d, want 404", r.StatusCode)
		}
		if csp := f.h.headers[0][1]; !strings.Contains(csp, "form-action 'self' http://localhost:") {
			t.Errorf("CSP form-action does not allow the provider's end-session endpoint: %s", csp)
		}
	})

	t.Run("bad state", func(t *testing.T) {
		cb := f.login(t)
		q := cb.Query()
		q.Set("state", "forged")
		r, body := f.get(t, f.base+"/auth/callback?"+q.Encode(), nil)
		if r.StatusCode != 400 || !strings.Contains(body, "state") || f.cookie(SessionCookie) != "" {
			t.Fatalf("forged state: status %d, session %q", r.StatusCode, f.cookie(SessionCookie))
		}
		// The flow cookie was spent: the genuine answer no longer completes either.
		if r, _ := f.get(t, cb.String(), nil); r.StatusCode != 400 || f.cookie(SessionCookie) != "" {
			t.Fatalf("callback after a failed attempt: status %d", r.StatusCode)
		}
	})

	var first string
	t.Run("code flow with PKCE", func(t *testing.T) {
		cb := f.login(t)
		flow := ""
		u, _ := url.Parse(f.base + "/auth/callback")
		for _, c := range f.jar.Cookies(u) {
			if c.Name == flowCookie {
				flow = c.Value
			}
		}
		r, _ := f.get(t, cb.String(), func(u *url.URL) bool { return true })
		if r.StatusCode != fasthttp.StatusSeeOther || r.Header.Get("Location") != "/app/portfolio" && !strings.HasSuffix(r.Header.Get("Location"), "/app/portfolio") {
			t.Fatalf("callback: status %d, Location %q", r.StatusCode, r.Header.Get("Location"))
		}
		first = f.cookie(SessionCookie)
		p, err := f.v.Verify([]byte(first))
		if err != nil || p.User == "" {
			t.Fatalf("the session token does not verify with the discovered keys: %v", err)
		}
		if si := f.session(t); !si.SignedIn || si.User != p.User || si.Mode != "oidc" || !si.Refreshable {
			t.Fatalf("session %+v", si)
		}

		t.Run("replayed callback", func(t *testing.T) {
			// With the flow cookie put back, the spent flow is refused
			// before the code reaches the provider again.
			calls := f.tokenCalls.n.Load()
			before := f.cookie(SessionCookie)
			for range 5 {
				f.setCookie(flowCookie, flow, "/auth/callback")
				r, body := f.get(t, cb.String(), nil)
				if r.StatusCode != 400 || !strings.Contains(body, "already used") {
					t.Fatalf("replayed callback: status %d: %s", r.StatusCode, body)
				}
			}
			if n := f.tokenCalls.n.Load() - calls; n != 0 {
				t.Fatalf("5 replayed callbacks made %d token endpoint calls", n)
			}
			if f.cookie(SessionCookie) != before {
				t.Fatal("a replayed callback changed the session")
			}
		})
	})
	if first == "" {
		t.FailNow()
	}

	t.Run("short-lived token refreshed", func(t *testing.T) {
		// Let the provider's clock pass a second, then move ours to just
		// after the token's expiry: the token is now expired, while one
		// issued from here on is not.
		time.Sleep(2 * time.Second)
		old, _ := f.v.Verify([]byte(first))
		f.clk.off.Store(int64(time.Until(time.Unix(old.Expires, 0)) + time.Second))
		if _, err := f.v.Verify([]byte(first)); !errors.Is(err, auth.ErrExpired) {
			t.Fatalf("the token should now be expired (the API answers TOKEN_EXPIRED): %v", err)
		}
		if si := f.session(t); si.SignedIn || !si.Refreshable {
			t.Fatalf("expired session: %+v", si)
		}
		oldRefresh := f.cookie(RefreshCookie)
		if r, _ := f.post(t, f.base+"/auth/refresh", nil, false); r.StatusCode != 403 {
			t.Errorf("refresh without Origin: status %d", r.StatusCode)
		}
		r, body := f.post(t, f.base+"/auth/refresh", nil, true)
		if r.StatusCode != 200 {
			t.Fatalf("refresh: status %d: %s", r.StatusCode, body)
		}
		next := f.cookie(SessionCookie)
		p, err := f.v.Verify([]byte(next))
		if next == first || err != nil {
			t.Fatalf("refreshed token: changed %v, verify %v", next != first, err)
		}
		if si := f.session(t); !si.SignedIn || si.User != p.User {
			t.Fatalf("session after refresh %+v", si)
		}

		t.Run("failing refresh signs out", func(t *testing.T) {
			// The provider rotated the refresh token; the old one is refused.
			f.setCookie(RefreshCookie, oldRefresh, "/auth/")
			r, _ := f.post(t, f.base+"/auth/refresh", nil, true)
			if r.StatusCode != 401 {
				t.Fatalf("refresh with a spent refresh token: status %d", r.StatusCode)
			}
			if f.cookie(SessionCookie) != "" || f.cookie(RefreshCookie) != "" {
				t.Fatal("a failed refresh left cookies behind")
			}
			if si := f.session(t); si.SignedIn || si.Refreshable {
				t.Fatalf("session after a failed refresh %+v", si)
			}
		})
	})

	t.Run("logout", func(t *testing.T) {
		f.clk.off.Store(0)
		f.get(t, f.login(t).String(), nil)
		token := f.cookie(SessionCookie)
		if token == "" {
			t.Fatal("no session to sign out of")
		}
		if r, _ := f.post(t, f.base+"/auth/logout", nil, false); r.StatusCode != 403 || f.cookie(SessionCookie) == "" {
			t.Fatalf("logout without Origin: status %d", r.StatusCode)
		}
		var rs refreshState
		if err := f.h.sealer.open(RefreshCookie, f.cookie(RefreshCookie), &rs); err != nil || rs.Token == "" || rs.Sid == "" {
			t.Fatalf("refresh cookie: %+v, %v", rs, err)
		}
		refreshCookie := f.cookie(RefreshCookie)
		p, err := f.v.Verify([]byte(token))
		if err != nil {
			t.Fatal(err)
		}
		if f.h.oidc.revocation == "" {
			t.Fatal("the provider's discovery document names no revocation endpoint")
		}
		r, _ := f.post(t, f.base+"/auth/logout", nil, true)
		loc, _ := url.Parse(r.Header.Get("Location"))
		if r.StatusCode != fasthttp.StatusSeeOther || loc == nil || !strings.HasPrefix(loc.String(), f.issuer) {
			t.Fatalf("logout: status %d, Location %q", r.StatusCode, r.Header.Get("Location"))
		}
		q := loc.Query()
		if q.Get("id_token_hint") != token || q.Get("client_id") != opClient || q.Get("post_logout_redirect_uri") != f.base+"/" {
			t.Errorf("end-session request %s", loc)
		}
		if f.cookie(SessionCookie) != "" || f.cookie(RefreshCookie) != "" {
			t.Error("logout left cookies behind")
		}
		// The session token is revoked here, on every node sharing the store.
		if revoked, err := f.h.revocations.Revoked(p.Session, f.clk.now()); err != nil || !revoked {
			t.Errorf("the session token is not revoked: %v", err)
		}
		// The provider revoked the refresh token: it no longer refreshes there.
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, &http.Client{Timeout: 10 * time.Second})
		if _, err := f.h.oidc.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: rs.Token}).Token(); err == nil {
			t.Error("the provider still honours the refresh token after logout")
		}
		// The refresh cookie, replayed, is refused without asking the provider.
		calls := f.tokenCalls.n.Load()
		f.setCookie(RefreshCookie, refreshCookie, "/auth/")
		if r, _ := f.post(t, f.base+"/auth/refresh", nil, true); r.StatusCode != 401 {
			t.Errorf("refresh with the cookie of an ended session: status %d", r.StatusCode)
		}
		if n := f.tokenCalls.n.Load() - calls; n != 0 {
			t.Errorf("a revoked refresh cookie made %d token endpoint calls", n)
		}
		// The example provider's clients register no post-logout redirect
		// URI, so it refuses that one parameter, by name; without it, the
		// same request (with fiplan's id_token_hint) ends the session at the
		// provider, which shows its own signed-out page.
		resp, body := f.get(t, loc.String(), nil)
		if resp.StatusCode != 400 || !strings.Contains(body, "post_logout_redirect_uri") {
			t.Errorf("end-session with an unregistered post_logout_redirect_uri: %d %q", resp.StatusCode, body)
		}
		q.Del("post_logout_redirect_uri")
		loc.RawQuery = q.Encode()
		resp, body = f.get(t, loc.String(), nil)
		if resp.StatusCode != 200 || !strings.Contains(body, "signed out successfully") {
			t.Errorf("end-session: %d %s %q", resp.StatusCode, resp.Request.URL, body)
		}
	})
}
