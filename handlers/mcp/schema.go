package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fiplan/handlers/rest"
)

// Tool-only arguments: the tool reads them and the route never sees them.
const (
	// argDetail asks a compact tool for the API's whole answer.
	argDetail = "detail"
	// argOutput asks the calculator tools for every row.
	argOutput = "output"
)

// inputSchema is the route's body declaration (with the path parameter and
// the tool-only arguments added), or for a route without a body an object
// of its declared query parameters, trimmed for a model (trim.go).
func inputSchema(t *tool) (json.RawMessage, error) {
	var s map[string]any
	if t.route.Body != nil {
		if err := json.Unmarshal(t.route.Body.JSONSchema(), &s); err != nil {
			return nil, fmt.Errorf("cannot read the body schema: %w", err)
		}
	} else {
		props := map[string]any{}
		for _, q := range t.route.Query {
			props[q.Name] = map[string]any{"type": q.Type, "description": q.Doc}
		}
		s = map[string]any{"type": "object", "additionalProperties": false, "properties": props}
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		return nil, fmt.Errorf("input schema has no properties")
	}
	if lim, ok := props["limit"].(map[string]any); ok && t.page > 0 {
		lim["description"] = "Items to answer; default " + strconv.Itoa(t.page) + " here."
		if _, ok := lim["maximum"]; !ok {
			lim["minimum"], lim["maximum"] = 1, rest.MaxLimit
		}
		delete(lim, "default")
	}
	if t.method == "PATCH" {
		// A merge patch names only the fields it changes.
		delete(s, "required")
	}
	if p := t.pathParam(); p != "" {
		g := t.route.PathParam(p)
		if g == nil {
			return nil, fmt.Errorf("the route declares no grammar for {%s}", p)
		}
		props[p] = g.Schema() // its pattern says what an id is
		req, _ := s["required"].([]any)
		s["required"] = append(req, p)
	}
	if t.projections {
		dropAPIOnly(props)
		if _, ok := props["scenarios"]; ok {
			props["scenarios"] = map[string]any{"type": "array", "maxItems": 10,
				"description": "Variations answered side by side: each a name and any fields of the plan above it overrides.",
				"items": map[string]any{"type": "object", "required": []string{"name"},
					"properties": map[string]any{"name": map[string]any{"type": "string", "maxLength": 60}}}}
		}
		props[argOutput] = map[string]any{"type": "string", "enum": []string{"summary", "full"}, "default": "summary",
			"description": "full: every yearly, Monte Carlo and backtest row (long)."}
	} else if t.compact != nil {
		props[argDetail] = map[string]any{"type": "string", "enum": []string{"compact", "full"}, "default": "compact",
			"description": "full: every field (long)."}
	}
	sayOnce(props)
	if f := t.filter; f != nil {
		props[f.name] = map[string]any{"type": "string", "pattern": f.grammar.Pattern, "description": f.doc}
	}
	if t.method == "PATCH" {
		// The fields are those the matching get tool answers.
		strip(props)
	}
	trimInput(s, 0)
	raw, err := json.Marshal(s)
	if err != nil || t.method == "PATCH" {
		return raw, err
	}
	// Null only clears a field in a merge patch; elsewhere leaving the
	// field out says the same, in a smaller schema.
	raw, err = portable(raw)
	if err != nil {
		return nil, err
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	if props, ok := p["properties"].(map[string]any); ok {
		notNull(props)
	}
	return json.Marshal(p)
}

// outputSchema is the route's response data declaration as an object,
// trimmed to its top level (trim.go): a list route's items come under
// items with the paging meta, a route without data answers what it
// removed, a calculation adds what reproduces it.
func outputSchema(t *tool) (json.RawMessage, error) {
	if t.route.Data == nil {
		return json.Marshal(map[string]any{
			"type": "object", "additionalProperties": false, "required": []string{"id", "deleted"},
			"properties": map[string]any{
				"id":      map[string]any{"type": "string"},
				"deleted": map[string]any{"type": "boolean", "const": true},
			}})
	}
	var data map[string]any
	if err := json.Unmarshal(t.route.Data.JSONSchema(), &data); err != nil {
		return nil, fmt.Errorf("cannot read the data schema: %w", err)
	}
	if t.route.List {
		return json.Marshal(map[string]any{
			"type": "object", "additionalProperties": false, "required": []string{"items", "meta"},
			"properties": map[string]any{
				"items": map[string]any{"type": "array", "items": rowSchema(t, data)},
				"meta": map[string]any{
					"type": "object", "required": []string{"total", "limit", "offset"},
					"properties": map[string]any{
						"total":  map[string]any{"type": "integer"},
						"limit":  map[string]any{"type": "integer"},
						"offset": map[string]any{"type": "integer"},
					}},
			}})
	}
	if data["type"] != "object" {
		return nil, fmt.Errorf("response data is not an object")
	}
	out := shallow(data)
	props := out["properties"].(map[string]any)
	if t.projections {
		// the figures a model reads; the answer carries the others too
		for k := range props {
			if !slices.Contains(calcOutline, k) {
				delete(props, k)
			}
		}
		props["milestones"] = map[string]any{"type": "array", "items": map[string]any{"type": "object"},
			"description": "Yearly rows that mark the plan, by label: " + milestoneLabels + "."}
	}
	if c := t.compact; c != nil && len(c.keep) > 0 {
		for k := range props {
			if !slices.Contains(c.keep, k) {
				delete(props, k)
			}
		}
	}
	if t.calc {
		provenanceSchema(out)
	}
	return json.Marshal(out)
}

// calcOutline is the calculator answer's fields an output schema names.
var calcOutline = []string{"fiNumber", "afterTaxFINumber", "fiAge", "yearsToFI", "retirementAge", "depletionAge",
	"runsOut", "finalBalanceReal", "lifetimeTax", "bridge", "baseline", "projections", "scenarios", "monteCarlo",
	"historical", "goals", "notes"}

// milestoneLabels are the labels of the milestone rows (plan.MilestoneRule).
const milestoneLabels = "start, age N0 (each tenth birthday), fi, retirement, depleted, end"

// strip removes the descriptions of fields.
func strip(props map[string]any) {
	for _, p := range props {
		if m, ok := p.(map[string]any); ok {
			delete(m, "description")
		}
	}
}

// rowSchema is the schema of a list's item: the compact fields, or the
// item's top level when the tool answers whole items.
func rowSchema(t *tool, item map[string]any) map[string]any {
	if t.compact == nil || len(t.compact.rows) == 0 {
		return shallow(item)
	}
	all, _ := item["properties"].(map[string]any)
	props := map[string]any{}
	for _, f := range t.compact.rows {
		name, sub, nested := strings.Cut(f, ".")
		switch p, ok := all[name].(map[string]any); {
		case nested:
			props[name] = map[string]any{"description": "how many; with one picked, each " + sub + "; detail full: whole"}
		case ok:
			props[name] = shallowProp(p, 1)
		default:
			props[name] = map[string]any{}
		}
	}
	return map[string]any{"type": "object", "properties": props}
}

// sayOnce replaces a field whose shape repeats another's by a sentence:
// the partner's income has the income's fields.
func sayOnce(props map[string]any) {
	if _, ok := props["partnerIncome"]; ok && props["income"] != nil {
		props["partnerIncome"] = map[string]any{"type": "object", "description": "With filing joint: the partner's income, the same fields as income."}
	}
}

// dropAPIOnly leaves out of the calculator tools what only the API offers:
// every, optimize (optimize_plan's), and the 72(t) series and the homeowner
// flag of means tests, so the tools list keeps its budget.
func dropAPIOnly(props map[string]any) {
	for _, k := range []string{"every", "optimize", "bridge", "homeowner"} {
		delete(props, k)
	}
}
