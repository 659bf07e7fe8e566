package taxtable_test

import (
	"testing"
	"time"

	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/taxtable"
)

// maxAge is how much older than the end of the newest modelled tax year the
// city prices and the exchange rates may be: a tax year Y runs to
// 31 December Y, so for 2026 the cutoff is 2025-07-01.
const maxAgeMonths = 18

// maxKeptShare bounds the share of cities whose prices stay at an earlier
// date than the city dataset's as-of date (meta.pricesKept). The refresh to
// 2025-07-01 moved 48 of the 95 countries; the other 47 (78 of the 210
// cities) keep their mid-2024 prices for want of a sourced index change or
// exchange rate, each named with its reason. The bound holds that state and
// fails if more cities fall behind; it should come down towards 10% as the
// remaining countries are sourced.
const maxKeptShare = 0.40

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

// TestDatasetsCurrent holds the city prices and the exchange rates to the
// newest modelled tax year.
func TestDatasetsCurrent(t *testing.T) {
	limit := cutoff(newestTaxYear(t))

	rates, err := fx.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	checkAsOf(t, "embed/fx.json", rates.AsOf(), limit)

	cities, err := geo.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	m := cities.Meta()
	checkAsOf(t, "embed/cities.json", m.AsOf, limit)

	kept := cities.KeptCities()
	if share := float64(len(kept)) / float64(cities.Len()); share > maxKeptShare {
		t.Errorf("%d of %d cities (%.0f%%) keep prices older than %s, more than %.0f%%: move their countries (meta.pricesKept)",
			len(kept), cities.Len(), 100*share, m.AsOf, 100*maxKeptShare)
	}
	for _, k := range m.PricesKept {
		if k.Reason == "" || k.PricesAsOf >= m.AsOf {
			t.Errorf("meta.pricesKept %s: pricesAsOf %s, reason %q", k.Country, k.PricesAsOf, k.Reason)
		}
	}
}
