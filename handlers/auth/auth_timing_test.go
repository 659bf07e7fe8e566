package auth

import (
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

func benchVerify(b *testing.B, cfg Config, tok []byte, warm bool) {
	v := newTestVerifier(b, cfg)
	if _, err := v.Verify(tok); err != nil {
		b.Fatal(err)
	}
	if warm {
		v.cache.Wait()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := v.Verify(tok); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyHS256Uncached(b *testing.B) {
	tok := []byte(sign(b, jwt.SigningMethodHS256, testSecret, "", claims(t0)))
	benchVerify(b, Config{Secret: testSecret}, tok, false)
}

func BenchmarkVerifyHS256Cached(b *testing.B) {
	tok := []byte(sign(b, jwt.SigningMethodHS256, testSecret, "", claims(t0)))
	benchVerify(b, Config{Secret: testSecret, CacheSize: 1000}, tok, true)
}

func BenchmarkVerifyHS256CachedParallel(b *testing.B) {
	tok := []byte(sign(b, jwt.SigningMethodHS256, testSecret, "", claims(t0)))
	v := newTestVerifier(b, Config{Secret: testSecret, CacheSize: 1000})
	if _, err := v.Verify(tok); err != nil {
		b.Fatal(err)
	}
	v.cache.Wait()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := v.Verify(tok); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkVerifyRS256Uncached(b *testing.B) {
	tok := []byte(sign(b, jwt.SigningMethodRS256, keys(b).rsa, "rsa1", claims(t0)))
	benchVerify(b, Config{JWKS: writeJWKS(b, standardJWKS(b))}, tok, false)
}

func BenchmarkVerifyRS256Cached(b *testing.B) {
	tok := []byte(sign(b, jwt.SigningMethodRS256, keys(b).rsa, "rsa1", claims(t0)))
	benchVerify(b, Config{JWKS: writeJWKS(b, standardJWKS(b)), CacheSize: 1000}, tok, true)
}

func BenchmarkVerifyES256Uncached(b *testing.B) {
	tok := []byte(sign(b, jwt.SigningMethodES256, keys(b).ec, "ec1", claims(t0)))
	benchVerify(b, Config{JWKS: writeJWKS(b, standardJWKS(b))}, tok, false)
}

func BenchmarkVerifyEdDSAUncached(b *testing.B) {
	tok := []byte(sign(b, jwt.SigningMethodEdDSA, keys(b).ed, "ed1", claims(t0)))
	benchVerify(b, Config{JWKS: writeJWKS(b, standardJWKS(b))}, tok, false)
}

func BenchmarkParseKey(b *testing.B) {
	plain, _, err := NewKey()
	if err != nil {
		b.Fatal(err)
	}
	key := []byte(plain)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := ParseKey(key); !ok {
			b.Fatal("ParseKey")
		}
	}
}

func BenchmarkNewKey(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := NewKey(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBearerToken(b *testing.B) {
	hdr := []byte("Bearer " + sign(b, jwt.SigningMethodHS256, testSecret, "", claims(t0)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := BearerToken(hdr); !ok {
			b.Fatal("BearerToken")
		}
	}
}
