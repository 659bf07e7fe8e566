package handlers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// Every X-Forwarded-For line counts, in order: a client behind a trusted
// proxy cannot pick its rate-limit bucket by sending a header line of its
// own ahead of the one the proxy appends.
func TestClientIPJoinsEveryForwardedForLine(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.TrustedProxies = mustPrefixes("10.0.0.0/8") })
	ip := func(remote string, lines ...string) string {
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, tcpAddr(remote), nil)
		for _, l := range lines {
			rc.Request.Header.Add("X-Forwarded-For", l)
		}
		return addrString(h.S.clientIP(&rest.Ctx{RC: &rc}))
	}
	cases := []struct {
		remote string
		lines  []string
		want   string
	}{
		{"10.1.2.3", []string{"5.5.7.1", "6.6.6.8"}, "6.6.6.8"},
		{"10.1.2.3", []string{"5.5.7.1", "6.6.6.8, 10.2.2.2"}, "6.6.6.8"},
		{"10.1.2.3", []string{"5.5.7.1, 10.3.3.3", "10.2.2.2"}, "5.5.7.1"},
		{"10.1.2.3", []string{"5.5.7.1", "garbage", "10.2.2.2"}, "10.2.2.2"},
		{"203.0.113.5", []string{"5.5.7.1", "6.6.6.8"}, "203.0.113.5"},
	}
	for _, c := range cases {
		if got := ip(c.remote, c.lines...); got != c.want {
			t.Errorf("remote %s lines %q: got %s, want %s", c.remote, c.lines, got, c.want)
		}
	}

	// Through the chain: varying a leading line does not buy a new bucket.
	for i := range 3 {
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, tcpAddr("10.1.2.3"), nil)
		rc.Request.SetRequestURI("/api/v1/status")
		rc.Request.Header.Add("X-Forwarded-For", "5.5.7."+string(rune('1'+i)))
		rc.Request.Header.Add("X-Forwarded-For", "6.6.6.8")
		serve(t, h.S, &rc)
		if got, want := string(rc.Response.Header.Peek("RateLimit-Remaining")), string(rune('9'-i)); got != "5"+want {
			t.Fatalf("request %d: RateLimit-Remaining %q, want 5%s", i, got, want)
		}
	}
}

// A token without iat whose exp is more than an hour ahead is refused as
// UNAUTHORIZED with a message that says why.
func TestTokenWithoutIssuedAtIsHeldToOneHour(t *testing.T) {
	h := newHarness(t)
	now := h.Clock()
	sign := func(exp time.Duration) []string {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "alice", "exp": now.Add(exp).Unix()}).SignedString(testSecret)
		if err != nil {
			t.Fatal(err)
		}
		return bearer(tok)
	}
	if r := h.Do("GET", "/api/v1/user/api-keys", "", sign(50*time.Minute)...); r.Status != 200 {
		t.Fatalf("exp 50 min ahead without iat: %d %s", r.Status, r.Raw)
	}
	r := h.Do("GET", "/api/v1/user/api-keys", "", sign(3*time.Hour)...)
	expectError(t, r, 401, errcode.Unauthorized)
	if msg := r.Body["error"].(string); !strings.Contains(msg, "lifetime exceeds one hour") {
		t.Fatalf("message %q does not say why", msg)
	}
}

// newRequest builds a request context from a remote address, method, path and
// header lines (name, value, ...; a name may repeat).
func newRequest(method, path string, headers ...string) *fasthttp.RequestCtx {
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, tcpAddr("192.0.2.7"), nil)
	rc.Request.Header.SetMethod(method)
	rc.Request.SetRequestURI(path)
	for i := 0; i+1 < len(headers); i += 2 {
		rc.Request.Header.Add(headers[i], headers[i+1])
	}
	return &rc
}

// errCode is the error code of a response body, "" when there is none.
func errCode(rc *fasthttp.RequestCtx) string {
	var v struct{ Code string }
	json.Unmarshal(rc.Response.Body(), &v) //nolint:errcheck // "" on failure
	return v.Code
}

