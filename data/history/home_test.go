package history

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

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
