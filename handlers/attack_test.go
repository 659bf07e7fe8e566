package handlers

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"hash"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/auth"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// The attack suite: black-box attacks through the whole chain, one row per
// item of the OWASP API Security Top 10 (2023) it covers. API10 (unsafe
// consumption of other APIs) concerns the JWKS and OpenID documents the
// server fetches; handlers/auth tests those (size limits, https only, no
// redirect to http, untrusted certificates).
func TestAttacks(t *testing.T) {
	for _, row := range []struct {
		owasp, name string
		run         func(t *testing.T)
	}{
		{"API1:2023 broken object level authorization", "another user's asset and key answer 404 on every route with an id", attackBOLA},
		{"API2:2023 broken authentication", "forged, unsigned, confused, expired and malformed tokens", attackTokens},
		{"API2:2023 broken authentication", "HS256 signed with the RS256 public key", attackAlgConfusion},
		{"API3:2023 broken object property level authorization", "server-owned fields in every body are refused", attackMassAssignment},
		{"API4:2023 unrestricted resource consumption", "body size, Monte Carlo cells, list sizes, query arguments, nesting", attackResources},
		{"API5:2023 broken function level authorization", "admin, session-only, pro and user routes against lesser callers", attackFunctionLevel},
		{"API6:2023 unrestricted access to sensitive business flows", "credential guessing is rate limited; keys are capped", attackBusinessFlows},
		{"API7:2023 server side request forgery", "a token's jku and x5u are never fetched", attackSSRF},
		{"API8:2023 security misconfiguration", "no internals in a 500, no TRACE, no metrics or debug on the API", attackMisconfiguration},
		{"API9:2023 improper inventory management", "the document lists exactly the routes served; other versions are 404", attackInventory},
	} {
		t.Run(row.owasp+": "+row.name, row.run)
	}
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// forge builds a JWT from header and claims, signed by sign (nil: no
// signature).
func forge(header, claims map[string]any, sign func(input string) []byte) string {
	hb, _ := json.Marshal(header)
	cb, _ := json.Marshal(claims)
	input := b64(hb) + "." + b64(cb)
	if sign == nil {
		return input + "."
	}
	return input + "." + b64(sign(input))
}

func hs(key []byte, h func() hash.Hash) func(string) []byte {
	return func(in string) []byte {
		m := hmac.New(h, key)
		m.Write([]byte(in))
		return m.Sum(nil)
	}
}

var sha256New, sha512New = sha256.New, sha512.New

func attackBOLA(t *testing.T) {
	h := newHarness(t)
	alice, bob := bearer(h.Token("alice", "free", "")), bearer(h.Token("bob", "free", ""))
	r := h.Do("POST", "/api/v1/assets", `{"name":"World","isin":"IE00BK5BQT80","value":1000}`, alice...)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	asset := r.Data()["id"].(string)
	r = h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, alice...)
	keyID, plain := r.Data()["id"].(string), r.Data()["key"].(string)
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/api/v1/assets/" + asset, ""},
		{"PUT", "/api/v1/assets/" + asset, `{"name":"mine now","value":1}`},
		{"PATCH", "/api/v1/assets/" + asset, `{"value":1}`},
		{"DELETE", "/api/v1/assets/" + asset, ""},
		{"DELETE", "/api/v1/user/api-keys/" + keyID, ""},
	} {
		expectError(t, h.Do(c.method, c.path, c.body, bob...), 404, errcode.NotFound)
	}
	// Nothing of alice's changed, and bob's own views do not show it.
	if r := h.Do("GET", "/api/v1/assets/"+asset, "", alice...); r.Status != 200 || r.Data()["value"] != float64(1000) {
		t.Fatalf("alice's asset after the attacks: %d %s", r.Status, r.Raw)
	}
	if r := h.Do("GET", "/api/v1/assets", "", bearer(plain)...); r.Status != 200 {
		t.Fatalf("alice's key after the attacks: %d", r.Status)
	}
	for _, path := range []string{"/api/v1/assets", "/api/v1/user/export", "/api/v1/user/api-keys", "/api/v1/assets/summary"} {
		if r := h.Do("GET", path, "", bob...); strings.Contains(string(r.Raw), asset) || strings.Contains(string(r.Raw), keyID) {
			t.Errorf("%s shows bob alice's things: %s", path, r.Raw)
		}
	}
}

