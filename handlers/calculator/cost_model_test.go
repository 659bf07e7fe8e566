//go:build !race

// The race detector slows each kind of code by its own factor, so the
// ratios below mean something only without it.

package calculator_test

import (
	"testing"
	"time"

	"fiplan/handlers/internal/testserver"
)

// TestCostModel runs every kind of expensive request and reads the
// process's CPU time: the CPU each takes per unit of its work is within
// 2x of every other's median, so the rate limit bounds the CPU a caller
// can use whatever they ask for, and a weight of costmodel.go that drifts
// (an engine grown dearer or cheaper) fails here. Ratios between kinds,
// not times: the machine's speed cancels out, and the kinds take turns so
// that load falls on all of them alike; each figure is a median of rounds.
func TestCostModel(t *testing.T) {
	s, _, _ := testserver.BenchServer(t, 0, testserver.LimitOff)
	runners := make([]*costRunner, len(costKinds))
	for i, k := range costKinds {
		runners[i] = newCostRunner(t, s, k)
		if runners[i].work < 1.5 {
			t.Fatalf("%s is %.2f units of work: size it above the one unit every request pays", k.name, runners[i].work)
		}
	}
	rounds := 9
	if testing.Short() {
		rounds = 7
	}
	per := cpuPerUnit(t, runners, rounds)
	mid := median(per)
	for i, r := range runners {
		ratio := float64(per[i]) / float64(mid)
		t.Logf("%-42s %2d units  %8v a unit  %.2f of the median", r.k.name, r.units, per[i].Round(time.Microsecond), ratio)
		if ratio > 2 || ratio < 0.5 {
			t.Errorf("%s: %v of CPU a unit, %.2f times the median kind's %v: the cost model (costmodel.go) is off by more than 2x for it; re-measure with BenchmarkCostPerUnit",
				r.k.name, per[i], ratio, mid)
		}
	}
}
