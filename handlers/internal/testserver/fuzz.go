package testserver

import (
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/valyala/fasthttp"

	"fiplan/data/store"
	"fiplan/handlers"
	"fiplan/handlers/auth"
)

// TCPAddr is the client address ip, for a RequestCtx served in-process.
func TCPAddr(ip string) *net.TCPAddr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 4000} }

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
type Doc struct {
	Raw map[string]any
	c   *jsonschema.Compiler
}

// LoadOpenAPI fetches the document h's server sends and compiles it.
func LoadOpenAPI(t *testing.T, h *Harness) *Doc {
	t.Helper()
	r := h.Do("GET", "/api/v1/openapi.json", "")
	if r.Status != 200 || r.Header["Content-Type"] != "application/json" {
		t.Fatalf("openapi.json: %d %v", r.Status, r.Header)
	}
	return &Doc{Raw: r.Body, c: CompileDoc(t, r.Raw)}
}

// Schema compiles the schema at the given location (which also checks it
// against the 2020-12 meta-schema).
func (d *Doc) Schema(t *testing.T, parts ...string) *jsonschema.Schema {
	t.Helper()
	s, err := d.c.Compile(Pointer(parts...))
	if err != nil {
		t.Fatalf("schema at %v: %v", parts, err)
	}
	return s
}

// DocNode follows JSON pointer-like steps through the served OpenAPI
// document, resolving a local $ref wherever one stands ("*" steps into an
// array's first item).
func DocNode(t *testing.T, doc map[string]any, steps ...string) any {
	t.Helper()
	var n any = doc
	for _, s := range steps {
		n = derefDoc(t, doc, n)
		switch v := n.(type) {
		case map[string]any:
			n = v[s]
		case []any:
			if s != "*" || len(v) == 0 {
				t.Fatalf("step %q into an array", s)
			}
			n = v[0]
		default:
			t.Fatalf("step %q into %T", s, n)
		}
		if n == nil {
			t.Fatalf("%v: no %q", steps, s)
		}
	}
	return derefDoc(t, doc, n)
}

func derefDoc(t *testing.T, doc map[string]any, n any) any {
	t.Helper()
	for {
		m, ok := n.(map[string]any)
		if !ok {
			return n
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			if alts, ok := m["anyOf"].([]any); ok && len(alts) > 0 {
				n = alts[0] // a nullable reference: the referenced branch
				continue
			}
			return n
		}
		n = any(doc)
		for _, p := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			mm, _ := n.(map[string]any)
			if n = mm[p]; n == nil {
				t.Fatalf("$ref %s does not resolve", ref)
			}
		}
	}
}