// Two Authorization headers are refused: which one counts would be a guess.
func TestSeveralAuthorizationHeadersAreRefused(t *testing.T) {
	h := newHarness(t)
	alice, bob := "Bearer "+h.Token("alice", "free", ""), "Bearer "+h.Token("bob", "pro", "")
	for _, path := range []string{"/api/v1/user/api-keys", "/api/v1/status"} {
		rc := newRequest("GET", path, "Authorization", alice, "Authorization", bob)
		serve(t, h.S, rc)
		if rc.Response.StatusCode() != 401 || errCode(rc) != errcode.Unauthorized || !strings.Contains(string(rc.Response.Body()), "one Authorization header") {
			t.Fatalf("%s with two Authorization headers: %d %s", path, rc.Response.StatusCode(), rc.Response.Body())
		}
	}
	rc := newRequest("GET", "/api/v1/user/api-keys", "Authorization", alice)
	serve(t, h.S, rc)
	if rc.Response.StatusCode() != 200 {
		t.Fatalf("one header: %d %s", rc.Response.StatusCode(), rc.Response.Body())
	}
}

// Every response says nosniff; every response to an authenticated request,
// and every 401, says no-store.
func TestSecurityHeaders(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	key := h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, tok...).Data()["key"].(string)
	cases := []struct {
		method, path string
		headers      []string
		status       int
		noStore      bool
	}{
		{"GET", "/api/v1/status", nil, 200, false},
		{"GET", "/api/v1/nope", nil, 404, false},
		{"DELETE", "/api/v1/status", nil, 405, false},
		{"GET", "/api/v1/user/api-keys", nil, 401, true},
		{"GET", "/api/v1/user/api-keys", []string{"Authorization", "Bearer nope"}, 401, true},
		{"GET", "/api/v1/user/api-keys", tok, 200, true},
		{"GET", "/api/v1/user/export", tok, 200, true},
		{"GET", "/api/v1/user/export", []string{"Authorization", "Bearer " + key}, 200, true},
		{"GET", "/api/v1/status", tok, 200, true},
		{"PUT", "/api/v1/features/x", tok, 403, true},
	}
	for _, c := range cases {
		body := ""
		if c.method == "PUT" {
			body = `{"enabled":true}`
		}
		r := h.Do(c.method, c.path, body, c.headers...)
		if r.Status != c.status {
			t.Fatalf("%s %s: status %d, want %d: %s", c.method, c.path, r.Status, c.status, r.Raw)
		}
		if got := r.Header["X-Content-Type-Options"]; got != "nosniff" {
			t.Errorf("%s %s %d: X-Content-Type-Options %q", c.method, c.path, r.Status, got)
		}
		if got := r.Header["Cache-Control"]; (got == "no-store") != c.noStore {
			t.Errorf("%s %s %d: Cache-Control %q, want no-store %v", c.method, c.path, r.Status, got, c.noStore)
		}
	}
	// An answer fasthttp could not route (a malformed request) says it too.
	res := h.Wire("GET /api/v1/status HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n")
	if res.StatusCode() != 400 || string(res.Header.Peek("X-Content-Type-Options")) != "nosniff" {
		t.Fatalf("malformed request: %d, nosniff %q", res.StatusCode(), res.Header.Peek("X-Content-Type-Options"))
	}
}

// Erasing an account needs a signed-in session: an API key, which may sit in
// a script or a CI secret, cannot delete everything.
func TestEraseNeedsASession(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	key := h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, tok...).Data()["key"].(string)
	r := h.Do("DELETE", "/api/v1/user", "", "Authorization", "Bearer "+key)
	expectError(t, r, 403, errcode.Forbidden)
	if r := h.Do("GET", "/api/v1/user/api-keys", "", tok...); r.Status != 200 || len(r.Body["data"].([]any)) != 1 {
		t.Fatalf("the refused erase removed data: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("DELETE", "/api/v1/user", "", tok...); r.Status != 204 {
		t.Fatalf("erase with a session: %d %s", r.Status, r.Raw)
	}
}

