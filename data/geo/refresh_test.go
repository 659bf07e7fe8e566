package geo_test

import (
	"math"
	"strings"
	"testing"

	"fiplan/data/geo"
)

// fig2024 are a city's published mid-2024 figures (dataset 2024.2): the
// three rents, then groceries, eating out, transport, utilities, internet
// and health insurance of one person, in US dollars per month.
type fig2024 struct {
	oneBed, outside, threeBed                                int
	groceries, eatingOut, transport, utilities, inet, health int
}

// moved states, independently of the dataset, the index changes and rates
// a country's figures were moved with, as the sources publish them.
type moved struct {
	cpi, rent  float64 // 12-month percent changes to the index month
	month      string
	old, new   float64 // local currency per US dollar: 2024 average, June 2025 average
	rentSource string  // "" when rent moves with all items
}

// Figures from the releases named in each country's priceUpdate: BLS CPI-U
// June 2025 (all items 2.7%, rent of primary residence 3.8%); INE Portugal
// June 2025 (2.4%, rents 5.2%); ONS CPI June 2025 (3.6%); Statistics Bureau
// of Japan June 2025 (3.3%); FSO June 2025 (0.1%); Thai Ministry of Commerce
// June 2025 (-0.25%). Rates: Federal Reserve G.5A 2024 and G.5 June 2025
// (EUR 0.9242 and 0.8670 per dollar, JPY 151.4551 and 144.4835, CHF 0.8808
// and 0.8132, THB 35.2845 and 32.5835; GBP 0.7824, the mean of the 2024
// monthly averages, and 0.7365). GUS June 2025 (4.1%), TurkStat June 2025
// (35.05%), CZSO June 2025 (2.9%, rents 6.3%) and PSA June 2025 (1.4%)
// with the ECB reference rates crossed through the ECB dollar rate, 2024
// and June 2025 means (per euro: PLN 4.3058 and 4.2658, TRY 35.5734 and
// 45.4347, CZK 25.1198 and 24.8043, PHP 62.0072 and 64.9008; USD 1.0824
// and 1.1516). DANE June 2025 (4.82%) with the Banco de la República's TRM,
// calendar-day means of 2024 and June 2025 (4071.35 and 4113.49).
var refreshCases = []struct {
	id, country string
	before      fig2024
	m           moved
}{
	{"new-york-us", "US", fig2024{3900, 2496, 7917, 450, 320, 140, 180, 75, 680}, moved{2.7, 3.8, "2025-06", 1, 1, "rent of primary residence"}},
	{"lisbon-pt", "PT", fig2024{1450, 1015, 2828, 332, 205, 90, 126, 37, 167}, moved{2.4, 5.2, "2025-06", 0.9242, 0.8670, "housing rents"}},
	{"london-gb", "GB", fig2024{2900, 1972, 5655, 435, 304, 133, 190, 50, 228}, moved{3.6, 3.6, "2025-06", 0.7824, 0.7365, ""}},
	{"tokyo-jp", "JP", fig2024{1200, 780, 2340, 300, 176, 77, 112, 33, 148}, moved{3.3, 3.3, "2025-06", 151.4551, 144.4835, ""}},
	{"zurich-ch", "CH", fig2024{2700, 2025, 5265, 595, 483, 211, 250, 73, 490}, moved{0.1, 0.1, "2025-06", 0.8808, 0.8132, ""}},
	{"bangkok-th", "TH", fig2024{650, 390, 1268, 215, 108, 47, 76, 22, 100}, moved{-0.25, -0.25, "2025-06", 35.2845, 32.5835, ""}},
	{"warsaw-pl", "PL", fig2024{1000, 720, 1950, 267, 148, 65, 97, 28, 129}, moved{4.1, 4.1, "2025-06", 3.9781, 3.7042, ""}},
	{"istanbul-tr", "TR", fig2024{800, 520, 1560, 207, 102, 45, 72, 21, 95}, moved{35.05, 35.05, "2025-06", 32.8659, 39.4529, ""}},
	{"prague-cz", "CZ", fig2024{950, 684, 1853, 324, 198, 86, 122, 36, 162}, moved{2.9, 6.3, "2025-06", 23.2079, 21.5386, "actual rentals"}},
	{"medellin-co", "CO", fig2024{633, 443, 1234, 215, 108, 47, 76, 22, 100}, moved{4.82, 4.82, "2025-06", 4071.35, 4113.49, ""}},
	{"manila-ph", "PH", fig2024{700, 385, 1365, 207, 102, 45, 94, 21, 95}, moved{1.4, 1.4, "2025-06", 57.2878, 56.3561, ""}},
}

