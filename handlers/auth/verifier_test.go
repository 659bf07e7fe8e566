package auth

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func wantInvalid(t *testing.T, v *Verifier, tok string) {
	t.Helper()
	p, err := v.Verify([]byte(tok))
	if !errors.Is(err, ErrInvalid) || errors.Is(err, ErrExpired) {
		t.Fatalf("Verify = %+v, %v; want ErrInvalid", p, err)
	}
	if p != (Principal{}) {
		t.Fatalf("principal %+v returned with error", p)
	}
}

func wantExpired(t *testing.T, v *Verifier, tok string) {
	t.Helper()
	p, err := v.Verify([]byte(tok))
	if err != ErrExpired {
		t.Fatalf("Verify = %+v, %v; want ErrExpired", p, err)
	}
}

func wantOK(t *testing.T, v *Verifier, tok string) Principal {
	t.Helper()
	p, err := v.Verify([]byte(tok))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return p
}

func TestHS256Happy(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret})
	tok, err := Sign(testSecret, Claims{Sub: "alice", Tier: "pro", Role: "admin"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	p := wantOK(t, v, tok)
	want := Principal{User: "alice", Tier: TierPro, Admin: true, Via: ViaToken, Expires: t0.Unix() + 3600,
		Issued: t0.Unix(), Session: TokenID(tok)}
	if p != want {
		t.Fatalf("got %+v, want %+v", p, want)
	}
}

// TestSessionNames: a token of a sign-in (sid, signed with the secret) is
// named by its sid, so that every token of it is revoked at once; any
// other token by itself. A token without iat is ordered by its exp.
func TestSessionNames(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret})
	a, _ := Sign(testSecret, Claims{Sub: "alice", Sid: "s1"}, t0)
	b, _ := Sign(testSecret, Claims{Sub: "alice", Sid: "s1", TTL: time.Minute}, t0.Add(time.Second))
	c, _ := Sign(testSecret, Claims{Sub: "alice"}, t0)
	pa, pb, pc := wantOK(t, v, a), wantOK(t, v, b), wantOK(t, v, c)
	if pa.Session != SessionID("s1") || pb.Session != pa.Session || !NamesSignIn(pa.Session) {
		t.Errorf("tokens of one sign-in: %q %q", pa.Session, pb.Session)
	}
	if pc.Session != TokenID(c) || NamesSignIn(pc.Session) || pc.Session == pa.Session {
		t.Errorf("a token without sid: %q", pc.Session)
	}
	if pa.Issued != t0.Unix() || pb.Issued != t0.Unix()+1 {
		t.Errorf("issued %d %d", pa.Issued, pb.Issued)
	}
	// A provider's sid names its own session, which may outlive a logout
	// here: its tokens are named by themselves.
	vj := newTestVerifier(t, Config{JWKS: writeJWKS(t, standardJWKS(t))})
	m := claims(t0)
	m["sid"] = "provider-session"
	rs := sign(t, jwt.SigningMethodRS256, keys(t).rsa, "rsa1", m)
	if p := wantOK(t, vj, rs); p.Session != TokenID(rs) {
		t.Errorf("an RS256 token with a sid is named %q", p.Session)
	}
	if len(SessionID("x")) > 128 || len(TokenID(strings.Repeat("x", 4000))) > 128 {
		t.Error("a revocation id is longer than a store id may be")
	}
}

