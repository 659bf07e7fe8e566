package handlers

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	testharness "fiplan/handlers/internal/harness"
	"fiplan/handlers/mcp"
)

// A request joins the W3C trace its traceparent names, or starts one; the
// access log line carries the trace and the request's own span, so that a
// request is found across nodes and services by its trace.
func TestAccessLogCarriesTheTrace(t *testing.T) {
	var l logLines
	h := newHarness(t, withLog(&l, AccessAll))
	const id, parent = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	h.Do("GET", "/api/v1/status", "", "traceparent", "00-"+id+"-"+parent+"-01")
	h.Do("GET", "/api/v1/status", "")
	h.Do("GET", "/api/v1/status", "", "traceparent", "00-"+strings.ToUpper(id)+"-"+parent+"-01")
	recs := l.requests(t)
	if len(recs) != 3 {
		t.Fatalf("%d access log lines", len(recs))
	}
	if recs[0]["trace"] != id || recs[0]["span"] == parent || len(recs[0]["span"].(string)) != 16 {
		t.Fatalf("a joined trace: %v", recs[0])
	}
	for _, r := range recs[1:] {
		if tr, _ := r["trace"].(string); len(tr) != 32 || tr == id {
			t.Fatalf("a started trace: %v", r)
		}
	}
	if recs[1]["trace"] == recs[2]["trace"] {
		t.Fatal("two requests without a trace share one")
	}
}

// A tool call over /mcp joins the trace of the /mcp request that carried
// it: the in-process request's log line names the client's trace.
func TestMCPToolCallsJoinTheTrace(t *testing.T) {
	var l logLines
	h := newHarness(t, withMCP(false), withLog(&l, AccessAll))
	const id = "0af7651916cd43dd8448eb211c80319c"
	client := h.HTTPClient("Bearer " + h.Token("ada", "free", ""))
	client.Transport = &traceTransport{tp: "00-" + id + "-b7ad6b7169203331-01", base: client.Transport}
	c := sdk.NewClient(&sdk.Implementation{Name: "trace-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: testharness.MCPBase + mcp.Path, HTTPClient: client, DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := testharness.Call(t, cs, "search_cities", `{"q":"lisbon"}`)
	if res.IsError {
		t.Fatalf("search_cities: %s", testharness.Text(res))
	}
	found := false
	for _, r := range l.requests(t) {
		if r["path"] == "/api/v1/geo/cities" {
			found = true
			if r["trace"] != id {
				b, _ := json.Marshal(r)
				t.Fatalf("the tool's request is not in the client's trace: %s", b)
			}
		}
	}
	if !found {
		t.Fatal("no log line for the tool's request")
	}
}

type traceTransport struct {
	tp   string
	base http.RoundTripper
}

func (t *traceTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("traceparent", t.tp)
	return t.base.RoundTrip(r)
}