// Every operation's description says whether an API key is accepted, in
// line with the route's access rule.
func TestOpenAPISaysWhetherAPIKeysWork(t *testing.T) {
	h := newHarness(t)
	doc := loadOpenAPI(t, h)
	for _, r := range h.S.routes {
		op := doc.Raw["paths"].(map[string]any)[r.Path].(map[string]any)[strings.ToLower(r.Method)].(map[string]any)
		desc := op["description"].(string)
		accepted, refused := strings.Contains(desc, "API keys are accepted"), strings.Contains(desc, "API keys are refused")
		if r.Access == rest.Probe {
			if accepted || refused || !strings.Contains(desc, "no credentials are read") {
				t.Errorf("%s %s: a probe's description must say it reads no credentials: %q", r.Method, r.Path, desc)
			}
			continue
		}
		switch {
		case r.Access == rest.Session && !refused, r.Access != rest.Session && !accepted, accepted && refused:
			t.Errorf("%s %s (access %d): the description does not say whether API keys work: %q", r.Method, r.Path, r.Access, desc)
		}
		if r.Access == rest.Session {
			if _, ok := op["responses"].(map[string]any)["403"]; !ok {
				t.Errorf("%s %s: 403 for an API key is not documented", r.Method, r.Path)
			}
		}
	}
}

// A body is JSON or nothing: another media type, or an encoding the server
// does not decode, is 415 before the handler reads it.
func TestContentTypeIsEnforced(t *testing.T) {
	h := newHarness(t)
	tok := h.Token("alice", "free", "")
	calc := `{"currentAge":30,"annualIncome":50000,"annualExpenses":30000}`
	post := func(path, body string, headers ...string) *fasthttp.RequestCtx {
		rc := newRequest("POST", path, headers...)
		rc.Request.SetBodyString(body)
		serve(t, h.S, rc)
		return rc
	}
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "application/json-seq", "text/json"} {
		rc := post("/api/v1/calculator", calc, "Content-Type", ct)
		if rc.Response.StatusCode() != 415 || errCode(rc) != errcode.UnsupportedMedia {
			t.Errorf("Content-Type %q: %d %.200s", ct, rc.Response.StatusCode(), rc.Response.Body())
		}
	}
	for _, ce := range []string{"gzip", "br", "deflate", "identity, gzip"} {
		rc := post("/api/v1/calculator", calc, "Content-Type", "application/json", "Content-Encoding", ce)
		if rc.Response.StatusCode() != 415 || errCode(rc) != errcode.UnsupportedMedia {
			t.Errorf("Content-Encoding %q: %d %.200s", ce, rc.Response.StatusCode(), rc.Response.Body())
		}
	}
	for _, ct := range []string{"application/json", "Application/JSON", "application/json; charset=utf-8", "application/json;charset=UTF-8", " application/json "} {
		if rc := post("/api/v1/calculator", calc, "Content-Type", ct); rc.Response.StatusCode() != 200 {
			t.Errorf("Content-Type %q: %d %.200s", ct, rc.Response.StatusCode(), rc.Response.Body())
		}
	}
	if rc := post("/api/v1/calculator", calc, "Content-Type", "application/json", "Content-Encoding", "identity"); rc.Response.StatusCode() != 200 {
		t.Errorf("Content-Encoding identity: %d %.200s", rc.Response.StatusCode(), rc.Response.Body())
	}
	// A body sent without any Content-Type is read as JSON; no body and no
	// Content-Type reach the route, which judges the empty body.
	if rc := post("/api/v1/calculator", calc); rc.Response.StatusCode() != 200 {
		t.Errorf("no Content-Type: %d %.200s", rc.Response.StatusCode(), rc.Response.Body())
	}
	if rc := post("/api/v1/calculator", ""); rc.Response.StatusCode() != 400 || errCode(rc) != "INVALID_JSON" {
		t.Errorf("no body, no Content-Type: %d %.200s", rc.Response.StatusCode(), rc.Response.Body())
	}
	if rc := post("/api/v1/calculator", "", "Content-Type", "text/plain"); rc.Response.StatusCode() != 415 {
		t.Errorf("no body, text/plain: %d %.200s", rc.Response.StatusCode(), rc.Response.Body())
	}
	// A merge patch may say so.
	rc := newRequest("PATCH", "/api/v1/user/profile", "Authorization", "Bearer "+tok, "Content-Type", "application/merge-patch+json")
	rc.Request.SetBodyString(`{"currentAge":40}`)
	serve(t, h.S, rc)
	if rc.Response.StatusCode() != 200 {
		t.Errorf("merge-patch+json: %d %.200s", rc.Response.StatusCode(), rc.Response.Body())
	}
	// Methods without a body are not judged by their Content-Type.
	rc = newRequest("GET", "/api/v1/status", "Content-Type", "text/plain")
	serve(t, h.S, rc)
	if rc.Response.StatusCode() != 200 {
		t.Errorf("GET with text/plain: %d %.200s", rc.Response.StatusCode(), rc.Response.Body())
	}
}