func attackTokens(t *testing.T) {
	h := newHarness(t)
	now := h.Clock().Unix()
	hsHeader := map[string]any{"alg": "HS256", "typ": "JWT"}
	valid := map[string]any{"sub": "mallory", "exp": now + 600, "iat": now}
	claims := func(edit func(map[string]any)) map[string]any {
		c := map[string]any{}
		for k, v := range valid {
			c[k] = v
		}
		edit(c)
		return c
	}
	good := hs(testSecret, sha256New)
	if r := h.Do("GET", "/api/v1/assets", "", bearer(forge(hsHeader, valid, good))...); r.Status != 200 {
		t.Fatalf("the well-formed forged-by-us token is refused: %d %s", r.Status, r.Raw)
	}
	signed := forge(hsHeader, valid, good)
	parts := strings.Split(signed, ".")
	tampered := map[string]any{"sub": "alice", "exp": now + 600, "iat": now, "role": "admin"}
	tb, _ := json.Marshal(tampered)
	for _, c := range []struct {
		name, tok, code string
	}{
		{"alg none", forge(map[string]any{"alg": "none", "typ": "JWT"}, valid, nil), errcode.Unauthorized},
		{"alg None", forge(map[string]any{"alg": "None"}, valid, nil), errcode.Unauthorized},
		{"alg none with a signature", forge(map[string]any{"alg": "none"}, valid, good), errcode.Unauthorized},
		{"HS512 with the right secret", forge(map[string]any{"alg": "HS512"}, valid, hs(testSecret, sha512New)), errcode.Unauthorized},
		{"RS256 header, HMAC signature", forge(map[string]any{"alg": "RS256"}, valid, good), errcode.Unauthorized},
		{"wrong key", forge(hsHeader, valid, hs([]byte("another-secret-of-thirty-two-byt"), sha256New)), errcode.Unauthorized},
		{"empty key", forge(hsHeader, valid, hs(nil, sha256New)), errcode.Unauthorized},
		{"payload swapped after signing", parts[0] + "." + b64(tb) + "." + parts[2], errcode.Unauthorized},
		{"signature stripped", parts[0] + "." + parts[1] + ".", errcode.Unauthorized},
		{"expired", forge(hsHeader, claims(func(c map[string]any) { c["exp"] = now - 120 }), good), errcode.TokenExpired},
		{"issued more than an hour ago", forge(hsHeader, claims(func(c map[string]any) { c["iat"] = now - 3700; c["exp"] = now + 3600 }), good), errcode.TokenExpired},
		{"no exp", forge(hsHeader, claims(func(c map[string]any) { delete(c, "exp") }), good), errcode.Unauthorized},
		{"iat in the future", forge(hsHeader, claims(func(c map[string]any) { c["iat"] = now + 86400; c["exp"] = now + 90000 }), good), errcode.Unauthorized},
		{"no sub", forge(hsHeader, claims(func(c map[string]any) { delete(c, "sub") }), good), errcode.Unauthorized},
		{"crit header", forge(map[string]any{"alg": "HS256", "crit": []string{"exp"}}, valid, good), errcode.Unauthorized},
		{"two segments", parts[0] + "." + parts[1], errcode.Unauthorized},
		{"garbage", "not.a.token", errcode.Unauthorized},
		{"a key with a bad checksum", "svc_" + strings.Repeat("A", 40), errcode.Unauthorized},
	} {
		r := h.Do("GET", "/api/v1/assets", "", bearer(c.tok)...)
		if r.Status != 401 || r.Code() != c.code {
			t.Errorf("%s: %d %s, want 401 %s", c.name, r.Status, r.Code(), c.code)
		}
	}
	// The scheme must be Bearer; Basic and a bare token are refused.
	for _, v := range []string{"Basic " + base64.StdEncoding.EncodeToString([]byte("alice:pw")), signed, "Bearer", "Token " + signed} {
		if r := h.Do("GET", "/api/v1/assets", "", "Authorization", v); r.Status != 401 {
			t.Errorf("Authorization %.20q: %d", v, r.Status)
		}
	}
	// A revoked key stops at once.
	alice := bearer(h.Token("alice", "free", ""))
	r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, alice...)
	id, key := r.Data()["id"].(string), r.Data()["key"].(string)
	h.Do("DELETE", "/api/v1/user/api-keys/"+id, "", alice...)
	expectError(t, h.Do("GET", "/api/v1/assets", "", bearer(key)...), 401, errcode.Unauthorized)
}

