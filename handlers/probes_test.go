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
	if r := h.Do("GET", "/api/v1/status", ""); r.Status != 200 {
		t.Fatalf("status: %d %s", r.Status, r.Raw)
	}
	expectError(t, h.Do("GET", "/api/v1/status", ""), 429, errcode.RateLimited)
	for i := range 20 {
		for _, path := range []string{"/livez", "/readyz"} {
			for _, creds := range [][]string{nil, {"Authorization", "Bearer garbage"}, {"Authorization", "Bearer svc_unknownkeyunknownkeyunknownkey0000"}} {
				r := h.Do("GET", path, "", creds...)
				if r.Status != 200 || r.Body["success"] != true || r.Data()["status"] != "ok" {
					t.Fatalf("%s #%d %v: %d %s", path, i+1, creds, r.Status, r.Raw)
				}
				if r.Header["Ratelimit-Limit"] != "" || r.Header["X-Request-Id"] == "" {
					t.Fatalf("%s: headers %v", path, r.Header)
				}
			}
		}
	}
	// HEAD is answered as GET; another method is 405.
	if r := h.Do("HEAD", "/readyz", ""); r.Status != 200 {
		t.Fatalf("HEAD /readyz: %d", r.Status)
	}
	expectError(t, h.Do("POST", "/livez", "{}"), 405, errcode.MethodNotAllowed)
}

// /readyz follows the store, checked at most once a second; /livez does
// not look at it.
func TestReadyzFollowsTheStore(t *testing.T) {
	h := newHarness(t)
	if r := h.Do("GET", "/readyz", ""); r.Status != 200 {
		t.Fatalf("readyz: %d %s", r.Status, r.Raw)
	}
	h.DB.Close()
	h.Advance(999 * time.Millisecond)
	if r := h.Do("GET", "/readyz", ""); r.Status != 200 {
		t.Fatalf("within the second: %d %s", r.Status, r.Raw)
	}
	h.Advance(time.Millisecond)
	for range 2 {
		r := h.Do("GET", "/readyz", "")
		expectError(t, r, 503, errcode.Unavailable)
		if r.Header["Retry-After"] != "1" || r.Body["retryAfter"] != 1.0 {
			t.Fatalf("retry: %v %s", r.Header, r.Raw)
		}
	}
	if r := h.Do("GET", "/livez", ""); r.Status != 200 || r.Data()["status"] != "ok" {
		t.Fatalf("livez with the store gone: %d %s", r.Status, r.Raw)
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
		if r := h.Do("GET", path, ""); r.Status != 200 || r.Data()["status"] != "ok" {
			t.Fatalf("%s with a web app: %d %s", path, r.Status, r.Raw)
		}
	}
	if r := h.Do("GET", "/livezz", ""); r.Body["error"] != "the web app's" {
		t.Fatalf("/livezz: %d %s, want the web app's answer", r.Status, r.Raw)
	}
}
