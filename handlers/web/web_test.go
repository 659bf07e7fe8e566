package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/auth"
)

const host = "fiplan.test"

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// clock is a settable time source shared by the handler and the verifier.
type clock struct{ off atomic.Int64 }

func (c *clock) now() time.Time      { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *clock) add(d time.Duration) { c.off.Add(int64(d)) }

type fixture struct {
	h   *Handler
	v   *auth.Verifier
	clk *clock
}

// newFixture builds a handler; local chooses local mode, else the server
// verifies tokens from a configured secret and has no sign-in.
func newFixture(t *testing.T, public string, local bool) *fixture {
	t.Helper()
	clk := &clock{}
	v, err := auth.NewVerifier(auth.Config{Secret: testSecret, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	db := testStore(t)
	cfg := Config{PublicURL: public, Secrets: [][]byte{testSecret}, Verifier: v, Now: clk.now, Revocations: db, Session: sessionCheck(v, db, clk.now)}
	if local {
		cfg.LocalSecret = testSecret
	}
	h, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{h: h, v: v, clk: clk}
}

// sessionCheck stands for the server's session check (the API's, which
// the app is given): the token verified, then its sign-out mark read.
func sessionCheck(v *auth.Verifier, r Revocations, now func() time.Time) func([]byte) (auth.Principal, error) {
	return func(tok []byte) (auth.Principal, error) {
		p, err := v.Verify(tok)
		if err != nil {
			return p, err
		}
		revoked, err := r.Revoked(p.Session, now())
		if err == nil && revoked {
			err = auth.ErrInvalid
		}
		return p, err
	}
}

// testStore is a fresh bbolt store, closed when the test ends.
func testStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "fiplan.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

type req struct {
	method, path string
	origin       string
	cookies      map[string]string
	form         url.Values
	header       map[string]string
}

func (f *fixture) do(r req) *fasthttp.Response {
	var rc fasthttp.RequestCtx
	if r.method == "" {
		r.method = fasthttp.MethodGet
	}
	rc.Request.Header.SetMethod(r.method)
	rc.Request.SetRequestURI(r.path)
	rc.Request.Header.SetHost(host)
	if r.origin != "" {
		rc.Request.Header.Set("Origin", r.origin)
	}
	for k, v := range r.cookies {
		rc.Request.Header.SetCookie(k, v)
	}
	for k, v := range r.header {
		rc.Request.Header.Set(k, v)
	}
	if r.form != nil {
		rc.Request.Header.SetContentType("application/x-www-form-urlencoded")
		rc.Request.SetBodyString(r.form.Encode())
	}
	f.h.Serve(&rc)
	var out fasthttp.Response
	rc.Response.CopyTo(&out)
	return &out
}

// cookie returns the Set-Cookie of name, or nil.
func cookie(r *fasthttp.Response, name string) *fasthttp.Cookie {
	c := fasthttp.AcquireCookie()
	c.SetKey(name)
	if !r.Header.Cookie(c) {
		return nil
	}
	return c
}

func deleted(c *fasthttp.Cookie) bool {
	return c != nil && len(c.Value()) == 0 && c.MaxAge() <= 0
}

var pagePaths = []string{"/", "/app/portfolio", "/app/places", "/app/tax", "/dashboard/settings"}

// session signs in locally and returns the session and refresh cookies.
// origin is this site's Origin as a browser sends it: on the public URL's
// scheme (behind a TLS-terminating proxy the request itself is plain).
func (f *fixture) origin() string {
	if f.h.secure {
		return "https://" + host
	}
	return "http://" + host
}

func (f *fixture) signIn(t *testing.T, name, tier string) (string, string) {
	t.Helper()
	r := f.do(req{method: "POST", path: "/auth/login", origin: f.origin(), form: url.Values{"name": {name}, "tier": {tier}}})
	if r.StatusCode() != fasthttp.StatusSeeOther {
		t.Fatalf("sign-in: status %d: %s", r.StatusCode(), r.Body())
	}
	s, rf := cookie(r, SessionCookie), cookie(r, RefreshCookie)
	if s == nil || rf == nil {
		t.Fatalf("sign-in set no cookies: %s", r.Header.String())
	}
	return string(s.Value()), string(rf.Value())
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	f := newFixture(t, "", true)
	sess, _ := f.signIn(t, "alice", "free")
	paths := append([]string{"/auth/login", "/auth/session", "/nowhere", "/static/nothing.js", "/static/" + f.h.site.names["app.css"]}, pagePaths...)
	var reqs []req
	for _, p := range paths {
		reqs = append(reqs, req{path: p, cookies: map[string]string{SessionCookie: sess}})
	}
	reqs = append(reqs, req{method: "POST", path: "/auth/refresh"}, req{method: "DELETE", path: "/auth/login"}, req{method: "POST", path: "/"})
	for _, r := range reqs {
		resp := f.do(r)
		csp := string(resp.Header.Peek("Content-Security-Policy"))
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s %s: CSP %q lacks %q", r.method, r.path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Errorf("%s %s: CSP %q allows unsafe sources", r.method, r.path, csp)
		}
		if got := string(resp.Header.Peek("X-Content-Type-Options")); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options %q", r.method, r.path, got)
		}
		if got := string(resp.Header.Peek("Referrer-Policy")); got != "strict-origin-when-cross-origin" {
			t.Errorf("%s %s: Referrer-Policy %q", r.method, r.path, got)
		}
	}
	if r := f.do(req{method: "POST", path: "/"}); r.StatusCode() != fasthttp.StatusMethodNotAllowed || string(r.Header.Peek("Allow")) != "GET, HEAD" {
		t.Errorf("POST /: status %d, Allow %q", r.StatusCode(), r.Header.Peek("Allow"))
	}
	if r := f.do(req{path: "/nowhere"}); r.StatusCode() != fasthttp.StatusNotFound {
		t.Errorf("/nowhere: status %d", r.StatusCode())
	}
}