// A server that verifies RS256 with a JWKS must not take the public key
// as an HMAC secret.
func attackAlgConfusion(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	jwk := map[string]any{"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256",
		"n": b64(priv.N.Bytes()), "e": b64(big.NewInt(int64(priv.E)).Bytes())}
	doc, _ := json.Marshal(map[string]any{"keys": []any{jwk}})
	path := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "a.DB"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := auth.NewVerifier(auth.Config{JWKS: path})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	s, err := New(Config{Version: "attack", DB: db, Verifier: v})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now().Unix()
	claims := map[string]any{"sub": "mallory", "exp": now + 600, "iat": now}
	der, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	pemKey := "-----BEGIN PUBLIC KEY-----\n" + base64.StdEncoding.EncodeToString(der) + "\n-----END PUBLIC KEY-----\n"
	rsSign := func(in string) []byte {
		d := sha256.Sum256([]byte(in))
		sig, err := rsa.SignPKCS1v15(rand.Reader, priv, 5, d[:]) // 5: crypto.SHA256
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	call := func(tok string) int {
		var rc fasthttp.RequestCtx
		request(&rc, "GET", "/api/v1/assets", "Bearer "+tok, "")
		serve(t, s, &rc)
		return rc.Response.StatusCode()
	}
	if st := call(forge(map[string]any{"alg": "RS256", "kid": "k1"}, claims, rsSign)); st != 200 {
		t.Fatalf("a genuine RS256 token: %d", st)
	}
	for name, key := range map[string][]byte{"PEM": []byte(pemKey), "DER": der, "modulus": priv.N.Bytes(), "JWK": doc} {
		if st := call(forge(map[string]any{"alg": "HS256", "kid": "k1"}, claims, hs(key, sha256New))); st != 401 {
			t.Errorf("HS256 keyed with the public key's %s: %d, want 401", name, st)
		}
	}
}

// echoed are the server-owned fields a route declares so that a client
// may send back what GET answered; the route checks or ignores them (see
// the PUT rows of attackMassAssignment).
var echoed = map[string]bool{
	"PUT /api/v1/assets/{id} id":        true,
	"PUT /api/v1/assets/{id} createdAt": true,
	"PUT /api/v1/assets/{id} updatedAt": true,
	"PUT /api/v1/plans/{id} id":         true,
	"PUT /api/v1/plans/{id} createdAt":  true,
	"PUT /api/v1/plans/{id} updatedAt":  true,
}

// serverOwned are fields a client must never set.
var serverOwned = []string{"id", "createdAt", "updatedAt", "owner", "userId", "tier", "role", "hash", "lastUsedAt"}

func attackMassAssignment(t *testing.T) {
	h := newHarness(t)
	admin := bearer(h.Token("alice", "pro", "admin"))
	asset := h.Do("POST", "/api/v1/assets", `{"name":"World","value":1000}`, admin...).Data()["id"].(string)
	plan := h.Do("POST", "/api/v1/plans", `{"name":"p","input":{"currentAge":40,"annualIncome":1,"annualExpenses":1}}`, admin...).Data()["id"].(string)
	bodies := 0
	for _, r := range h.S.routes {
		if r.Body == nil {
			continue
		}
		bodies++
		var declared struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(r.Body.JSONSchema(), &declared); err != nil {
			t.Fatal(err)
		}
		inject := map[string]any{}
		for _, f := range serverOwned {
			if _, ok := declared.Properties[f]; ok {
				if !echoed[r.Method+" "+r.Path+" "+f] {
					t.Errorf("%s %s declares the server-owned field %q", r.Method, r.Path, f)
				}
				continue
			}
			inject[f] = "mallory"
		}
		body, _ := json.Marshal(inject)
		id := asset
		if strings.HasPrefix(r.Path, "/api/v1/plans/") {
			id = plan
		}
		path := strings.NewReplacer("{id}", id, "{key}", "attack-flag").Replace(r.Path)
		res := h.Do(r.Method, path, string(body), admin...)
		if res.Status != 400 {
			t.Errorf("%s %s with server-owned fields: %d %s", r.Method, r.Path, res.Status, res.Raw)
			continue
		}
		named := map[string]bool{}
		for _, d := range res.Body["details"].([]any) {
			named[d.(map[string]any)["path"].(string)] = true
		}
		for f := range inject {
			if !named[f] {
				t.Errorf("%s %s: the details do not name %q: %s", r.Method, r.Path, f, res.Raw)
			}
		}
	}
	if bodies < 15 {
		t.Fatalf("only %d routes take a body", bodies)
	}
	// PUT takes an asset as GET answered it: a changed id or createdAt is
	// refused, updatedAt is ignored.
	got := h.Do("GET", "/api/v1/assets/"+asset, "", admin...).Data()
	for field, v := range map[string]any{"id": "ast_mine", "createdAt": "2000-01-01T00:00:00Z"} {
		body := map[string]any{}
		for k, x := range got {
			body[k] = x
		}
		body[field] = v
		raw, _ := json.Marshal(body)
		expectError(t, h.Do("PUT", "/api/v1/assets/"+asset, string(raw), admin...), 400, errcode.Validation)
	}
	got["updatedAt"] = "2000-01-01T00:00:00Z"
	raw, _ := json.Marshal(got)
	if r := h.Do("PUT", "/api/v1/assets/"+asset, string(raw), admin...); r.Status != 200 || r.Data()["updatedAt"] == "2000-01-01T00:00:00Z" || r.Data()["id"] != asset {
		t.Errorf("PUT with a client's updatedAt: %d %s", r.Status, r.Raw)
	}
	// A valid body with one server-owned field changes nothing.
	expectError(t, h.Do("POST", "/api/v1/assets", `{"name":"x","value":1,"id":"ast_mine"}`, admin...), 400, errcode.Validation)
	expectError(t, h.Do("PATCH", "/api/v1/assets/"+asset, `{"createdAt":"2000-01-01T00:00:00Z"}`, admin...), 400, errcode.Validation)
	expectError(t, h.Do("PATCH", "/api/v1/user/profile", `{"tier":"pro"}`, bearer(h.Token("bob", "free", ""))...), 400, errcode.Validation)
	if r := h.Do("GET", "/api/v1/assets", "", admin...); r.Body["meta"].(map[string]any)["total"] != float64(1) {
		t.Errorf("assets after the attempts: %s", r.Raw)
	}
	expectError(t, h.Do("POST", "/api/v1/tax/optimize", `{"country":"US","income":{"pension":1}}`, bearer(h.Token("bob", "free", ""))...), 403, errcode.SubscriptionRequired)
}

func attackResources(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	tok := bearer(h.Token("alice", "pro", ""))
	big := `{"currentAge":40,"annualIncome":1,"annualExpenses":1,"x":"` + strings.Repeat("a", 1<<20) + `"}`
	expectError(t, h.Do("POST", "/api/v1/calculator", big), 413, errcode.PayloadTooLarge)
	items := strings.TrimSuffix(strings.Repeat(`{"name":"x"},`, 101), ",")
	ids := "lisbon-pt,porto-pt,madrid-es,zurich-ch,berlin-de,paris-fr"
	nest := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	for _, c := range []struct {
		name, method, path, body, code, field string
	}{
		{"Monte Carlo cells", "POST", "/api/v1/calculator", `{"currentAge":30,"annualIncome":1,"annualExpenses":1,"monteCarlo":{"simulations":20000}}`, errcode.Validation, "monteCarlo.simulations"},
		{"Monte Carlo paths", "POST", "/api/v1/calculator", `{"currentAge":30,"annualIncome":1,"annualExpenses":1,"monteCarlo":{"simulations":20001}}`, errcode.Validation, "monteCarlo.simulations"},
		{"categorize items", "POST", "/api/v1/assets/categorize", `{"items":[` + items + `]}`, errcode.Validation, "items"},
		{"list limit", "GET", "/api/v1/geo/cities?limit=1000000", "", errcode.Validation, "limit"},
		{"negative offset", "GET", "/api/v1/assets?offset=-1", "", errcode.Validation, "offset"},
		{"compare ids", "GET", "/api/v1/geo/compare?ids=" + ids, "", errcode.Validation, "ids"},
		{"repeated query argument", "GET", "/api/v1/geo/cities?limit=1&limit=2", "", errcode.Validation, "limit"},
		{"undeclared query argument", "GET", "/api/v1/geo/cities?debug=1", "", errcode.Validation, "debug"},
		{"deep nesting", "POST", "/api/v1/portfolio-health", nest, "", ""},
	} {
		r := h.Do(c.method, c.path, c.body, tok...)
		if r.Status != 400 || (c.code != "" && r.Code() != c.code) {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Raw)
			continue
		}
		if c.field == "" {
			continue
		}
		found := false
		for _, d := range r.Body["details"].([]any) {
			found = found || strings.HasPrefix(d.(map[string]any)["path"].(string), c.field)
		}
		if !found {
			t.Errorf("%s: the details do not name %s: %s", c.name, c.field, r.Raw)
		}
	}
	// An oversized request id is replaced, not echoed.
	if r := h.Do("GET", "/api/v1/status", "", "X-Request-ID", strings.Repeat("a", 4000)); len(r.Header["X-Request-Id"]) > 40 {
		t.Errorf("a 4000-byte request id was echoed")
	}
}

