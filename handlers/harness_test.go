package handlers

import (
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
	"fiplan/handlers/auth"
	"fiplan/handlers/limit"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// harness runs a Server over an in-memory listener with a movable clock.
type harness struct {
	t      *testing.T
	s      *Server
	db     *store.DB
	dbPath string
	ln     *fasthttputil.InmemoryListener
	mu     sync.Mutex
	now    time.Time
	ip     string // client address for the next requests
}

type option func(*Config)

func withRates(public, free, pro string) option {
	return func(c *Config) {
		c.RatePublic, _ = limit.ParseRate(public)
		c.RateFree, _ = limit.ParseRate(free)
		c.RatePro, _ = limit.ParseRate(pro)
	}
}

func newHarness(t *testing.T, opts ...option) *harness {
	t.Helper()
	return startHarness(t, filepath.Join(t.TempDir(), "fiplan.db"), opts...)
}

func startHarness(t *testing.T, dbPath string, opts ...option) *harness {
	t.Helper()
	h := &harness{t: t, dbPath: dbPath, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), ip: "192.0.2.1"}
	db, err := store.Open(dbPath, store.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h.db = db
	v, err := auth.NewVerifier(auth.Config{Secret: testSecret, CacheSize: 1000, Now: h.clock})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Version: "test", DB: db, Verifier: v, Now: h.clock}
	withRates("60/1m", "600/1m", "6000/1m")(&cfg) // the documented defaults
	for _, o := range opts {
		o(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
	h.ln = fasthttputil.NewInmemoryListener()
	srv := s.HTTP()
	go srv.Serve(h.ln) //nolint:errcheck // ends when the listener closes
	t.Cleanup(func() {
		h.ln.Close()
		s.Close()
		v.Close()
		db.Close()
	})
	return h
}

func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	h.now = h.now.Add(d)
	h.mu.Unlock()
}

// token signs a session token at the harness clock.
func (h *harness) token(sub, tier, role string) string {
	h.t.Helper()
	tok, err := auth.Sign(testSecret, auth.Claims{Sub: sub, Tier: tier, Role: role, TTL: time.Hour}, h.clock())
	if err != nil {
		h.t.Fatal(err)
	}
	return tok
}

type resp struct {
	status int
	header map[string]string
	raw    []byte
	body   map[string]any
}

func (r *resp) code() string {
	c, _ := r.body["code"].(string)
	return c
}

func (r *resp) data() map[string]any {
	d, _ := r.body["data"].(map[string]any)
	return d
}

// do sends one request; headers alternate name, value.
func (h *harness) do(method, path, body string, headers ...string) *resp {
	h.t.Helper()
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
	ip := h.ip
	c := &fasthttp.Client{Dial: func(string) (net.Conn, error) {
		return h.ln.DialWithLocalAddr(&net.TCPAddr{IP: net.ParseIP(ip), Port: 40000})
	}, MaxResponseBodySize: 8 << 20}
	if err := c.DoTimeout(req, res, 10*time.Second); err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	r := &resp{status: res.StatusCode(), header: map[string]string{}, raw: append([]byte(nil), res.Body()...)}
	for k, v := range res.Header.All() {
		r.header[string(k)] = string(v)
	}
	conform(h.t, h.s, method, path, r.status, r.raw)
	if len(r.raw) > 0 {
		if err := json.Unmarshal(r.raw, &r.body); err != nil {
			h.t.Fatalf("%s %s: body is not a JSON object: %v\n%s", method, path, err, r.raw)
		}
	}
	return r
}

// expectError checks an error envelope.
func expectError(t *testing.T, r *resp, status int, code string) {
	t.Helper()
	if r.status != status || r.code() != code {
		t.Fatalf("got %d %q, want %d %q: %s", r.status, r.code(), status, code, r.raw)
	}
	if r.body["success"] != false {
		t.Fatalf("success is not false: %s", r.raw)
	}
	if msg, _ := r.body["error"].(string); msg == "" {
		t.Fatalf("no error message: %s", r.raw)
	}
	if r.header["X-Request-Id"] == "" {
		t.Fatalf("no X-Request-ID on %s", r.raw)
	}
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }
