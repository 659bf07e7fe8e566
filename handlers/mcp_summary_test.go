package handlers

import (
	"strings"
	"testing"
)

// compare_cities names each city in its one-line summary (the names sit
// in each entry's city record, not beside the figures).
func TestMCPCompareCitiesNamesTheCities(t *testing.T) {
	h := newHarness(t, withMCP(false))
	key, _ := h.apiKey("ada", "free")
	cs, err := h.mcpSession("Bearer " + key)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := call(t, cs, "compare_cities", `{"ids":"lisbon-pt,porto-pt"}`)
	if res.IsError {
		t.Fatalf("compare_cities: %s", text(res))
	}
	sum := text(res)
	for _, want := range []string{"Lisbon (PT): FI number USD ", "Porto (PT): FI number USD "} {
		if !strings.Contains(sum, want) {
			t.Fatalf("the summary does not name the cities:\n%s", sum)
		}
	}
	if strings.Contains(sum, "\n: ") || strings.HasPrefix(sum, ": ") {
		t.Fatalf("a nameless line:\n%s", sum)
	}
}