func TestPagesETag(t *testing.T) {
	f := newFixture(t, "", true)
	sess, _ := f.signIn(t, "alice", "free")
	for _, p := range pagePaths {
		r := f.do(req{path: p, cookies: map[string]string{SessionCookie: sess}})
		tag := string(r.Header.Peek("ETag"))
		if r.StatusCode() != 200 || tag == "" || string(r.Header.Peek("Cache-Control")) != "no-cache" {
			t.Fatalf("%s: status %d, ETag %q, Cache-Control %q", p, r.StatusCode(), tag, r.Header.Peek("Cache-Control"))
		}
		if ct := string(r.Header.ContentType()); ct != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", p, ct)
		}
		nm := f.do(req{path: p, cookies: map[string]string{SessionCookie: sess}, header: map[string]string{"If-None-Match": `"other", ` + tag}})
		if nm.StatusCode() != fasthttp.StatusNotModified || len(nm.Body()) != 0 {
			t.Errorf("%s with If-None-Match: status %d, %d bytes", p, nm.StatusCode(), len(nm.Body()))
		}
		stale := f.do(req{path: p, cookies: map[string]string{SessionCookie: sess}, header: map[string]string{"If-None-Match": `"stale"`}})
		if stale.StatusCode() != 200 {
			t.Errorf("%s with a stale tag: status %d", p, stale.StatusCode())
		}
	}
}

var staticRef = regexp.MustCompile(`/static/([A-Za-z0-9_.-]+)`)
var hashedName = regexp.MustCompile(`^([a-z]+)\.([0-9a-f]{8})\.(js|css|svg)$`)

