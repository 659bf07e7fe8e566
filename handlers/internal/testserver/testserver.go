// Package testserver runs the real handlers.Server for the tests of every
// handlers package: over an in-memory listener with a movable clock, with
// helpers to sign tokens, send requests and check error envelopes. Every
// response it sees is checked against the server's OpenAPI document.
package testserver

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/data/store/postgres/pgtest"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/limit"
)

// Secret signs the session tokens of every harness.
var Secret = []byte("0123456789abcdef0123456789abcdef")

// Harness runs a Server over an in-memory listener with a movable clock.
type Harness struct {
	T      *testing.T
	S      *handlers.Server
	DB     *store.DB
	DBPath string
	LN     *fasthttputil.InmemoryListener
	mu     sync.Mutex
	now    time.Time
	IP     string // client address for the next requests
}

// Option changes the server's configuration before it is built.
type Option func(*handlers.Config)

// WithRates sets the three tiers' rate limits.
func WithRates(public, free, pro string) Option {
	return func(c *handlers.Config) {
		c.RatePublic, _ = limit.ParseRate(public)
		c.RateFree, _ = limit.ParseRate(free)
		c.RatePro, _ = limit.ParseRate(pro)
	}
}

// New starts a harness on a fresh store in t's temporary directory.
func New(t *testing.T, opts ...Option) *Harness {
	t.Helper()
	return Start(t, filepath.Join(t.TempDir(), "fiplan.db"), opts...)
}

// Start starts a harness on the bbolt store at dbPath.
func Start(t *testing.T, dbPath string, opts ...Option) *Harness {
	t.Helper()
	h := &Harness{T: t, DBPath: dbPath, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), IP: "192.0.2.1"}
	db, err := store.Open(dbPath, store.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h.DB = db
	v, err := auth.NewVerifier(auth.Config{Secret: Secret, CacheSize: 1000, Now: h.Clock})
	if err != nil {
		t.Fatal(err)
	}
	cfg := handlers.Config{Version: "test", DB: db, Verifier: v, Now: h.Clock}
	WithRates("60/1m", "600/1m", "6000/1m")(&cfg) // the documented defaults
	for _, o := range opts {
		o(&cfg)
	}
	s, err := handlers.New(cfg)
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
func (h *Harness) Clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

// Advance moves the clock by d.
func (h *Harness) Advance(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
}

// Token signs a session token at the harness clock.
func (h *Harness) Token(sub, tier, role string) string {
	h.T.Helper()
	tok, err := auth.Sign(Secret, auth.Claims{Sub: sub, Tier: tier, Role: role, TTL: time.Hour}, h.Clock())
	if err != nil {
		h.T.Fatal(err)
	}
	return tok
}

// Resp is one response: its status, headers, raw body and the body decoded
// as a JSON object.
type Resp struct {
	Status int
	Header map[string]string
	Raw    []byte
	Body   map[string]any
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

// Do sends one request; headers alternate name, value.
func (h *Harness) Do(method, path, body string, headers ...string) *Resp {
	h.T.Helper()
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	res := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseResponse(res)
	req.Header.SetMethod(method)
	req.SetRequestURI("http://fiplan.test" + path)
	if body != "" {
		req.Header.SetContentType("application/json")
		req.SetBodyString(body)
	}
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
	}, MaxResponseBodySize: 8 << 20}
	if err := c.DoTimeout(req, res, 10*time.Second); err != nil {
		h.T.Fatalf("%s %s: %v", method, path, err)
	}
	r := &Resp{Status: res.StatusCode(), Header: map[string]string{}, Raw: append([]byte(nil), res.Body()...)}
	for k, v := range res.Header.All() {
		r.Header[string(k)] = string(v)
	}
	Conform(h.T, h.S, method, path, r.Status, r.Raw)
	if len(r.Raw) > 0 {
		if err := json.Unmarshal(r.Raw, &r.Body); err != nil {
			h.T.Fatalf("%s %s: body is not a JSON object: %v\n%s", method, path, err, r.Raw)
		}
	}
	return r
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

// WithDB runs the server on db instead of the harness's own bbolt store.
func WithDB(db store.Store) Option { return func(c *handlers.Config) { c.DB = db } }

// PGStore is a PostgreSQL store in a fresh schema of FI_TEST_POSTGRES,
// closed when t ends; the caller skips when the variable is not set.
func PGStore(t *testing.T) store.Store {
	t.Helper()
	db, err := postgres.Open(context.Background(), pgtest.Schema(t, "fiplan_handlers_"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