func TestAlgNoneAndUnsigned(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret, JWKS: writeJWKS(t, standardJWKS(t))})
	c := claims(t0)
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, c).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	valid := sign(t, jwt.SigningMethodHS256, testSecret, "", c)
	parts := strings.Split(valid, ".")
	for name, tok := range map[string]string{
		"alg none":             none,
		"alg None":             rawToken(map[string]any{"alg": "None"}, c, ""),
		"alg none with sig":    rawToken(map[string]any{"alg": "none"}, c, parts[2]),
		"no alg":               rawToken(map[string]any{"typ": "JWT"}, c, parts[2]),
		"two segments":         parts[0] + "." + parts[1],
		"empty signature":      parts[0] + "." + parts[1] + ".",
		"four segments":        valid + ".x",
		"garbage":              "not-a-token",
		"padded base64 sig":    valid + "=",
		"bad header json":      b64u([]byte("{")) + "." + parts[1] + "." + parts[2],
		"alg HS512":            sign(t, jwt.SigningMethodHS512, testSecret, "", c),
		"alg HS384":            sign(t, jwt.SigningMethodHS384, testSecret, "", c),
		"alg RS384 (not list)": sign(t, jwt.SigningMethodRS384, keys(t).rsa, "rsa1", c),
		"alg PS256 (not list)": sign(t, jwt.SigningMethodPS256, keys(t).rsa, "rsa1", c),
	} {
		t.Run(name, func(t *testing.T) { wantInvalid(t, v, tok) })
	}
	// Control: the valid token passes, so the cases above fail for their fault.
	wantOK(t, v, valid)

	// Algorithms outside the allow-list are refused by the parser itself,
	// before any key is looked up.
	full := countKeyLookups(v)
	for _, m := range []jwt.SigningMethod{jwt.SigningMethodHS384, jwt.SigningMethodHS512} {
		wantInvalid(t, v, sign(t, m, testSecret, "", c))
	}
	wantInvalid(t, v, sign(t, jwt.SigningMethodRS512, keys(t).rsa, "rsa1", c))
	wantInvalid(t, v, none)
	if n := full.Load(); n != 0 {
		t.Fatalf("%d key lookups for disallowed algorithms", n)
	}
}

func TestWrongHSKey(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret})
	tok := sign(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-xx"), "", claims(t0))
	wantInvalid(t, v, tok)
	// Tampered payload, original signature.
	good := strings.Split(sign(t, jwt.SigningMethodHS256, testSecret, "", claims(t0)), ".")
	c := claims(t0)
	c["tier"] = "pro"
	forged := strings.Split(sign(t, jwt.SigningMethodHS256, []byte("x"), "", c), ".")
	wantInvalid(t, v, good[0]+"."+forged[1]+"."+good[2])
}

// HS/RS confusion: an HS256 token whose HMAC key is the RSA public key of the
// JWKS, in every encoding an attacker might try, must never verify.
func TestHSRSConfusion(t *testing.T) {
	k := keys(t)
	pkix, err := x509.MarshalPKIXPublicKey(&k.rsa.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pkcs1 := x509.MarshalPKCS1PublicKey(&k.rsa.PublicKey)
	secrets := map[string][]byte{
		"PKIX DER":  pkix,
		"PKIX PEM":  pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix}),
		"PKCS1 DER": pkcs1,
		"PKCS1 PEM": pem.EncodeToMemory(&pem.Block{Type: "RSA PUBLIC KEY", Bytes: pkcs1}),
		"modulus":   k.rsa.N.Bytes(),
		"jwk json":  jwksDoc(jwkRSA(&k.rsa.PublicKey, "rsa1")),
	}
	path := writeJWKS(t, standardJWKS(t))
	for cfgName, cfg := range map[string]Config{
		"secret and JWKS": {Secret: testSecret, JWKS: path},
		"JWKS only":       {JWKS: path},
	} {
		v := newTestVerifier(t, cfg)
		for name, secret := range secrets {
			for _, kid := range []string{"", "rsa1"} {
				tok := sign(t, jwt.SigningMethodHS256, secret, kid, claims(t0))
				t.Run(cfgName+"/"+name+"/kid="+kid, func(t *testing.T) { wantInvalid(t, v, tok) })
			}
		}
		// Control: the real RS256 token passes with this config.
		wantOK(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "rsa1", claims(t0)))
	}
}