// TestRefreshArithmetic checks the move to mid-2025 on a few cities against
// the index changes and rates stated above: each line is the 2024 figure
// times (1 + change/100) x old rate / new rate, within the rounding of the
// 2024 figure (the dataset moves the unrounded estimate).
func TestRefreshArithmetic(t *testing.T) {
	tb := table(t)
	for _, tc := range refreshCases {
		t.Run(tc.id, func(t *testing.T) {
			co, ok := tb.Country(tc.country)
			if !ok || co.PriceUpdate == nil {
				t.Fatalf("country %s has no priceUpdate", tc.country)
			}
			u := *co.PriceUpdate
			if u.CPIChangePct != tc.m.cpi || u.RentChangePct != tc.m.rent || u.IndexMonth != tc.m.month ||
				u.RateOld != tc.m.old || u.RateNew != tc.m.new || !strings.Contains(u.RentIndex, tc.m.rentSource) {
				t.Fatalf("priceUpdate %+v does not record the stated figures %+v", u, tc.m)
			}
			f := (1 + tc.m.cpi/100) * tc.m.old / tc.m.new
			fr := (1 + tc.m.rent/100) * tc.m.old / tc.m.new
			c := city(t, tb, tc.id)
			s := c.Breakdown.Single
			for _, l := range []struct {
				name       string
				got, was   int
				multiplier float64
			}{
				{"oneBedCentre", c.Rents.OneBedCentre, tc.before.oneBed, fr},
				{"oneBedOutside", c.Rents.OneBedOutside, tc.before.outside, fr},
				{"threeBedCentre", c.Rents.ThreeBedCentre, tc.before.threeBed, fr},
				{"groceries", s.Groceries, tc.before.groceries, f},
				{"eatingOut", s.EatingOut, tc.before.eatingOut, f},
				{"transport", s.Transport, tc.before.transport, f},
				{"utilities", s.Utilities, tc.before.utilities, f},
				{"internet", s.Internet, tc.before.inet, f},
				{"healthInsurance", s.HealthInsurance, tc.before.health, f},
			} {
				want := float64(l.was) * l.multiplier
				// The 2024 figure was rounded to a dollar; the derived rents
				// (outside, 3-bed) were rounded twice.
				tol := 0.5*l.multiplier + 0.5
				if strings.HasSuffix(l.name, "Outside") || strings.HasPrefix(l.name, "three") {
					tol = 2.5*l.multiplier + 0.5
				}
				if math.Abs(float64(l.got)-want) > tol {
					t.Errorf("%s = %d, want %.2f (2024 %d x %.4f) within %.2f", l.name, l.got, want, l.was, l.multiplier, tol)
				}
			}
		})
	}
}

// TestRefreshFactors pins the multipliers of the stated figures, so that a
// change of a rate or an index shows up as a failing figure.
func TestRefreshFactors(t *testing.T) {
	for _, tc := range []struct {
		u     geo.PriceUpdate
		f, fr float64
	}{
		{geo.PriceUpdate{CPIChangePct: 2.4, RentChangePct: 5.2, RateOld: 0.9242, RateNew: 0.8670}, 1.09157, 1.12142},
		{geo.PriceUpdate{CPIChangePct: 2.7, RentChangePct: 3.8, RateOld: 1, RateNew: 1}, 1.027, 1.038},
		{geo.PriceUpdate{CPIChangePct: -0.25, RentChangePct: -0.25, RateOld: 35.2845, RateNew: 32.5835}, 1.08019, 1.08019},
		{geo.PriceUpdate{CPIChangePct: 35.05, RentChangePct: 35.05, RateOld: 32.8659, RateNew: 39.4529}, 1.12502, 1.12502},
	} {
		if math.Abs(tc.u.Factor()-tc.f) > 5e-5 || math.Abs(tc.u.RentFactor()-tc.fr) > 5e-5 {
			t.Errorf("%+v: factors %.5f, %.5f, want %.5f, %.5f", tc.u, tc.u.Factor(), tc.u.RentFactor(), tc.f, tc.fr)
		}
	}
}

