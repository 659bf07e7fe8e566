package handlers

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"fiplan/compute/category"
	"fiplan/compute/fi"
)

func enumOf(t *testing.T, n any) []string {
	t.Helper()
	var out []string
	for _, v := range n.(map[string]any)["enum"].([]any) {
		if s, ok := v.(string); ok { // a nullable enum also lists null
			out = append(out, s)
		}
	}
	return out
}

// TestAssetCategoriesAreOneList: every place the API names asset categories
// offers exactly the list of package category: the asset documents, the
// categoriser's answer, the portfolio-health holdings and the assets
// list's filter.
func TestAssetCategoriesAreOneList(t *testing.T) {
	h := newHarness(t)
	var doc map[string]any
	if err := json.Unmarshal(h.S.openapi, &doc); err != nil {
		t.Fatal(err)
	}
	want := category.Names()
	json200 := []string{"responses", "200", "content", "application/json", "schema", "properties", "data"}
	body := []string{"requestBody", "content", "application/json", "schema"}
	for _, c := range []struct {
		what  string
		steps []string
	}{
		{"POST /assets body", append([]string{"paths", "/api/v1/assets", "post"}, append(body, "properties", "category")...)},
		{"PUT /assets/{id} body", append([]string{"paths", "/api/v1/assets/{id}", "put"}, append(body, "properties", "category")...)},
		{"GET /assets/{id} data", append([]string{"paths", "/api/v1/assets/{id}", "get"}, append(json200, "properties", "category")...)},
		{"POST /assets/categorize data", append([]string{"paths", "/api/v1/assets/categorize", "post"}, append(json200, "properties", "items", "items", "properties", "category")...)},
		{"POST /portfolio-health holdings", append([]string{"paths", "/api/v1/portfolio-health", "post"}, append(body, "properties", "holdings", "items", "properties", "assetClass")...)},
	} {
		if got := enumOf(t, docNode(t, doc, c.steps...)); !slices.Equal(got, want) {
			t.Errorf("%s: enum %q, the categories are %q", c.what, got, want)
		}
	}
	filter := docNode(t, doc, "paths", "/api/v1/assets", "get", "parameters", "*", "description").(string)
	if !strings.Contains(filter, "`"+strings.Join(want, "`, `")+"`.") {
		t.Errorf("the assets filter says %q, not the categories %q", filter, want)
	}
}

// TestWithdrawalStrategiesAreOneList: the calculator accepts exactly the
// strategies the engine has, in its order.
func TestWithdrawalStrategiesAreOneList(t *testing.T) {
	h := newHarness(t)
	var doc map[string]any
	if err := json.Unmarshal(h.S.openapi, &doc); err != nil {
		t.Fatal(err)
	}
	got := enumOf(t, docNode(t, doc, "paths", "/api/v1/calculator", "post", "requestBody", "content", "application/json", "schema", "properties", "withdrawalStrategy"))
	if want := fi.StrategyNames(); !slices.Equal(got, want) {
		t.Errorf("the calculator accepts %q, the engine has %q", got, want)
	}
}
