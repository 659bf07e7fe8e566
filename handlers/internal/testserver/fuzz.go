package testserver

import (
	"encoding/json"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/internal/harness"
)

// TCPAddr is the client address ip, for a RequestCtx served in-process.
func TCPAddr(ip string) *net.TCPAddr { return harness.ClientAddr(ip) }

// NewFuzzServer is a Server without rate limits for in-process fuzzing,
// configured further by opts.
func NewFuzzServer(f *testing.F, opts ...Option) *handlers.Server {
	s, _ := newFuzzServer(f, opts...)
	return s
}

func newFuzzServer(f *testing.F, opts ...Option) (*handlers.Server, *store.DB) {
	db, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"), store.Options{})
	if err != nil {
		f.Fatal(err)
	}
	v, err := auth.NewVerifier(auth.Config{Secret: Secret})
	if err != nil {
		f.Fatal(err)
	}
	cfg := handlers.Config{Version: "fuzz", DB: db, Verifier: v}
	for _, o := range opts {
		o(&cfg)
	}
	s, err := handlers.New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close(); v.Close(); db.Close() })
	return s, db
}

// FuzzRoute serves POST bodies to path in-process and checks what any
// route must guarantee: never a 5xx, always JSON, and every 200 valid
// against the route's documented response schema. It returns the decoded
// body of a 200, or nil. With a tier ("free" or "pro"), requests carry an
// API key of a user on that tier, for routes that need authentication.
func FuzzRoute(f *testing.F, path string, tier ...string) func(t *testing.T, body []byte) map[string]any {
	s, db := newFuzzServer(f)
	var authz string
	if len(tier) > 0 {
		plain, hash, err := auth.NewKey()
		if err != nil {
			f.Fatal(err)
		}
		if err := db.SaveAccount("fuzz", tier[0]); err != nil {
			f.Fatal(err)
		}
		if err := db.CreateKey(store.Key{ID: "key_fuzz", Owner: "fuzz", Name: "fuzz", CreatedAt: time.Now()}, hash, 1, nil); err != nil {
			f.Fatal(err)
		}
		authz = "Bearer " + plain
	}
	c := CompileDoc(f, s.OpenAPI())
	// A non-finite number would be written as null where the schema
	// requires a number.
	ok, err := c.Compile(Pointer("paths", path, "post", "responses", "200", "content", "application/json", "schema"))
	if err != nil {
		f.Fatal(err)
	}
	return func(t *testing.T, body []byte) map[string]any {
		var rc fasthttp.RequestCtx
		rc.Init(&fasthttp.Request{}, TCPAddr("192.0.2.1"), nil)
		rc.Request.Header.SetMethod("POST")
		rc.Request.SetRequestURI(path)
		rc.Request.SetBody(body)
		if authz != "" {
			rc.Request.Header.Set("Authorization", authz)
		}
		Serve(t, s, &rc)
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

// Doc is the served OpenAPI document, decoded and compiled.
type Doc = harness.Doc

// LoadOpenAPI fetches the document h's server sends and compiles it.
func LoadOpenAPI(t *testing.T, h *Harness) *Doc {
	t.Helper()
	return harness.LoadOpenAPI(t, h.Harness)
}

// DocNode follows JSON pointer-like steps through the served OpenAPI
// document, resolving a local $ref wherever one stands ("*" steps into an
// array's first item).
func DocNode(t *testing.T, doc map[string]any, steps ...string) any {
	t.Helper()
	return harness.DocNode(t, doc, steps...)
}
