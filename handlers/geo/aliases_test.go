package geo_test

import (
	"net/url"
	"slices"
	"testing"
)

// TestGeoListAliases searches the list by local and other common names: each
// query must find its city, whatever the case and accents, and a city's
// aliases are served with it.
func TestGeoListAliases(t *testing.T) {
	h, tok := newGeoHarness(t)
	for q, want := range map[string]string{
		"Lisboa":           "lisbon-pt",
		"lisboa":           "lisbon-pt",
		"München":          "munich-de",
		"munchen":          "munich-de",
		"Muenchen":         "munich-de",
		"NYC":              "new-york-us",
		"nyc":              "new-york-us",
		"Praha":            "prague-cz",
		"Wien":             "vienna-at",
		"Roma":             "rome-it",
		"Milano":           "milan-it",
		"Firenze":          "florence-it",
		"Zürich":           "zurich-ch",
		"Genève":           "geneva-ch",
		"geneve":           "geneva-ch",
		"Bruxelles":        "brussels-be",
		"Den Haag":         "the-hague-nl",
		"den-haag":         "the-hague-nl",
		"Kraków":           "krakow-pl",
		"Warszawa":         "warsaw-pl",
		"Ciudad de México": "mexico-city-mx",
		"ciudad de mexico": "mexico-city-mx",
		"São Paulo":        "sao-paulo-br",
		"Bogotá":           "bogota-co",
		"bogota":           "bogota-co",
		"Saigon":           "ho-chi-minh-city-vn",
		"Ho Chi Minh City": "ho-chi-minh-city-vn",
		"KØBENHAVN":        "copenhagen-dk",
		"Bombay":           "mumbai-in",
	} {
		r := h.Do("GET", citiesPath+"?limit=100&q="+url.QueryEscape(q), "")
		items := dataItems(t, r)
		if ids := idsOf(items); !slices.Contains(ids, want) {
			t.Errorf("q=%q: %v, want %s among them", q, ids, want)
		}
	}

	r := h.Do("GET", citiesPath+"/munich-de", "", tok...)
	if r.Status != 200 {
		t.Fatalf("munich-de: status %d: %s", r.Status, r.Raw)
	}
	data, _ := r.Body["data"].(map[string]any)
	aliases, _ := data["aliases"].([]any)
	if !slices.Contains(aliases, any("München")) {
		t.Errorf("munich-de aliases = %v, want München among them", data["aliases"])
	}
	r = h.Do("GET", citiesPath+"/oslo-no", "", tok...)
	if data, _ := r.Body["data"].(map[string]any); data == nil || data["aliases"] == nil {
		t.Errorf("oslo-no: aliases must be an empty list, not missing or null: %s", r.Raw)
	}

	// An alias is not a substring wildcard for unrelated cities: "Wien" finds
	// Vienna only.
	if ids := idsOf(dataItems(t, h.Do("GET", citiesPath+"?q=wien", ""))); !slices.Equal(ids, []string{"vienna-at"}) {
		t.Errorf("q=wien: %v, want [vienna-at]", ids)
	}
}
