package auth

import (
	"bytes"
	"crypto/ed25519"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// jwksServer serves a replaceable document over TLS and counts requests.
type jwksServer struct {
	*httptest.Server
	doc    atomic.Pointer[[]byte]
	status atomic.Int32
	hits   atomic.Int64
}

func newJWKSServer(t *testing.T, doc []byte) *jwksServer {
	s := &jwksServer{}
	s.set(doc)
	s.status.Store(http.StatusOK)
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(s.status.Load()))
		_, _ = w.Write(*s.doc.Load())
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jwksServer) set(doc []byte) { s.doc.Store(&doc) }

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestURLUnknownKidRefetch(t *testing.T) {
	k := keys(t)
	srv := newJWKSServer(t, jwksDoc(jwkRSA(&k.rsa.PublicKey, "k1")))
	clk := newClock(t0)
	v := newTestVerifier(t, Config{JWKS: srv.URL + "/jwks.json", Client: srv.Client(), Now: clk.Now, CacheSize: 100})
	if n := srv.hits.Load(); n != 1 {
		t.Fatalf("%d fetches at start, want 1", n)
	}
	c := claims(t0)
	c["exp"] = t0.Add(time.Hour).Unix()
	delete(c, "iat")
	tok1 := []byte(sign(t, jwt.SigningMethodRS256, k.rsa, "k1", c))
	tok2 := []byte(sign(t, jwt.SigningMethodES256, k.ec, "k2", c))
	tok3 := []byte(sign(t, jwt.SigningMethodEdDSA, k.ed, "k3", c))
	verifyAndCache(t, v, tok1)

	// Rotation: k1 retired, k2 added. Within 30 s of the last fetch an unknown
	// kid does not refetch.
	srv.set(jwksDoc(jwkEC(&k.ec.PublicKey, "k2")))
	clk.Add(10 * time.Second)
	wantInvalid(t, v, string(tok2))
	if n := srv.hits.Load(); n != 1 {
		t.Fatalf("%d fetches, want 1 (rate limit)", n)
	}
	clk.Add(21 * time.Second)
	if p := wantOK(t, v, string(tok2)); p.User != "alice" {
		t.Fatal(p)
	}
	if n := srv.hits.Load(); n != 2 {
		t.Fatalf("%d fetches, want 2", n)
	}
	// The retired key's cached token is no longer honoured.
	wantInvalid(t, v, string(tok1))

	// Unknown kid flood: one refetch per 30 s at most.
	for range 20 {
		wantInvalid(t, v, string(tok3))
	}
	if n := srv.hits.Load(); n != 2 {
		t.Fatalf("%d fetches after flood, want 2", n)
	}
	clk.Add(31 * time.Second)
	for range 20 {
		wantInvalid(t, v, string(tok3))
	}
	if n := srv.hits.Load(); n != 3 {
		t.Fatalf("%d fetches after second flood, want 3", n)
	}

	// A known kid with the wrong key type is invalid without a refetch.
	clk.Add(31 * time.Second)
	wantInvalid(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "k2", c))
	if n := srv.hits.Load(); n != 3 {
		t.Fatalf("%d fetches after wrong-type kid, want 3", n)
	}
}

func TestURLPeriodicRefreshKeepsOldSetOnFailure(t *testing.T) {
	k := keys(t)
	srv := newJWKSServer(t, jwksDoc(jwkEd(k.ed.Public().(ed25519.PublicKey), "e1")))
	var logs syncBuffer
	v := newTestVerifier(t, Config{JWKS: srv.URL, Client: srv.Client(), Refresh: 5 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	tok := sign(t, jwt.SigningMethodEdDSA, k.ed, "e1", claims(t0))
	wantOK(t, v, tok)

	srv.set([]byte("{not json"))
	waitFor(t, func() bool { return strings.Contains(logs.String(), "cannot parse JWKS") })
	wantOK(t, v, tok)

	srv.set(jwksDoc(jwkEd(k.ed.Public().(ed25519.PublicKey), "e1")))
	srv.status.Store(http.StatusInternalServerError)
	waitFor(t, func() bool { return strings.Contains(logs.String(), "500") })
	wantOK(t, v, tok)
	if !strings.Contains(logs.String(), "level=WARN") {
		t.Fatalf("no warning logged: %s", logs.String())
	}

	// A successful refresh that drops the key takes effect.
	srv.status.Store(http.StatusOK)
	srv.set(jwksDoc(jwkEC(&k.ec.PublicKey, "c1")))
	waitFor(t, func() bool { _, err := v.Verify([]byte(tok)); return err != nil })
	v.Close()
	n := srv.hits.Load()
	time.Sleep(30 * time.Millisecond)
	if srv.hits.Load() != n {
		t.Fatal("refresh goroutine still running after Close")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// pad returns doc padded with spaces (still valid JSON) to exactly n bytes.
func pad(doc []byte, n int) []byte {
	return append(doc, bytes.Repeat([]byte(" "), n-len(doc))...)
}

func TestJWKSSizeLimit(t *testing.T) {
	k := keys(t)
	doc := jwksDoc(jwkRSA(&k.rsa.PublicKey, "k1"))
	srv := newJWKSServer(t, pad(doc, 1<<20))
	v, err := NewVerifier(Config{JWKS: srv.URL, Client: srv.Client()})
	if err != nil {
		t.Fatalf("exactly 1 MiB refused: %v", err)
	}
	v.Close()

	srv.set(pad(doc, 1<<20+1))
	if _, err := NewVerifier(Config{JWKS: srv.URL, Client: srv.Client()}); err == nil ||
		!strings.Contains(err.Error(), "cannot read JWKS") || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("over 1 MiB: %v", err)
	}
	// Same without Content-Length (chunked).
	chunked := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 5 {
			_, _ = w.Write(bytes.Repeat([]byte(" "), 300<<10))
			w.(http.Flusher).Flush()
		}
	}))
	defer chunked.Close()
	if _, err := NewVerifier(Config{JWKS: chunked.URL, Client: chunked.Client()}); err == nil || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("chunked over 1 MiB: %v", err)
	}
	// And from a file.
	if _, err := NewVerifier(Config{JWKS: writeJWKS(t, pad(doc, 1<<20+1))}); err == nil || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("file over 1 MiB: %v", err)
	}
}

func TestJWKSRedirectToHTTPRefused(t *testing.T) {
	k := keys(t)
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(jwksDoc(jwkRSA(&k.rsa.PublicKey, "k1")))
	}))
	defer plain.Close()
	redir := httptest.NewTLSServer(http.RedirectHandler(plain.URL, http.StatusFound))
	defer redir.Close()
	_, err := NewVerifier(Config{JWKS: redir.URL, Client: redir.Client()})
	if err == nil || !strings.Contains(err.Error(), "redirect away from https") {
		t.Fatalf("redirect to http: %v", err)
	}
}

func TestJWKSUntrustedCertificate(t *testing.T) {
	srv := newJWKSServer(t, standardJWKS(t))
	// Default client: the httptest certificate is not trusted.
	if _, err := NewVerifier(Config{JWKS: srv.URL}); err == nil || !strings.Contains(err.Error(), "cannot read JWKS") {
		t.Fatalf("untrusted certificate: %v", err)
	}
}
