package mcp_test

import (
	"bytes"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"testing"
)

// The MCP tax tool takes explain as the route does: its answer carries
// the trace, and without it none.
func TestMCPTaxCalculateExplain(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	cs := keySession(t, h, "ada", "pro")
	res := harness.Call(t, cs, "tax_calculate", `{"country":"US","year":2026,"age":67,"income":{"pension":60000},"explain":true}`)
	if res.IsError {
		t.Fatalf("explain: %s", harness.Text(res))
	}
	if b := harness.Structured(t, res); !bytes.Contains(b, []byte(`"trace":[{"amount"`)) || !bytes.Contains(b, []byte(`"source":[{`)) {
		t.Fatalf("no trace with its sources: %s", b)
	}
	res = harness.Call(t, cs, "tax_calculate", `{"country":"US","year":2026,"income":{"pension":60000}}`)
	if b := harness.Structured(t, res); res.IsError || bytes.Contains(b, []byte(`"trace"`)) {
		t.Fatalf("a trace without explain: %s", b)
	}
}
