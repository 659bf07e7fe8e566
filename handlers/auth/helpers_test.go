package auth

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef-test-secret")

// t0 is the fixed "now" of most tests.
var t0 = time.Unix(1_800_000_000, 0)

type testKeys struct {
	rsa, rsaOther, rsaWeak *rsa.PrivateKey
	ec                     *ecdsa.PrivateKey
	ed                     ed25519.PrivateKey
}

var (
	keysOnce sync.Once
	keysVal  testKeys
)

func keys(t testing.TB) *testKeys {
	t.Helper()
	keysOnce.Do(func() {
		var err error
		must := func(e error) {
			if e != nil && err == nil {
				err = e
			}
		}
		keysVal.rsa, err = rsa.GenerateKey(rand.Reader, 2048)
		k, e := rsa.GenerateKey(rand.Reader, 2048)
		must(e)
		keysVal.rsaOther = k
		k, e = rsa.GenerateKey(rand.Reader, 1024)
		must(e)
		keysVal.rsaWeak = k
		keysVal.ec, e = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		must(e)
		_, keysVal.ed, e = ed25519.GenerateKey(rand.Reader)
		must(e)
		if err != nil {
			panic(err)
		}
	})
	return &keysVal
}

// clock is a settable time source safe for concurrent use.
type clock struct{ ns atomic.Int64 }

func newClock(t time.Time) *clock {
	c := &clock{}
	c.ns.Store(t.UnixNano())
	return c
}
func (c *clock) Now() time.Time              { return time.Unix(0, c.ns.Load()) }
func (c *clock) Add(d time.Duration)         { c.ns.Add(int64(d)) }
func (c *clock) Set(t time.Time)             { c.ns.Store(t.UnixNano()) }
func (c *clock) Unix() int64                 { return c.Now().Unix() }
func (c *clock) After(d time.Duration) int64 { return c.Now().Add(d).Unix() }

func b64u(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func jwkRSA(pub *rsa.PublicKey, kid string) map[string]any {
	return map[string]any{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
		"n": b64u(pub.N.Bytes()), "e": b64u(big.NewInt(int64(pub.E)).Bytes())}
}

func jwkEC(pub *ecdsa.PublicKey, kid string) map[string]any {
	b, err := pub.Bytes()
	if err != nil {
		panic(err)
	}
	return map[string]any{"kty": "EC", "kid": kid, "crv": "P-256", "x": b64u(b[1:33]), "y": b64u(b[33:])}
}

func jwkEd(pub ed25519.PublicKey, kid string) map[string]any {
	return map[string]any{"kty": "OKP", "kid": kid, "crv": "Ed25519", "x": b64u(pub)}
}

func jwksDoc(keys ...map[string]any) []byte {
	b, err := json.Marshal(map[string]any{"keys": keys})
	if err != nil {
		panic(err)
	}
	return b
}

func writeJWKS(t testing.TB, doc []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(p, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// standardJWKS holds one key of each type: kid rsa1, ec1, ed1.
func standardJWKS(t testing.TB) []byte {
	k := keys(t)
	return jwksDoc(jwkRSA(&k.rsa.PublicKey, "rsa1"), jwkEC(&k.ec.PublicKey, "ec1"),
		jwkEd(k.ed.Public().(ed25519.PublicKey), "ed1"))
}

// claims returns valid claims at time now.
func claims(now time.Time) jwt.MapClaims {
	return jwt.MapClaims{"sub": "alice", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
}

func sign(t testing.TB, m jwt.SigningMethod, key any, kid string, c jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(m, c)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rawToken builds header.payload.sig from arbitrary JSON, unsigned.
func rawToken(header, payload any, sig string) string {
	h, _ := json.Marshal(header)
	p, _ := json.Marshal(payload)
	return b64u(h) + "." + b64u(p) + "." + sig
}

func newTestVerifier(t testing.TB, cfg Config) *Verifier {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = newClock(t0).Now
	}
	v, err := NewVerifier(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}
