package taxtable_test

import (
	"testing"
	"time"

	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/taxtable"
	"fiplan/embed"
)

// maxStaleMonths is how much older than the newest tax year the city and
// exchange-rate datasets may be.
const maxStaleMonths = 18

// staleCutoff is the earliest as-of date a dataset may carry when the build
// models tax years up to newest.
//
// A tax year Y is taken to run to its last day, 31 December Y: an answer for
// tax year Y applies the year's rules to prices and rates paid through the
// whole year, so the data behind it must be at most 18 months old when the
// year ends. The cutoff is therefore 1 January Y+1 less 18 months, 1 July Y-1:
// for tax year 2026 a dataset as of 2025-07-01 is current and one as of
// 2025-06-30 is stale. (Reading Y as 1 January Y would let data as old as
// 1 July Y-2 pass, two summers before the year it is used for.) Years are
// the files' own labels: a tax year that straddles two calendar years (GB
// 2026 is 2026/27) is labelled by the year it starts in, so its real end is
// later still and the rule is, if anything, lenient there.
func staleCutoff(newest int) time.Time {
	return time.Date(newest+1, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, -maxStaleMonths, 0)
}

// stale reports whether a dataset as of asOf (YYYY-MM-DD) is more than 18
// months older than the end of tax year newest.
func stale(t *testing.T, asOf string, newest int) bool {
	t.Helper()
	d, err := time.Parse(time.DateOnly, asOf)
	if err != nil {
		t.Fatalf("as-of %q: %v", asOf, err)
	}
	return d.Before(staleCutoff(newest))
}

// TestStaleRule pins the rule itself, so a change to it is deliberate: the
// cutoff for tax year 2026 is 1 July 2025, and the datasets as they stood
// before their refresh (cities 2024-07-01) fail it.
func TestStaleRule(t *testing.T) {
	if got := staleCutoff(2026).Format(time.DateOnly); got != "2025-07-01" {
		t.Fatalf("cutoff for 2026 = %s, want 2025-07-01", got)
	}
	for _, c := range []struct {
		asOf   string
		newest int
		want   bool
	}{
		{"2024-07-01", 2026, true},
		{"2025-06-30", 2026, true},
		{"2025-07-01", 2026, false},
		{"2025-07-24", 2026, false},
		{"2025-07-24", 2027, true},
		{"2024-07-01", 2025, false},
	} {
		if got := stale(t, c.asOf, c.newest); got != c.want {
			t.Errorf("stale(%s, %d) = %v, want %v", c.asOf, c.newest, got, c.want)
		}
	}
}

// newestTaxYear is the latest year any country's tax file models.
func newestTaxYear(t *testing.T) int {
	t.Helper()
	tab, err := taxtable.Load(embed.Tax)
	if err != nil {
		t.Fatal(err)
	}
	newest := 0
	for _, s := range tab.Countries() {
		newest = max(newest, s.Latest())
	}
	if newest == 0 {
		t.Fatal("no tax year in the embedded files")
	}
	return newest
}

// TestDatasetsFresh fails when the city dataset (embed/cities.json meta.asOf)
// or the exchange rates (embed/fx.json meta.asOf) are more than 18 months
// older than the end of the newest tax year the build models. Adding a tax
// year therefore asks for both to be refreshed (DATA.md, "A city" and
// "Exchange rates").
func TestDatasetsFresh(t *testing.T) {
	newest := newestTaxYear(t)
	cities, err := geo.Load(embed.Cities)
	if err != nil {
		t.Fatal(err)
	}
	rates, err := fx.Load(embed.FX)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct{ name, asOf string }{
		{"embed/cities.json", cities.Meta().AsOf},
		{"embed/fx.json", rates.AsOf()},
	} {
		if stale(t, d.asOf, newest) {
			t.Errorf("%s is as of %s, more than %d months before the end of tax year %d (cutoff %s): refresh it",
				d.name, d.asOf, maxStaleMonths, newest, staleCutoff(newest).Format(time.DateOnly))
		}
	}
}
