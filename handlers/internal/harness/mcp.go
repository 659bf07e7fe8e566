package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"fiplan/handlers/mcp"
)

// MCPAnswerBudget is the most a tool's default answer may weigh.
const MCPAnswerBudget = 8 << 10

// MCPBase is the public URL the MCP endpoint is served under in tests.
const MCPBase = "http://fiplan.test"

// HTTPClient dials the harness's in-memory listener and sends authz (an
// Authorization value) on every request.
func (h *Harness[S]) HTTPClient(authz string) *http.Client {
	ip := h.IP
	return &http.Client{Transport: Authorizing(authz, &http.Transport{
		DialContext: func(context.Context, string, string) (net.Conn, error) {
			return h.LN.DialWithLocalAddr(&net.TCPAddr{IP: net.ParseIP(ip), Port: 40001})
		},
	}), Timeout: 20 * time.Second}
}

// Authorizing sends authz (an Authorization value, none when empty) on
// every request base makes.
func Authorizing(authz string, base http.RoundTripper) http.RoundTripper {
	return &authTransport{authz: authz, base: base}
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

// MCPSession connects the SDK's client to /mcp with authz.
func (h *Harness[S]) MCPSession(authz string) (*sdk.ClientSession, error) {
	c := sdk.NewClient(&sdk.Implementation{Name: "fiplan-test", Version: "1"}, nil)
	return c.Connect(context.Background(), &sdk.StreamableClientTransport{
		Endpoint: MCPBase + mcp.Path, HTTPClient: h.HTTPClient(authz), DisableStandaloneSSE: true,
	}, nil)
}

// APIKey makes an API key for sub through the API and returns it with its id.
func (h *Harness[S]) APIKey(sub, tier string) (key, id string) {
	h.T.Helper()
	r := h.Do("POST", "/api/v1/user/api-keys", `{"name":"assistant"}`, Bearer(h.Token(sub, tier, ""))...)
	if r.Status != 201 {
		h.T.Fatalf("cannot make a key: %d %s", r.Status, r.Raw)
	}
	return r.Data()["key"].(string), r.Data()["id"].(string)
}

// Structured reads a tool result's structured content.
func Structured(t testing.TB, res *sdk.CallToolResult) []byte {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Text is a tool result's text content, its parts on lines of their own.
func Text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Call calls tool name with args (JSON) and fails t on a protocol error.
func Call(t testing.TB, cs *sdk.ClientSession, name, args string) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s(%s): protocol error %v", name, args, err)
	}
	return res
}

// Initialize is the JSON-RPC message that opens an MCP session.
const Initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// RawMCP posts one JSON-RPC message to /mcp and returns the response.
func RawMCP(t testing.TB, c *http.Client, method, session, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, MCPBase+mcp.Path, strings.NewReader(body))
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

// MCPRefused checks a refusal of /mcp: its status, and the API's envelope
// with code.
func MCPRefused(t testing.TB, res *http.Response, status int, code, what string) {
	t.Helper()
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != status || !strings.Contains(string(body), `"code":"`+code+`"`) || res.Header.Get("X-Request-Id") == "" {
		t.Fatalf("%s: %d %s", what, res.StatusCode, body)
	}
}

// OutputSchemas compiles every listed tool's output schema.
func OutputSchemas(t testing.TB, tools []*sdk.Tool) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, tl := range tools {
		b, err := json.Marshal(tl.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		url := "mem://" + tl.Name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		if out[tl.Name], err = c.Compile(url); err != nil {
			t.Fatalf("%s: output schema does not compile: %v", tl.Name, err)
		}
	}
	return out
}

// Validate checks b, a tool's structured content, against its output
// schema s.
func Validate(t testing.TB, s *jsonschema.Schema, name string, b []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: structured content is not JSON: %v", name, err)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("%s: structured content does not match the output schema: %v\n%s", name, err, b)
	}
}

// ToolsList is the JSON-RPC message that lists the tools.
const ToolsList = `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`

// MCPOpen initializes a session through c and returns its id.
func MCPOpen(t testing.TB, c *http.Client) string {
	t.Helper()
	res := RawMCP(t, c, "POST", "", Initialize)
	res.Body.Close()
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != 200 || strings.Count(sid, ".") != 3 {
		t.Fatalf("initialize: %d %q", res.StatusCode, sid)
	}
	RawMCP(t, c, "POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()
	return sid
}
