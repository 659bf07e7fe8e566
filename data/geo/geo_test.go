package geo_test

import (
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // time.LoadLocation must not depend on the host's zoneinfo

	"fiplan/data/geo"
	"fiplan/embed"
)

// ISO 3166-1 alpha-2 codes the dataset may use (officially assigned codes of
// every country and territory covered).
var iso3166 = set(`AE AL AR AT AU BA BB BE BG BH BO BR BZ CA CH CL CN CO CR CV CY CZ DE DK DO EC EE EG ES FI FJ FR
GB GE GH GR GT HK HR HU ID IE IN IS IT JO JP KE KH KR KW LA LK LT LU LV MA ME MK MT MU MX MY NA NI NL NO NP NZ
OM PA PE PH PL PR PT PY QA RO RS RW SA SE SG SI SK TH TN TR TW TZ US UY VN ZA`)

// ISO 4217 codes the dataset may use.
var iso4217 = set(`AED ALL ARS AUD BAM BBD BGN BHD BOB BRL BZD CAD CHF CLP CNY COP CRC CVE CZK DKK DOP EGP EUR FJD
GBP GEL GHS GTQ HKD HUF IDR INR ISK JOD JPY KES KHR KRW KWD LAK LKR MAD MKD MUR MXN MYR NAD NIO NOK NPR NZD OMR
PAB PEN PHP PLN PYG QAR RON RSD RWF SAR SEK SGD THB TND TRY TWD TZS USD UYU VND ZAR`)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

func table(t testing.TB) *geo.Table {
	t.Helper()
	tb, err := geo.Embedded()
	if err != nil {
		t.Fatalf("embedded dataset does not load: %v", err)
	}
	return tb
}

func city(t *testing.T, tb *geo.Table, id string) geo.City {
	t.Helper()
	c, ok := tb.ByID(id)
	if !ok {
		t.Fatalf("city %q missing", id)
	}
	return *c
}

func TestCoverage(t *testing.T) {
	tb := table(t)
	all := tb.All()
	if len(all) < 150 {
		t.Errorf("%d cities, want at least 150", len(all))
	}
	countries := map[string]bool{}
	regions := map[string]int{}
	for _, c := range all {
		countries[c.Country] = true
		regions[c.Region]++
	}
	if len(countries) < 60 {
		t.Errorf("%d countries, want at least 60", len(countries))
	}
	if len(geo.Regions) != 13 {
		t.Errorf("%d regions exported, want 13", len(geo.Regions))
	}
	for _, r := range geo.Regions {
		if regions[r] == 0 {
			t.Errorf("region %q has no city", r)
		}
	}
	for r := range regions {
		if !geo.IsRegion(r) {
			t.Errorf("city region %q is not in geo.Regions", r)
		}
	}
	// Every country in the inputs table is used, and vice versa.
	for _, co := range tb.Countries() {
		if !countries[co.Code] {
			t.Errorf("country %s has no city", co.Code)
		}
	}
	if got, want := len(tb.Countries()), len(countries); got != want {
		t.Errorf("countries table has %d entries, cities use %d", got, want)
	}
	if tb.Len() != len(all) {
		t.Errorf("Len %d != len(All) %d", tb.Len(), len(all))
	}
}