// listen serves s on a real TCP listener on a free port and returns its
// address.
func listen(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.HTTP()
	go srv.Serve(s.Listen(ln)) //nolint:errcheck // ends when the listener closes
	t.Cleanup(func() { _ = srv.Shutdown() })
	return ln.Addr().String()
}

// rawExchange writes raw bytes to addr and reads one response.
func rawExchange(t *testing.T, addr, raw string) *fasthttp.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return exchange(t, conn, raw)
}

func resCode(res *fasthttp.Response) string {
	var v struct{ Code string }
	json.Unmarshal(res.Body(), &v) //nolint:errcheck // "" on failure
	return v.Code
}

// Request-smuggling shapes are refused as RFC 9112 says, and the
// connection is closed behind them.
func TestMessageFramingIsStrict(t *testing.T) {
	h := newHarness(t)
	addr := listen(t, h.S)
	const calc = `{"currentAge":30,"annualIncome":50000,"annualExpenses":30000}`
	chunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(calc), calc)
	head := "POST /api/v1/calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
	for name, raw := range map[string]string{
		"chunked and Content-Length":   head + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n" + chunked,
		"Content-Length and chunked":   head + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked,
		"identity":                     head + fmt.Sprintf("Transfer-Encoding: identity\r\nContent-Length: %d\r\n\r\n", len(calc)) + calc,
		"gzip, chunked":                head + "Transfer-Encoding: gzip, chunked\r\n\r\n" + chunked,
		"two Transfer-Encoding lines":  head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked,
		"HTTP/2.0":                     "GET /api/v1/status HTTP/2.0\r\nHost: x\r\n\r\n",
		"HTTP/1.2":                     "GET /api/v1/status HTTP/1.2\r\nHost: x\r\n\r\n",
		"HTTP/3.0":                     "GET /api/v1/status HTTP/3.0\r\nHost: x\r\n\r\n",
		"HTTP/1.0 with chunked":        "POST /api/v1/calculator HTTP/1.0\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked,
		"Transfer-Encoding on a GET":   "GET /api/v1/status HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n0\r\n\r\n",
		"two different Content-Length": head + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n" + calc,
	} {
		res := rawExchange(t, addr, raw)
		if res.StatusCode() != 400 || resCode(res) != errcode.BadRequest || !res.ConnectionClose() {
			t.Errorf("%s: %d close=%v %.200s", name, res.StatusCode(), res.ConnectionClose(), res.Body())
		}
		if len(res.Header.Peek("X-Request-ID")) == 0 {
			t.Errorf("%s: no X-Request-ID", name)
		}
	}
	// Well-framed requests still pass: chunked alone, Content-Length alone,
	// HTTP/1.0.
	for name, raw := range map[string]string{
		"chunked":        head + "Transfer-Encoding: chunked\r\n\r\n" + chunked,
		"Content-Length": head + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(calc)) + calc,
		"HTTP/1.0":       "GET /api/v1/status HTTP/1.0\r\n\r\n",
	} {
		if res := rawExchange(t, addr, raw); res.StatusCode() != 200 {
			t.Errorf("%s: %d %.200s", name, res.StatusCode(), res.Body())
		}
	}
}

