package handlers

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// The web app's pages, static files and sign-in routes pass the doors every
// API route and /mcp pass: each answer carries a request id and nosniff,
// each request has its access-log line with its route template, and its
// count in that route's metrics, refusals and unknown pages included.
func TestWebThroughTheDoors(t *testing.T) {
	var l logLines
	h := newHarness(t, withWeb(t), withLog(&l, AccessAll), withRates("2/1m", "600/1m", "6000/1m"))
	tok := h.Token("ada", "free", "")
	for _, c := range []struct {
		method, path string
		status       int
		headers      []string
	}{
		{"GET", "/", 200, nil},
		{"GET", "/no-such-page", 404, nil},
		{"GET", "/static/no-such-file.js", 404, nil},
		{"GET", "/auth/session", 200, nil},
		{"POST", "/auth/logout", 204, bearer(tok)},
		{"POST", "/auth/logout", 429, nil}, // past the sign-in routes' limit of 2
	} {
		res := h.Send(c.method, c.path, "", c.headers...)
		if res.Status != c.status || res.Header["X-Request-Id"] == "" || res.Header["X-Content-Type-Options"] != "nosniff" {
			t.Errorf("%s %s: %d, want %d; headers:\n%v", c.method, c.path, res.Status, c.status, res.Header)
		}
	}
	var got []string
	for _, r := range l.requests(t) {
		got = append(got, fmt.Sprintf("%v %v %v %v", r["method"], r["path"], r["route"], r["status"]))
	}
	want := []string{
		"GET / /{page} 200", "GET /no-such-page /{page} 404", "GET /static/no-such-file.js /static/{file} 404",
		"GET /auth/session /auth/session 200", "POST /auth/logout /auth/logout 204", "POST /auth/logout /auth/logout 429",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("access log:\n got %q\nwant %q", got, want)
	}
	text := scrape(t, h.S)
	for _, series := range []string{
		`fiplan_http_requests_total{method="*",route="/{page}",status="200"} 1`,
		`fiplan_http_requests_total{method="*",route="/{page}",status="404"} 1`,
		`fiplan_http_requests_total{method="*",route="/static/{file}",status="404"} 1`,
		`fiplan_http_requests_total{method="*",route="/auth/logout",status="204"} 1`,
		`fiplan_http_requests_total{method="*",route="/auth/logout",status="429"} 1`,
	} {
		if !strings.Contains(text, series+"\n") {
			t.Errorf("metrics lack %s", series)
		}
	}
}

// A panic in the web app is recovered into the API's 500 with its request
// id, as a route's is, and the server goes on answering.
func TestWebPanicRecovered(t *testing.T) {
	var l logLines
	h := newHarness(t, withLog(&l, AccessAll), func(c *Config) {
		c.Web = func(rc *fasthttp.RequestCtx) {
			if string(rc.Path()) == "/boom" {
				panic("a page's bug")
			}
			rc.SetStatusCode(200)
		}
	})
	res := h.Send("GET", "/boom", "")
	if res.Status != 500 || res.Header["X-Request-Id"] == "" || !strings.Contains(string(res.Raw), `"code":"INTERNAL_ERROR"`) {
		t.Fatalf("a panicking page: %d %s", res.Status, res.Raw)
	}
	if res = h.Send("GET", "/", ""); res.Status != 200 {
		t.Fatalf("after the panic: %d", res.Status)
	}
	if !strings.Contains(l.b.String(), `"msg":"panic serving request"`) {
		t.Fatal("the panic was not logged")
	}
}
