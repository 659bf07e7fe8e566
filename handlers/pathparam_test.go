package handlers

import (
	"strings"
	"testing"

	"fiplan/handlers/errcode"
)

// TestPathParametersMatchTheirGrammar: every route with a path parameter
// refuses a value outside the parameter's declared grammar with 400
// VALIDATION_ERROR naming the parameter, before its handler looks it up.
func TestPathParametersMatchTheirGrammar(t *testing.T) {
	h := newHarness(t, withRates("off", "off", "off"))
	admin := bearer(h.Token("root", "pro", "admin"))
	for _, c := range []struct{ method, path, param string }{
		{"GET", "/api/v1/assets/ast_short", "id"},
		{"PUT", "/api/v1/assets/key_aaaaaaaaaaaaaaaaaaaaaaaaaa", "id"},
		{"PATCH", "/api/v1/assets/AST_AAAAAAAAAAAAAAAAAAAAAAAAAA", "id"},
		{"DELETE", "/api/v1/assets/ast_aaaaaaaaaaaaaaaaaaaaaaaaa%2e", "id"},
		{"DELETE", "/api/v1/user/api-keys/ast_aaaaaaaaaaaaaaaaaaaaaaaaaa", "id"},
		{"GET", "/api/v1/tax/programs/nhr", "id"},
		{"GET", "/api/v1/geo/cities/Lisbon-PT", "id"},
		{"GET", "/api/v1/features/New-UI", "key"},
		{"PUT", "/api/v1/features/" + strings.Repeat("a", 65), "key"},
		{"DELETE", "/api/v1/features/ui-", "key"},
	} {
		body := ""
		if c.method == "PUT" || c.method == "PATCH" {
			body = `{}`
		}
		r := h.Do(c.method, c.path, body, admin...)
		expectError(t, r, 400, errcode.Validation)
		d, _ := r.Body["details"].([]any)
		if len(d) != 1 || d[0].(map[string]any)["path"] != c.param {
			t.Fatalf("%s %s: %s", c.method, c.path, r.Raw)
		}
	}
	// Well-formed ids of nothing are the routes' 404s, as before.
	expectError(t, h.Do("GET", "/api/v1/assets/ast_aaaaaaaaaaaaaaaaaaaaaaaaaa", "", admin...), 404, errcode.NotFound)
	expectError(t, h.Do("GET", "/api/v1/tax/programs/xx-nothing", "", admin...), 404, errcode.NotFound)
}
