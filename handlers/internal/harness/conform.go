package harness

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
)

// conformance checks a response against the OpenAPI document of the server
// that sent it: the status must be documented for the operation, a JSON
// body must validate against the documented schema (which forbids
// undocumented fields), and an error's code must be sent with its one
// status. The harness and Serve pass every response they see through it,
// so a response that drifts from its declaration fails the first test that
// produces it.
type conformance struct {
	doc     []byte
	paths   map[string]map[string]map[string]any // path -> method -> status -> response
	c       *jsonschema.Compiler
	mu      sync.Mutex
	schemas map[string]*jsonschema.Schema
}

var (
	conformMu sync.Mutex
	conforms  = map[Server]*conformance{}
)

// conformanceOf returns the checker of s's document, built once per server.
func conformanceOf(tb testing.TB, s Server) *conformance {
	tb.Helper()
	conformMu.Lock()
	defer conformMu.Unlock()
	if k := conforms[s]; k != nil {
		return k
	}
	var raw struct {
		Paths map[string]map[string]struct {
			Responses map[string]map[string]any `json:"responses"`
		} `json:"paths"`
	}
	doc := s.OpenAPI()
	if err := json.Unmarshal(doc, &raw); err != nil {
		tb.Fatal(err)
	}
	k := &conformance{doc: doc, paths: map[string]map[string]map[string]any{}, c: CompileDoc(tb, doc), schemas: map[string]*jsonschema.Schema{}}
	for p, ops := range raw.Paths {
		k.paths[p] = map[string]map[string]any{}
		for m, op := range ops {
			k.paths[p][m] = map[string]any{}
			for st, r := range op.Responses {
				k.paths[p][m][st] = r
			}
		}
	}
	conforms[s] = k
	tb.Cleanup(func() {
		conformMu.Lock()
		delete(conforms, s)
		conformMu.Unlock()
	})
	return k
}

func (k *conformance) schema(tb testing.TB, ptr string) *jsonschema.Schema {
	tb.Helper()
	k.mu.Lock()
	defer k.mu.Unlock()
	if s := k.schemas[ptr]; s != nil {
		return s
	}
	s, err := k.c.Compile(ptr)
	if err != nil {
		tb.Fatalf("cannot compile %s: %v", ptr, err)
	}
	k.schemas[ptr] = s
	return s
}

// check validates one response of s to method path, sent as contentType
// ("" for JSON). A body of another media type than JSON must be one the
// document lists for the status; it is not parsed.
func (k *conformance) check(tb testing.TB, s Server, method, path string, status int, contentType string, body []byte) {
	tb.Helper()
	if method == "HEAD" || method == "OPTIONS" {
		return
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	what := method + " " + path + " " + strconv.Itoa(status)
	if media := bareMediaType(contentType); media != "" && media != "application/json" {
		k.checkMedia(tb, s, what, method, path, status, media, body)
		return
	}
	var v any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &v); err != nil {
			tb.Fatalf("%s: the body is not JSON: %v\n%.300s", what, err, body)
		}
	}
	if status >= 400 {
		code, _ := v.(map[string]any)["code"].(string)
		if want := errcode.Status(code); want != status {
			tb.Fatalf("%s: code %q is sent with %d, not %d\n%.300s", what, code, want, status, body)
		}
	}
	rm, rp := s.RouteOf(method, path)
	if rp == "" {
		// No operation: the answer is the error envelope.
		if err := k.schema(tb, Pointer("components", "schemas", "Error")).Validate(v); err != nil {
			tb.Fatalf("%s: %v\n%.300s", what, err, body)
		}
		return
	}
	if k.paths[rp] == nil && strings.HasPrefix(rp, "/api/v1/test/") {
		return // a route a test added after the document was built
	}
	if rp == "/api/v1/openapi.json" && status == 200 {
		if !bytes.Equal(body, k.doc) {
			tb.Fatalf("%s: not the document", what)
		}
		return
	}
	lm := strings.ToLower(rm)
	st := strconv.Itoa(status)
	doc, ok := k.paths[rp][lm][st]
	if !ok {
		tb.Fatalf("%s: status %s is not documented for %s %s\n%.300s", what, st, rm, rp, body)
	}
	if _, hasBody := doc.(map[string]any)["content"]; !hasBody {
		if len(body) != 0 {
			tb.Fatalf("%s: documented without a body, sent %.300s", what, body)
		}
		return
	}
	if err := k.schema(tb, Pointer("paths", rp, lm, "responses", st, "content", "application/json", "schema")).Validate(v); err != nil {
		tb.Fatalf("%s does not match its documented schema: %v\n%.500s", what, err, body)
	}
}

// checkMedia checks a body of a media type other than JSON: the operation
// must document it for the status, and the body must not be empty.
func (k *conformance) checkMedia(tb testing.TB, s Server, what, method, path string, status int, media string, body []byte) {
	tb.Helper()
	rm, rp := s.RouteOf(method, path)
	if rp == "" {
		tb.Fatalf("%s: %s sent where no operation is", what, media)
	}
	doc, _ := k.paths[rp][strings.ToLower(rm)][strconv.Itoa(status)].(map[string]any)
	content, _ := doc["content"].(map[string]any)
	if _, ok := content[media]; !ok {
		tb.Fatalf("%s: %s is not documented for %s %s\n%.300s", what, media, rm, rp, body)
	}
	if len(body) == 0 {
		tb.Fatalf("%s: an empty %s body", what, media)
	}
}

// bareMediaType is contentType without its parameters, in lower case.
func bareMediaType(contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// Conform checks the JSON response in body to method path, served by s.
func Conform(tb testing.TB, s Server, method, path string, status int, body []byte) {
	tb.Helper()
	conformanceOf(tb, s).check(tb, s, method, path, status, "", body)
}

// ConformAs is Conform for a response of any media type.
func ConformAs(tb testing.TB, s Server, method, path string, status int, contentType string, body []byte) {
	tb.Helper()
	conformanceOf(tb, s).check(tb, s, method, path, status, contentType, body)
}

// Serve passes rc through s and checks the response against the document.
func Serve(tb testing.TB, s Server, rc *fasthttp.RequestCtx) {
	tb.Helper()
	s.Serve(rc)
	ConformAs(tb, s, string(rc.Method()), string(rc.RequestURI()), rc.Response.StatusCode(), string(rc.Response.Header.ContentType()), DecodedBody(tb, &rc.Response))
}

// DecodedBody is the response body with its Content-Encoding undone.
func DecodedBody(tb testing.TB, res *fasthttp.Response) []byte {
	tb.Helper()
	var b []byte
	var err error
	switch enc := string(res.Header.ContentEncoding()); enc {
	case "":
		return res.Body()
	case "gzip":
		b, err = res.BodyGunzip()
	case "br":
		b, err = res.BodyUnbrotli()
	case "zstd":
		b, err = res.BodyUnzstd()
	default:
		tb.Fatalf("unknown Content-Encoding %q", enc)
	}
	if err != nil {
		tb.Fatalf("cannot decode %s body: %v", res.Header.ContentEncoding(), err)
	}
	return b
}

// CompileDoc loads an OpenAPI document into a JSON Schema compiler, so that
// schemas inside it can be compiled by pointer and $refs resolve.
func CompileDoc(tb testing.TB, raw []byte) *jsonschema.Compiler {
	tb.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		tb.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("openapi.json", v); err != nil {
		tb.Fatal(err)
	}
	return c
}

// Pointer is the JSON pointer into the compiled document through parts.
func Pointer(parts ...string) string {
	var b strings.Builder
	b.WriteString("openapi.json#")
	for _, p := range parts {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}
