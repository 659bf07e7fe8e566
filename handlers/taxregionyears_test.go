package handlers

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
)

// Each region of GET /tax/countries lists the tax years that model it, so a
// page can offer only the regions POST /tax/calculate accepts for the year.
func TestTaxCountryRegionYears(t *testing.T) {
	h := newHarness(t)
	r := h.Do("GET", "/api/v1/tax/countries", "", bearer(h.Token("alice", "free", ""))...)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	var body struct {
		Data []struct {
			Code    string
			Regions []struct {
				Code  string
				Years []int
			}
		}
	}
	if err := json.Unmarshal(r.Raw, &body); err != nil {
		t.Fatal(err)
	}
	years := map[string][]int{}
	for _, c := range body.Data {
		for _, g := range c.Regions {
			years[c.Code+"-"+g.Code] = g.Years
		}
	}
	if y := years["US-CA"]; !slices.Equal(y, []int{2025, 2026}) {
		t.Fatalf("US-CA years %v: want [2025 2026] (2024 models no state)", y)
	}
	if y := years["US-NC"]; !slices.Equal(y, []int{2025, 2026}) {
		t.Fatalf("US-NC years %v: want [2025 2026]", y)
	}
	// every listed year is accepted by POST /tax/calculate
	for _, y := range years["US-CA"] {
		c := h.Do("POST", "/api/v1/tax/calculate", `{"country":"US","region":"CA","year":`+strconv.Itoa(y)+`,"income":{"employment":50000}}`, bearer(h.Token("alice", "free", ""))...)
		if c.Status != 200 {
			t.Fatalf("CA %d: %d %s", y, c.Status, c.Raw)
		}
	}
}