func TestAsymmetricAlgorithms(t *testing.T) {
	k := keys(t)
	v := newTestVerifier(t, Config{JWKS: writeJWKS(t, standardJWKS(t))})
	c := claims(t0)
	c["tier"] = "pro"
	for name, tok := range map[string]string{
		"RS256": sign(t, jwt.SigningMethodRS256, k.rsa, "rsa1", c),
		"ES256": sign(t, jwt.SigningMethodES256, k.ec, "ec1", c),
		"EdDSA": sign(t, jwt.SigningMethodEdDSA, k.ed, "ed1", c),
		// Exactly one key of each type: kid may be omitted.
		"RS256 no kid": sign(t, jwt.SigningMethodRS256, k.rsa, "", c),
		"ES256 no kid": sign(t, jwt.SigningMethodES256, k.ec, "", c),
		"EdDSA no kid": sign(t, jwt.SigningMethodEdDSA, k.ed, "", c),
	} {
		t.Run(name, func(t *testing.T) {
			p := wantOK(t, v, tok)
			if p.User != "alice" || p.Tier != TierPro || p.Admin || p.Expires != t0.Unix()+3600 {
				t.Fatalf("principal %+v", p)
			}
		})
	}
	for name, tok := range map[string]string{
		"RS256 other key":           sign(t, jwt.SigningMethodRS256, k.rsaOther, "rsa1", c),
		"RS256 other key no kid":    sign(t, jwt.SigningMethodRS256, k.rsaOther, "", c),
		"ES256 with RSA kid":        sign(t, jwt.SigningMethodES256, k.ec, "rsa1", c),
		"RS256 with EC kid":         sign(t, jwt.SigningMethodRS256, k.rsa, "ec1", c),
		"EdDSA with EC kid":         sign(t, jwt.SigningMethodEdDSA, k.ed, "ec1", c),
		"HS256 not configured":      sign(t, jwt.SigningMethodHS256, testSecret, "", c),
		"unknown kid (file source)": sign(t, jwt.SigningMethodRS256, k.rsa, "nope", c),
		"numeric kid":               signHeader(t, jwt.SigningMethodRS256, k.rsa, map[string]any{"kid": 1}, c),
		"crit header":               signHeader(t, jwt.SigningMethodRS256, k.rsa, map[string]any{"kid": "rsa1", "crit": []string{"exp"}}, c),
	} {
		t.Run(name, func(t *testing.T) { wantInvalid(t, v, tok) })
	}
}

func signHeader(t testing.TB, m jwt.SigningMethod, key any, hdr map[string]any, c jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(m, c)
	for k, v := range hdr {
		tok.Header[k] = v
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNoKidAmbiguous(t *testing.T) {
	k := keys(t)
	v := newTestVerifier(t, Config{JWKS: writeJWKS(t, jwksDoc(
		jwkRSA(&k.rsa.PublicKey, "a"), jwkRSA(&k.rsaOther.PublicKey, "b")))})
	wantInvalid(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "", claims(t0)))
	wantOK(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "a", claims(t0)))
	wantOK(t, v, sign(t, jwt.SigningMethodRS256, k.rsaOther, "b", claims(t0)))
	wantInvalid(t, v, sign(t, jwt.SigningMethodRS256, k.rsaOther, "a", claims(t0)))
}

func TestKeysWithoutKid(t *testing.T) {
	k := keys(t)
	a, b := jwkRSA(&k.rsa.PublicKey, ""), jwkRSA(&k.rsaOther.PublicKey, "")
	delete(a, "kid")
	v := newTestVerifier(t, Config{JWKS: writeJWKS(t, jwksDoc(a, jwkEC(&k.ec.PublicKey, "")))})
	wantOK(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "", claims(t0)))
	wantOK(t, v, signHeader(t, jwt.SigningMethodRS256, k.rsa, map[string]any{"kid": ""}, claims(t0)))
	wantOK(t, v, sign(t, jwt.SigningMethodES256, k.ec, "", claims(t0)))
	wantInvalid(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "x", claims(t0)))
	// Two RSA keys without kid: the set loads, but a kid-less token is ambiguous.
	v = newTestVerifier(t, Config{JWKS: writeJWKS(t, jwksDoc(a, b))})
	wantInvalid(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "", claims(t0)))
}