var reID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*-[a-z]{2}$`)

func TestIDs(t *testing.T) {
	tb := table(t)
	seen := map[string]bool{}
	for _, c := range tb.All() {
		if seen[c.ID] {
			t.Errorf("duplicate id %q", c.ID)
		}
		seen[c.ID] = true
		if !reID.MatchString(c.ID) {
			t.Errorf("id %q is not a lowercase ascii slug", c.ID)
		}
		if want := geo.Slug(c.Name) + "-" + strings.ToLower(c.Country); c.ID != want {
			t.Errorf("id %q, want slug(name)-country %q", c.ID, want)
		}
	}
	for _, id := range []string{"lisbon-pt", "new-york-us", "sao-paulo-br", "mexico-city-mx", "chiang-mai-th", "zurich-ch"} {
		if !seen[id] {
			t.Errorf("expected city %q", id)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Lisbon":                  "lisbon",
		"São Paulo":               "sao-paulo",
		"Kraków":                  "krakow",
		"Gdańsk":                  "gdansk",
		"Reykjavík":               "reykjavik",
		"Viña del Mar":            "vina-del-mar",
		"Cluj-Napoca":             "cluj-napoca",
		"The Hague":               "the-hague",
		"  St. John's ":           "st-john-s",
		"Santa Cruz de la Sierra": "santa-cruz-de-la-sierra",
		"Durrës":                  "durres",
	} {
		if got := geo.Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCodes(t *testing.T) {
	tb := table(t)
	reCC, reCur, reIATA := regexp.MustCompile(`^[A-Z]{2}$`), regexp.MustCompile(`^[A-Z]{3}$`), regexp.MustCompile(`^[A-Z]{3}$`)
	for _, c := range tb.All() {
		if !reCC.MatchString(c.Country) || !iso3166[c.Country] {
			t.Errorf("%s: country %q is not a known ISO 3166-1 alpha-2 code", c.ID, c.Country)
		}
		if !reCur.MatchString(c.Currency) || !iso4217[c.Currency] {
			t.Errorf("%s: currency %q is not a known ISO 4217 code", c.ID, c.Currency)
		}
		if !reIATA.MatchString(c.Airport) {
			t.Errorf("%s: airport %q is not an IATA code", c.ID, c.Airport)
		}
		co, ok := tb.Country(c.Country)
		if !ok {
			t.Errorf("%s: country %s not in the countries table", c.ID, c.Country)
			continue
		}
		if co.Currency != c.Currency || co.Name != c.CountryName || co.Region != c.Region {
			t.Errorf("%s: currency/name/region disagree with country %s", c.ID, co.Code)
		}
		if !reflect.DeepEqual(co.Visas, c.Visas) {
			t.Errorf("%s: visas disagree with country %s", c.ID, co.Code)
		}
	}
	// Spot checks.
	for id, want := range map[string][2]string{
		"lisbon-pt": {"PT", "EUR"}, "london-gb": {"GB", "GBP"}, "zurich-ch": {"CH", "CHF"},
		"tokyo-jp": {"JP", "JPY"}, "quito-ec": {"EC", "USD"}, "dubai-ae": {"AE", "AED"},
	} {
		c := city(t, tb, id)
		if c.Country != want[0] || c.Currency != want[1] {
			t.Errorf("%s: %s/%s, want %s/%s", id, c.Country, c.Currency, want[0], want[1])
		}
	}
}

func TestCoordinates(t *testing.T) {
	tb := table(t)
	south := set("AR AU BO BR CL EC FJ MU NA NZ PE PY RW TZ UY ZA ID")
	for _, c := range tb.All() {
		if c.Lat < -90 || c.Lat > 90 || c.Lon < -180 || c.Lon > 180 {
			t.Errorf("%s: coordinates %v,%v out of range", c.ID, c.Lat, c.Lon)
		}
		if c.Lat == 0 && c.Lon == 0 {
			t.Errorf("%s: coordinates are 0,0", c.ID)
		}
		// Hemisphere sanity catches swapped or unsigned coordinates.
		if south[c.Country] && c.Lat > 0 {
			t.Errorf("%s: latitude %v should be south", c.ID, c.Lat)
		}
		switch {
		case strings.HasPrefix(c.Region, "europe-"):
			if c.Lat < 27 || c.Lat > 72 || c.Lon < -30 || c.Lon > 50 { // Canaries and Madeira included
				t.Errorf("%s: %v,%v is not in Europe", c.ID, c.Lat, c.Lon)
			}
		case c.Region == geo.RegionNorthAmerica, c.Region == geo.RegionCentralAmericaCaribbean, c.Region == geo.RegionSouthAmerica:
			if c.Lon > -30 {
				t.Errorf("%s: longitude %v should be west", c.ID, c.Lon)
			}
		case c.Region == geo.RegionEastAsia, c.Region == geo.RegionSoutheastAsia, c.Region == geo.RegionSouthAsia:
			if c.Lon < 60 {
				t.Errorf("%s: longitude %v should be east", c.ID, c.Lon)
			}
		}
	}
	ny := city(t, tb, "new-york-us")
	if math.Abs(ny.Lat-40.71) > 0.1 || math.Abs(ny.Lon+74.0) > 0.1 {
		t.Errorf("New York at %v,%v", ny.Lat, ny.Lon)
	}
}

func TestBreakdown(t *testing.T) {
	tb := table(t)
	meta := tb.Meta()
	if !slices.Equal(meta.TotalLines, []string{"rent", "groceries", "eatingOut", "transport", "utilities", "internet", "healthInsurance"}) {
		t.Errorf("meta.totalLines = %v", meta.TotalLines)
	}
	for _, c := range tb.All() {
		s, f, r := c.Breakdown.Single, c.Breakdown.Family, c.Rents
		sum := s.Rent + s.Groceries + s.EatingOut + s.Transport + s.Utilities + s.Internet + s.HealthInsurance
		if sum != c.MonthlyCostUSD || s.Total != c.MonthlyCostUSD {
			t.Errorf("%s: single lines sum to %d, total %d, monthlyCostUSD %d", c.ID, sum, s.Total, c.MonthlyCostUSD)
		}
		fsum := f.Rent + f.Groceries + f.EatingOut + f.Transport + f.Utilities + f.Internet + f.HealthInsurance
		if fsum != f.Total || f.Total != c.MonthlyCostFamilyUSD {
			t.Errorf("%s: family lines sum to %d, total %d, monthlyCostFamilyUSD %d", c.ID, fsum, f.Total, c.MonthlyCostFamilyUSD)
		}
		if f.Total <= s.Total {
			t.Errorf("%s: family total %d not above single %d", c.ID, f.Total, s.Total)
		}
		if s.Rent != r.OneBedCentre || f.Rent != r.ThreeBedCentre {
			t.Errorf("%s: breakdown rents %d/%d differ from rents %+v", c.ID, s.Rent, f.Rent, r)
		}
		if !(r.OneBedOutside < r.OneBedCentre && r.OneBedCentre < r.ThreeBedCentre) {
			t.Errorf("%s: rents not ordered outside < centre < 3-bed: %+v", c.ID, r)
		}
		// A family never spends less than one person on any line.
		if f.Groceries < s.Groceries || f.EatingOut < s.EatingOut || f.Transport < s.Transport ||
			f.Utilities < s.Utilities || f.Internet < s.Internet || f.HealthInsurance < s.HealthInsurance {
			t.Errorf("%s: a family line is below the single line: %+v vs %+v", c.ID, f, s)
		}
		if s.Rent*100/s.Total < 15 || s.Rent*100/s.Total > 80 {
			t.Errorf("%s: rent share %d%% implausible", c.ID, s.Rent*100/s.Total)
		}
	}
}

func TestIndex(t *testing.T) {
	tb := table(t)
	ny := city(t, tb, geo.BaseCityID)
	if ny.CostOfLivingIndex != 100 {
		t.Fatalf("New York index %v, want exactly 100", ny.CostOfLivingIndex)
	}
	if tb.Base().ID != geo.BaseCityID || tb.Meta().IndexBase != geo.BaseCityID {
		t.Errorf("index base is %q / %q", tb.Base().ID, tb.Meta().IndexBase)
	}
	for _, c := range tb.All() {
		want := math.Round(float64(c.MonthlyCostUSD)/float64(ny.MonthlyCostUSD)*1000) / 10
		if c.CostOfLivingIndex != want {
			t.Errorf("%s: index %v, want %v", c.ID, c.CostOfLivingIndex, want)
		}
		if c.CostOfLivingIndex <= 0 || c.CostOfLivingIndex > 100 {
			t.Errorf("%s: index %v out of range", c.ID, c.CostOfLivingIndex)
		}
	}
}

func TestOrdering(t *testing.T) {
	tb := table(t)
	cost := func(id string) int { return city(t, tb, id).MonthlyCostUSD }
	for _, p := range [][2]string{
		{"zurich-ch", "lisbon-pt"},
		{"lisbon-pt", "chiang-mai-th"},
		{"new-york-us", "mexico-city-mx"},
		{"london-gb", "lisbon-pt"},
		{"singapore-sg", "kuala-lumpur-my"},
		{"san-francisco-us", "austin-us"},
		{"paris-fr", "lyon-fr"},
		{"bangkok-th", "chiang-mai-th"},
	} {
		if a, b := cost(p[0]), cost(p[1]); a <= b {
			t.Errorf("%s (%d) should cost more than %s (%d)", p[0], a, p[1], b)
		}
	}
	// New York is the most expensive city (it is the index base at 100).
	for _, c := range tb.All() {
		if c.MonthlyCostUSD > cost("new-york-us") {
			t.Errorf("%s costs more than New York", c.ID)
		}
	}
}

func TestIndicators(t *testing.T) {
	tb := table(t)
	for _, c := range tb.All() {
		if c.SafetyIndex < 1 || c.SafetyIndex > 100 || c.HealthcareIndex < 1 || c.HealthcareIndex > 100 {
			t.Errorf("%s: safety %d / healthcare %d outside 1..100", c.ID, c.SafetyIndex, c.HealthcareIndex)
		}
		if c.InternetMbps < 5 || c.InternetMbps > 1000 {
			t.Errorf("%s: internet %d Mbps implausible", c.ID, c.InternetMbps)
		}
		if !slices.Contains(geo.EnglishBands, c.EnglishProficiency) {
			t.Errorf("%s: english band %q", c.ID, c.EnglishProficiency)
		}
		cl := c.Climate
		if cl.AvgHighWarmestC < cl.AvgHighColdestC || cl.AvgHighWarmestC < 10 || cl.AvgHighWarmestC > 50 ||
			cl.AvgHighColdestC < -20 || cl.AnnualRainfallMm <= 0 || cl.AnnualRainfallMm > 6000 {
			t.Errorf("%s: climate %+v implausible", c.ID, cl)
		}
		for _, v := range append(slices.Clone(c.Visas.Retirement), c.Visas.DigitalNomad...) {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: empty visa name", c.ID)
			}
		}
	}
	if a, b := city(t, tb, "tokyo-jp").SafetyIndex, city(t, tb, "cape-town-za").SafetyIndex; a <= b {
		t.Errorf("Tokyo safety %d should exceed Cape Town %d", a, b)
	}
	if len(city(t, tb, "lisbon-pt").Visas.DigitalNomad) == 0 {
		t.Error("Portugal should list a digital-nomad visa")
	}
}

func TestTimezones(t *testing.T) {
	tb := table(t)
	for _, c := range tb.All() {
		loc, err := time.LoadLocation(c.Timezone)
		if err != nil {
			t.Errorf("%s: timezone %q: %v", c.ID, c.Timezone, err)
			continue
		}
		if loc.String() == "UTC" || loc.String() == "Local" {
			t.Errorf("%s: timezone %q is not a location", c.ID, c.Timezone)
		}
	}
	// Longitude and UTC offset agree within a few hours (catches a zone in the wrong hemisphere).
	jan := time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)
	for _, c := range tb.All() {
		loc, err := time.LoadLocation(c.Timezone)
		if err != nil {
			continue
		}
		_, off := jan.In(loc).Zone()
		if d := math.Abs(float64(off)/3600 - c.Lon/15); d > 3.5 {
			t.Errorf("%s: UTC offset %dh far from longitude %v", c.ID, off/3600, c.Lon)
		}
	}
}

// TestNoMissingFields checks the raw JSON: every city carries every field of
// geo.City (recursively), none null, and no numeric field is zero.
func TestNoMissingFields(t *testing.T) {
	var raw struct {
		Meta      map[string]any   `json:"meta"`
		Countries []map[string]any `json:"countries"`
		Cities    []map[string]any `json:"cities"`
	}
	if err := json.Unmarshal(embed.Cities, &raw); err != nil {
		t.Fatal(err)
	}
	want := keysOf(t, geo.City{})
	for i, c := range raw.Cities {
		id, _ := c["id"].(string)
		checkObject(t, id, c, want[""], want, "")
		if t.Failed() && i > 3 {
			return
		}
	}
	for _, c := range raw.Countries {
		for k, v := range c {
			if v == nil {
				t.Errorf("country %v: %s is null", c["code"], k)
			}
		}
	}
	for _, k := range []string{"asOf", "method", "sources", "currencyNote", "currency", "indexBase", "totalLines", "regions"} {
		if v, ok := raw.Meta[k]; !ok || v == nil || v == "" {
			t.Errorf("meta.%s missing", k)
		}
	}
}

// keysOf maps each nested object path of v's JSON form to its key set.
func keysOf(t *testing.T, v any) map[string][]string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var walk func(string, map[string]any)
	walk = func(p string, m map[string]any) {
		for k, v := range m {
			out[p] = append(out[p], k)
			if sub, ok := v.(map[string]any); ok {
				walk(p+"."+k, sub)
			}
		}
		sort.Strings(out[p])
	}
	walk("", m)
	return out
}

func checkObject(t *testing.T, id string, obj map[string]any, keys []string, all map[string][]string, path string) {
	t.Helper()
	var got []string
	for k := range obj {
		got = append(got, k)
	}
	sort.Strings(got)
	if !slices.Equal(got, keys) {
		t.Errorf("%s%s: keys %v, want %v", id, path, got, keys)
		return
	}
	for k, v := range obj {
		p := path + "." + k
		switch x := v.(type) {
		case nil:
			t.Errorf("%s%s is null", id, p)
		case string:
			if strings.TrimSpace(x) == "" {
				t.Errorf("%s%s is empty", id, p)
			}
		case float64:
			if x == 0 {
				t.Errorf("%s%s is zero", id, p)
			}
		case map[string]any:
			checkObject(t, id, x, all[p], all, p)
		case []any:
			// visa lists may be empty ([]) but not null
		}
	}
}

func TestMeta(t *testing.T) {
	m := table(t).Meta()
	asOf, err := time.Parse("2006-01-02", m.AsOf)
	if err != nil {
		t.Fatalf("asOf %q: %v", m.AsOf, err)
	}
	if asOf.Year() < 2023 || asOf.After(time.Now()) {
		t.Errorf("asOf %s implausible", m.AsOf)
	}
	if len(m.Sources) < 10 {
		t.Errorf("%d sources, want at least 10", len(m.Sources))
	}
	for i, s := range m.Sources {
		if s.Publisher == "" || s.Title == "" || s.Year < 2000 || s.Year > asOf.Year()+1 || !strings.HasPrefix(s.URL, "https://") {
			t.Errorf("source %d incomplete: %+v", i, s)
		}
	}
	for _, word := range []string{"New York", "Eurostat", "ICP", "Global Peace Index", "UNODC", "UHC", "family"} {
		if !strings.Contains(m.Method, word) {
			t.Errorf("method does not mention %q", word)
		}
	}
	low := strings.ToLower(m.Method + m.CurrencyNote)
	for _, banned := range []string{"numbeo", "expatistan", "mercer"} {
		if strings.Contains(low, banned) && !strings.Contains(low, "no commercial") {
			t.Errorf("method relies on %s", banned)
		}
	}
	if !slices.Equal(m.Regions, geo.Regions) {
		t.Errorf("meta.regions %v != geo.Regions", m.Regions)
	}
	if m.Currency != "USD" || m.CurrencyNote == "" {
		t.Errorf("currency %q note %q", m.Currency, m.CurrencyNote)
	}
}

func TestTableAccess(t *testing.T) {
	tb := table(t)
	all := tb.All()
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].ID < all[j].ID }) {
		t.Error("All is not sorted by id")
	}
	all[0].Name = "mutated"
	if tb.All()[0].Name == "mutated" {
		t.Error("All exposes the table's backing array")
	}
	c, ok := tb.ByID("lisbon-pt")
	if !ok || c.Name != "Lisbon" || c.Country != "PT" {
		t.Fatalf("ByID(lisbon-pt) = %+v, %v", c, ok)
	}
	c.MonthlyCostUSD = 1
	if again, _ := tb.ByID("lisbon-pt"); again.MonthlyCostUSD == 1 {
		t.Error("ByID returns a pointer into the table")
	}
	for _, id := range []string{"", "lisbon", "LISBON-PT", "atlantis-xx"} {
		if _, ok := tb.ByID(id); ok {
			t.Errorf("ByID(%q) found a city", id)
		}
	}
	for _, c := range all {
		got, ok := tb.ByID(c.ID)
		if !ok || got.ID != c.ID {
			t.Errorf("ByID(%q) = %v", c.ID, ok)
		}
	}
	n := 0
	for c := range tb.Cities() {
		if c.ID != all[n].ID {
			t.Errorf("Cities()[%d] = %s, want %s", n, c.ID, all[n].ID)
		}
		n++
	}
	if n != len(all) {
		t.Errorf("Cities yielded %d, want %d", n, len(all))
	}
	pt := tb.InCountry("pt")
	if len(pt) < 3 {
		t.Errorf("InCountry(pt) = %d cities", len(pt))
	}
	for _, c := range pt {
		if c.Country != "PT" {
			t.Errorf("InCountry(pt) returned %s", c.ID)
		}
	}
	if co, ok := tb.Country("ch"); !ok || co.Currency != "CHF" || co.PriceLevelIndex <= 100 {
		t.Errorf("Country(ch) = %+v, %v", co, ok)
	}
	if _, ok := tb.Country("XX"); ok {
		t.Error("Country(XX) found")
	}
	again, err := geo.Embedded()
	if err != nil || again != tb {
		t.Error("Default does not return the same table")
	}
}

// mutate decodes the embedded dataset, applies f, and re-encodes it.
func mutate(t *testing.T, f func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(embed.Cities, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func firstCity(doc map[string]any, id string) map[string]any {
	for _, c := range doc["cities"].([]any) {
		if m := c.(map[string]any); m["id"] == id {
			return m
		}
	}
	panic("no city " + id)
}

func TestLoadRejects(t *testing.T) {
	if _, err := geo.Load(embed.Cities); err != nil {
		t.Fatalf("embedded copy: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("{"), []byte(`{"cities": 3}`), []byte(`[]`)} {
		_, err := geo.Load(bad)
		if err == nil || !strings.HasPrefix(err.Error(), "cannot parse cities:") {
			t.Errorf("Load(%q) error = %v, want cannot parse cities", bad, err)
		}
	}
	cases := map[string]func(doc map[string]any){
		"unknown field": func(doc map[string]any) { firstCity(doc, "lisbon-pt")["population"] = 1.0 },
		"sum mismatch": func(doc map[string]any) {
			firstCity(doc, "lisbon-pt")["breakdown"].(map[string]any)["single"].(map[string]any)["groceries"] = 1.0
		},
		"index off":       func(doc map[string]any) { firstCity(doc, "lisbon-pt")["costOfLivingIndex"] = 50.0 },
		"base not 100":    func(doc map[string]any) { firstCity(doc, "new-york-us")["costOfLivingIndex"] = 99.9 },
		"bad slug":        func(doc map[string]any) { firstCity(doc, "lisbon-pt")["name"] = "Lisboa" },
		"bad region":      func(doc map[string]any) { firstCity(doc, "lisbon-pt")["region"] = "europe" },
		"bad currency":    func(doc map[string]any) { firstCity(doc, "lisbon-pt")["currency"] = "eur" },
		"bad latitude":    func(doc map[string]any) { firstCity(doc, "lisbon-pt")["lat"] = 138.7 },
		"null visas":      func(doc map[string]any) { firstCity(doc, "lisbon-pt")["visas"].(map[string]any)["retirement"] = nil },
		"no sources":      func(doc map[string]any) { doc["meta"].(map[string]any)["sources"] = []any{} },
		"bad asOf":        func(doc map[string]any) { doc["meta"].(map[string]any)["asOf"] = "mid-2024" },
		"duplicate city":  func(doc map[string]any) { doc["cities"] = append(doc["cities"].([]any), firstCity(doc, "lisbon-pt")) },
		"unknown country": func(doc map[string]any) { doc["countries"] = doc["countries"].([]any)[1:] },
		"family below single": func(doc map[string]any) {
			c := firstCity(doc, "lisbon-pt")
			f := c["breakdown"].(map[string]any)["family"].(map[string]any)
			f["groceries"], f["eatingOut"], f["transport"], f["utilities"], f["healthInsurance"] = 1.0, 1.0, 1.0, 1.0, 1.0
			rents := c["rents"].(map[string]any)
			rents["threeBedCentre"] = 1451.0
			f["rent"] = 1451.0
			f["total"] = 1451.0 + 5 + f["internet"].(float64)
			c["monthlyCostFamilyUSD"] = f["total"]
		},
	}
	for name, f := range cases {
		if _, err := geo.Load(mutate(t, f)); err == nil {
			t.Errorf("%s: Load accepted the document", name)
		}
	}
}
