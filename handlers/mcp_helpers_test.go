package handlers

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"fiplan/handlers/mcp"
)

// The MCP helpers of the wiring package's own tests (the golden answers,
// the breaker, the trace and the doors /mcp passes); the MCP tools' tests
// live beside handlers/mcp and use handlers/internal/testserver's.

const mcpBase = "http://fiplan.test"

func withMCP(stream bool) option {
	return func(c *Config) {
		c.MCP = &mcp.Settings{PublicURL: mcpBase, Issuer: "https://id.example.com", Stream: stream}
	}
}

// httpClient dials the harness's in-memory listener and sends authz (an
// Authorization value) on every request.
func (h *harness) httpClient(authz string) *http.Client {
	ip := h.ip
	return &http.Client{Transport: &authTransport{authz: authz, base: &http.Transport{
		DialContext: func(context.Context, string, string) (net.Conn, error) {
			return h.ln.DialWithLocalAddr(&net.TCPAddr{IP: net.ParseIP(ip), Port: 40001})
		},
	}}, Timeout: 20 * time.Second}
}

type authTransport struct {
	authz string
	base  http.RoundTripper
}

func (a *authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if a.authz != "" {
		r.Header.Set("Authorization", a.authz)
	}
	return a.base.RoundTrip(r)
}

// mcpSession connects the SDK's client to /mcp with authz.
func (h *harness) mcpSession(authz string) (*sdk.ClientSession, error) {
	c := sdk.NewClient(&sdk.Implementation{Name: "fiplan-test", Version: "1"}, nil)
	return c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: mcpBase + mcp.Path, HTTPClient: h.httpClient(authz), DisableStandaloneSSE: true,
	}, nil)
}

// apiKey makes an API key for sub through the API and returns it with its id.
func (h *harness) apiKey(sub, tier string) (key, id string) {
	h.t.Helper()
	r := h.do("POST", "/api/v1/user/api-keys", `{"name":"assistant"}`, bearer(h.token(sub, tier, ""))...)
	if r.status != 201 {
		h.t.Fatalf("cannot make a key: %d %s", r.status, r.raw)
	}
	return r.data()["key"].(string), r.data()["id"].(string)
}

// structured reads a result's structured content.
func structured(t *testing.T, res *sdk.CallToolResult) []byte {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func call(t *testing.T, cs *sdk.ClientSession, name, args string) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s(%s): protocol error %v", name, args, err)
	}
	return res
}

// rawMCP posts one JSON-RPC message to /mcp and returns the response.
func rawMCP(t *testing.T, c *http.Client, method, session, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, mcpBase+mcp.Path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", mcp.MinProtocol)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// mcpRefused checks a refusal of /mcp: its status, and the API's envelope
// with code.
func mcpRefused(t *testing.T, res *http.Response, status int, code, what string) {
	t.Helper()
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != status || !strings.Contains(string(body), `"code":"`+code+`"`) || res.Header.Get("X-Request-Id") == "" {
		t.Fatalf("%s: %d %s", what, res.StatusCode, body)
	}
}

const toolsList = `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`

// mcpOpen initializes a session through c and returns its id.
func mcpOpen(t *testing.T, c *http.Client) string {
	t.Helper()
	res := rawMCP(t, c, "POST", "", initialize)
	res.Body.Close()
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != 200 || strings.Count(sid, ".") != 3 {
		t.Fatalf("initialize: %d %q", res.StatusCode, sid)
	}
	rawMCP(t, c, "POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	return sid
}
