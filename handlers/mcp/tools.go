package mcp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"fiplan/compute/plan"
	"fiplan/handlers/rest"
)

// tool is one MCP tool, backed by one route of the API: the route's request
// declaration is the tool's input schema and its response data declaration
// the output schema, so the two interfaces cannot drift.
type tool struct {
	name, title string
	method      string // the route's method and path, as in the route table
	path        string
	read        bool    // annotations: changes nothing
	destructive bool    // removes or overwrites what the caller stored
	idempotent  bool    // the same call twice has the effect of one
	summary     summary // nil for fi_calculate, summarised from its typed Result
	// projections names the argument that asks for every projection row;
	// without it the answer carries milestones (fi_calculate).
	projections bool
	// page is the number of items a list tool answers when the call
	// names no limit: a model's context is small, so fewer than the API's
	// page (0: the API's).
	page int

	route  *rest.Route
	input  json.RawMessage
	output json.RawMessage
}

// toolPage is a list tool's default page: a dozen compact answers fit a
// model's context where the API's 50 full records do not.
const toolPage = 10

// tools is every tool the server offers, on one screen.
func tools() []*tool {
	return []*tool{
		{name: "fi_calculate", title: "FI timeline", method: "POST", path: "/api/v1/calculator", read: true, idempotent: true, projections: true},
		{name: "portfolio_health", title: "Portfolio health score", method: "POST", path: "/api/v1/portfolio-health", read: true, idempotent: true, summary: healthSummary},
		{name: "search_cities", title: "Search cities", method: "GET", path: "/api/v1/geo/cities", read: true, idempotent: true, summary: citiesSummary, page: toolPage},
		{name: "compare_cities", title: "Compare cities", method: "GET", path: "/api/v1/geo/compare", read: true, idempotent: true, summary: compareSummary},
		{name: "recommend_cities", title: "Cities for a budget", method: "POST", path: "/api/v1/geo/recommendations", read: true, idempotent: true, summary: recommendSummary},
		{name: "tax_calculate", title: "Taxes on an income", method: "POST", path: "/api/v1/tax/calculate", read: true, idempotent: true, summary: taxSummary},
		{name: "tax_programs", title: "Special tax programs", method: "GET", path: "/api/v1/tax/programs", read: true, idempotent: true, summary: programsSummary, page: toolPage},
		{name: "tax_optimize", title: "Where taxes leave most (pro)", method: "POST", path: "/api/v1/tax/optimize", read: true, idempotent: true, summary: optimizeSummary},
		{name: "my_fi_score", title: "My FI score", method: "GET", path: "/api/v1/fi-score", read: true, idempotent: true, summary: fiScoreSummary},
		{name: "list_my_assets", title: "My assets", method: "GET", path: "/api/v1/assets", read: true, idempotent: true, summary: assetsSummary},
		{name: "add_asset", title: "Add an asset", method: "POST", path: "/api/v1/assets", summary: assetSummary},
		{name: "update_asset", title: "Change an asset", method: "PATCH", path: "/api/v1/assets/{id}", destructive: true, idempotent: true, summary: assetSummary},
		{name: "delete_asset", title: "Delete an asset", method: "DELETE", path: "/api/v1/assets/{id}", destructive: true, idempotent: true, summary: deletedSummary},
		{name: "list_my_plans", title: "My saved plans", method: "GET", path: "/api/v1/plans", read: true, idempotent: true, summary: plansSummary},
		{name: "get_my_plan", title: "One saved plan", method: "GET", path: "/api/v1/plans/{id}", read: true, idempotent: true, summary: planSummary1},
		{name: "save_my_plan", title: "Save a plan", method: "POST", path: "/api/v1/plans", summary: savedPlanSummary},
		{name: "run_my_plan", title: "Run a saved plan", method: "POST", path: "/api/v1/plans/{id}/run", read: true, idempotent: true, projections: true},
		{name: "checkin_my_plan", title: "Yearly check-in of a saved plan", method: "POST", path: "/api/v1/plans/{id}/checkin", read: true, idempotent: true, summary: checkInSummary},
	}
}