func attackFunctionLevel(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	free := bearer(h.Token("bob", "free", ""))
	key := bearer(h.Do("POST", "/api/v1/user/api-keys", `{"name":"k"}`, free...).Data()["key"].(string))
	checked := map[rest.Access]int{}
	for _, r := range h.S.routes {
		path := strings.NewReplacer("{id}", "x", "{key}", "x").Replace(r.Path)
		body := ""
		if r.Body != nil {
			body = "{}"
		}
		want := func(who string, creds []string, status int, code string) {
			t.Helper()
			if res := h.Do(r.Method, path, body, creds...); res.Status != status || res.Code() != code {
				t.Errorf("%s %s as %s: %d %s, want %d %s", r.Method, r.Path, who, res.Status, res.Code(), status, code)
			}
		}
		switch r.Access {
		case rest.Public:
		case rest.Probe: // reads no credentials: a bad one changes nothing
			want("nobody", nil, 200, "")
			want("a bad token", []string{"Authorization", "Bearer x"}, 200, "")
		default:
			want("nobody", nil, 401, errcode.Unauthorized)
		}
		switch r.Access {
		case rest.Admin:
			want("a user", free, 403, errcode.Forbidden)
			want("a user's API key", key, 403, errcode.Forbidden)
		case rest.Session:
			want("an API key", key, 403, errcode.Forbidden)
		case rest.Pro:
			want("the free tier", free, 403, errcode.SubscriptionRequired)
			want("a free API key", key, 403, errcode.SubscriptionRequired)
		}
		checked[r.Access]++
	}
	for _, a := range []rest.Access{rest.Public, rest.User, rest.Session, rest.Pro, rest.Admin, rest.Probe} {
		if checked[a] == 0 {
			t.Errorf("no route of access %d", a)
		}
	}
	// A cookie session may not write without a matching Origin.
	cookie := []string{"Cookie", SessionCookie + "=" + h.Token("bob", "free", "")}
	expectError(t, h.Do("POST", "/api/v1/assets", `{"name":"x","value":1}`, append(cookie, "Origin", "https://evil.example")...), 403, errcode.Forbidden)
	expectError(t, h.Do("POST", "/api/v1/assets", `{"name":"x","value":1}`, cookie...), 403, errcode.Forbidden)
}

