package mcp

import (
	"regexp"
	"slices"
	"strings"
)

// Schemas for a model's context. Every tool's schemas travel with every
// tools/list, so they say what a model needs to call the tool and read
// its answer, and no more: an input schema keeps its whole shape (a model
// must know every field it may send) with short descriptions; an output
// schema describes its top level, each nested object or list by its type
// and a sentence. Both stay valid JSON Schema that the answers match.

// Description lengths kept, in bytes: a top-level field's, a nested one's.
const (
	topDoc    = 56
	nestedDoc = 0
)

// trimInput shortens the descriptions of an input schema and, below the
// top level, drops what only a validator reads (formats, closed objects):
// the route checks every field anyway.
func trimInput(s map[string]any, depth int) {
	delete(s, "title")
	delete(s, "examples")
	if d, ok := s["description"].(string); ok {
		n := topDoc
		if depth > 1 {
			n = nestedDoc
		}
		if depth > 2 {
			n = 0
		}
		d = routesNamed(d)
		if d = cut(d, n); d == "" {
			delete(s, "description")
		} else {
			s["description"] = d
		}
	}
	// Types and patterns say enough to a model: formats (double, int32,
	// date-time) are for code generators, which read the OpenAPI document.
	delete(s, "format")
	// A bound no real amount meets (1e9 and beyond) is the API's sanity
	// check, not a range a model needs.
	if m, ok := s["maximum"].(float64); ok && m >= 1e9 {
		delete(s, "maximum")
	}
	if m, ok := s["minimum"].(float64); ok && m <= -1e9 {
		delete(s, "minimum")
	}
	if _, id := s["pattern"]; !id {
		// Lengths and counts are the route's checks: a model's values
		// meet them, and one that does not is answered field by field.
		for _, k := range []string{"maxLength", "minLength", "maxItems", "minItems"} {
			delete(s, k)
		}
	}
	if depth > 0 {
		if s["additionalProperties"] == false {
			delete(s, "additionalProperties")
		}
	}
	if depth > 1 {
		// A nested field's bounds and default are the route's business: a
		// value out of range is answered field by field.
		for _, k := range []string{"minimum", "maximum", "default"} {
			delete(s, k)
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for _, p := range props {
			if m, ok := p.(map[string]any); ok {
				trimInput(m, depth+1)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		trimInput(items, depth)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok {
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok {
					trimInput(m, depth)
				}
			}
		}
	}
}

// shallow is an object schema's top level: its fields, each by its type,
// nested objects and lists without their insides. It requires nothing:
// the answer's shape is the API's, checked there against its whole
// declaration.
func shallow(obj map[string]any) map[string]any {
	out := map[string]any{"type": obj["type"]}
	props := map[string]any{}
	if all, ok := obj["properties"].(map[string]any); ok {
		for k, p := range all {
			if m, ok := p.(map[string]any); ok {
				props[k] = shallowProp(m, 1)
			}
		}
	}
	out["properties"] = props
	return out
}

// shallowProp is one field's schema: its type (or const); an object's
// fields and a list's item fields are left out, and so are the
// descriptions: a field's name and the tool's description say enough. A
// field that may be null is any value ({}): its type is plain from the
// answer, and three schemas to say "a number or null" cost more context
// than they tell.
func shallowProp(p map[string]any, depth int) map[string]any {
	out := map[string]any{}
	if t, ok := p["type"].([]any); ok && slices.Contains(t, any("null")) {
		return out
	}
	if _, ok := p["anyOf"]; ok {
		return out
	}
	for _, k := range []string{"type", "const"} {
		if v, ok := p[k]; ok {
			out[k] = v
		}
	}
	if items, ok := p["items"].(map[string]any); ok {
		out["items"] = shallowProp(items, depth+1)
	}
	return out
}

// cut keeps the whole sentences of d that fit in n bytes, or, when the
// first does not, its words that fit, ending with "...".
func cut(d string, n int) string {
	if len(d) <= n {
		return d
	}
	if n == 0 {
		return ""
	}
	end := 0
	for i := 0; i+1 < len(d) && i < n; i++ {
		if d[i] == '.' && d[i+1] == ' ' {
			end = i + 1
		}
	}
	if end > 0 {
		return d[:end]
	}
	if i := strings.LastIndexByte(d[:n-3], ' '); i > 0 {
		return d[:i] + "..."
	}
	return d[:n-3] + "..."
}

// routeRef is a route named in a declaration's description.
var routeRef = regexp.MustCompile(`(GET|POST|PUT|PATCH|DELETE) (/api/v1)?(/[a-z0-9/{}-]*[a-z0-9}])`)

// seeRoute is a parenthesis that only points to a route.
var seeRoute = regexp.MustCompile(` \(see (GET|POST|PUT|PATCH|DELETE) [^)]*\)`)

// routeTools names, by route, the tool that serves it.
var routeTools = func() map[string]string {
	m := map[string]string{}
	for _, t := range tools() {
		m[t.method+" "+strings.TrimPrefix(t.path, "/api/v1")] = t.name
	}
	return m
}()

// routesNamed writes a route named in a description as the tool that
// serves it (a model calls tools, not routes), or as "the API".
func routesNamed(d string) string {
	d = seeRoute.ReplaceAllStringFunc(d, func(ref string) string {
		if m := routeRef.FindStringSubmatch(ref); m != nil {
			if _, ok := routeTools[m[1]+" "+m[3]]; ok {
				return ref
			}
		}
		return ""
	})
	return routeRef.ReplaceAllStringFunc(d, func(ref string) string {
		m := routeRef.FindStringSubmatch(ref)
		if name, ok := routeTools[m[1]+" "+m[3]]; ok {
			return name
		}
		return "the API"
	})
}

// notNull is a nullable field's schema without null, for an input that
// never needs to send one (only a merge patch clears with null).
func notNull(s map[string]any) {
	for k, v := range s {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if alts, ok := m["anyOf"].([]any); ok && len(alts) == 2 {
			if inner, ok := alts[0].(map[string]any); ok && isNull(alts[1]) {
				for dk, dv := range m {
					if dk != "anyOf" {
						inner[dk] = dv
					}
				}
				if e, ok := inner["enum"].([]any); ok {
					kept := e[:0]
					for _, x := range e {
						if x != nil {
							kept = append(kept, x)
						}
					}
					inner["enum"] = kept
				}
				s[k] = inner
			}
		}
	}
}

func isNull(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 1 && m["type"] == "null"
}
