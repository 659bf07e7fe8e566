package auth

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// countKeyLookups makes every full verification observable.
func countKeyLookups(v *Verifier) *atomic.Int64 {
	var n atomic.Int64
	inner := v.keyfunc
	v.keyfunc = func(t *jwt.Token) (any, error) { n.Add(1); return inner(t) }
	return &n
}

// verifyAndCache verifies tok and waits until ristretto has applied the Set.
func verifyAndCache(t *testing.T, v *Verifier, tok []byte) Principal {
	t.Helper()
	p, err := v.Verify(tok)
	if err != nil {
		t.Fatal(err)
	}
	v.cache.Wait()
	return p
}

func TestCacheHit(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret, CacheSize: 100})
	full := countKeyLookups(v)
	c := claims(t0)
	c["tier"] = "pro"
	c["role"] = "admin"
	tok := []byte(sign(t, jwt.SigningMethodHS256, testSecret, "", c))
	first := verifyAndCache(t, v, tok)
	for range 3 {
		p, err := v.Verify(tok)
		if err != nil || p != first {
			t.Fatalf("hit = %+v, %v; want %+v", p, err, first)
		}
	}
	if n := full.Load(); n != 1 {
		t.Fatalf("%d full verifications, want 1 (then cache hits)", n)
	}
	// Failures are not cached.
	bad := []byte(sign(t, jwt.SigningMethodHS256, []byte("nope-nope-nope-nope-nope-nope-no"), "", claims(t0)))
	for range 2 {
		if _, err := v.Verify(bad); err == nil {
			t.Fatal("bad token verified")
		}
		v.cache.Wait()
	}
	if n := full.Load(); n != 3 {
		t.Fatalf("%d full verifications, want 3", n)
	}
}

func TestCacheDoesNotOutliveExpiry(t *testing.T) {
	clk := newClock(t0)
	v := newTestVerifier(t, Config{Secret: testSecret, CacheSize: 100, Now: clk.Now})
	full := countKeyLookups(v)

	c := claims(t0)
	c["exp"] = t0.Add(10 * time.Minute).Unix()
	byExp := []byte(sign(t, jwt.SigningMethodHS256, testSecret, "", c))
	c = claims(t0)
	c["exp"] = t0.Add(5 * time.Hour).Unix()
	byIat := []byte(sign(t, jwt.SigningMethodHS256, testSecret, "", c))

	verifyAndCache(t, v, byExp)
	verifyAndCache(t, v, byIat)
	clk.Add(9*time.Minute + 59*time.Second)
	for _, tok := range [][]byte{byExp, byIat} {
		if _, err := v.Verify(tok); err != nil {
			t.Fatal(err)
		}
	}
	if n := full.Load(); n != 2 {
		t.Fatalf("%d full verifications before expiry, want 2", n)
	}
	clk.Add(time.Second) // now == exp
	if _, err := v.Verify(byExp); err != ErrExpired {
		t.Fatalf("cached token past exp: %v, want ErrExpired", err)
	}
	if _, err := v.Verify(byIat); err != nil {
		t.Fatal(err)
	}
	clk.Set(t0.Add(time.Hour)) // iat + 1h
	if _, err := v.Verify(byIat); err != ErrExpired {
		t.Fatalf("cached token past iat+1h: %v, want ErrExpired", err)
	}
}

// The cache is keyed by the caller's bytes through an unsafe view: reusing the
// buffer for another token must not return the first token's principal.
func TestCacheDoesNotRetainBuffer(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret, CacheSize: 100})
	ca, cb := claims(t0), claims(t0)
	ca["sub"], cb["sub"] = "alice", "bobby"
	a := sign(t, jwt.SigningMethodHS256, testSecret, "", ca)
	b := sign(t, jwt.SigningMethodHS256, testSecret, "", cb)
	if len(a) != len(b) {
		t.Fatal("test needs tokens of equal length")
	}
	buf := []byte(a)
	if p := verifyAndCache(t, v, buf); p.User != "alice" {
		t.Fatal(p)
	}
	copy(buf, b)
	if p := verifyAndCache(t, v, buf); p.User != "bobby" {
		t.Fatalf("reused buffer gave %q", p.User)
	}
	copy(buf, a)
	if p, _ := v.Verify(buf); p.User != "alice" {
		t.Fatalf("got %q", p.User)
	}
	buf[len(buf)-1] ^= 1 // corrupt the signature in place: must not hit the cache
	if _, err := v.Verify(buf); err == nil {
		t.Fatal("corrupted token verified")
	}
}

func TestConcurrentVerify(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret, CacheSize: 1000, JWKS: writeJWKS(t, standardJWKS(t))})
	k := keys(t)
	toks := [][]byte{
		[]byte(sign(t, jwt.SigningMethodHS256, testSecret, "", claims(t0))),
		[]byte(sign(t, jwt.SigningMethodES256, k.ec, "ec1", claims(t0))),
		[]byte(sign(t, jwt.SigningMethodEdDSA, k.ed, "ed1", claims(t0))),
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				if _, err := v.Verify(toks[(g+i)%len(toks)]); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
