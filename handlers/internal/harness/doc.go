package harness

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Doc is the served OpenAPI document, decoded and compiled.
type Doc struct {
	Raw map[string]any
	c   *jsonschema.Compiler
}

// LoadOpenAPI fetches the document h's server sends and compiles it.
func LoadOpenAPI[S Server](t *testing.T, h *Harness[S]) *Doc {
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
		n = Deref(t, doc, n)
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
	return Deref(t, doc, n)
}

// Deref follows n's local $ref (or a nullable reference's referenced
// branch) through doc until it reaches a node that is no reference; a
// reference that does not resolve fails the test.
func Deref(t *testing.T, doc map[string]any, n any) any {
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
