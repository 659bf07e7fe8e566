package handlers

import (
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
)

// The probes answer however often one address asks, with or without
// credentials (which they do not read), while the same address is over
// its limit on every other route.
func TestProbesAreNeverLimited(t *testing.T) {
	h := newHarness(t, withRates("1/1m", "1/1m", "1/1m"))
	if r := h.do("GET", "/api/v1/status", ""); r.status != 200 {
		t.Fatalf("status: %d %s", r.status, r.raw)
	}
	expectError(t, h.do("GET", "/api/v1/status", ""), 429, errcode.RateLimited)
	for i := range 20 {
		for _, path := range []string{"/livez", "/readyz"} {
			for _, creds := range [][]string{nil, {"Authorization", "Bearer garbage"}, {"Authorization", "Bearer svc_unknownkeyunknownkeyunknownkey0000"}} {
				r := h.do("GET", path, "", creds...)
				if r.status != 200 || r.body["success"] != true || r.data()["status"] != "ok" {
					t.Fatalf("%s #%d %v: %d %s", path, i+1, creds, r.status, r.raw)
				}
				if r.header["Ratelimit-Limit"] != "" || r.header["X-Request-Id"] == "" {
					t.Fatalf("%s: headers %v", path, r.header)
				}
			}
		}
	}
	// HEAD is answered as GET; another method is 405.
	if r := h.do("HEAD", "/readyz", ""); r.status != 200 {
		t.Fatalf("HEAD /readyz: %d", r.status)
	}
	expectError(t, h.do("POST", "/livez", "{}"), 405, errcode.MethodNotAllowed)
}

// /readyz follows the store, checked at most once a second; /livez does
// not look at it.
func TestReadyzFollowsTheStore(t *testing.T) {
	h := newHarness(t)
	if r := h.do("GET", "/readyz", ""); r.status != 200 {
		t.Fatalf("readyz: %d %s", r.status, r.raw)
	}
	h.db.Close()
	h.advance(999 * time.Millisecond)
	if r := h.do("GET", "/readyz", ""); r.status != 200 {
		t.Fatalf("within the second: %d %s", r.status, r.raw)
	}
	h.advance(time.Millisecond)
	for range 2 {
		r := h.do("GET", "/readyz", "")
		expectError(t, r, 503, errcode.Unavailable)
		if r.header["Retry-After"] != "1" || r.body["retryAfter"] != 1.0 {
			t.Fatalf("retry: %v %s", r.header, r.raw)
		}
	}
	if r := h.do("GET", "/livez", ""); r.status != 200 || r.data()["status"] != "ok" {
		t.Fatalf("livez with the store gone: %d %s", r.status, r.raw)
	}
}

// The web app serves every path outside /api/ except the probes.
func TestProbesAreNotTheWebApps(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Web = func(rc *fasthttp.RequestCtx) {
			rc.SetStatusCode(fasthttp.StatusNotFound)
			rc.SetBodyString(`{"success":false,"error":"the web app's","code":"ENDPOINT_NOT_FOUND"}`)
		}
	})
	for _, path := range []string{"/livez", "/readyz"} {
		if r := h.do("GET", path, ""); r.status != 200 || r.data()["status"] != "ok" {
			t.Fatalf("%s with a web app: %d %s", path, r.status, r.raw)
		}
	}
	if r := h.do("GET", "/livezz", ""); r.body["error"] != "the web app's" {
		t.Fatalf("/livezz: %d %s, want the web app's answer", r.status, r.raw)
	}
}
