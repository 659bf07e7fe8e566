package handlers

import (
	"encoding/json"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers/auth"
)

func tcpAddr(ip string) *net.TCPAddr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 4000} }

func mustPrefixes(s ...string) []netip.Prefix {
	var out []netip.Prefix
	for _, x := range s {
		out = append(out, netip.MustParsePrefix(x))
	}
	return out
}

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

// newFuzzServer is a Server without rate limits for in-process fuzzing.
func newFuzzServer(f *testing.F) *Server {
	db, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"), store.Options{})
	if err != nil {
		f.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: testSecret})
	if err != nil {
		f.Fatal(err)
	}
	s, err := New(Config{Version: "fuzz", DB: db, Verifier: v})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close(); v.Close(); db.Close() })
	return s
}

// fuzzRoute serves POST bodies to path in-process and checks what any
// route must guarantee: never a 5xx, always JSON, and every 200 valid
// against the route's documented response schema. It returns the decoded
// body of a 200, or nil. With a tier ("free" or "pro"), requests carry an
// API key of a user on that tier, for routes that need authentication.
func fuzzRoute(f *testing.F, path string, tier ...string) func(t *testing.T, body []byte) map[string]any {
	s := newFuzzServer(f)
	var authz string
	if len(tier) > 0 {
		plain, hash, err := auth.NewKey()
		if err != nil {
			f.Fatal(err)
		}
		if err := s.db.SaveAccount("fuzz", tier[0]); err != nil {
			f.Fatal(err)
		}
		if err := s.db.CreateKey(store.Key{ID: "key_fuzz", Owner: "fuzz", Name: "fuzz", CreatedAt: time.Now()}, hash, 1); err != nil {
			f.Fatal(err)
		}
		authz = "Bearer " + plain
	}
	c := compileDoc(f, s.openapi)
	// A non-finite number would be written as null where the schema
	// requires a number.
	ok, err := c.Compile(pointer("paths", path, "post", "responses", "200", "content", "application/json", "schema"))
	if err != nil {
		f.Fatal(err)
	}
	return func(t *testing.T, body []byte) map[string]any {
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, tcpAddr("192.0.2.1"), nil)
		rc.Request.Header.SetMethod("POST")
		rc.Request.SetRequestURI(path)
		rc.Request.SetBody(body)
		if authz != "" {
			rc.Request.Header.Set("Authorization", authz)
		}
		serve(t, s, &rc)
		if code := rc.Response.StatusCode(); code >= 500 {
			t.Fatalf("status %d for %s: %s", code, body, rc.Response.Body())
		}
		var got any
		if err := json.Unmarshal(rc.Response.Body(), &got); err != nil {
			t.Fatalf("invalid JSON for %s: %s", body, rc.Response.Body())
		}
		if rc.Response.StatusCode() != 200 {
			return nil
		}
		if err := ok.Validate(got); err != nil {
			t.Fatalf("response for %s breaks its schema: %v", body, err)
		}
		return got.(map[string]any)["data"].(map[string]any)
	}
}
