package handlers

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"fiplan/handlers/rest"
)

func TestOpenAPIDocumentMatchesRoutes(t *testing.T) {
	h := newHarness(t)
	doc := loadOpenAPI(t, h)
	if doc.Raw["openapi"] != "3.1.0" {
		t.Fatalf("openapi version %v", doc.Raw["openapi"])
	}
	paths := doc.Raw["paths"].(map[string]any)

	// Every route is documented...
	for _, r := range h.S.routes {
		ops, ok := paths[r.Path].(map[string]any)
		if !ok || ops[strings.ToLower(r.Method)] == nil {
			t.Errorf("%s %s is not in the document", r.Method, r.Path)
		}
	}
	// ...and every documented operation is routed.
	var p rest.Params
	seenIDs := map[string]bool{}
	for path, ops := range paths {
		concrete := strings.NewReplacer("{id}", "x", "{key}", "x").Replace(path)
		n := h.S.router.Lookup([]byte(concrete), &p)
		for method, op := range ops.(map[string]any) {
			if n == nil || n.Route([]byte(strings.ToUpper(method))) == nil {
				t.Errorf("documented %s %s has no route", method, path)
				continue
			}
			o := op.(map[string]any)
			id, _ := o["operationId"].(string)
			if id == "" || seenIDs[id] {
				t.Errorf("%s %s: operationId %q missing or repeated", method, path, id)
			}
			seenIDs[id] = true
			responses := o["responses"].(map[string]any)
			for status, res := range responses {
				if c, ok := res.(map[string]any)["content"].(map[string]any); ok && c["application/json"] != nil {
					doc.Schema(t, "paths", path, method, "responses", status, "content", "application/json", "schema")
				}
			}
			// Every route is limited but the probes, which never are.
			if _, ok := responses["429"]; ok != (n.Route([]byte(strings.ToUpper(method))).Access != rest.Probe) {
				t.Errorf("%s %s: 429 documented %v", method, path, ok)
			}
			if o["requestBody"] != nil {
				doc.Schema(t, "paths", path, method, "requestBody", "content", "application/json", "schema")
				if _, ok := responses["400"]; !ok {
					t.Errorf("%s %s takes a body but documents no 400", method, path)
				}
			}
		}
	}
	doc.Schema(t, "components", "schemas", "Error")
}

func TestResponsesMatchTheirDocumentedSchemas(t *testing.T) {
	h := newHarness(t)
	doc := loadOpenAPI(t, h)
	check := func(r *resp, path, method string, status string) {
		t.Helper()
		s := doc.Schema(t, "paths", path, method, "responses", status, "content", "application/json", "schema")
		var v any
		if err := json.Unmarshal(r.Raw, &v); err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s %s %s does not match its schema: %v\n%s", method, path, status, err, r.Raw)
		}
	}
	tok := bearer(h.Token("alice", "free", ""))
	check(h.Do("GET", "/api/v1/status", ""), "/api/v1/status", "get", "200")
	check(h.Do("POST", "/api/v1/user/api-keys", `{"name":"a"}`, tok...), "/api/v1/user/api-keys", "post", "201")
	check(h.Do("GET", "/api/v1/user/api-keys", "", tok...), "/api/v1/user/api-keys", "get", "200")
	check(h.Do("POST", "/api/v1/user/api-keys", `{"name":1}`, tok...), "/api/v1/user/api-keys", "post", "400")
	check(h.Do("GET", "/api/v1/user/api-keys", ""), "/api/v1/user/api-keys", "get", "401")
	check(h.Do("DELETE", "/api/v1/user/api-keys/nope", "", tok...), "/api/v1/user/api-keys/{id}", "delete", "404")

	// Geo: every city of the list, one detail, compare, recommendations.
	check(h.Do("GET", "/api/v1/geo/cities", ""), "/api/v1/geo/cities", "get", "200")
	check(h.Do("GET", "/api/v1/geo/cities?offset=50&limit=200", ""), "/api/v1/geo/cities", "get", "200")
	check(h.Do("GET", "/api/v1/geo/cities?region=europe-south&climate=warm", ""), "/api/v1/geo/cities", "get", "200")
	check(h.Do("GET", "/api/v1/geo/cities?minSafety=x", ""), "/api/v1/geo/cities", "get", "400")
	check(h.Do("GET", "/api/v1/geo/cities", "", "Authorization", "Bearer x"), "/api/v1/geo/cities", "get", "401")
	check(h.Do("GET", "/api/v1/geo/cities/lisbon-pt", "", tok...), "/api/v1/geo/cities/{id}", "get", "200")
	check(h.Do("GET", "/api/v1/geo/cities/nope-xx", "", tok...), "/api/v1/geo/cities/{id}", "get", "404")
	check(h.Do("GET", "/api/v1/geo/cities/lisbon-pt", ""), "/api/v1/geo/cities/{id}", "get", "401")
	for _, style := range []string{"lean", "normal", "fat", "family"} {
		check(h.Do("GET", "/api/v1/geo/compare?style="+style+"&ids=zurich-ch,lisbon-pt,chiang-mai-th,new-york-us,mexico-city-mx", "", tok...), "/api/v1/geo/compare", "get", "200")
	}
	check(h.Do("GET", "/api/v1/geo/compare?ids=zurich-ch", "", tok...), "/api/v1/geo/compare", "get", "400")
	check(h.Do("GET", "/api/v1/geo/compare?ids=zurich-ch,nope-xx", "", tok...), "/api/v1/geo/compare", "get", "404")
	check(h.Do("POST", "/api/v1/geo/recommendations", `{"monthlyBudgetUSD":1e6,"householdSize":6,"limit":500}`, tok...), "/api/v1/geo/recommendations", "post", "200")
	check(h.Do("POST", "/api/v1/geo/recommendations", `{"portfolioUSD":800000,"preferences":{"visa":"digitalNomad","taxFriendly":true}}`, tok...), "/api/v1/geo/recommendations", "post", "200")
	check(h.Do("POST", "/api/v1/geo/recommendations", `{"monthlyBudgetUSD":100}`, tok...), "/api/v1/geo/recommendations", "post", "200")
	check(h.Do("POST", "/api/v1/geo/recommendations", `{}`, tok...), "/api/v1/geo/recommendations", "post", "400")
}