// A long URI is 414 and long headers are 431, each in the envelope and
// saying which limit was passed.
func TestOversizedRequestHeads(t *testing.T) {
	h := newHarness(t)
	addr := listen(t, h.S)
	get := func(uri string, headers ...string) *fasthttp.Response {
		var b strings.Builder
		b.WriteString("GET " + uri + " HTTP/1.1\r\nHost: x\r\n")
		for i := 0; i+1 < len(headers); i += 2 {
			b.WriteString(headers[i] + ": " + headers[i+1] + "\r\n")
		}
		b.WriteString("\r\n")
		return rawExchange(t, addr, b.String())
	}
	pad := func(n int) string { return strings.Repeat("a", n) }
	for _, c := range []struct {
		name    string
		res     *fasthttp.Response
		status  int
		code    string
		message string
	}{
		{"9 KB URI", get("/api/v1/geo/cities?q=" + pad(9000)), 414, errcode.URITooLong, "URI is longer than 8192 bytes"},
		{"9 KB header", get("/api/v1/status", "X-Pad", pad(9000)), 431, errcode.HeaderTooLarge, "headers are larger than 8192 bytes"},
		{"many headers", get("/api/v1/status", "X-A", pad(3000), "X-B", pad(3000), "X-C", pad(3000)), 431, errcode.HeaderTooLarge, "headers are larger than 8192 bytes"},
		{"20 KB header", get("/api/v1/status", "X-Pad", pad(20000)), 431, errcode.HeaderTooLarge, "larger than 16384 bytes"},
		{"8000-byte token", get("/api/v1/user/api-keys", "Authorization", "Bearer "+pad(8000)), 431, errcode.HeaderTooLarge, "Authorization header is longer than 4096 bytes"},
	} {
		if c.res.StatusCode() != c.status || resCode(c.res) != c.code || !strings.Contains(string(c.res.Body()), c.message) {
			t.Errorf("%s: %d %.300s, want %d %s %q", c.name, c.res.StatusCode(), c.res.Body(), c.status, c.code, c.message)
		}
		if len(c.res.Header.Peek("X-Request-ID")) == 0 {
			t.Errorf("%s: no X-Request-ID", c.name)
		}
	}
	// Under the limits a request is judged on its merits.
	if res := get("/api/v1/status?"+pad(7000), "X-Pad", pad(7000)); res.StatusCode() != 400 || resCode(res) != errcode.Validation {
		t.Errorf("7 KB URI and header: %d %.300s", res.StatusCode(), res.Body())
	}
}

// An oversized body gets its 413 even when the client is still sending:
// the server reads and discards the rest (up to a bound) before closing,
// so the close does not reset the connection under the client's read.
func TestPayloadTooLargeReachesTheClient(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	addr := listen(t, h.S)
	body := strings.Repeat(" ", 1400<<10)
	req := fmt.Sprintf("POST /api/v1/calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	const tries, parallel = 50, 10
	errs := make(chan string, tries)
	sem := make(chan struct{}, parallel)
	for i := range tries {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err.Error()
				return
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(15 * time.Second)) //nolint:errcheck // a late answer fails the read
			// A small send buffer, as across a real network: the body is
			// still on its way when the server has answered. As most
			// clients do, send the whole request, then read.
			conn.(*net.TCPConn).SetWriteBuffer(32 << 10) //nolint:errcheck // the default only makes the test weaker
			if _, err := conn.Write([]byte(req)); err != nil {
				errs <- fmt.Sprintf("try %d: write: %v", i, err)
				return
			}
			var res fasthttp.Response
			if err := res.Read(bufio.NewReader(conn)); err != nil {
				errs <- fmt.Sprintf("try %d: %v", i, err)
				return
			}
			if res.StatusCode() != 413 || resCode(&res) != errcode.PayloadTooLarge {
				errs <- fmt.Sprintf("try %d: %d %.200s", i, res.StatusCode(), res.Body())
				return
			}
			errs <- ""
		}()
	}
	failed := 0
	for range tries {
		if e := <-errs; e != "" {
			failed++
			t.Log(e)
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d oversized POSTs did not receive their 413", failed, tries)
	}
	// A client that waits for 100 Continue has sent nothing to drain: its
	// answer comes at once.
	began := time.Now()
	res := rawExchange(t, addr, "POST /api/v1/calculator HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\n\r\n")
	if res.StatusCode() != 413 || resCode(res) != errcode.PayloadTooLarge || time.Since(began) > 900*time.Millisecond {
		t.Fatalf("Expect: 100-continue: %d after %v", res.StatusCode(), time.Since(began))
	}
}