// TestKeptPrices checks that a country listed in meta.pricesKept carries its
// 2024 figures unchanged, and that every kept country is named with a
// reason and its cities are the ones KeptCities returns.
func TestKeptPrices(t *testing.T) {
	tb := table(t)
	dubai := city(t, tb, "dubai-ae")
	if got := []int{dubai.Rents.OneBedCentre, dubai.Breakdown.Single.Groceries, dubai.MonthlyCostUSD}; got[0] != 2200 || got[1] != 352 || got[2] != 3266 {
		t.Errorf("Dubai (kept) = %v, want its 2024 figures [2200 352 3266]", got)
	}
	m := tb.Meta()
	kept := map[string]bool{}
	for _, k := range m.PricesKept {
		kept[k.Country] = true
		co, ok := tb.Country(k.Country)
		if !ok || co.PriceUpdate != nil || co.PricesAsOf != k.PricesAsOf || k.PricesAsOf >= m.AsOf || k.Reason == "" {
			t.Errorf("kept %+v inconsistent with country %+v", k, co)
		}
	}
	n := 0
	for _, c := range tb.All() {
		if kept[c.Country] {
			n++
		}
	}
	if got := len(tb.KeptCities()); got != n || n == 0 {
		t.Errorf("KeptCities() = %d cities, want %d", got, n)
	}
	for _, co := range tb.Countries() {
		if !kept[co.Code] && (co.PriceUpdate == nil || co.PricesAsOf != m.AsOf) {
			t.Errorf("country %s neither moved to %s nor kept", co.Code, m.AsOf)
		}
	}
}

func countryObj(doc map[string]any, code string) map[string]any {
	for _, c := range doc["countries"].([]any) {
		if m := c.(map[string]any); m["code"] == code {
			return m
		}
	}
	panic("no country " + code)
}

func TestLoadRejectsPriceDates(t *testing.T) {
	meta := func(doc map[string]any) map[string]any { return doc["meta"].(map[string]any) }
	keptEntry := func(doc map[string]any, code string) map[string]any {
		for _, k := range meta(doc)["pricesKept"].([]any) {
			if m := k.(map[string]any); m["country"] == code {
				return m
			}
		}
		panic("not kept: " + code)
	}
	update := func(doc map[string]any, code string) map[string]any {
		return countryObj(doc, code)["priceUpdate"].(map[string]any)
	}
	cases := map[string]func(doc map[string]any){
		"neither moved nor kept": func(doc map[string]any) { delete(countryObj(doc, "PT"), "priceUpdate") },
		"moved and kept": func(doc map[string]any) {
			meta(doc)["pricesKept"] = append(meta(doc)["pricesKept"].([]any), map[string]any{"country": "PT", "pricesAsOf": "2024-07-01", "reason": "x"})
		},
		"kept without reason":       func(doc map[string]any) { keptEntry(doc, "AE")["reason"] = " " },
		"kept after asOf":           func(doc map[string]any) { keptEntry(doc, "AE")["pricesAsOf"] = "2025-08-01" },
		"kept date mismatch":        func(doc map[string]any) { countryObj(doc, "AE")["pricesAsOf"] = "2024-06-30" },
		"kept unknown country":      func(doc map[string]any) { keptEntry(doc, "AE")["country"] = "XX" },
		"moved not at asOf":         func(doc map[string]any) { countryObj(doc, "PT")["pricesAsOf"] = "2024-07-01" },
		"no pricesAsOf":             func(doc map[string]any) { delete(countryObj(doc, "PT"), "pricesAsOf") },
		"rent change without index": func(doc map[string]any) { update(doc, "GB")["rentChangePct"] = 5.0 },
		"zero rate":                 func(doc map[string]any) { update(doc, "PT")["rateNew"] = 0.0 },
		"no index source":           func(doc map[string]any) { update(doc, "PT")["indexSource"] = "" },
		"bad index month":           func(doc map[string]any) { update(doc, "PT")["indexMonth"] = "2025-13" },
		"from after asOf":           func(doc map[string]any) { update(doc, "PT")["fromAsOf"] = "2025-07-01" },
	}
	for name, f := range cases {
		if _, err := geo.Load(mutate(t, f)); err == nil {
			t.Errorf("%s: Load accepted the document", name)
		}
	}
}
