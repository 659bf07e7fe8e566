package rest

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
)

func testCtx(t *testing.T, uri string) *Ctx {
	t.Helper()
	var rc fasthttp.RequestCtx
	rc.Init(&fasthttp.Request{}, &net.TCPAddr{IP: net.IPv4(192, 0, 2, 9), Port: 4000}, nil)
	rc.Request.SetRequestURI(uri)
	c := AcquireCtx(&rc, slog.New(slog.DiscardHandler), time.Now())
	t.Cleanup(func() { ReleaseCtx(c) })
	return c
}

func body(t *testing.T, c *Ctx) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(c.RC.Response.Body(), &m); err != nil {
		t.Fatalf("%v: %s", err, c.RC.Response.Body())
	}
	return m
}

func TestErrorsAreSentWithTheirCodesStatus(t *testing.T) {
	for _, code := range errcode.All() {
		c := testCtx(t, "/x")
		c.Error(code.Code, "msg")
		if c.RC.Response.StatusCode() != code.Status || c.Status() != code.Status || c.Code() != code.Code {
			t.Errorf("%s: sent %d", code.Code, c.RC.Response.StatusCode())
		}
		if m := body(t, c); m["success"] != false || m["code"] != code.Code || m["error"] != "msg" {
			t.Errorf("%s: body %v", code.Code, m)
		}
	}
	c := testCtx(t, "/x")
	c.RateLimited(7)
	if m := body(t, c); c.RC.Response.StatusCode() != 429 || m["retryAfter"] != 7.0 || string(c.RC.Response.Header.Peek("Retry-After")) != "7" {
		t.Errorf("rate limited: %d %v", c.RC.Response.StatusCode(), m)
	}
}

func TestEnvelopes(t *testing.T) {
	c := testCtx(t, "/x")
	w := c.Begin()
	w.BeginArray()
	w.Int(1)
	w.EndArray()
	c.SendList(200, 9, 1, 3)
	if got := string(c.RC.Response.Body()); got != `{"success":true,"data":[1],"meta":{"total":9,"limit":1,"offset":3}}` {
		t.Errorf("list: %s", got)
	}
	c = testCtx(t, "/x")
	c.Fail("limit", "too big")
	m := body(t, c)
	d := m["details"].([]any)[0].(map[string]any)
	if c.RC.Response.StatusCode() != 400 || m["code"] != "VALIDATION_ERROR" || d["path"] != "limit" || d["message"] != "too big" {
		t.Errorf("fail: %v", m)
	}
}

func TestQueryCheckAndPaging(t *testing.T) {
	r := Get("/x", Public, nil, &Doc{Query: PageQuery})
	for _, c := range []struct {
		uri, bad string
	}{
		{"/x", ""},
		{"/x?limit=5&offset=2", ""},
		{"/x?lmit=5", "lmit"},
		{"/x?limit=5&limit=6", "limit"},
		{"/x?offset=1&limit=1&offset=2", "offset"},
	} {
		ctx := testCtx(t, c.uri)
		ctx.SetRoute(r)
		ok := ctx.CheckQuery()
		if ok != (c.bad == "") {
			t.Errorf("%s: ok %v", c.uri, ok)
			continue
		}
		if !ok {
			if d := body(t, ctx)["details"].([]any)[0].(map[string]any); d["path"] != c.bad {
				t.Errorf("%s: names %v, want %s", c.uri, d["path"], c.bad)
			}
		}
	}
	for _, c := range []struct {
		uri           string
		limit, offset int
		ok            bool
	}{
		{"/x", DefaultLimit, 0, true},
		{"/x?limit=200&offset=7", 200, 7, true},
		{"/x?limit=0", 0, 0, false},
		{"/x?limit=201", 0, 0, false},
		{"/x?offset=-1", 0, 0, false},
		{"/x?limit=1e3", 0, 0, false},
	} {
		l, o, ok := testCtx(t, c.uri).Page()
		if l != c.limit || o != c.offset || ok != c.ok {
			t.Errorf("%s: %d %d %v", c.uri, l, o, ok)
		}
	}
	if lo, hi := Window(10, 5, 8); lo != 8 || hi != 10 {
		t.Errorf("window %d %d", lo, hi)
	}
}

func TestFlushKeepsWriterCapacity(t *testing.T) {
	c := testCtx(t, "/x")
	payload := bytes.Repeat([]byte("x"), 40<<10)
	c.w.B = append(c.w.B, payload...)
	c.flush(200)
	if !bytes.Equal(c.RC.Response.Body(), payload) {
		t.Fatalf("body: %d bytes, want %d", len(c.RC.Response.Body()), len(payload))
	}
	if len(c.w.B) != 0 || cap(c.w.B) < len(payload) {
		t.Fatalf("writer after flush: len %d cap %d, want empty with cap >= %d", len(c.w.B), cap(c.w.B), len(payload))
	}
	if b := poolable(c.w.B); cap(b) != cap(c.w.B) {
		t.Fatalf("a %d-byte buffer is not kept", cap(c.w.B))
	}
	if b := poolable(make([]byte, 10, 2*maxPooledBody)); len(b) != 0 || cap(b) > maxPooledBody {
		t.Fatalf("an outsized buffer is kept: len %d cap %d", len(b), cap(b))
	}
}