func TestHashedAssets(t *testing.T) {
	f := newFixture(t, "", true)
	sess, _ := f.signIn(t, "alice", "free")
	seen := map[string]bool{}
	for _, p := range pagePaths {
		body := f.do(req{path: p, cookies: map[string]string{SessionCookie: sess}}).Body()
		for _, m := range staticRef.FindAllSubmatch(body, -1) {
			seen[string(m[1])] = true
		}
	}
	if len(seen) < 3 {
		t.Fatalf("pages refer to %d static files: %v", len(seen), seen)
	}
	// Module imports are rewritten too: follow them.
	importRef := regexp.MustCompile(`'\./([A-Za-z0-9_.-]+)'`)
	queue := make([]string, 0, len(seen))
	for n := range seen {
		queue = append(queue, n)
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		m := hashedName.FindStringSubmatch(name)
		if m == nil {
			t.Errorf("%s is not a hashed name", name)
			continue
		}
		r := f.do(req{path: "/static/" + name})
		if r.StatusCode() != 200 {
			t.Errorf("/static/%s: status %d", name, r.StatusCode())
			continue
		}
		sum := sha256.Sum256(r.Body())
		if hex.EncodeToString(sum[:4]) != m[2] {
			t.Errorf("%s: the name's hash is not the body's", name)
		}
		if cc := string(r.Header.Peek("Cache-Control")); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", name, cc)
		}
		tag := string(r.Header.Peek("ETag"))
		if nm := f.do(req{path: "/static/" + name, header: map[string]string{"If-None-Match": tag}}); tag == "" || nm.StatusCode() != 304 {
			t.Errorf("%s: ETag %q, revalidation status %d", name, tag, nm.StatusCode())
		}
		if path.Ext(name) == ".js" {
			if ct := string(r.Header.ContentType()); ct != "text/javascript; charset=utf-8" {
				t.Errorf("%s: Content-Type %q", name, ct)
			}
			for _, im := range importRef.FindAllSubmatch(r.Body(), -1) {
				if !seen[string(im[1])] {
					seen[string(im[1])] = true
					queue = append(queue, string(im[1]))
				}
			}
		}
		// The plain name is not served: a page can only load what it was rendered with.
		if plain := f.do(req{path: "/static/" + m[1] + "." + m[3]}); plain.StatusCode() != 404 {
			t.Errorf("/static/%s.%s: status %d, want 404", m[1], m[3], plain.StatusCode())
		}
	}
	if !seen[f.h.site.names["common.js"]] || !seen[f.h.site.names["chart.js"]] {
		t.Errorf("module imports were not followed to common.js and chart.js: %v", seen)
	}
}

// Files and pages are sent compressed to a client that takes it: the
// decoded body is the identity body, each coding has its own ETag, and
// revalidating with it answers 304.
func TestCompressedFilesAndPages(t *testing.T) {
	f := newFixture(t, "", true)
	sess, _ := f.signIn(t, "alice", "free")
	cookies := map[string]string{SessionCookie: sess}
	paths := []string{"/", "/app/portfolio", "/static/" + f.h.site.names["common.js"], "/static/" + f.h.site.names["app.css"]}
	for _, p := range paths {
		plain := f.do(req{path: p, cookies: cookies})
		if plain.StatusCode() != 200 || len(plain.Header.ContentEncoding()) != 0 {
			t.Fatalf("%s: status %d, Content-Encoding %q without Accept-Encoding", p, plain.StatusCode(), plain.Header.ContentEncoding())
		}
		for _, enc := range []string{"br", "gzip", "zstd"} {
			r := f.do(req{path: p, cookies: cookies, header: map[string]string{"Accept-Encoding": enc}})
			if got := string(r.Header.ContentEncoding()); r.StatusCode() != 200 || got != enc {
				t.Fatalf("%s %s: status %d, Content-Encoding %q", p, enc, r.StatusCode(), got)
			}
			var body []byte
			var err error
			switch enc {
			case "br":
				body, err = r.BodyUnbrotli()
			case "gzip":
				body, err = r.BodyGunzip()
			default:
				body, err = r.BodyUnzstd()
			}
			if err != nil || !bytes.Equal(body, plain.Body()) || len(r.Body()) >= len(plain.Body()) {
				t.Fatalf("%s %s: %d bytes decode to the %d-byte body: %v", p, enc, len(r.Body()), len(plain.Body()), err)
			}
			tag := string(r.Header.Peek("ETag"))
			if tag == string(plain.Header.Peek("ETag")) || !strings.Contains(string(r.Header.Peek("Vary")), "Accept-Encoding") {
				t.Fatalf("%s %s: ETag %q shared with identity, Vary %q", p, enc, tag, r.Header.Peek("Vary"))
			}
			nm := f.do(req{path: p, cookies: cookies, header: map[string]string{"Accept-Encoding": enc, "If-None-Match": tag}})
			if nm.StatusCode() != 304 {
				t.Fatalf("%s %s: revalidation status %d", p, enc, nm.StatusCode())
			}
		}
	}
}

func TestPrivatePagesSendToSignIn(t *testing.T) {
	f := newFixture(t, "", true)
	r := f.do(req{path: "/app/portfolio"})
	if r.StatusCode() != fasthttp.StatusSeeOther || !strings.HasSuffix(string(r.Header.Peek("Location")), "/auth/login?next=%2Fapp%2Fportfolio") {
		t.Fatalf("status %d, Location %q", r.StatusCode(), r.Header.Peek("Location"))
	}
	if r := f.do(req{path: "/"}); r.StatusCode() != 200 {
		t.Errorf("the calculator is public: status %d", r.StatusCode())
	}
}

