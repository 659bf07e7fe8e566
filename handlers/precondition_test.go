package handlers

import (
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fasthttp"
)

// etag is the response's strong ETag; it fails the test when there is none.
func etag(t *testing.T, r *resp) string {
	t.Helper()
	tag := r.Header["Etag"]
	if len(tag) < 10 || tag[0] != '"' || tag[len(tag)-1] != '"' {
		t.Fatalf("status %d, ETag %q: not a strong entity tag", r.Status, tag)
	}
	return tag
}

// The profile, settings and notifications carry an ETag; a write whose
// If-Match names no current version answers 412 and writes nothing.
func TestDocumentIfMatch(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	with := func(tag string) []string { return append([]string{"If-Match", tag}, tok...) }
	for _, c := range []struct{ path, put, patch, patch2 string }{
		{"/api/v1/user/profile", `{"displayName":"Alice","currentAge":40}`, `{"city":"Lisbon"}`, `{"city":"Porto"}`},
		{"/api/v1/user/settings", `{"baseCurrency":"EUR"}`, `{"units":"imperial"}`, `{"units":"metric"}`},
		{"/api/v1/user/notifications", `{"weeklySummary":{"email":true}}`, `{"productNews":{"push":true}}`, `{"productNews":{"push":false}}`},
	} {
		// Never written: the defaults have a tag too, the same each time.
		r := h.Do("GET", c.path, "", tok...)
		t0 := etag(t, r)
		if again := etag(t, h.Do("GET", c.path, "", tok...)); again != t0 {
			t.Fatalf("%s: the tag changed between reads", c.path)
		}
		for _, stale := range []string{`"stale"`, "W/" + t0, `"x", "y"`, t0[:len(t0)-1] + `-deflate"`} {
			expectError(t, h.Do("PUT", c.path, c.put, with(stale)...), 412, "PRECONDITION_FAILED")
			expectError(t, h.Do("PATCH", c.path, c.patch, with(stale)...), 412, "PRECONDITION_FAILED")
		}
		if got := etag(t, h.Do("GET", c.path, "", tok...)); got != t0 {
			t.Fatalf("%s: a refused write changed the document", c.path)
		}
		// The current tag, among others: the write happens, with a new tag,
		// the one a read then answers.
		r = h.Do("PUT", c.path, c.put, with(`"other", `+t0)...)
		if r.Status != 200 {
			t.Fatalf("PUT %s with the current tag: %d %s", c.path, r.Status, r.Raw)
		}
		t1 := etag(t, r)
		if t1 == t0 || etag(t, h.Do("GET", c.path, "", tok...)) != t1 {
			t.Fatalf("%s: PUT answered tag %s, GET %s (before %s)", c.path, t1, h.Do("GET", c.path, "", tok...).Header["Etag"], t0)
		}
		// The tag read before the PUT is stale now.
		expectError(t, h.Do("PATCH", c.path, c.patch, with(t0)...), 412, "PRECONDITION_FAILED")
		r = h.Do("PATCH", c.path, c.patch, with(t1)...)
		if r.Status != 200 {
			t.Fatalf("PATCH %s with the current tag: %d %s", c.path, r.Status, r.Raw)
		}
		t2 := etag(t, r)
		if t2 == t1 || etag(t, h.Do("GET", c.path, "", tok...)) != t2 {
			t.Fatalf("%s: PATCH answered a tag GET does not", c.path)
		}
		// "*" matches the document there is; no If-Match writes as before.
		if r := h.Do("PATCH", c.path, c.patch2, with("*")...); r.Status != 200 {
			t.Fatalf("PATCH %s with *: %d %s", c.path, r.Status, r.Raw)
		}
		if r := h.Do("PUT", c.path, c.put, tok...); r.Status != 200 {
			t.Fatalf("PUT %s without If-Match: %d %s", c.path, r.Status, r.Raw)
		}
	}
}

