package handlers

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"

	"github.com/golang-jwt/jwt/v5"
	"github.com/valyala/fasthttp"
)

func TestStatus(t *testing.T) {
	h := newHarness(t)
	h.Advance(90 * time.Second)
	r := h.Do("GET", "/api/v1/status", "")
	if r.Status != 200 || r.Body["success"] != true {
		t.Fatalf("status: %d %s", r.Status, r.Raw)
	}
	d := r.Data()
	if d["status"] != "ok" || d["version"] != "test" || d["uptimeSeconds"] != 90.0 {
		t.Fatalf("data: %v", d)
	}
	if st := d["storage"].(map[string]any); st["kind"] != "bbolt" || st["state"] != "ok" || st["sizeBytes"].(float64) <= 0 || d["redis"] != nil {
		t.Fatalf("storage: %v", st)
	}
	if ds := d["datasets"].([]any); len(ds) == 0 || ds[0].(map[string]any)["records"].(float64) < 25 {
		t.Fatalf("datasets: %v", ds)
	}
}

func TestStatusUnavailableWhenStorageIsGone(t *testing.T) {
	h := newHarness(t)
	h.DB.Close()
	expectError(t, h.Do("GET", "/api/v1/status", ""), 503, errcode.Unavailable)
}

// Storage is checked at most once a second: a status within the second
// repeats the last check, the next one sees the change.
func TestStatusReusesItsCheckForASecond(t *testing.T) {
	h := newHarness(t)
	if r := h.Do("GET", "/api/v1/status", ""); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	h.DB.Close()
	h.Advance(999 * time.Millisecond)
	if r := h.Do("GET", "/api/v1/status", ""); r.Status != 200 {
		t.Fatalf("within the second: %d %s", r.Status, r.Raw)
	}
	h.Advance(time.Millisecond)
	expectError(t, h.Do("GET", "/api/v1/status", ""), 503, errcode.Unavailable)
	expectError(t, h.Do("GET", "/api/v1/status", ""), 503, errcode.Unavailable)
}

func TestDatabaseErrorIsReported(t *testing.T) {
	h := newHarness(t)
	tok := h.Token("alice", "free", "")
	h.Do("GET", "/api/v1/user/api-keys", "", bearer(tok)...) // remembers the tier
	h.DB.Close()
	r := h.Do("GET", "/api/v1/user/api-keys", "", bearer(tok)...)
	expectError(t, r, 500, errcode.Database)
	if strings.Contains(string(r.Raw), "closed") || strings.Contains(string(r.Raw), "bolt") {
		t.Fatalf("internals leak: %s", r.Raw)
	}
}

