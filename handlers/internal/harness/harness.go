// Package harness is the one test harness of the handlers packages: a
// server over an in-memory listener with a movable clock, helpers to sign
// tokens, send requests and check error envelopes, and the check of every
// response against the server's OpenAPI document. It does not build the
// server (it cannot import package handlers, whose own tests use it):
// package handlers' tests build theirs with New, every other package's
// through handlers/internal/testserver.
package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/data/store/postgres/pgtest"
	"fiplan/handlers/auth"
)

// Secret signs the session tokens of every harness.
var Secret = []byte("0123456789abcdef0123456789abcdef")

// Server is what the harness needs of a handlers.Server.
type Server interface {
	HTTP() *fasthttp.Server
	Serve(*fasthttp.RequestCtx)
	OpenAPI() []byte
	RouteOf(method, path string) (routeMethod, template string)
	Close()
}

// Harness runs a Server over an in-memory listener with a movable clock.
type Harness[S Server] struct {
	T      *testing.T
	S      S
	DB     *store.DB
	DBPath string
	LN     *fasthttputil.InmemoryListener
	mu     sync.Mutex
	now    time.Time
	IP     string // client address for the next requests
}

// Build makes the server on db, verifying tokens with v, reading the time
// from clock.
type Build[S Server] func(db *store.DB, v *auth.Verifier, clock func() time.Time) (S, error)

// Start opens the bbolt store at dbPath, builds the server on it and
// serves it until t ends; the clock starts at 2026-11-21 12:00 UTC.
func Start[S Server](t *testing.T, dbPath string, build Build[S]) *Harness[S] {
	t.Helper()
	h := &Harness[S]{T: t, DBPath: dbPath, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), IP: "192.0.2.1"}
	db, err := store.Open(dbPath, store.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h.DB = db
	v, err := auth.NewVerifier(auth.Config{Secret: Secret, CacheSize: 1000, Now: h.Clock})
	if err != nil {
		t.Fatal(err)
	}
	s, err := build(db, v, h.Clock)
	if err != nil {
		t.Fatal(err)
	}
	h.S = s
	h.LN = fasthttputil.NewInmemoryListener()
	srv := s.HTTP()
	go srv.Serve(h.LN) //nolint:errcheck // ends when the listener closes
	t.Cleanup(func() {
		h.LN.Close()
		s.Close()
		v.Close()
		db.Close()
	})
	return h
}

// Clock is the harness's time.
func (h *Harness[S]) Clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

// Advance moves the clock by d.
func (h *Harness[S]) Advance(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
}

// Token signs a session token at the harness clock.
func (h *Harness[S]) Token(sub, tier, role string) string {
	h.T.Helper()
	tok, err := auth.Sign(Secret, auth.Claims{Sub: sub, Tier: tier, Role: role, TTL: time.Hour}, h.Clock())
	if err != nil {
		h.T.Fatal(err)
	}
	return tok
}

// Resp is one response: its status, headers, the values of the cookies it
// sets, its raw body and (from Do) the body decoded as a JSON object.
type Resp struct {
	Status  int
	Header  map[string]string
	Cookies map[string]string
	Raw     []byte
	Body    map[string]any
}

// Code is the error code of an error envelope.
func (r *Resp) Code() string {
	c, _ := r.Body["code"].(string)
	return c
}

// Data is the data object of a success envelope.
func (r *Resp) Data() map[string]any {
	d, _ := r.Body["data"].(map[string]any)
	return d
}

// ContentType is the response's Content-Type.
func (r *Resp) ContentType() string { return r.Header["Content-Type"] }