func TestJWKKeyFiltering(t *testing.T) {
	k := keys(t)
	enc := jwkRSA(&k.rsaOther.PublicKey, "enc")
	enc["use"] = "enc"
	ps := jwkRSA(&k.rsaOther.PublicKey, "ps")
	ps["alg"] = "PS256"
	ops := jwkRSA(&k.rsaOther.PublicKey, "ops")
	ops["key_ops"] = []string{"encrypt"}
	v := newTestVerifier(t, Config{JWKS: writeJWKS(t, jwksDoc(
		jwkRSA(&k.rsa.PublicKey, "good"), jwkRSA(&k.rsaWeak.PublicKey, "weak"), enc, ps, ops))})
	wantOK(t, v, sign(t, jwt.SigningMethodRS256, k.rsa, "good", claims(t0)))
	wantInvalid(t, v, sign(t, jwt.SigningMethodRS256, k.rsaWeak, "weak", claims(t0)))
	for _, kid := range []string{"enc", "ps", "ops"} {
		wantInvalid(t, v, sign(t, jwt.SigningMethodRS256, k.rsaOther, kid, claims(t0)))
	}
}

func TestTimeRules(t *testing.T) {
	clk := newClock(t0)
	v := newTestVerifier(t, Config{Secret: testSecret, Now: clk.Now, Issuer: "https://id.example", Audience: "fiplan"})
	base := func(mod func(jwt.MapClaims)) jwt.MapClaims {
		c := claims(t0)
		c["iss"] = "https://id.example"
		c["aud"] = "fiplan"
		if mod != nil {
			mod(c)
		}
		return c
	}
	hs := func(c jwt.MapClaims) string { return sign(t, jwt.SigningMethodHS256, testSecret, "", c) }
	bad := func(c jwt.MapClaims) string {
		return sign(t, jwt.SigningMethodHS256, []byte("wrong-secret-wrong-secret-wrong!"), "", c)
	}

	wantOK(t, v, hs(base(nil)))

	// exp has passed => ErrExpired, with no leeway.
	expired := base(func(c jwt.MapClaims) {
		c["iat"] = t0.Add(-50 * time.Minute).Unix()
		c["exp"] = t0.Add(-time.Minute).Unix()
	})
	wantExpired(t, v, hs(expired))
	wantExpired(t, v, hs(base(func(c jwt.MapClaims) { c["exp"] = t0.Unix() })))
	wantExpired(t, v, hs(base(func(c jwt.MapClaims) { c["exp"] = t0.Add(-5 * time.Second).Unix() })))
	// iat more than an hour ago => ErrExpired even though exp is in the future.
	wantExpired(t, v, hs(base(func(c jwt.MapClaims) {
		c["iat"] = t0.Add(-61 * time.Minute).Unix()
		c["exp"] = t0.Add(time.Hour).Unix()
	})))
	wantExpired(t, v, hs(base(func(c jwt.MapClaims) { c["iat"] = t0.Add(-time.Hour).Unix(); c["exp"] = t0.Add(time.Hour).Unix() })))
	// no iat: exp may be at most an hour (and the clock leeway) ahead.
	p := wantOK(t, v, hs(base(func(c jwt.MapClaims) { delete(c, "iat"); c["exp"] = t0.Add(50 * time.Minute).Unix() })))
	if p.Expires != t0.Add(50*time.Minute).Unix() {
		t.Fatalf("Expires %d", p.Expires)
	}
	// Expires = min(exp, iat+3600).
	p = wantOK(t, v, hs(base(func(c jwt.MapClaims) {
		c["iat"] = t0.Add(-10 * time.Minute).Unix()
		c["exp"] = t0.Add(3 * time.Hour).Unix()
	})))
	if p.Expires != t0.Add(50*time.Minute).Unix() {
		t.Fatalf("Expires %d, want iat+3600", p.Expires)
	}

	// Expired AND something else wrong => ErrInvalid.
	wantInvalid(t, v, bad(expired))
	wantInvalid(t, v, bad(base(func(c jwt.MapClaims) { c["iat"] = t0.Add(-2 * time.Hour).Unix() })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["exp"] = t0.Add(-time.Minute).Unix(); c["iss"] = "evil" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["exp"] = t0.Add(-time.Minute).Unix(); c["aud"] = "other" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["exp"] = t0.Add(-time.Minute).Unix(); delete(c, "sub") })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) {
		c["exp"] = t0.Add(-time.Minute).Unix()
		c["nbf"] = t0.Add(time.Hour).Unix()
	})))

	// iat in the future: within the 30 s leeway accepted, beyond it invalid.
	wantOK(t, v, hs(base(func(c jwt.MapClaims) { c["iat"] = t0.Add(20 * time.Second).Unix() })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["iat"] = t0.Add(2 * time.Minute).Unix() })))
	// nbf honoured with the same leeway.
	wantOK(t, v, hs(base(func(c jwt.MapClaims) { c["nbf"] = t0.Add(20 * time.Second).Unix() })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["nbf"] = t0.Add(5 * time.Minute).Unix() })))

	// iss and aud.
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["iss"] = "https://evil.example" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { delete(c, "iss") })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["aud"] = "other" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { delete(c, "aud") })))
	wantOK(t, v, hs(base(func(c jwt.MapClaims) { c["aud"] = []string{"other", "fiplan"} })))

	// Required and malformed claims.
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { delete(c, "sub") })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["sub"] = "" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["sub"] = 42 })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["sub"] = "bob\nadmin" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["sub"] = "bob\x00" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["sub"] = strings.Repeat("a", 129) })))
	wantOK(t, v, hs(base(func(c jwt.MapClaims) { c["sub"] = strings.Repeat("a", 128) })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { delete(c, "exp") })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["exp"] = "tomorrow" })))
	wantInvalid(t, v, hs(base(func(c jwt.MapClaims) { c["iat"] = "now" })))
}

