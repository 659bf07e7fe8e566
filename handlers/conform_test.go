package handlers

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
	"fiplan/handlers/rest"
)

// conformance checks a response against the OpenAPI document of the server
// that sent it: the status must be documented for the operation, a JSON
// body must validate against the documented schema (which forbids
// undocumented fields), and an error's code must be sent with its one
// status. The harness, the fuzz targets and the benchmarks pass every
// response they see through it, so a response that drifts from its
// declaration fails the first test that produces it.
type conformance struct {
	doc     []byte
	paths   map[string]map[string]map[string]any // path -> method -> status -> response
	c       *jsonschema.Compiler
	mu      sync.Mutex
	schemas map[string]*jsonschema.Schema
}

var (
	conformMu sync.Mutex
	conforms  = map[*Server]*conformance{}
)

// conformanceOf returns the checker of s's document, built once per server.
func conformanceOf(tb testing.TB, s *Server) *conformance {
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
	if err := json.Unmarshal(s.openapi, &raw); err != nil {
		tb.Fatal(err)
	}
	k := &conformance{doc: s.openapi, paths: map[string]map[string]map[string]any{}, c: compileDoc(tb, s.openapi), schemas: map[string]*jsonschema.Schema{}}
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
func (k *conformance) check(tb testing.TB, s *Server, method, path string, status int, contentType string, body []byte) {
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
	var p rest.Params
	n := s.router.Lookup([]byte(path), &p)
	if n == nil || n.Route([]byte(method)) == nil {
		// No operation: the answer is the error envelope.
		if err := k.schema(tb, pointer("components", "schemas", "Error")).Validate(v); err != nil {
			tb.Fatalf("%s: %v\n%.300s", what, err, body)
		}
		return
	}
	r := n.Route([]byte(method))
	if k.paths[r.Path] == nil && strings.HasPrefix(r.Path, v1+"/test/") {
		return // a route a test added after the document was built
	}
	if r.Path == v1+"/openapi.json" && status == 200 {
		if !bytes.Equal(body, k.doc) {
			tb.Fatalf("%s: not the document", what)
		}
		return
	}
	lm := strings.ToLower(r.Method)
	st := strconv.Itoa(status)
	doc, ok := k.paths[r.Path][lm][st]
	if !ok {
		tb.Fatalf("%s: status %s is not documented for %s %s\n%.300s", what, st, r.Method, r.Path, body)
	}
	if _, hasBody := doc.(map[string]any)["content"]; !hasBody {
		if len(body) != 0 {
			tb.Fatalf("%s: documented without a body, sent %.300s", what, body)
		}
		return
	}
	if err := k.schema(tb, pointer("paths", r.Path, lm, "responses", st, "content", "application/json", "schema")).Validate(v); err != nil {
		tb.Fatalf("%s does not match its documented schema: %v\n%.500s", what, err, body)
	}
}

// checkMedia checks a body of a media type other than JSON: the operation
// must document it for the status, and the body must not be empty.
func (k *conformance) checkMedia(tb testing.TB, s *Server, what, method, path string, status int, media string, body []byte) {
	tb.Helper()
	var p rest.Params
	n := s.router.Lookup([]byte(path), &p)
	if n == nil || n.Route([]byte(method)) == nil {
		tb.Fatalf("%s: %s sent where no operation is", what, media)
	}
	r := n.Route([]byte(method))
	doc, _ := k.paths[r.Path][strings.ToLower(r.Method)][strconv.Itoa(status)].(map[string]any)
	content, _ := doc["content"].(map[string]any)
	if _, ok := content[media]; !ok {
		tb.Fatalf("%s: %s is not documented for %s %s\n%.300s", what, media, r.Method, r.Path, body)
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

// conform checks the JSON response in body to method path, served by s.
func conform(tb testing.TB, s *Server, method, path string, status int, body []byte) {
	tb.Helper()
	conformanceOf(tb, s).check(tb, s, method, path, status, "", body)
}

// conformAs is conform for a response of any media type.
func conformAs(tb testing.TB, s *Server, method, path string, status int, contentType string, body []byte) {
	tb.Helper()
	conformanceOf(tb, s).check(tb, s, method, path, status, contentType, body)
}

func TestConformanceCatchesDrift(t *testing.T) {
	h := newHarness(t)
	k := conformanceOf(t, h.s)
	// A helper test can never itself fail the test it runs in, so each
	// drift is checked on a throwaway T.
	drift := func(method, path string, status int, ctype, body string) bool {
		t.Helper()
		ft := &testing.T{}
		done := make(chan bool)
		go func() {
			defer func() { done <- ft.Failed() }()
			defer func() { recover() }() //nolint:errcheck // Fatal ends the goroutine
			k.check(ft, h.s, method, path, status, ctype, []byte(body))
		}()
		return <-done
	}
	if drift("GET", "/api/v1/status", 200, "application/json", string(h.do("GET", "/api/v1/status", "").raw)) {
		t.Fatal("a real status response fails the check")
	}
	if drift("POST", "/api/v1/calculator", 200, "text/csv; charset=utf-8", "scenario,year\r\n") {
		t.Fatal("a documented CSV answer fails the check")
	}
	for _, c := range []struct {
		name, method, path string
		status             int
		ctype, body        string
	}{
		{"an undocumented field", "GET", "/api/v1/status", 200, "", `{"success":true,"data":{"status":"ok","version":"x","startedAt":"2026-01-01T00:00:00Z","uptimeSeconds":1,"datasets":[],"storage":{"kind":"bbolt","state":"ok","sizeBytes":1},"extra":1}}`},
		{"a missing field", "GET", "/api/v1/status", 200, "", `{"success":true,"data":{"status":"ok"}}`},
		{"an undocumented status", "GET", "/api/v1/status", 418, "", `{"success":false,"error":"x","code":"CONFLICT"}`},
		{"a code with the wrong status", "GET", "/api/v1/geo/cities", 400, "", `{"success":false,"error":"x","code":"NOT_FOUND"}`},
		{"a body on 204", "DELETE", "/api/v1/user/api-keys/x", 204, "", `{"success":true}`},
		{"an undocumented media type", "GET", "/api/v1/status", 200, "text/csv; charset=utf-8", "status\r\nok\r\n"},
		{"a documented media type on an error status", "POST", "/api/v1/calculator", 400, "text/csv", "x\r\n"},
		{"an empty CSV body", "POST", "/api/v1/calculator", 200, "text/csv", ""},
	} {
		if !drift(c.method, c.path, c.status, c.ctype, c.body) {
			t.Errorf("%s passes the check", c.name)
		}
	}
}

// serve passes rc through s and checks the response against the document.
func serve(tb testing.TB, s *Server, rc *fasthttp.RequestCtx) {
	tb.Helper()
	s.Serve(rc)
	conformAs(tb, s, string(rc.Method()), string(rc.RequestURI()), rc.Response.StatusCode(), string(rc.Response.Header.ContentType()), rc.Response.Body())
}