func TestLocalSignIn(t *testing.T) {
	f := newFixture(t, "http://localhost:8080", true)
	form := url.Values{"name": {"alice"}, "tier": {"pro"}, "next": {"/app/tax"}}
	r := f.do(req{method: "POST", path: "/auth/login", origin: "http://" + host, form: form})
	if r.StatusCode() != fasthttp.StatusSeeOther || !strings.HasSuffix(string(r.Header.Peek("Location")), "/app/tax") {
		t.Fatalf("status %d, Location %q", r.StatusCode(), r.Header.Peek("Location"))
	}
	s := cookie(r, SessionCookie)
	if s == nil || !s.HTTPOnly() || s.SameSite() != fasthttp.CookieSameSiteLaxMode || string(s.Path()) != "/" || s.Secure() {
		t.Fatalf("session cookie: %v", s)
	}
	p, err := f.v.Verify(s.Value())
	if err != nil || p.User != "alice" || p.Tier != auth.TierPro {
		t.Fatalf("session token: %+v, %v", p, err)
	}
	rf := cookie(r, RefreshCookie)
	if rf == nil || !rf.HTTPOnly() || rf.SameSite() != fasthttp.CookieSameSiteStrictMode || string(rf.Path()) != "/auth/" {
		t.Fatalf("refresh cookie: %v", rf)
	}
	if bytes.Contains(rf.Value(), []byte("alice")) {
		t.Error("the refresh cookie is readable: it must be sealed")
	}
	info := f.do(req{path: "/auth/session", cookies: map[string]string{SessionCookie: string(s.Value()), RefreshCookie: string(rf.Value())}})
	var si sessionInfo
	if err := json.Unmarshal(info.Body(), &si); err != nil || !si.SignedIn || si.User != "alice" || si.Tier != "pro" || si.Mode != "local" || si.Expires <= time.Now().Unix() {
		t.Errorf("GET /auth/session = %s (%v)", info.Body(), err)
	}
	if bytes.Contains(info.Body(), s.Value()) {
		t.Error("GET /auth/session leaks the token")
	}

	for name, c := range map[string]struct {
		origin string
		form   url.Values
		status int
	}{
		"no Origin":     {"", form, 403},
		"foreign":       {"https://evil.example", form, 403},
		"bad tier":      {"http://" + host, url.Values{"name": {"bob"}, "tier": {"gold"}}, 400},
		"empty name":    {"http://" + host, url.Values{"name": {" "}}, 400},
		"name too long": {"http://" + host, url.Values{"name": {strings.Repeat("x", 129)}}, 400},
	} {
		r := f.do(req{method: "POST", path: "/auth/login", origin: c.origin, form: c.form})
		if r.StatusCode() != c.status || cookie(r, SessionCookie) != nil {
			t.Errorf("%s: status %d (want %d), session cookie %v", name, r.StatusCode(), c.status, cookie(r, SessionCookie))
		}
	}
	// Only paths on this site are followed after sign-in.
	for _, next := range []string{"//evil.example/", "https://evil.example/", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "/app\\..\\\\evil.example"} {
		r := f.do(req{method: "POST", path: "/auth/login", origin: "http://" + host, form: url.Values{"name": {"a"}, "next": {next}}})
		if loc := string(r.Header.Peek("Location")); loc != "/" {
			t.Errorf("next %q: Location %q", next, loc)
		}
	}
}

func TestSecureCookiesOverHTTPS(t *testing.T) {
	f := newFixture(t, "https://fiplan.example", true)
	r := f.do(req{method: "POST", path: "/auth/login", origin: f.origin(), form: url.Values{"name": {"alice"}}})
	for _, name := range []string{SessionCookie, RefreshCookie} {
		if c := cookie(r, name); c == nil || !c.Secure() {
			t.Errorf("%s over https: %v", name, c)
		}
	}
}

func TestNoLocalSignInWithoutLocalMode(t *testing.T) {
	f := newFixture(t, "", false)
	if r := f.do(req{path: "/auth/login"}); r.StatusCode() != 404 || !bytes.Contains(r.Body(), []byte("FI_OIDC_ISSUER")) {
		t.Errorf("GET /auth/login: status %d", r.StatusCode())
	}
	r := f.do(req{method: "POST", path: "/auth/login", origin: "http://" + host, form: url.Values{"name": {"mallory"}}})
	if r.StatusCode() != 404 || cookie(r, SessionCookie) != nil {
		t.Errorf("POST /auth/login: status %d", r.StatusCode())
	}
}

