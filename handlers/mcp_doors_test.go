package handlers

import (
	testharness "fiplan/handlers/internal/harness"
	"fiplan/handlers/mcp"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// /mcp passes the doors every route passes: each answer carries a request
// id and nosniff, a caller's answers and every 401 no-store; each request
// has its access-log line with its route and user, and its count in the
// route's metrics, refusals included.
func TestMCPThroughTheDoors(t *testing.T) {
	var l logLines
	h := newHarness(t, withMCP(false), withLog(&l, AccessAll))
	ada := h.HTTPClient("Bearer " + h.Token("ada", "free", ""))
	sid := testharness.MCPOpen(t, ada)
	res := testharness.RawMCP(t, ada, "POST", sid, testharness.ToolsList)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("X-Request-Id") == "" || res.Header.Get("X-Content-Type-Options") != "nosniff" ||
		res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("tools/list: %d %v", res.StatusCode, res.Header)
	}
	testharness.MCPRefused(t, testharness.RawMCP(t, ada, "POST", "x.y.z.w", testharness.ToolsList), 404, "NOT_FOUND", "a made-up session")
	res = testharness.RawMCP(t, h.HTTPClient("Bearer svc_notakey"), "POST", "", testharness.Initialize)
	if res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("401: %v", res.Header)
	}
	testharness.MCPRefused(t, res, 401, "UNAUTHORIZED", "a bad key")
	res, err := h.HTTPClient("").Get(testharness.MCPBase + mcp.MetadataPath)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("X-Request-Id") == "" {
		t.Fatalf("metadata: %d %v", res.StatusCode, res.Header)
	}
	var got []string
	for _, r := range l.requests(t) {
		got = append(got, fmt.Sprintf("%v %v %v %v", r["method"], r["route"], r["status"], r["user"]))
	}
	want := []string{
		"POST /mcp 200 ada", "POST /mcp 202 ada", "POST /mcp 200 ada", "POST /mcp 404 ada", "POST /mcp 401 ",
		"GET " + mcp.MetadataPath + " 200 ",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("access log:\n got %q\nwant %q", got, want)
	}
	text := scrape(t, h.S)
	for _, series := range []string{
		`fiplan_http_requests_total{method="POST",route="/mcp",status="200"} 2`,
		`fiplan_http_requests_total{method="POST",route="/mcp",status="404"} 1`,
		`fiplan_http_requests_total{method="POST",route="/mcp",status="401"} 1`,
		`fiplan_http_requests_total{method="GET",route="` + mcp.MetadataPath + `",status="200"} 1`,
	} {
		if !strings.Contains(text, series+"\n") {
			t.Errorf("metrics lack %s", series)
		}
	}
}