// Do sends one request with a JSON body (when body is not empty), checks
// the response against the OpenAPI document and decodes it as a JSON
// object; headers alternate name, value.
func (h *Harness[S]) Do(method, path, body string, headers ...string) *Resp {
	h.T.Helper()
	if body != "" {
		headers = append([]string{"Content-Type", "application/json"}, headers...)
	}
	r := h.Send(method, path, body, headers...)
	Conform(h.T, h.S, method, path, r.Status, r.Raw)
	if len(r.Raw) > 0 {
		if err := json.Unmarshal(r.Raw, &r.Body); err != nil {
			h.T.Fatalf("%s %s: body is not a JSON object: %v\n%s", method, path, err, r.Raw)
		}
	}
	return r
}

// Send sends one request as written, from the harness's client address,
// and returns the response unjudged: for the pages, forms and files that
// are not the API's JSON. Headers alternate name, value; a Cookie header's
// value is one cookie, name=value.
func (h *Harness[S]) Send(method, path, body string, headers ...string) *Resp {
	h.T.Helper()
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	res := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(res)
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
	}, MaxResponseBodySize: 64 << 20}
	if err := c.DoTimeout(req, res, 10*time.Second); err != nil {
		h.T.Fatalf("%s %s: %v", method, path, err)
	}
	r := &Resp{Status: res.StatusCode(), Header: map[string]string{}, Cookies: map[string]string{}, Raw: append([]byte(nil), res.Body()...)}
	for k, v := range res.Header.All() {
		r.Header[string(k)] = string(v)
	}
	for k, v := range res.Header.Cookies() {
		var ck fasthttp.Cookie
		if err := ck.ParseBytes(v); err != nil {
			h.T.Fatalf("%s %s: Set-Cookie %q: %v", method, path, v, err)
		}
		r.Cookies[string(k)] = string(ck.Value())
	}
	return r
}

// Wire writes raw, a request exactly as given (no client normalising its
// path or completing its body), on a new connection to the server and
// reads one response.
func (h *Harness[S]) Wire(raw string) *fasthttp.Response {
	h.T.Helper()
	conn, err := h.LN.Dial()
	if err != nil {
		h.T.Fatal(err)
	}
	defer conn.Close()
	return Exchange(h.T, conn, raw)
}

// Exchange writes raw on conn and reads one response.
func Exchange(tb testing.TB, conn net.Conn, raw string) *fasthttp.Response {
	tb.Helper()
	conn.SetDeadline(time.Now().Add(10 * time.Second)) //nolint:errcheck // a late answer fails the read
	if _, err := conn.Write([]byte(raw)); err != nil {
		tb.Fatal(err)
	}
	res := &fasthttp.Response{}
	if err := res.Read(bufio.NewReader(conn)); err != nil {
		tb.Fatalf("%.80q: %v", raw, err)
	}
	return res
}

// ExpectError checks an error envelope.
func ExpectError(t *testing.T, r *Resp, status int, code string) {
	t.Helper()
	if r.Status != status || r.Code() != code {
		t.Fatalf("got %d %q, want %d %q: %s", r.Status, r.Code(), status, code, r.Raw)
	}
	if r.Body["success"] != false {
		t.Fatalf("success is not false: %s", r.Raw)
	}
	if msg, _ := r.Body["error"].(string); msg == "" {
		t.Fatalf("no error message: %s", r.Raw)
	}
	if r.Header["X-Request-Id"] == "" {
		t.Fatalf("no X-Request-ID on %s", r.Raw)
	}
}

// Bearer is the Authorization header carrying tok, as Do takes headers.
func Bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

// PGStore is a PostgreSQL store in a fresh schema of FI_TEST_POSTGRES,
// dropped when t ends; without FI_TEST_POSTGRES the test is skipped.
func PGStore(t *testing.T) store.Store { return PG(t, "") }

// PG opens PostgreSQL in a fresh schema of FI_TEST_POSTGRES with the
// connection parameters params adds (such as "&pool_max_conns=1"), closed
// when tb ends and its schema dropped; without FI_TEST_POSTGRES the test
// is skipped.
func PG(tb testing.TB, params string) *postgres.DB {
	tb.Helper()
	db, err := postgres.Open(context.Background(), pgtest.Schema(tb, "fiplan_handlers_")+params)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}
