package tax_test

import (
	"testing"

	"fiplan/handlers/internal/testserver"
)

// GET /tax/countries lists the continental wrappers with their kind,
// access age and sources, each source with its title, address and date.
func TestTaxCountriesContinentalWrappers(t *testing.T) {
	h := testserver.New(t)
	r := h.Do("GET", "/api/v1/tax/countries", "", testserver.Bearer(h.Token("alice", "free", ""))...)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	want := map[string]map[string]string{
		"DE": {"de-ruerup": "pension", "de-bav": "pension", "de-aktienfonds": "taxable"},
		"NL": {"nl-lijfrente": "tax-deferred"},
		"CH": {"ch-3a": "pension", "ch-bvg": "pension"},
		"FR": {"fr-pea": "tax-free", "fr-assurance-vie": "taxable", "fr-per": "pension"},
	}
	access := map[string]any{"de-ruerup": 62.0, "de-bav": 62.0, "ch-3a": 60.0, "ch-bvg": 60.0, "fr-per": 64.0, "fr-pea": nil, "nl-lijfrente": nil}
	seen := 0
	for _, x := range r.Body["data"].([]any) {
		c := x.(map[string]any)
		ids, ok := want[c["code"].(string)]
		if !ok {
			continue
		}
		got := map[string]bool{}
		for _, y := range c["wrappers"].([]any) {
			w := y.(map[string]any)
			id := w["id"].(string)
			got[id] = true
			if ids[id] != w["kind"] {
				t.Errorf("%s: kind %v, want %s", id, w["kind"], ids[id])
			}
			if a, ok := access[id]; ok && w["accessAge"] != a {
				t.Errorf("%s: accessAge %v, want %v", id, w["accessAge"], a)
			}
			src := w["sources"].([]any)
			if len(src) == 0 || w["notes"] == "" {
				t.Errorf("%s: %d sources, notes %q", id, len(src), w["notes"])
			}
			for _, s := range src {
				m := s.(map[string]any)
				if m["title"] == "" || m["url"] == "" || m["asOf"] == "" || m["section"] == "" {
					t.Errorf("%s: source %v lacks title, url, date or section", id, m)
				}
			}
		}
		for id := range ids {
			if !got[id] {
				t.Errorf("%s: %s not listed", c["code"], id)
			}
			seen++
		}
	}
	if seen != 9 {
		t.Errorf("%d of the 9 continental wrappers listed", seen)
	}
}