func TestUnknownPathIsDecidedBeforeAuthentication(t *testing.T) {
	h := newHarness(t)
	for _, p := range []string{"/api/v1/nope", "/api/v2/status", "/api/v1/user/api-keys/x/y", "/", "/api", "/api/v1/statuses"} {
		expectError(t, h.Do("GET", p, ""), 404, errcode.EndpointNotFound)
		expectError(t, h.Do("GET", p, "", "Authorization", "Bearer garbage"), 404, errcode.EndpointNotFound)
	}
	// A trailing slash is tolerated.
	if r := h.Do("GET", "/api/v1/status/", ""); r.Status != 200 {
		t.Fatalf("trailing slash: %d", r.Status)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	h := newHarness(t)
	r := h.Do("DELETE", "/api/v1/status", "")
	expectError(t, r, 405, errcode.MethodNotAllowed)
	if r.Header["Allow"] != "GET, HEAD, OPTIONS" {
		t.Fatalf("Allow = %q", r.Header["Allow"])
	}
	r = h.Do("PUT", "/api/v1/user/api-keys", "{}")
	expectError(t, r, 405, errcode.MethodNotAllowed)
	if r.Header["Allow"] != "GET, HEAD, POST, OPTIONS" {
		t.Fatalf("Allow = %q", r.Header["Allow"])
	}
}

func TestRequestID(t *testing.T) {
	h := newHarness(t)
	if got := h.Do("GET", "/api/v1/status", "", "X-Request-ID", "abc-123.x").Header["X-Request-Id"]; got != "abc-123.x" {
		t.Fatalf("sane id not echoed: %q", got)
	}
	seen := map[string]bool{}
	for _, bad := range []string{"has space", strings.Repeat("a", 41), "<script>", ""} {
		got := h.Do("GET", "/api/v1/nope", "", "X-Request-ID", bad).Header["X-Request-Id"]
		if got == "" || got == bad || seen[got] {
			t.Fatalf("id for %q: %q", bad, got)
		}
		seen[got] = true
	}
}

func TestBodyErrors(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	post := func(body string) *resp { return h.Do("POST", "/api/v1/user/api-keys", body, tok...) }
	for _, body := range []string{"", "{", `{"name":"a"} x`, `{"name":"a"}{}`, `nope`, "{\"name\":\"\xff\"}"} {
		r := post(body)
		expectError(t, r, 400, "INVALID_JSON")
		if r.Body["details"] != nil {
			t.Fatalf("INVALID_JSON with details: %s", r.Raw)
		}
	}
	r := post(`{"name":5,"extra":true}`)
	expectError(t, r, 400, "VALIDATION_ERROR")
	if fmt.Sprint(r.Body["details"]) != "[map[message:must be a string path:name] map[message:unknown field path:extra]]" {
		t.Fatalf("details: %v", r.Body["details"])
	}
	r = post(`{}`)
	expectError(t, r, 400, "MISSING_FIELD")
	if !strings.Contains(r.Body["error"].(string), "name") {
		t.Fatalf("error does not name the field: %s", r.Raw)
	}
	r = post(`{"name":"` + strings.Repeat("x", 65) + `"}`)
	expectError(t, r, 400, "VALIDATION_ERROR")
}

func TestPayloadTooLarge(t *testing.T) {
	h := newHarness(t)
	// The server answers as soon as it has read the declared length and
	// the body's first bytes (8 KiB at most), never waiting for the rest:
	// send only the start, as a client would at the start of its body.
	conn, err := h.LN.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/user/api-keys HTTP/1.1\r\nHost: fiplan.test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", 1<<20+1, strings.Repeat(" ", 8<<10))
	var res fasthttp.Response
	if err := res.Read(bufio.NewReader(conn)); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode() != 413 || !strings.Contains(string(res.Body()), `"code":"PAYLOAD_TOO_LARGE"`) || len(res.Header.Peek("X-Request-ID")) == 0 {
		t.Fatalf("got %d %s", res.StatusCode(), res.Body())
	}
	// Exactly at the limit the body is read (and then judged on its merits).
	tok := bearer(h.Token("alice", "free", ""))
	atLimit := `{"name":"` + strings.Repeat("x", 1<<20-12) + `"}`
	expectError(t, h.Do("POST", "/api/v1/user/api-keys", atLimit, tok...), 400, "VALIDATION_ERROR")
}

func TestPanicBecomesInternalError(t *testing.T) {
	h := newHarness(t)
	if err := h.S.router.Add(rest.Get("/api/v1/test/panic", rest.Public, func(*rest.Ctx) { panic("secret internals") }, nil)); err != nil {
		t.Fatal(err)
	}
	r := h.Do("GET", "/api/v1/test/panic", "")
	expectError(t, r, 500, errcode.Internal)
	if strings.Contains(string(r.Raw), "secret") {
		t.Fatalf("panic value leaked: %s", r.Raw)
	}
	// The server keeps serving.
	if h.Do("GET", "/api/v1/status", "").Status != 200 {
		t.Fatal("server did not survive a panic")
	}
}

func TestAuthenticationRules(t *testing.T) {
	h := newHarness(t)
	now := h.Clock()
	sign := func(method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
		tok, err := jwt.NewWithClaims(method, claims).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	valid := jwt.MapClaims{"sub": "alice", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix()}
	with := func(k string, v any) jwt.MapClaims {
		c := jwt.MapClaims{}
		for a, b := range valid {
			c[a] = b
		}
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
		return c
	}
	none := sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, valid)
	good := sign(jwt.SigningMethodHS256, testSecret, valid)
	cases := []struct {
		name   string
		header string
		code   string
	}{
		{"no credentials", "", errcode.Unauthorized},
		{"bare token", good, errcode.Unauthorized},
		{"basic scheme", "Basic YWxpY2U6cHc=", errcode.Unauthorized},
		{"empty bearer", "Bearer ", errcode.Unauthorized},
		{"garbage", "Bearer not.a.jwt", errcode.Unauthorized},
		{"alg none", "Bearer " + none, errcode.Unauthorized},
		{"unsigned", "Bearer " + strings.Join(strings.Split(good, ".")[:2], ".") + ".", errcode.Unauthorized},
		{"wrong key", "Bearer " + sign(jwt.SigningMethodHS256, []byte("another-secret-another-secret-xx"), valid), errcode.Unauthorized},
		{"HS384", "Bearer " + sign(jwt.SigningMethodHS384, testSecret, valid), errcode.Unauthorized},
		{"no sub", "Bearer " + sign(jwt.SigningMethodHS256, testSecret, with("sub", nil)), errcode.Unauthorized},
		{"no exp", "Bearer " + sign(jwt.SigningMethodHS256, testSecret, with("exp", nil)), errcode.Unauthorized},
		{"expired", "Bearer " + sign(jwt.SigningMethodHS256, testSecret, with("exp", now.Add(-time.Minute).Unix())), errcode.TokenExpired},
		{"old iat", "Bearer " + sign(jwt.SigningMethodHS256, testSecret, with("iat", now.Add(-61*time.Minute).Unix())), errcode.TokenExpired},
		{"expired with bad signature", "Bearer " + sign(jwt.SigningMethodHS256, []byte("another-secret-another-secret-xx"), with("exp", now.Add(-time.Minute).Unix())), errcode.Unauthorized},
		{"revoked-looking API key", "Bearer svc_0000000000000000000000000000000000000000000000000", errcode.Unauthorized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var hdr []string
			if c.header != "" {
				hdr = []string{"Authorization", c.header}
			}
			r := h.Do("GET", "/api/v1/user/api-keys", "", hdr...)
			expectError(t, r, 401, c.code)
			if c.code == errcode.TokenExpired && (r.Body["error"] != "Token has expired" || r.Body["message"] != "Token has expired") {
				t.Fatalf("expired wording: %s", r.Raw)
			}
			// On a public route, sent credentials must be valid too.
			if c.header != "" {
				expectError(t, h.Do("GET", "/api/v1/status", "", hdr...), 401, c.code)
			}
		})
	}
	if r := h.Do("GET", "/api/v1/user/api-keys", "", "Authorization", "Bearer "+good); r.Status != 200 {
		t.Fatalf("valid token refused: %s", r.Raw)
	}
	if r := h.Do("GET", "/api/v1/user/api-keys", "", "Authorization", "bearer "+good); r.Status != 200 {
		t.Fatalf("the scheme is case-insensitive: %s", r.Raw)
	}
	// The one-hour session ends even with a later exp.
	long := sign(jwt.SigningMethodHS256, testSecret, with("exp", now.Add(5*time.Hour).Unix()))
	h.Advance(61 * time.Minute)
	expectError(t, h.Do("GET", "/api/v1/user/api-keys", "", bearer(long)...), 401, errcode.TokenExpired)
}