func attackBusinessFlows(t *testing.T) {
	h := newHarness(t) // the documented limits: 60 a minute anonymous
	h.IP = "198.51.100.7"
	limited := 0
	for i := range 70 {
		r := h.Do("GET", "/api/v1/assets", "", bearer("guess"+strconv.Itoa(i))...)
		if r.Status == 429 {
			limited++
		} else if r.Status != 401 {
			t.Fatalf("guess %d: %d", i, r.Status)
		}
	}
	if limited == 0 {
		t.Error("70 credential guesses in a minute were never rate limited")
	}
	h.IP = "198.51.100.8"
	tok := bearer(h.Token("carol", "free", ""))
	for i := range 26 {
		r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"k`+strconv.Itoa(i)+`"}`, tok...)
		if i < 25 && r.Status != 201 {
			t.Fatalf("key %d: %d %s", i, r.Status, r.Raw)
		}
		if i == 25 {
			expectError(t, r, 409, errcode.Conflict)
		}
	}
}

func attackSSRF(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var dialed atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dialed.Add(1)
			c.Close()
		}
	}()
	h := newHarness(t)
	url := "http://" + ln.Addr().String() + "/jwks.json"
	now := h.Clock().Unix()
	claims := map[string]any{"sub": "mallory", "exp": now + 600, "iat": now}
	for _, header := range []map[string]any{
		{"alg": "RS256", "jku": url, "kid": "k"},
		{"alg": "RS256", "x5u": url},
		{"alg": "HS256", "jku": url},
	} {
		r := h.Do("GET", "/api/v1/assets", "", bearer(forge(header, claims, hs([]byte("not the secret"), sha256New)))...)
		expectError(t, r, 401, errcode.Unauthorized)
	}
	time.Sleep(50 * time.Millisecond)
	if n := dialed.Load(); n != 0 {
		t.Fatalf("the server fetched a URL from a token %d times", n)
	}
}

func attackMisconfiguration(t *testing.T) {
	h := newHarness(t)
	if err := h.S.router.Add(rest.Get(v1+"/test/panic", rest.Public, func(*rest.Ctx) { panic("secret detail /etc/passwd") }, nil)); err != nil {
		t.Fatal(err)
	}
	r := h.Do("GET", "/api/v1/test/panic", "")
	expectError(t, r, 500, errcode.Internal)
	for _, leak := range []string{"secret detail", "goroutine", "/etc/passwd", ".go:"} {
		if strings.Contains(string(r.Raw), leak) {
			t.Errorf("the 500 leaks %q: %s", leak, r.Raw)
		}
	}
	r = h.Do("TRACE", "/api/v1/status", "")
	expectError(t, r, 405, errcode.MethodNotAllowed)
	if strings.Contains(r.Header["Allow"], "TRACE") {
		t.Errorf("Allow: %s", r.Header["Allow"])
	}
	for _, path := range []string{"/metrics", "/debug/pprof/", "/api/v1/metrics", "/api/v1/debug/vars", "/api/v1/admin"} {
		if r := h.Do("GET", path, ""); r.Status != 404 {
			t.Errorf("%s on the API listener: %d", path, r.Status)
		}
	}
	if r := h.Do("GET", "/api/v1/status", ""); r.Header["Server"] != "fiplan" && r.Header["Server"] != "" {
		t.Errorf("Server: %q names the stack", r.Header["Server"])
	}
}

func attackInventory(t *testing.T) {
	h := newHarness(t)
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(h.S.openapi, &doc); err != nil {
		t.Fatal(err)
	}
	var documented, served []string
	for p, ops := range doc.Paths {
		for m := range ops {
			documented = append(documented, strings.ToUpper(m)+" "+p)
		}
	}
	for _, r := range h.S.routes {
		served = append(served, r.Method+" "+r.Path)
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Errorf("documented %v\nserved %v", documented, served)
	}
	for _, path := range []string{"/api/v0/status", "/api/v2/status", "/api/status", "/api/v1/STATUS"} {
		expectError(t, h.Do("GET", path, ""), 404, errcode.EndpointNotFound)
	}
}
