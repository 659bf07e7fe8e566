package history

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"fiplan/compute/fi"
	"fiplan/embed"
)

// Every country the tax files cover has its prices on record, and every
// series of the embedded file names its source, licence and as-of date.
func TestHomeEmbeddedCoversTaxCountries(t *testing.T) {
	h, err := EmbeddedHome()
	if err != nil {
		t.Fatal(err)
	}
	ents, err := embed.Tax.ReadDir("tax/countries")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		c := strings.ToUpper(strings.TrimSuffix(e.Name(), ".json"))
		if _, ok := h.cpi[c]; !ok {
			t.Errorf("no consumer prices for %s", c)
		}
	}
	if len(ents) < 30 {
		t.Errorf("%d tax countries read, want the 37 files", len(ents))
	}
	for _, s := range h.Series {
		if s.Source.Publisher == "" || s.Licence == "" || s.AsOf == "" {
			t.Errorf("%s: source %+v, licence %q, as of %q", s.ID, s.Source, s.Licence, s.AsOf)
		}
	}
}

// A series without a source, a licence or an as-of date fails the load.
func TestHomeRefusesSeriesWithoutProvenance(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(m map[string]any)
	}{
		{"source", "no source", func(m map[string]any) { delete(m, "source") }},
		{"publisher", "no source", func(m map[string]any) { m["source"].(map[string]any)["publisher"] = "" }},
		{"licence", "no licence", func(m map[string]any) { m["licence"] = "" }},
		{"as-of", "as-of date", func(m map[string]any) { delete(m, "asOf") }},
		{"as-of format", "as-of date", func(m map[string]any) { m["asOf"] = "June 2025" }},
		{"tag", "tag", func(m map[string]any) { m["tag"] = "guess" }},
		{"rate", "out of range", func(m map[string]any) { m["values"] = []any{1.0, 0.0} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f map[string]any
			if err := json.Unmarshal(embed.Home, &f); err != nil {
				t.Fatal(err)
			}
			series := f["series"].([]any)
			tc.edit(series[len(series)-3].(map[string]any)) // an exchange-rate series
			b, err := json.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			_, err = LoadHome(b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
	if _, err := LoadHome(bytes.Clone(embed.Home)); err != nil {
		t.Fatalf("the embedded file itself: %v", err)
	}
}

// The US annual and monthly records state their licence and as-of date
// in their header comments.
func TestUSRecordsStateLicence(t *testing.T) {
	for name, b := range map[string][]byte{"history.csv": embed.History, "shiller.csv": embed.Shiller} {
		var head strings.Builder
		for line := range bytes.Lines(b) {
			if !bytes.HasPrefix(line, []byte("#")) {
				break
			}
			head.Write(line)
		}
		for _, want := range []string{"Source", "Licence:", "As of:"} {
			if !strings.Contains(head.String(), want) {
				t.Errorf("%s: header lacks %q", name, want)
			}
		}
	}
}

func TestHomeMoneyEuroBackToTheMark(t *testing.T) {
	h, err := EmbeddedHome()
	if err != nil {
		t.Fatal(err)
	}
	m := h.Money("EUR", "DE")
	if m.FXYear != 1971 || m.FXMonth != 1 {
		t.Fatalf("euro for Germany from %d-%02d, want 1971-01 (the mark's H.10 series)", m.FXYear, m.FXMonth)
	}
	// January 1971: 3.6370 marks a dollar, 1.95583 marks a euro.
	if got, want := m.PerUSD[0], 3.6370/1.95583; math.Abs(got-want) > 1e-9 {
		t.Errorf("January 1971 = %v euros a dollar, want %v", got, want)
	}
	// January 1999 is the euro's own rate: 0.8627 euros a dollar.
	if got := m.PerUSD[(1999-1971)*12]; math.Abs(got-0.8627) > 1e-4 {
		t.Errorf("January 1999 = %v, want 0.8627", got)
	}
	if m.CPIYear != 1960 || math.Abs(m.Inflation[0]-0.0153661234295201) > 1e-12 {
		t.Errorf("German prices from %d at %v, want 1960 at 1.537%%", m.CPIYear, m.Inflation[0])
	}
	// Cyprus adopted the euro without a predecessor on record: 1999 on.
	if cy := h.Money("EUR", "CY"); cy.FXYear != 1999 {
		t.Errorf("euro for Cyprus from %d, want 1999", cy.FXYear)
	}
	for _, tc := range []struct{ cur, country, want string }{
		{"EUR", "DE", "DE"}, {"EUR", "US", "EA"}, {"GBP", "", "GB"}, {"CHF", "DE", "CH"}, {"USD", "US", "US"},
	} {
		if got, ok := h.PricesCountry(tc.cur, tc.country); !ok || got != tc.want {
			t.Errorf("PricesCountry(%s, %s) = %q, %v, want %q", tc.cur, tc.country, got, ok, tc.want)
		}
	}
	if _, ok := h.PricesCountry("XYZ", ""); ok {
		t.Errorf("PricesCountry(XYZ) found a country")
	}
}

// A yearly exchange-rate series of the mark stands before its monthly H.10
// run: the euro for Germany then starts in January of the yearly series'
// first year, every month of a year at that year's figure over the mark's
// conversion rate, and a German backtest in euros is restated from the
// first year with a December before it. The yearly figures here are a
// fixture (11 years at 4.00 marks a dollar), not published rates.
func TestHomeMoneyYearlyRatesBeforeMonthly(t *testing.T) {
	var f map[string]any
	if err := json.Unmarshal(embed.Home, &f); err != nil {
		t.Fatal(err)
	}
	vals := make([]any, 11) // 1960-1970
	for i := range vals {
		vals[i] = 4.0
	}
	vals[0] = 4.2
	f["series"] = append(f["series"].([]any), map[string]any{
		"id": "fx/DEM/yearly", "kind": "fx", "currency": "DEM", "frequency": "yearly",
		"unit": "DEM per US dollar, yearly average", "licence": "test fixture", "asOf": "2026-01-01", "tag": "table",
		"source": map[string]any{"publisher": "test", "title": "fixture", "url": "https://example.invalid/"},
		"first":  "1960", "values": vals,
		"legacy": map[string]any{"country": "DE", "perEUR": 1.95583, "until": "1998-12"},
	})
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	h, err := LoadHome(b)
	if err != nil {
		t.Fatal(err)
	}
	m := h.Money("EUR", "DE")
	if m.FXYear != 1960 || m.FXMonth != 1 {
		t.Fatalf("euro for Germany from %d-%02d, want 1960-01", m.FXYear, m.FXMonth)
	}
	for _, tc := range []struct {
		month int // months after January 1960
		want  float64
	}{{0, 4.2 / 1.95583}, {11, 4.2 / 1.95583}, {12, 4.0 / 1.95583}, {131, 4.0 / 1.95583}, {132, 3.6370 / 1.95583}} {
		if got := m.PerUSD[tc.month]; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("month %d = %v euros a dollar, want %v", tc.month, got, tc.want)
		}
	}
	if got, want := len(m.PerUSD), len(mustHome(t).Money("EUR", "DE").PerUSD)+132; got != want {
		t.Errorf("%d months, want %d (the monthly run and 132 before it)", got, want)
	}
	// The backtest in euros: 1960 lacks December 1959, so 1961 is the first
	// year restated; the year 1961 earns 4.0/4.2 against the dollar.
	us, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	eur, cov := fi.Series(us).In(m)
	if cov.From != 1961 {
		t.Errorf("coverage from %d, want 1961 (was 1972 on the monthly rates alone)", cov.From)
	}
	i := 1961 - us.Years[0]
	if got, want := 1+eur.Stocks[i], (1+us.Stocks[i])*4.0/4.2; math.Abs(got-want) > 1e-12 {
		t.Errorf("1961 stocks in euros %v, want %v", got-1, want-1)
	}
	// The same yearly series after the monthly one starts, or ending with a
	// gap before it, leaves the monthly run alone.
	late := &HomeSeries{year: 1971, Values: []float64{1}}
	if start, _ := late.before(1971*12, []float64{2}, 1); start != 1971*12 {
		t.Errorf("a yearly series from the monthly start moved it to %d", start)
	}
	gap := &HomeSeries{year: 1960, Values: []float64{1}}
	if start, r := gap.before(1971*12, []float64{2}, 1); start != 1971*12 || len(r) != 1 {
		t.Errorf("a yearly series ending 1960 joined a 1971 run: start %d, %d months", start, len(r))
	}
}

func mustHome(t *testing.T) *Home {
	t.Helper()
	h, err := EmbeddedHome()
	if err != nil {
		t.Fatal(err)
	}
	return h
}