func TestAPIKeyLifecycle(t *testing.T) {
	h := newHarness(t)
	alice := bearer(h.Token("alice", "pro", ""))
	bob := bearer(h.Token("bob", "free", ""))

	r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"ci"}`, alice...)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	key, _ := r.Data()["key"].(string)
	id, _ := r.Data()["id"].(string)
	if !strings.HasPrefix(key, "svc_") || len(key) < 36 || id == "" {
		t.Fatalf("created: %s", r.Raw)
	}

	// Listed without the secret.
	r = h.Do("GET", "/api/v1/user/api-keys", "", alice...)
	if r.Status != 200 || strings.Contains(string(r.Raw), key) || r.Body["meta"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("list: %s", r.Raw)
	}
	// Nothing of the plain key is stored.
	if raw, err := readFile(h.DBPath); err != nil || strings.Contains(raw, key) || strings.Contains(raw, key[4:20]) {
		t.Fatalf("plain key found in the db file (err %v)", err)
	}

	// The key acts for alice, with her tier; it cannot make more keys.
	keyAuth := bearer(key)
	r = h.Do("GET", "/api/v1/user/api-keys", "", keyAuth...)
	if r.Status != 200 || r.Header["Ratelimit-Limit"] != "6000" {
		t.Fatalf("key use: %d %v %s", r.Status, r.Header, r.Raw)
	}
	expectError(t, h.Do("POST", "/api/v1/user/api-keys", `{"name":"x"}`, keyAuth...), 403, errcode.Forbidden)
	// A mistyped key fails its checksum.
	swap := "a"
	if key[len(key)-1] == 'a' {
		swap = "b"
	}
	typo := key[:len(key)-1] + swap
	expectError(t, h.Do("GET", "/api/v1/user/api-keys", "", bearer(typo)...), 401, errcode.Unauthorized)

	// Last use shows in the list, even before it is written.
	r = h.Do("GET", "/api/v1/user/api-keys", "", alice...)
	if items := r.Body["data"].([]any); items[0].(map[string]any)["lastUsedAt"] == nil {
		t.Fatalf("no lastUsedAt after use: %s", r.Raw)
	}

	// Bob sees none of it and cannot revoke it.
	r = h.Do("GET", "/api/v1/user/api-keys", "", bob...)
	if r.Body["meta"].(map[string]any)["total"] != 0.0 {
		t.Fatalf("bob sees alice's keys: %s", r.Raw)
	}
	expectError(t, h.Do("DELETE", "/api/v1/user/api-keys/"+id, "", bob...), 404, errcode.NotFound)
	if h.Do("GET", "/api/v1/user/api-keys", "", keyAuth...).Status != 200 {
		t.Fatal("bob's attempt revoked alice's key")
	}

	// Revocation takes effect at once.
	if r = h.Do("DELETE", "/api/v1/user/api-keys/"+id, "", alice...); r.Status != 204 || len(r.Raw) != 0 {
		t.Fatalf("revoke: %d %s", r.Status, r.Raw)
	}
	expectError(t, h.Do("GET", "/api/v1/user/api-keys", "", keyAuth...), 401, errcode.Unauthorized)
	expectError(t, h.Do("DELETE", "/api/v1/user/api-keys/"+id, "", alice...), 404, errcode.NotFound)
}

func TestAPIKeyLimit(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.MaxKeys = 2 })
	alice := bearer(h.Token("alice", "free", ""))
	for range 2 {
		if r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, alice...); r.Status != 201 {
			t.Fatalf("create: %s", r.Raw)
		}
	}
	expectError(t, h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, alice...), 409, errcode.Conflict)
}

func TestKeysAndTierSurviveRestart(t *testing.T) {
	h := newHarness(t)
	r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"ci"}`, bearer(h.Token("alice", "pro", ""))...)
	key := r.Data()["key"].(string)
	path := h.DBPath
	h.LN.Close()
	h.S.Close()
	h.DB.Close()

	h2 := startHarness(t, path)
	r = h2.Do("GET", "/api/v1/user/api-keys", "", bearer(key)...)
	if r.Status != 200 || r.Header["Ratelimit-Limit"] != "6000" {
		t.Fatalf("after restart: %d %v", r.Status, r.Header)
	}
}

