package store_test

import (
	"encoding/json"
	"testing"
	"time"

	"fiplan/data/store"
)

// plan.offtrack waits for a total past a tenth of the expected portfolio
// on either side, and for an expected portfolio at all; fi.reached for a
// total at the FI number. The ids keep the year and side, and fi.reached's
// only the plan.
func TestTrack(t *testing.T) {
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	types := func(total, expected float64, found bool, fiNumber float64) []store.Event {
		t.Helper()
		evs, err := store.Track("ann", "pln_a", "a", 2026, "EUR", total, expected, found, fiNumber, at)
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	for _, c := range []struct {
		total, expected float64
		found           bool
		want            int
	}{
		{110_000, 100_000, true, 0}, {90_000, 100_000, true, 0}, // the band's edges
		{110_001, 100_000, true, 1}, {89_999, 100_000, true, 1},
		{0, 100_000, false, 0}, {50, 0, true, 0}, // nothing expected
	} {
		if evs := types(c.total, c.expected, c.found, 0); len(evs) != c.want {
			t.Errorf("total %v, expected %v (%v): %d events, want %d", c.total, c.expected, c.found, len(evs), c.want)
		}
	}
	below, above := types(50_000, 100_000, true, 0), types(150_000, 100_000, true, 0)
	again := types(40_000, 100_000, true, 0)
	if below[0].ID == above[0].ID || below[0].ID != again[0].ID || below[0].Type != store.PlanOfftrack {
		t.Errorf("ids: below %s, above %s, below again %s", below[0].ID, above[0].ID, again[0].ID)
	}
	var d map[string]any
	if err := json.Unmarshal(below[0].Data, &d); err != nil {
		t.Fatal(err)
	}
	if d["side"] != "below" || d["expected"] != 100_000.0 || d["actual"] != 50_000.0 || d["share"] != -0.5 || d["currency"] != "EUR" {
		t.Errorf("data = %v", d)
	}
	if evs := types(999_999, 0, false, 1e6); len(evs) != 0 {
		t.Errorf("below the FI number: %v", evs)
	}
	fi := types(1e6, 0, false, 1e6)
	if len(fi) != 1 || fi[0].Type != store.FIReached || fi[0].ID != store.EventID(store.FIReached, "ann", "pln_a") {
		t.Errorf("at the FI number: %+v", fi)
	}
	if evs := types(1e6, 0, false, 0); len(evs) != 0 {
		t.Errorf("without an FI number: %v", evs)
	}
}
