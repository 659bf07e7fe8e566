package mcp

import (
	"encoding/json"
	"fmt"
)

// Portable schemas. The API's declarations give a nullable field as
// "type": ["number", "null"], which JSON Schema allows but several MCP
// clients do not read (the Inspector warns of it). The tools' schemas say
// the same with anyOf: the field's own schema, or null. Descriptions and
// titles stay on the outer schema, where clients show them.

// portable rewrites a JSON schema's type arrays that admit null as anyOf.
func portable(raw json.RawMessage) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("cannot read a schema: %w", err)
	}
	return json.Marshal(rewriteNullable(v))
}

func rewriteNullable(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = rewriteNullable(x[i])
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = rewriteNullable(e)
		}
		types, ok := x["type"].([]any)
		if !ok {
			return x
		}
		var kept []any
		null := false
		for _, t := range types {
			if t == "null" {
				null = true
			} else {
				kept = append(kept, t)
			}
		}
		if !null || len(kept) != 1 {
			return x
		}
		inner := map[string]any{"type": kept[0]}
		outer := map[string]any{}
		for k, e := range x {
			switch k {
			case "type":
			case "description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly":
				outer[k] = e
			default:
				inner[k] = e
			}
		}
		outer["anyOf"] = []any{inner, map[string]any{"type": "null"}}
		return outer
	}
	return v
}
