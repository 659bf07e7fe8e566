package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

// provider serves an OpenID discovery document and a JWKS over plain http
// on 127.0.0.1, the way a provider run for local development does.
func provider(t *testing.T, issuerOverride string) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			iss := srv.URL
			if issuerOverride != "" {
				iss = issuerOverride
			}
			_, _ = w.Write([]byte(`{"issuer":"` + iss + `","jwks_uri":"` + srv.URL + `/keys"}`))
		case "/keys":
			_, _ = w.Write(standardJWKS(t))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDiscoveryJWKS(t *testing.T) {
	op := provider(t, "")
	v := newTestVerifier(t, Config{Discovery: op.URL, Issuer: op.URL})
	c := claims(t0)
	c["iss"] = op.URL
	p, err := v.Verify([]byte(sign(t, jwt.SigningMethodRS256, keys(t).rsa, "rsa1", c)))
	if err != nil || p.User != "alice" {
		t.Fatalf("Verify = %+v, %v; want alice", p, err)
	}
	// A key the provider does not publish does not verify.
	_, err = v.Verify([]byte(sign(t, jwt.SigningMethodRS256, keys(t).rsaOther, "rsa1", c)))
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("foreign key: err = %v, want ErrInvalid", err)
	}
}

func TestDiscoveryErrors(t *testing.T) {
	op := provider(t, "https://elsewhere.example")
	if _, err := NewVerifier(Config{Discovery: op.URL}); err == nil || !strings.Contains(err.Error(), "names issuer") {
		t.Fatalf("issuer mismatch: err = %v", err)
	}
	// Plain http leaves the machine: refused before any request.
	if _, err := NewVerifier(Config{Discovery: "http://idp.example.com"}); err == nil || !strings.Contains(err.Error(), "https") {
		t.Fatalf("remote http issuer: err = %v", err)
	}
	if isLoopback("http://localhost.evil.example/") || !isLoopback("http://[::1]:9/") || !isLoopback("http://127.0.0.1:9/") {
		t.Fatal("isLoopback misjudges a host")
	}
}