// bind finds each tool's route and derives its schemas from the route's
// declarations.
func bind(list []*tool, routes []*rest.Route) error {
	for _, t := range list {
		for _, r := range routes {
			if r.Method == t.method && r.Path == t.path {
				t.route = r
				break
			}
		}
		if t.route == nil {
			return fmt.Errorf("cannot bind tool %s: no route %s %s", t.name, t.method, t.path)
		}
		var err error
		if t.input, err = inputSchema(t); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
		if t.output, err = outputSchema(t); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
		if t.input, err = portable(t.input); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
		if t.output, err = portable(t.output); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
	}
	return nil
}

// pathParam is the name of the route's path parameter, "" when it has none.
func (t *tool) pathParam() string {
	i := strings.IndexByte(t.path, '{')
	if i < 0 {
		return ""
	}
	name, _, _ := strings.Cut(t.path[i+1:], "}")
	return name
}

// includeProjections is the fi_calculate argument asking for every row.
const includeProjections = "includeProjections"

// inputSchema is the route's body declaration (with the path parameter and
// any tool-only argument added), or for a route without a body an object of
// its declared query parameters.
func inputSchema(t *tool) (json.RawMessage, error) {
	var s map[string]any
	if t.route.Body != nil {
		if err := json.Unmarshal(t.route.Body.JSONSchema(), &s); err != nil {
			return nil, fmt.Errorf("cannot read the body schema: %w", err)
		}
	} else {
		props := map[string]any{}
		for _, q := range t.route.Query {
			doc := q.Doc
			if q.Name == "limit" && t.page > 0 {
				doc = "Items to answer, 1-" + strconv.Itoa(rest.MaxLimit) + "; default " + strconv.Itoa(t.page) + " here (ask for more, or page with offset)."
			}
			props[q.Name] = map[string]any{"type": q.Type, "description": doc}
		}
		s = map[string]any{"type": "object", "additionalProperties": false, "properties": props}
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		return nil, fmt.Errorf("input schema has no properties")
	}
	if t.method == "PATCH" {
		// A merge patch names only the fields it changes.
		delete(s, "required")
		s["description"] = "A JSON merge patch of the stored object: members set fields, null clears an optional field, absent members stay as they are."
	}
	if p := t.pathParam(); p != "" {
		g := t.route.PathParam(p)
		if g == nil {
			return nil, fmt.Errorf("the route declares no grammar for {%s}", p)
		}
		id := g.Schema()
		id["description"] = "The id of the stored object; it " + g.Rule + "."
		props[p] = id
		req, _ := s["required"].([]any)
		s["required"] = append(req, p)
	}
	if t.projections {
		props[includeProjections] = map[string]any{"type": "boolean", "default": false,
			"description": "Answer every yearly projection row (long). Without it the answer carries the summary fields and the milestone rows."}
	}
	return json.Marshal(s)
}

// outputSchema is the route's response data declaration as an object: a
// list route's items come under items with the paging meta, a route without
// data answers what it removed.
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
				"items": map[string]any{"type": "array", "items": data},
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
	if t.projections {
		withMilestones(data)
		if sc, ok := data["properties"].(map[string]any)["scenarios"].(map[string]any); ok {
			if item, ok := sc["items"].(map[string]any); ok {
				withMilestones(item)
			}
		}
	}
	return json.Marshal(data)
}

// withMilestones makes projections optional in an object schema and adds
// milestones: the projection rows that mark the plan, each with a label.
func withMilestones(obj map[string]any) {
	props, _ := obj["properties"].(map[string]any)
	proj, ok := props["projections"].(map[string]any)
	if !ok {
		return
	}
	if req, ok := obj["required"].([]any); ok {
		kept := req[:0]
		for _, r := range req {
			if r != "projections" {
				kept = append(kept, r)
			}
		}
		obj["required"] = kept
	}
	proj["description"] = "Every yearly row; only with includeProjections."
	row, _ := proj["items"].(map[string]any)
	m := map[string]any{}
	for k, v := range row {
		m[k] = v
	}
	rowProps := map[string]any{}
	if rp, ok := row["properties"].(map[string]any); ok {
		for k, v := range rp {
			rowProps[k] = v
		}
	}
	rowProps["label"] = map[string]any{"type": "string", "description": plan.MilestoneRule}
	m["properties"] = rowProps
	if req, ok := row["required"].([]any); ok {
		m["required"] = append(append([]any{}, req...), "label")
	}
	props["milestones"] = map[string]any{"type": "array", "items": m,
		"description": "The rows that mark the plan (" + plan.MilestoneRule + "), in age order; a row that marks two things is listed once with both labels."}
}
