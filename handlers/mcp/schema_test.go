package mcp_test

import (
	"context"
	"encoding/json"
	"fiplan/handlers/internal/testserver"
	"strings"
	"testing"
)

// TestMCPToolSchemasStandAlone: each tool's input and output schema is
// complete in itself (the OpenAPI document refers to named components; a
// tool schema travels alone, so it holds no $ref), and states no formats:
// they are for code generators, which read the OpenAPI document, and cost
// a model's context.
func TestMCPToolSchemasStandAlone(t *testing.T) {
	h := testserver.New(t, testserver.WithMCP(false))
	key, _ := h.APIKey("ada", "pro")
	cs, err := h.MCPSession("Bearer " + key)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	numbers := 0
	for _, tl := range list.Tools {
		for what, s := range map[string]any{"input": tl.InputSchema, "output": tl.OutputSchema} {
			if s == nil {
				continue
			}
			raw, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(raw), `"$ref"`) {
				t.Errorf("%s %s schema refers elsewhere: %.300s", tl.Name, what, raw)
			}
			if what == "input" && strings.Contains(string(raw), `"format":`) {
				t.Errorf("%s input schema states a format: %.300s", tl.Name, raw)
			}
			numbers++
		}
	}
	if numbers == 0 {
		t.Error("no tool schema seen")
	}
}