func TestLocalRefresh(t *testing.T) {
	f := newFixture(t, "", true)
	sess, ref := f.signIn(t, "alice", "pro")
	f.clk.add(localTTL + time.Minute)
	if _, err := f.v.Verify([]byte(sess)); !errors.Is(err, auth.ErrExpired) {
		t.Fatalf("the old token should have expired: %v", err)
	}
	cookies := map[string]string{SessionCookie: sess, RefreshCookie: ref}
	var si sessionInfo
	_ = json.Unmarshal(f.do(req{path: "/auth/session", cookies: cookies}).Body(), &si)
	if si.SignedIn || !si.Refreshable {
		t.Fatalf("expired session: %+v", si)
	}
	if r := f.do(req{method: "POST", path: "/auth/refresh", cookies: cookies}); r.StatusCode() != 403 {
		t.Errorf("refresh without Origin: status %d", r.StatusCode())
	}
	r := f.do(req{method: "POST", path: "/auth/refresh", origin: "http://" + host, cookies: cookies})
	if r.StatusCode() != 200 {
		t.Fatalf("refresh: status %d: %s", r.StatusCode(), r.Body())
	}
	s := cookie(r, SessionCookie)
	p, err := f.v.Verify(s.Value())
	if err != nil || p.User != "alice" || p.Tier != auth.TierPro {
		t.Fatalf("refreshed token: %+v, %v", p, err)
	}
	if err := json.Unmarshal(r.Body(), &si); err != nil || !si.SignedIn || si.Expires != p.Expires {
		t.Errorf("refresh answer %s", r.Body())
	}
	// After the refresh cookie's own lifetime, refreshing signs out.
	f.clk.add(refreshTTL)
	r = f.do(req{method: "POST", path: "/auth/refresh", origin: "http://" + host, cookies: map[string]string{RefreshCookie: string(cookie(r, RefreshCookie).Value())}})
	if r.StatusCode() != 401 || !deleted(cookie(r, SessionCookie)) {
		t.Errorf("refresh after %v: status %d", refreshTTL, r.StatusCode())
	}
}

func TestTamperedRefreshCookieSignsOut(t *testing.T) {
	f := newFixture(t, "", true)
	sess, ref := f.signIn(t, "alice", "free")
	other := newFixture(t, "", true)
	other.h.sealer, _ = newSealer([][]byte{[]byte("another server's secret, 32 bytes+")})
	_, foreign := other.signIn(t, "alice", "free")
	flip := []byte(ref)
	flip[len(flip)/2] ^= 1
	if flip[len(flip)/2] == '-'^1 || flip[len(flip)/2] == '_'^1 {
		flip[len(flip)/2] = 'A'
	}
	for name, bad := range map[string]string{"flipped": string(flip), "foreign key": foreign, "truncated": ref[:20], "garbage": "not-a-cookie"} {
		r := f.do(req{method: "POST", path: "/auth/refresh", origin: "http://" + host, cookies: map[string]string{SessionCookie: sess, RefreshCookie: bad}})
		if r.StatusCode() != 401 {
			t.Errorf("%s: status %d", name, r.StatusCode())
		}
		if !deleted(cookie(r, SessionCookie)) || !deleted(cookie(r, RefreshCookie)) {
			t.Errorf("%s: cookies not deleted: %s", name, r.Header.String())
		}
		var si sessionInfo
		if err := json.Unmarshal(r.Body(), &si); err != nil || si.SignedIn {
			t.Errorf("%s: answer %s", name, r.Body())
		}
	}
	// A sealed value does not open as another cookie.
	var rs refreshState
	if err := f.h.sealer.open(flowCookie, ref, &rs); err == nil {
		t.Error("the refresh cookie opened as the sign-in flow cookie")
	}
}