// HEAD is GET without the body; OPTIONS lists the methods.
func TestHeadAndOptions(t *testing.T) {
	h := newHarness(t)
	get := h.Do("GET", "/api/v1/status", "")
	head := h.Do("HEAD", "/api/v1/status", "")
	if head.Status != 200 || len(head.Raw) != 0 {
		t.Fatalf("HEAD: %d %q", head.Status, head.Raw)
	}
	for _, k := range []string{"Content-Type", "Content-Length", "X-Content-Type-Options", "Ratelimit-Limit"} {
		if head.Header[k] == "" || head.Header[k] != get.Header[k] {
			t.Errorf("HEAD %s %q, GET %q", k, head.Header[k], get.Header[k])
		}
	}
	if r := h.Do("HEAD", "/api/v1/user/profile", ""); r.Status != 401 || len(r.Raw) != 0 {
		t.Errorf("HEAD without credentials: %d %q", r.Status, r.Raw)
	}
	if r := h.Do("HEAD", "/api/v1/calculator", ""); r.Status != 405 || r.Header["Allow"] != "POST, OPTIONS" {
		t.Errorf("HEAD on a POST route: %d Allow %q", r.Status, r.Header["Allow"])
	}
	for path, allow := range map[string]string{
		"/api/v1/status":           "GET, HEAD, OPTIONS",
		"/api/v1/assets":           "GET, HEAD, POST, OPTIONS",
		"/api/v1/assets/x":         "GET, HEAD, PUT, PATCH, DELETE, OPTIONS",
		"/api/v1/user/api-keys/x":  "DELETE, OPTIONS",
		"/api/v1/user/profile":     "GET, HEAD, PUT, PATCH, OPTIONS",
		"/api/v1/portfolio-health": "POST, OPTIONS",
	} {
		r := h.Do("OPTIONS", path, "")
		if r.Status != 204 || r.Header["Allow"] != allow || len(r.Raw) != 0 {
			t.Errorf("OPTIONS %s: %d Allow %q, want 204 %q", path, r.Status, r.Header["Allow"], allow)
		}
		if r.Header["Access-Control-Allow-Origin"] != "" || r.Header["Vary"] != "" {
			t.Errorf("OPTIONS %s: CORS headers without CORS configured: %v", path, r.Header)
		}
	}
	expectError(t, h.Do("OPTIONS", "/api/v1/nope", ""), 404, errcode.EndpointNotFound)
	if r := h.Do("DELETE", "/api/v1/status", ""); r.Header["Allow"] != "GET, HEAD, OPTIONS" {
		t.Errorf("405 Allow %q", r.Header["Allow"])
	}
}

// CORS answers exactly the configured origins, preflight included, and
// never with a wildcard.
func TestCORS(t *testing.T) {
	const app = "https://app.example"
	h := newHarness(t, func(c *Config) { c.CORSOrigins = []string{app, "http://localhost:3000"} })
	pre := h.Do("OPTIONS", "/api/v1/assets", "", "Origin", app, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type")
	want := map[string]string{
		"Access-Control-Allow-Origin":  app,
		"Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
		"Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key, If-Match, X-Request-ID",
		"Access-Control-Max-Age":       "600",
		"Vary":                         "Origin",
		"Allow":                        "GET, HEAD, POST, OPTIONS",
	}
	if pre.Status != 204 {
		t.Fatalf("preflight: %d %s", pre.Status, pre.Raw)
	}
	for k, v := range want {
		if pre.Header[k] != v {
			t.Errorf("preflight %s %q, want %q", k, pre.Header[k], v)
		}
	}
	if pre.Header["Access-Control-Allow-Credentials"] != "" {
		t.Errorf("credentials mode allowed: %v", pre.Header)
	}
	// Actual requests, errors included, echo the origin and expose headers.
	for _, r := range []*resp{h.Do("GET", "/api/v1/status", "", "Origin", app), h.Do("GET", "/api/v1/user/profile", "", "Origin", app), h.Do("GET", "/api/v1/nope", "", "Origin", app)} {
		if r.Header["Access-Control-Allow-Origin"] != app || r.Header["Vary"] != "Origin" {
			t.Errorf("%d: CORS headers %v", r.Status, r.Header)
		}
		exp := r.Header["Access-Control-Expose-Headers"]
		for _, name := range []string{"ETag", "Idempotent-Replayed", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "X-Request-ID"} {
			if !strings.Contains(exp, name) {
				t.Errorf("%d: %s not exposed: %q", r.Status, name, exp)
			}
		}
	}
	// Another origin gets no grant, but caches still learn the answer
	// depends on Origin.
	for _, origin := range []string{"https://evil.example", "https://app.example.evil", "null", "https://APP.example:443"} {
		r := h.Do("OPTIONS", "/api/v1/assets", "", "Origin", origin, "Access-Control-Request-Method", "POST")
		if r.Status != 204 || r.Header["Access-Control-Allow-Origin"] != "" || r.Header["Access-Control-Allow-Methods"] != "" || r.Header["Vary"] != "Origin" {
			t.Errorf("preflight from %s: %d %v", origin, r.Status, r.Header)
		}
		if r := h.Do("GET", "/api/v1/status", "", "Origin", origin); r.Header["Access-Control-Allow-Origin"] != "" {
			t.Errorf("GET from %s: %v", origin, r.Header)
		}
	}
}

// logLines collects the JSON log lines a server writes.
type logLines struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// requests returns the access-log records written so far and forgets them.
func (l *logLines) requests(t *testing.T) []map[string]any {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] == "request" {
			out = append(out, rec)
		}
	}
	l.b.Reset()
	return out
}