func TestTierAndRole(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret})
	for _, tc := range []struct {
		name  string
		tier  any
		role  any
		want  Tier
		admin bool
	}{
		{"absent", nil, nil, TierFree, false},
		{"free", "free", nil, TierFree, false},
		{"pro", "pro", nil, TierPro, false},
		{"PRO", "PRO", nil, TierFree, false},
		{"enterprise", "enterprise", nil, TierFree, false},
		{"number", 1, nil, TierFree, false},
		{"array", []string{"pro"}, nil, TierFree, false},
		{"admin", "pro", "admin", TierPro, true},
		{"Admin", nil, "Admin", TierFree, false},
		{"role true", nil, true, TierFree, false},
		{"role array", nil, []string{"admin"}, TierFree, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := claims(t0)
			if tc.tier != nil {
				c["tier"] = tc.tier
			}
			if tc.role != nil {
				c["role"] = tc.role
			}
			p := wantOK(t, v, sign(t, jwt.SigningMethodHS256, testSecret, "", c))
			if p.Tier != tc.want || p.Admin != tc.admin {
				t.Fatalf("tier %v admin %v, want %v %v", p.Tier, p.Admin, tc.want, tc.admin)
			}
		})
	}
}

func TestVerifyBounds(t *testing.T) {
	v := newTestVerifier(t, Config{Secret: testSecret, CacheSize: 10})
	wantInvalid(t, v, "")
	c := claims(t0)
	c["pad"] = strings.Repeat("x", MaxHeader)
	wantInvalid(t, v, sign(t, jwt.SigningMethodHS256, testSecret, "", c))
}