func TestLocalLogout(t *testing.T) {
	f := newFixture(t, "", true)
	sess, ref := f.signIn(t, "alice", "free")
	cookies := map[string]string{SessionCookie: sess, RefreshCookie: ref}
	if r := f.do(req{method: "POST", path: "/auth/logout", cookies: cookies}); r.StatusCode() != 403 || cookie(r, SessionCookie) != nil {
		t.Errorf("logout without Origin: status %d", r.StatusCode())
	}
	r := f.do(req{method: "POST", path: "/auth/logout", origin: "http://" + host, cookies: cookies})
	if r.StatusCode() != fasthttp.StatusSeeOther || string(r.Header.Peek("Location")) != "/" {
		t.Fatalf("logout: status %d, Location %q", r.StatusCode(), r.Header.Peek("Location"))
	}
	if !deleted(cookie(r, SessionCookie)) || !deleted(cookie(r, RefreshCookie)) {
		t.Errorf("logout left cookies: %s", r.Header.String())
	}
}

// TestAccessibleHTML checks every page's markup: lang set, one h1, every
// form control labelled, and nothing the CSP would block (inline script,
// style attributes, inline event handlers).
func TestAccessibleHTML(t *testing.T) {
	f := newFixture(t, "", true)
	sess, _ := f.signIn(t, "alice", "free")
	bodies := map[string][]byte{"/auth/login": f.do(req{path: "/auth/login"}).Body(), "404": f.do(req{path: "/missing"}).Body()}
	for _, p := range pagePaths {
		bodies[p] = f.do(req{path: p, cookies: map[string]string{SessionCookie: sess}}).Body()
	}
	tag := regexp.MustCompile(`(?s)<(input|select|textarea)\b([^>]*)>`)
	attr := func(attrs, name string) (string, bool) {
		m := regexp.MustCompile(`\b` + name + `="([^"]*)"`).FindStringSubmatch(attrs)
		if m == nil {
			return "", false
		}
		return m[1], true
	}
	for p, b := range bodies {
		html := string(b)
		if !strings.Contains(html, `<html lang="en">`) {
			t.Errorf("%s: no lang on <html>", p)
		}
		if n := strings.Count(html, "<h1"); n != 1 {
			t.Errorf("%s: %d h1 elements", p, n)
		}
		if !strings.Contains(html, `<meta name="viewport"`) {
			t.Errorf("%s: no viewport meta", p)
		}
		controls := 0
		for _, m := range tag.FindAllStringSubmatch(html, -1) {
			if typ, _ := attr(m[2], "type"); typ == "hidden" {
				continue
			}
			controls++
			id, ok := attr(m[2], "id")
			_, aria := attr(m[2], "aria-label")
			if !aria && (!ok || !strings.Contains(html, `<label for="`+id+`"`)) {
				// A control wrapped in its label is labelled too.
				if !regexp.MustCompile(`<label>\s*<` + m[1] + `\b[^>]*\bid="` + regexp.QuoteMeta(id) + `"`).MatchString(html) {
					t.Errorf("%s: <%s %s> has no label", p, m[1], strings.TrimSpace(m[2]))
				}
			}
		}
		if p == "/" && controls < 8 {
			t.Errorf("/: only %d form controls found; the check is not seeing the form", controls)
		}
		// A JSON data block (the page's text) is not run; any other content is.
		if regexp.MustCompile(`<script(\s[^>]*)?>\s*[^<\s]`).MatchString(regexp.MustCompile(`(?s)<script type="application/json" id="i18n">.*?</script>`).ReplaceAllString(html, "")) {
			t.Errorf("%s: inline script", p)
		}
		if regexp.MustCompile(`\sstyle="|\son[a-z]+="`).MatchString(html) {
			t.Errorf("%s: inline style or event handler attribute", p)
		}
	}
}

// On an https site, the forms that act on the session (local sign-in,
// refresh, sign-out) refuse an http Origin naming the same host: a page
// injected into plain http there is same-site to the cookies, not
// same-origin.
func TestHTTPSOriginRequired(t *testing.T) {
	f := newFixture(t, "https://"+host, true)
	form := url.Values{"name": {"alice"}, "tier": {"free"}}
	for _, c := range []struct {
		method, path, origin string
		status               int
	}{
		{"POST", "/auth/login", "http://" + host, 403},
		{"POST", "/auth/refresh", "http://" + host, 403},
		{"POST", "/auth/logout", "http://" + host, 403},
		{"POST", "/auth/login", "https://" + host, 303},
	} {
		r := f.do(req{method: c.method, path: c.path, origin: c.origin, form: form})
		if r.StatusCode() != c.status {
			t.Errorf("%s %s from %s: status %d, want %d", c.method, c.path, c.origin, r.StatusCode(), c.status)
		}
	}
}