func withLog(l *logLines, mode AccessLog) option {
	return func(c *Config) {
		c.Logger = slog.New(slog.NewJSONHandler(l, nil))
		c.AccessLog = mode
	}
}

func TestAccessLogModes(t *testing.T) {
	for _, c := range []struct {
		mode AccessLog
		want []float64 // statuses logged of 200, 404, 401
	}{
		{AccessAll, []float64{200, 404, 401}},
		{AccessErrors, []float64{404, 401}},
		{AccessOff, nil},
	} {
		var l logLines
		h := newHarness(t, withLog(&l, c.mode))
		h.Do("GET", "/api/v1/status", "")
		h.Do("GET", "/api/v1/nope", "")
		h.Do("GET", "/api/v1/user/profile", "")
		var got []float64
		for _, rec := range l.requests(t) {
			got = append(got, rec["status"].(float64))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("mode %d logged %v, want %v", c.mode, got, c.want)
		}
	}
	for in, want := range map[string]AccessLog{"all": AccessAll, "errors": AccessErrors, "off": AccessOff} {
		if got, err := ParseAccessLog(in); err != nil || got != want {
			t.Errorf("ParseAccessLog(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "none", "ALL", "error"} {
		if _, err := ParseAccessLog(bad); err == nil {
			t.Errorf("ParseAccessLog(%q) accepted", bad)
		}
	}
}

// A 429 flood writes one line per client per 10 s, and the next line
// counts what was left out.
func TestAccessLogSamplesRateLimitedFloods(t *testing.T) {
	var l logLines
	h := newHarness(t, withRates("2/1m", "off", "off"), withLog(&l, AccessAll))
	for range 10 {
		h.Do("GET", "/api/v1/status", "")
	}
	h.IP = "192.0.2.99"
	for range 5 {
		h.Do("GET", "/api/v1/status", "")
	}
	count := func(recs []map[string]any) (ok, limited int, suppressed []float64) {
		for _, rec := range recs {
			switch rec["status"].(float64) {
			case 200:
				ok++
			case 429:
				limited++
				if n, found := rec["suppressed"]; found {
					suppressed = append(suppressed, n.(float64))
				}
			}
		}
		return
	}
	ok, limited, suppressed := count(l.requests(t))
	if ok != 4 || limited != 2 || len(suppressed) != 0 {
		t.Fatalf("first window: %d ok, %d limited lines (suppressed %v), want 4 and one per client", ok, limited, suppressed)
	}
	h.Advance(11 * time.Second)
	h.IP = "192.0.2.1"
	h.Do("GET", "/api/v1/status", "")
	if _, limited, suppressed := count(l.requests(t)); limited != 1 || !slices.Equal(suppressed, []float64{7}) {
		t.Fatalf("after 10 s: %d limited lines, suppressed %v, want one line counting 7", limited, suppressed)
	}
	// A client that stops is forgotten, and what was left out is told.
	h.Do("GET", "/api/v1/status", "")
	h.Do("GET", "/api/v1/status", "")
	h.S.floods.sweep(h.Clock().Add(11*time.Second), h.S.log)
	l.mu.Lock()
	out := l.b.String()
	l.mu.Unlock()
	if !strings.Contains(out, `"msg":"rate-limited requests not logged","client":"192.0.2.1","suppressed":2`) {
		t.Fatalf("the sweep does not report the left-out lines:\n%s", out)
	}
	if len(h.S.floods.clients) != 0 {
		t.Fatalf("%d clients still tracked after the sweep", len(h.S.floods.clients))
	}
}