func TestNewVerifierErrors(t *testing.T) {
	k := keys(t)
	dir := t.TempDir()
	priv := jwkRSA(&k.rsa.PublicKey, "p")
	priv["d"] = "AQAB"
	badEC := jwkEC(&k.ec.PublicKey, "e")
	badEC["y"] = badEC["x"] // almost surely not on the curve
	for name, tc := range map[string]struct {
		cfg  Config
		want string
	}{
		"nothing":      {Config{}, "neither"},
		"missing file": {Config{JWKS: dir + "/nope.json"}, `cannot read JWKS "` + dir + `/nope.json"`},
		"bad json":     {Config{JWKS: writeJWKS(t, []byte("{"))}, "cannot parse JWKS"},
		"no keys":      {Config{JWKS: writeJWKS(t, []byte(`{"keys":[]}`))}, "cannot parse JWKS"},
		"weak only":    {Config{JWKS: writeJWKS(t, jwksDoc(jwkRSA(&k.rsaWeak.PublicKey, "w")))}, "no usable"},
		"private key":  {Config{JWKS: writeJWKS(t, jwksDoc(priv))}, "private key"},
		"off curve":    {Config{JWKS: writeJWKS(t, jwksDoc(badEC))}, "invalid P-256 point"},
		"dup kid":      {Config{JWKS: writeJWKS(t, jwksDoc(jwkRSA(&k.rsa.PublicKey, "d"), jwkRSA(&k.rsaOther.PublicKey, "d")))}, "duplicate kid"},
		"http":         {Config{JWKS: "http://127.0.0.1:1/jwks.json"}, "plain http is refused"},
		"HTTP":         {Config{JWKS: "HTTP://127.0.0.1:1/jwks.json"}, "plain http is refused"},
		"ftp":          {Config{JWKS: "ftp://127.0.0.1/jwks.json"}, "unsupported URL scheme"},
		"password":     {Config{JWKS: "http://user:hunter2@127.0.0.1:1/"}, "xxxxx"},
	} {
		t.Run(name, func(t *testing.T) {
			v, err := NewVerifier(tc.cfg)
			if err == nil {
				v.Close()
				t.Fatal("NewVerifier succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
				t.Fatalf("error %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSign(t *testing.T) {
	for name, c := range map[string]Claims{
		"no sub":   {},
		"bad tier": {Sub: "a", Tier: "gold"},
		"bad sub":  {Sub: "a\tb"},
		"neg ttl":  {Sub: "a", TTL: -time.Second},
	} {
		if _, err := Sign(testSecret, c, t0); err == nil {
			t.Errorf("%s: Sign succeeded", name)
		}
	}
	if _, err := Sign(nil, Claims{Sub: "a"}, t0); err == nil {
		t.Error("Sign with no secret succeeded")
	}
	clk := newClock(t0)
	v := newTestVerifier(t, Config{Secret: testSecret, Now: clk.Now, Issuer: "me", Audience: "you"})
	tok, err := Sign(testSecret, Claims{Sub: "a", TTL: 10 * time.Minute, Issuer: "me", Audience: "you"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if p := wantOK(t, v, tok); p.Expires != t0.Add(10*time.Minute).Unix() || p.Tier != TierFree || p.Admin {
		t.Fatalf("principal %+v", p)
	}
	clk.Add(10 * time.Minute)
	wantExpired(t, v, tok)
}

func TestTierVia(t *testing.T) {
	if TierFree.String() != "free" || TierPro.String() != "pro" || Tier(0) != TierFree {
		t.Fatal("Tier.String")
	}
	for _, s := range []string{"free", "pro"} {
		if tr, ok := ParseTier(s); !ok || tr.String() != s {
			t.Fatalf("ParseTier(%q)", s)
		}
	}
	for _, s := range []string{"", "Pro", "gold", "pro "} {
		if tr, ok := ParseTier(s); ok || tr != TierFree {
			t.Fatalf("ParseTier(%q) = %v, %v", s, tr, ok)
		}
	}
	var tr Tier
	if err := tr.UnmarshalText([]byte("pro")); err != nil || tr != TierPro {
		t.Fatal("UnmarshalText")
	}
	if b, _ := tr.MarshalText(); string(b) != "pro" {
		t.Fatal("MarshalText")
	}
	if err := tr.UnmarshalText([]byte("gold")); err == nil {
		t.Fatal("UnmarshalText accepted gold")
	}
	if ViaToken.String() != "token" || ViaCookie.String() != "cookie" || ViaKey.String() != "key" {
		t.Fatal("Via.String")
	}
}
