package taxtable_test

import (
	"sort"
	"testing"
	"time"

	"fiplan/data/taxtable"
)

// undatedCountries lists the tax files some of whose documents still give
// no asOf date (the version whose figures are used), which the explain
// panel shows beside each source. A file leaves the list once every
// document is dated, and the test then holds it there.
var undatedCountries = map[string]bool{
	"AE": true, "BE": true, "BR": true, "CA": true, "CH": true, "CR": true,
	"DK": true, "ES": true, "FI": true, "FR": true, "GE": true, "GR": true,
	"IE": true, "IT": true, "JP": true, "MX": true, "MY": true, "NL": true, "NZ": true, "PA": true,
	"SE": true, "SG": true,
}

// TestDocumentsDated finds every document of every tax file outside
// undatedCountries dated YYYY-MM-DD, no later than the newest modelled tax
// year's end, and every listed country still missing a date somewhere.
func TestDocumentsDated(t *testing.T) {
	tb, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	latest := time.Date(newestTaxYear(t)+1, time.January, 1, 0, 0, 0, 0, time.UTC)
	for _, s := range tb.Countries() {
		keys := make([]string, 0, len(s.Documents))
		for k := range s.Documents {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		undated := 0
		for _, k := range keys {
			asOf := s.Documents[k].AsOf
			if asOf == "" {
				undated++
				if !undatedCountries[s.Country] {
					t.Errorf("%s: document %q has no asOf", s.Country, k)
				}
				continue
			}
			d, err := time.Parse(time.DateOnly, asOf)
			switch {
			case err != nil:
				t.Errorf("%s: document %q: asOf %q is not a date (YYYY-MM-DD)", s.Country, k, asOf)
			case !d.Before(latest):
				t.Errorf("%s: document %q: asOf %s is after the newest tax year", s.Country, k, asOf)
			}
		}
		if undated == 0 && undatedCountries[s.Country] {
			t.Errorf("%s: every document is dated: drop it from undatedCountries", s.Country)
		}
	}
}
