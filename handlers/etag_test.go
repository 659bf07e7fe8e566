package handlers

import (
	"testing"

	"github.com/valyala/fasthttp"
)

// The responses fixed per release carry a strong ETag; If-None-Match naming
// it answers 304 with no body, another tag the full response.
func TestETagNotModified(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	for _, c := range []struct {
		path string
		auth []string
	}{
		{"/api/v1/geo/cities", nil},
		{"/api/v1/geo/cities/lisbon-pt", tok},
		{"/api/v1/tax/countries", tok},
		{"/api/v1/tax/programs", tok},
		{"/api/v1/tax/programs/it-pensioner-7", tok},
		{"/api/v1/openapi.json", nil},
	} {
		r := h.Do("GET", c.path, "", c.auth...)
		tag := r.Header["Etag"]
		if r.Status != 200 || len(tag) < 10 || tag[0] != '"' {
			t.Fatalf("%s: %d, ETag %q", c.path, r.Status, tag)
		}
		if again := h.Do("GET", c.path, "", c.auth...); again.Header["Etag"] != tag {
			t.Fatalf("%s: the tag changed between requests", c.path)
		}
		nm := h.Do("GET", c.path, "", append([]string{"If-None-Match", `"other", W/` + tag}, c.auth...)...)
		if nm.Status != fasthttp.StatusNotModified || len(nm.Raw) != 0 || nm.Header["Etag"] != tag {
			t.Fatalf("%s with its tag: %d, %d bytes, ETag %q", c.path, nm.Status, len(nm.Raw), nm.Header["Etag"])
		}
		if full := h.Do("GET", c.path, "", append([]string{"If-None-Match", `"other"`}, c.auth...)...); full.Status != 200 || len(full.Raw) != len(r.Raw) {
			t.Fatalf("%s with another tag: %d", c.path, full.Status)
		}
	}
	// Tags tell different bodies apart.
	a := h.Do("GET", "/api/v1/geo/cities/lisbon-pt", "", tok...).Header["Etag"]
	b := h.Do("GET", "/api/v1/geo/cities/porto-pt", "", tok...).Header["Etag"]
	if a == b {
		t.Fatal("two cities share a tag")
	}
	// A query builds the page per request: no tag, no 304.
	if r := h.Do("GET", "/api/v1/geo/cities?limit=5", "", "If-None-Match", "*"); r.Status != 200 || r.Header["Etag"] != "" {
		t.Fatalf("queried list: %d, ETag %q", r.Status, r.Header["Etag"])
	}
	// Errors are not cached: an unknown city stays a 404 whatever the tag.
	expectError(t, h.Do("GET", "/api/v1/geo/cities/nowhere-xx", "", append([]string{"If-None-Match", "*"}, tok...)...), 404, "NOT_FOUND")
}

// Through the whole chain a client that takes compression gets it (serve
// checks the decoded body against the document), with Vary; one that does
// not gets the plain body.
func TestCompressedThroughChain(t *testing.T) {
	h := newHarness(t)
	body := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000}`
	var plain []byte
	for _, enc := range []string{"", "gzip", "br", "zstd"} {
		var rc fasthttp.RequestCtx
		request(&rc, "POST", "/api/v1/calculator", "", body)
		rc.Request.Header.Set("Accept-Encoding", enc)
		serve(t, h.S, &rc)
		res := &rc.Response
		if res.StatusCode() != 200 || string(res.Header.ContentEncoding()) != enc || string(res.Header.Peek("Vary")) != "Accept-Encoding" {
			t.Fatalf("%q: %d, Content-Encoding %q, Vary %q", enc, res.StatusCode(), res.Header.ContentEncoding(), res.Header.Peek("Vary"))
		}
		got := decodedBody(t, res)
		if enc == "" {
			plain = append([]byte(nil), got...)
			continue
		}
		if len(res.Body()) >= len(plain)/3 || string(got) != string(plain) {
			t.Fatalf("%s: %d bytes for %d, decodes to the same: %v", enc, len(res.Body()), len(plain), string(got) == string(plain))
		}
	}
}