// An asset carries an ETag; PUT, PATCH and DELETE with a stale If-Match
// answer 412 and leave it as it was.
func TestAssetIfMatch(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	with := func(tag string) []string { return append([]string{"If-Match", tag}, tok...) }
	r := h.Do("POST", "/api/v1/assets", `{"name":"World index","value":1000,"currency":"EUR"}`, tok...)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	path := "/api/v1/assets/" + r.Data()["id"].(string)
	get := h.Do("GET", path, "", tok...)
	t0 := etag(t, get)

	h.Advance(2e9) // a new updatedAt, so every write changes the data
	r = h.Do("PATCH", path, `{"value":1100}`, with(t0)...)
	if r.Status != 200 {
		t.Fatalf("PATCH with the current tag: %d %s", r.Status, r.Raw)
	}
	t1 := etag(t, r)
	if t1 == t0 || etag(t, h.Do("GET", path, "", tok...)) != t1 {
		t.Fatal("PATCH answered a tag GET does not")
	}
	for _, w := range []struct{ method, body string }{
		{"PUT", `{"name":"Renamed","value":1}`},
		{"PATCH", `{"value":1}`},
		{"DELETE", ""},
	} {
		expectError(t, h.Do(w.method, path, w.body, with(t0)...), 412, "PRECONDITION_FAILED")
		expectError(t, h.Do(w.method, path, w.body, with("W/"+t1)...), 412, "PRECONDITION_FAILED")
	}
	if r := h.Do("GET", path, "", tok...); r.Status != 200 || etag(t, r) != t1 || r.Data()["value"] != 1100.0 {
		t.Fatalf("after refused writes: %d %s", r.Status, r.Raw)
	}
	h.Advance(2e9)
	r = h.Do("PUT", path, `{"name":"Renamed","value":1200,"currency":"EUR"}`, with(t1)...)
	if r.Status != 200 {
		t.Fatalf("PUT with the current tag: %d %s", r.Status, r.Raw)
	}
	t2 := etag(t, r)
	expectError(t, h.Do("DELETE", path, "", with(t1)...), 412, "PRECONDITION_FAILED")
	if r := h.Do("DELETE", path, "", with(t2)...); r.Status != 204 {
		t.Fatalf("DELETE with the current tag: %d %s", r.Status, r.Raw)
	}
	// Gone: 404 whatever the condition.
	expectError(t, h.Do("DELETE", path, "", with("*")...), 404, "NOT_FOUND")
	expectError(t, h.Do("PATCH", path, `{"value":1}`, with(t2)...), 404, "NOT_FOUND")

	// A compressed answer's tag names its coding, and If-Match takes it.
	r = h.Do("POST", "/api/v1/assets", `{"name":"Big","value":1,"notes":"`+strings.Repeat("n", 1500)+`"}`, tok...)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	path = "/api/v1/assets/" + r.Data()["id"].(string)
	plain := etag(t, h.Do("GET", path, "", tok...))
	var rc fasthttp.RequestCtx
	request(&rc, "GET", path, tok[1], "")
	rc.Request.Header.Set("Accept-Encoding", "gzip")
	serve(t, h.S, &rc)
	gz := string(rc.Response.Header.Peek("ETag"))
	if string(rc.Response.Header.ContentEncoding()) != "gzip" || gz != plain[:len(plain)-1]+`-gzip"` {
		t.Fatalf("compressed: Content-Encoding %q, ETag %q (plain %q)", rc.Response.Header.ContentEncoding(), gz, plain)
	}
	if r := h.Do("PATCH", path, `{"value":2}`, with(gz)...); r.Status != 200 {
		t.Fatalf("PATCH with the compressed form's tag: %d %s", r.Status, r.Raw)
	}
}

// Writers racing with the same tag: exactly one wins, the others get 412.
func TestIfMatchRace(t *testing.T) {
	h := newHarness(t)
	tok := bearer(h.Token("alice", "free", ""))
	r := h.Do("POST", "/api/v1/assets", `{"name":"World index","value":1000}`, tok...)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	asset := "/api/v1/assets/" + r.Data()["id"].(string)
	for _, c := range []struct{ method, path, body string }{
		{"PATCH", "/api/v1/user/profile", `{"displayName":"writer %d"}`},
		{"PUT", "/api/v1/user/settings", `{"baseCurrency":"EUR","locale":"pt-PT","expectedReturn":0.0%d}`},
		{"PATCH", asset, `{"value":%d}`},
		{"PUT", asset, `{"name":"writer %d","value":5}`},
	} {
		tag := etag(t, h.Do("GET", c.path, "", tok...))
		const n = 8
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := strings.Replace(c.body, "%d", string(rune('1'+i)), 1)
				statuses[i] = h.Do(c.method, c.path, body, append([]string{"If-Match", tag}, tok...)...).Status
			}()
		}
		wg.Wait()
		won := 0
		for _, s := range statuses {
			switch s {
			case 200:
				won++
			case 412:
			default:
				t.Fatalf("%s %s: status %d", c.method, c.path, s)
			}
		}
		if won != 1 {
			t.Fatalf("%s %s: %d of %d racing writers with one tag won: %v", c.method, c.path, won, n, statuses)
		}
	}
	// Deletes race too.
	tag := etag(t, h.Do("GET", asset, "", tok...))
	statuses := make([]int, 6)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = h.Do("DELETE", asset, "", append([]string{"If-Match", tag}, tok...)...).Status
		}()
	}
	wg.Wait()
	won := 0
	for _, s := range statuses {
		if s == 204 {
			won++
		} else if s != 404 && s != 412 {
			t.Fatalf("racing delete: %d", s)
		}
	}
	if won != 1 {
		t.Fatalf("racing deletes: %v", statuses)
	}
}

// The document declares the tag, the condition and the 412 on every route
// of a stored document.
func TestIfMatchDocumented(t *testing.T) {
	h := newHarness(t)
	paths := loadOpenAPI(t, h).Raw["paths"].(map[string]any)
	for path, methods := range map[string][]string{
		"/api/v1/user/profile":       {"get", "put", "patch"},
		"/api/v1/user/settings":      {"get", "put", "patch"},
		"/api/v1/user/notifications": {"get", "put", "patch"},
		"/api/v1/assets/{id}":        {"get", "put", "patch", "delete"},
	} {
		for _, m := range methods {
			op := paths[path].(map[string]any)[m].(map[string]any)
			res := op["responses"].(map[string]any)
			if m != "delete" {
				ok := res["200"].(map[string]any)
				if _, has := ok["headers"].(map[string]any)["ETag"]; !has {
					t.Errorf("%s %s: no ETag header declared", m, path)
				}
			}
			if m == "get" {
				continue
			}
			if _, has := res["412"]; !has {
				t.Errorf("%s %s: no 412 declared", m, path)
			}
			found := false
			for _, p := range op["parameters"].([]any) {
				p := p.(map[string]any)
				found = found || p["name"] == "If-Match" && p["in"] == "header"
			}
			if !found {
				t.Errorf("%s %s: no If-Match parameter", m, path)
			}
		}
	}
}
