package taxtable_test

import (
	"testing"
	"time"

	"fiplan/data/fx"
	"fiplan/data/taxtable"
)

// maxAgeMonths is how much older than the end of the newest modelled tax
// year the exchange rates may be: a tax year Y runs to 31 December Y, so for
// 2026 the cutoff is 2025-07-01.
const maxAgeMonths = 18

// cutoff is the earliest as-of date acceptable while tax year y is the
// newest one modelled.
func cutoff(y int) time.Time {
	return time.Date(y+1, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, -maxAgeMonths, 0)
}

func TestCutoff(t *testing.T) {
	for y, want := range map[int]string{2026: "2025-07-01", 2025: "2024-07-01", 2027: "2026-07-01"} {
		if got := cutoff(y).Format(time.DateOnly); got != want {
			t.Errorf("cutoff(%d) = %s, want %s", y, got, want)
		}
	}
}

func newestTaxYear(t *testing.T) int {
	t.Helper()
	tb, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	newest := 0
	for _, sys := range tb.Countries() {
		newest = max(newest, sys.Latest())
	}
	if newest < 2024 {
		t.Fatalf("newest tax year %d implausible", newest)
	}
	return newest
}

func checkAsOf(t *testing.T, what, asOf string, limit time.Time) {
	t.Helper()
	d, err := time.Parse(time.DateOnly, asOf)
	if err != nil {
		t.Fatalf("%s as-of %q: %v", what, asOf, err)
	}
	if d.Before(limit) {
		t.Errorf("%s as of %s is more than %d months older than the end of the newest tax year (cutoff %s): refresh it (DATA.md, Keeping the datasets current)",
			what, asOf, maxAgeMonths, limit.Format(time.DateOnly))
	}
}

// TestDatasetsCurrent holds the exchange rates to the newest modelled tax
// year. The city prices are not held here: 56 of the 210 cities (27%) still
// keep their mid-2024 prices (meta.pricesKept), more than a freshness bound
// worth asserting, so the check waits until their countries are moved
// (DATA.md, "A city").
func TestDatasetsCurrent(t *testing.T) {
	limit := cutoff(newestTaxYear(t))

	rates, err := fx.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	checkAsOf(t, "embed/fx.json", rates.AsOf(), limit)
}