// TestOpenAPIDocumentForGenerators: the document is one code generators
// can use. It is valid against the OpenAPI 3.1 document schema; every
// number states its format (double) and every integer its size, so that no
// generator makes money a 32-bit float; every request body and success
// data is a named component referred to with $ref, so that clients get
// named types; and every $ref resolves.
func TestOpenAPIDocumentForGenerators(t *testing.T) {
	h := newHarness(t)
	raw := h.S.openapi

	// The document's structure.
	meta, err := os.ReadFile(filepath.Join("testdata", "openapi-3.1.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	mv, err := jsonschema.UnmarshalJSON(bytes.NewReader(meta))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("openapi-3.1.schema.json", mv); err != nil {
		t.Fatal(err)
	}
	oas, err := c.Compile("openapi-3.1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := oas.Validate(inst); err != nil {
		t.Errorf("not an OpenAPI 3.1 document: %v", err)
	}

	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// Every number and integer has a format; every $ref resolves.
	refs := 0
	var walk func(at string, n any)
	walk = func(at string, n any) {
		switch v := n.(type) {
		case []any:
			for i, e := range v {
				walk(at+"/"+strconv.Itoa(i), e)
			}
		case map[string]any:
			types := map[string]bool{}
			switch ty := v["type"].(type) {
			case string:
				types[ty] = true
			case []any:
				for _, e := range ty {
					s, _ := e.(string)
					types[s] = true
				}
			}
			format, _ := v["format"].(string)
			if types["number"] && format != "double" {
				t.Errorf("%s: a number without format double (%q)", at, format)
			}
			if types["integer"] && format != "int32" && format != "int64" {
				t.Errorf("%s: an integer without format int32 or int64 (%q)", at, format)
			}
			if ref, ok := v["$ref"].(string); ok {
				refs++
				derefDoc(t, doc, v) // fails the test on a dangling reference
				if !strings.HasPrefix(ref, "#/components/schemas/") {
					t.Errorf("%s: $ref %s is not a component schema", at, ref)
				}
			}
			for k, e := range v {
				walk(at+"/"+k, e)
			}
		}
	}
	walk("#", doc)
	if refs == 0 {
		t.Fatal("the document refers to no component")
	}

	// Bodies and success data are references to named components.
	isRef := func(what string, s any) {
		t.Helper()
		m, _ := s.(map[string]any)
		ref, _ := m["$ref"].(string)
		if !strings.HasPrefix(ref, "#/components/schemas/") || len(m) != 1 {
			t.Errorf("%s: %.200v is not a reference to a component", what, s)
		}
	}
	for _, r := range h.S.routes {
		op := doc["paths"].(map[string]any)[r.Path].(map[string]any)[strings.ToLower(r.Method)].(map[string]any)
		what := r.Method + " " + r.Path
		if r.Body != nil {
			isRef(what+" body", op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"])
		}
		for status, res := range op["responses"].(map[string]any) {
			if status[0] != '2' || r.Data == nil {
				continue
			}
			content, _ := res.(map[string]any)["content"].(map[string]any)
			js, _ := content["application/json"].(map[string]any)
			if js == nil {
				continue
			}
			data := js["schema"].(map[string]any)["properties"].(map[string]any)["data"].(map[string]any)
			if r.List {
				data = data["items"].(map[string]any)
			}
			isRef(what+" "+status+" data", data)
		}
	}
}