func TestCookieSessionAndCSRF(t *testing.T) {
	h := newHarness(t)
	tok := h.Token("alice", "free", "")
	cookie := []string{"Cookie", SessionCookie + "=" + tok}
	if r := h.Do("GET", "/api/v1/user/api-keys", "", cookie...); r.Status != 200 {
		t.Fatalf("cookie GET: %s", r.Raw)
	}
	expectError(t, h.Do("POST", "/api/v1/user/api-keys", `{"name":"x"}`, cookie...), 403, errcode.Forbidden)
	expectError(t, h.Do("POST", "/api/v1/user/api-keys", `{"name":"x"}`, append(cookie, "Origin", "https://evil.test")...), 403, errcode.Forbidden)
	if r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"x"}`, append(cookie, "Origin", "https://fiplan.test")...); r.Status != 201 {
		t.Fatalf("same-origin cookie POST: %s", r.Raw)
	}
	// A bearer header needs no Origin: browsers never add it by themselves.
	if r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"y"}`, bearer(tok)...); r.Status != 201 {
		t.Fatalf("bearer POST: %s", r.Raw)
	}
}

// On an https site a cookie's unsafe request from an http Origin on the
// same host is refused: a page injected into plain http there (by whoever
// sits on the network) is same-site to the browser's cookies.
func TestCookieCSRFWantsHTTPSOrigin(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Hosts = NewHosts("fiplan.test"); c.Hosts.Secure = true })
	cookie := []string{"Cookie", SessionCookie + "=" + h.Token("alice", "free", "")}
	expectError(t, h.Do("POST", "/api/v1/user/api-keys", `{"name":"x"}`, append(cookie, "Origin", "http://fiplan.test")...), 403, errcode.Forbidden)
	if r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"x"}`, append(cookie, "Origin", "https://fiplan.test")...); r.Status != 201 {
		t.Fatalf("https same-origin cookie POST: %s", r.Raw)
	}
}

func TestRateLimits(t *testing.T) {
	h := newHarness(t, withRates("3/1m", "5/1m", "off"))
	for i := range 3 {
		r := h.Do("GET", "/api/v1/status", "")
		if r.Status != 200 || r.Header["Ratelimit-Limit"] != "3" || r.Header["Ratelimit-Remaining"] != fmt.Sprint(2-i) {
			t.Fatalf("request %d: %d %v", i, r.Status, r.Header)
		}
	}
	r := h.Do("GET", "/api/v1/status", "")
	expectError(t, r, 429, errcode.RateLimited)
	if r.Body["retryAfter"] != 20.0 || r.Header["Retry-After"] != "20" || r.Header["Ratelimit-Remaining"] != "0" {
		t.Fatalf("429: %v %s", r.Header, r.Raw)
	}
	// Another address has its own allowance.
	h.IP = "198.51.100.7"
	if h.Do("GET", "/api/v1/status", "").Status != 200 {
		t.Fatal("second IP limited by the first")
	}
	// Signed-in callers count per user, by tier: free has 5.
	h.IP = "192.0.2.1"
	free := bearer(h.Token("alice", "free", ""))
	for range 5 {
		if r := h.Do("GET", "/api/v1/status", "", free...); r.Status != 200 || r.Header["Ratelimit-Limit"] != "5" {
			t.Fatalf("free: %d %v", r.Status, r.Header)
		}
	}
	expectError(t, h.Do("GET", "/api/v1/user/api-keys", "", free...), 429, errcode.RateLimited)
	// Pro is off: no limit and no headers.
	pro := bearer(h.Token("carol", "pro", ""))
	for range 10 {
		if r := h.Do("GET", "/api/v1/status", "", pro...); r.Status != 200 || r.Header["Ratelimit-Limit"] != "" {
			t.Fatalf("pro: %d %v", r.Status, r.Header)
		}
	}
	// Time refills the bucket.
	h.Advance(20 * time.Second)
	if h.Do("GET", "/api/v1/status", "").Status != 200 {
		t.Fatal("not refilled after retryAfter")
	}
}

func TestFailedAuthenticationIsRateLimited(t *testing.T) {
	h := newHarness(t, withRates("2/1m", "off", "off"))
	for range 2 {
		expectError(t, h.Do("GET", "/api/v1/user/api-keys", "", "Authorization", "Bearer svc_guess"), 401, errcode.Unauthorized)
	}
	expectError(t, h.Do("GET", "/api/v1/user/api-keys", "", "Authorization", "Bearer svc_guess"), 429, errcode.RateLimited)
}

func TestClientIPBehindTrustedProxies(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.TrustedProxies = mustPrefixes("10.0.0.0/8") })
	ip := func(remote, xff string) string {
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, tcpAddr(remote), nil)
		if xff != "" {
			rc.Request.Header.Set("X-Forwarded-For", xff)
		}
		c := &rest.Ctx{RC: &rc}
		a := h.S.clientIP(c)
		return addrString(a)
	}
	cases := []struct{ remote, xff, want string }{
		{"203.0.113.5", "1.2.3.4", "203.0.113.5"},             // untrusted peer: header ignored
		{"10.1.2.3", "1.2.3.4", "1.2.3.4"},                    // trusted proxy
		{"10.1.2.3", "6.6.6.6, 1.2.3.4, 10.9.9.9", "1.2.3.4"}, // right-most untrusted hop
		{"10.1.2.3", "garbage, 1.2.3.4", "1.2.3.4"},           // forged left part is not reached
		{"10.1.2.3", "1.2.3.4, garbage", "10.1.2.3"},          // malformed hop: stop at the proxy
		{"10.1.2.3", "", "10.1.2.3"},                          // no header
		{"10.1.2.3", " 2001:db8::1 ", "2001:db8::1"},          // IPv6
		{"10.1.2.3", "::ffff:1.2.3.4", "1.2.3.4"},             // mapped
	}
	for _, c := range cases {
		if got := ip(c.remote, c.xff); got != c.want {
			t.Errorf("remote %s xff %q: got %s, want %s", c.remote, c.xff, got, c.want)
		}
	}
}

func TestPublicChainAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race; CI pins this in its run without -race")
	}
	h := newHarness(t, withRates("1000000000/1h", "off", "off"))
	if err := h.S.router.Add(rest.Get("/api/v1/test/noop", rest.Public, func(c *rest.Ctx) {
		w := c.Begin()
		w.Begin()
		w.End()
		c.Send(200)
	}, nil)); err != nil {
		t.Fatal(err)
	}
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("192.0.2.9"), nil)
	rc.Request.SetRequestURI("/api/v1/test/noop")
	h.S.Serve(&rc) // warm the pools and the limiter's key
	n := testing.AllocsPerRun(1000, func() {
		rc.Response.Reset()
		h.S.Serve(&rc)
	})
	if rc.Response.StatusCode() != 200 || string(rc.Response.Body()) != `{"success":true,"data":{}}` {
		t.Fatalf("noop: %d %s", rc.Response.StatusCode(), rc.Response.Body())
	}
	if n != 0 {
		t.Fatalf("the middleware chain allocates %v times per public request", n)
	}
	// An unknown path and a known path with another method answer from
	// the chain itself, without allocating either.
	for _, c := range []struct{ method, path string }{{"GET", "/api/v1/nope"}, {"DELETE", "/api/v1/test/noop"}} {
		rc.Request.Header.SetMethod(c.method)
		rc.Request.SetRequestURI(c.path)
		h.S.Serve(&rc)
		if n := testing.AllocsPerRun(1000, func() {
			rc.Response.Reset()
			h.S.Serve(&rc)
		}); n != 0 {
			t.Errorf("%s %s allocates %v times (status %d)", c.method, c.path, n, rc.Response.StatusCode())
		}
	}
}

// A flushed body is copied out, so the pooled writer keeps its grown
// buffer for the next large response; only an outsized buffer is dropped.
func TestQueryParametersAreDeclaredOnEveryRoute(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	detail := func(r *resp) string {
		t.Helper()
		d, _ := r.Body["details"].([]any)
		if len(d) != 1 {
			t.Fatalf("details %v", r.Body["details"])
		}
		return d[0].(map[string]any)["path"].(string)
	}
	for _, c := range []struct{ method, path, body, param string }{
		{"GET", "/api/v1/assets?categroy=equity", "", "categroy"},
		{"GET", "/api/v1/assets?category=equity&category=bond", "", "category"},
		{"GET", "/api/v1/geo/cities?limt=5", "", "limt"},
		{"GET", "/api/v1/geo/cities?limit=5&limit=6", "", "limit"},
		{"GET", "/api/v1/status?verbose=1", "", "verbose"},
		{"GET", "/api/v1/user/profile?fields=all", "", "fields"},
		{"POST", "/api/v1/calculator?debug", `{"currentAge":30,"annualIncome":1,"annualExpenses":1}`, "debug"},
		{"GET", "/api/v1/tax/programs?country=PT&country=ES", "", "country"},
	} {
		r := h.Do(c.method, c.path, c.body, tok...)
		expectError(t, r, 400, "VALIDATION_ERROR")
		if got := detail(r); got != c.param {
			t.Errorf("%s %s: details name %q, want %q", c.method, c.path, got, c.param)
		}
	}
	many := "/api/v1/geo/cities?" + strings.Repeat("a=1&", 40)
	expectError(t, h.Do("GET", many, ""), 400, "VALIDATION_ERROR")
	// Declared parameters still work, and an empty query is no query.
	if r := h.Do("GET", "/api/v1/assets?category=equity&limit=5", "", tok...); r.Status != 200 {
		t.Fatalf("declared parameters: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("GET", "/api/v1/status?", ""); r.Status != 200 {
		t.Fatalf("empty query: %d %s", r.Status, r.Raw)
	}
}

// Request ids from two processes must not collide: each process's prefix
// carries 64 random bits, so a thousand prefixes are all different.
func TestRequestIDPrefixesDiffer(t *testing.T) {
	seen := map[[16]byte]bool{}
	for i := 0; i < 1000; i++ {
		p, err := idPrefix()
		if err != nil {
			t.Fatal(err)
		}
		if seen[p] {
			t.Fatalf("prefix %s repeated after %d processes", p[:], i)
		}
		seen[p] = true
		for _, ch := range p {
			if !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f') {
				t.Fatalf("prefix %q is not hex", p[:])
			}
		}
	}
}

// rawGet sends path exactly as written, with no client normalising it.
func (h *harness) rawGet(path string, headers ...string) *fasthttp.Response {
	h.T.Helper()
	return h.rawGetHost("fiplan.test", path, headers...)
}

// rawGetHost is rawGet with another Host.
func (h *harness) rawGetHost(host, path string, headers ...string) *fasthttp.Response {
	h.T.Helper()
	conn, err := h.LN.Dial()
	if err != nil {
		h.T.Fatal(err)
	}
	defer conn.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", path, host)
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(&b, "%s: %s\r\n", headers[i], headers[i+1])
	}
	b.WriteString("\r\n")
	if _, err := conn.Write([]byte(b.String())); err != nil {
		h.T.Fatal(err)
	}
	res := &fasthttp.Response{}
	if err := res.Read(bufio.NewReader(conn)); err != nil {
		h.T.Fatal(err)
	}
	return res
}

// A path that walks up or hides a slash never reaches another route: the
// router sees decoded, normalised paths, so the raw path is judged first.
func TestPathTricksAreRefused(t *testing.T) {
	h := newHarness(t)
	tok := "Bearer " + h.Token("alice", "free", "")
	for _, p := range []string{
		"/api/v1/geo/cities/..%2f..%2fuser%2fexport",
		"/api/v1/geo/cities/..%2F..%2Fuser%2Fexport",
		"/api/v1/geo/cities/../../user/export",
		"/api/v1/assets/%2e%2e/user/profile",
		"/api/v1/assets/.%2E/user/profile",
		"/api/v1/./user/export",
		"/api/v1/user/export/.",
		"/api/v1/assets/..",
		"/api/v1/assets/..%5cuser",
		"/api/v1/assets\\..\\user",
		"/app/../api/v1/user/export",
	} {
		res := h.rawGet(p, "Authorization", tok)
		if res.StatusCode() != 400 || !strings.Contains(string(res.Body()), `"code":"BAD_REQUEST"`) {
			t.Errorf("%s: %d %s", p, res.StatusCode(), res.Body())
		}
	}
	// Dots inside a name and encoded characters other than these pass;
	// what is then no city id is the id grammar's to refuse.
	for p, want := range map[string]int{
		"/api/v1/geo/cities/lisbon-pt":        200,
		"/api/v1/geo/cities/lisbon..pt":       400,
		"/api/v1/geo/cities/%6cisbon-pt":      200,
		"/api/v1/geo/cities/.well-known-city": 400,
		"/api/v1/geo/cities/atlantis-xx":      404,
	} {
		res := h.rawGet(p, "Authorization", tok)
		if res.StatusCode() != want || want == 400 && !strings.Contains(string(res.Body()), `"code":"VALIDATION_ERROR"`) {
			t.Errorf("%s: %d, want %d: %s", p, res.StatusCode(), want, res.Body())
		}
	}
}

// Anonymous IPv6 clients are counted per network: every address of one
// /64 (by default) draws on one bucket, so a host cannot spread its
// requests over the 2^64 addresses it is given. IPv4 counts per address.
func TestAnonymousIPv6ClientsCountByNetwork(t *testing.T) {
	get := func(h *harness, ip string) *resp {
		h.IP = ip
		return h.Do("GET", "/api/v1/geo/cities?limit=1", "")
	}
	spend := func(t *testing.T, h *harness, ips ...string) {
		t.Helper()
		for i, ip := range ips {
			if r := get(h, ip); r.Status != 200 || r.Header["Ratelimit-Remaining"] != strconv.Itoa(len(ips)-1-i) {
				t.Fatalf("%s: %d, RateLimit-Remaining %q, want 200 and %d", ip, r.Status, r.Header["Ratelimit-Remaining"], len(ips)-1-i)
			}
		}
	}
	for _, c := range []struct {
		bits          int
		shared, apart []string // shared spends a bucket, apart has its own each
	}{
		{0, []string{"2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"}, []string{"2001:db8:1:3::1", "2001:db8:2:2::1", "192.0.2.1", "192.0.2.2"}},
		{48, []string{"2001:db8:1:2::1", "2001:db8:1:ffff::2"}, []string{"2001:db8:2::1", "192.0.2.1"}},
		{128, []string{"2001:db8:1:2::1", "2001:db8:1:2::1"}, []string{"2001:db8:1:2::2", "2001:db8:1:2::3"}},
	} {
		t.Run(strconv.Itoa(c.bits), func(t *testing.T) {
			h := newHarness(t, withRates("2/1m", "off", "off"), func(cfg *Config) { cfg.RateIPv6Prefix = c.bits })
			spend(t, h, c.shared...)
			expectError(t, get(h, c.shared[0]), 429, errcode.RateLimited)
			for _, ip := range c.apart {
				if r := get(h, ip); r.Status != 200 || r.Header["Ratelimit-Remaining"] != "1" {
					t.Fatalf("%s: %d, RateLimit-Remaining %q: its own bucket is not fresh", ip, r.Status, r.Header["Ratelimit-Remaining"])
				}
			}
		})
	}
}
