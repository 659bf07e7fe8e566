package tax

import (
	"math"
	"testing"
)

// TestSolveGrossFewRounds: on a piecewise-linear tax (brackets with no
// rounding, as most are between their steps) the solver lands on the
// smallest gross within a cent in a handful of evaluations, not the
// twenty a bracket shrinking to a cent takes.
func TestSolveGrossFewRounds(t *testing.T) {
	t.Parallel()
	bands := [][2]float64{{15000, 0.10}, {60000, 0.12}, {110000, 0.22}} // from, marginal rate added
	taxOf := func(g float64) float64 {
		tax := 0.0
		for _, b := range bands {
			if g > b[0] {
				tax += (g - b[0]) * b[1]
			}
		}
		return tax
	}
	for _, net := range []float64{10000, 20000, 36000, 70000, 105000, 150000, 400000} {
		n := 0
		short := func(g float64) float64 { n++; return net - (g - taxOf(g)) }
		g, ok := solveGross(net, short)
		if !ok {
			t.Fatalf("net %.0f: no gross", net)
		}
		evals := n
		if short(g) > 0 || short(g-0.01) <= 0 {
			t.Errorf("net %.0f: gross %.4f is not the smallest within a cent (short %.6f, a cent less %.6f)", net, g, short(g), short(g-0.01))
		}
		if evals > 8 {
			t.Errorf("net %.0f: %d evaluations, want at most 8", net, evals)
		}
		// the exact root, by inverting the piecewise-linear net
		lo, hi := net, 10*net
		for range 200 {
			if mid := (lo + hi) / 2; mid-taxOf(mid) < net {
				lo = mid
			} else {
				hi = mid
			}
		}
		if math.Abs(g-hi) > 0.011 {
			t.Errorf("net %.0f: gross %.4f, the root is %.4f", net, g, hi)
		}
	}
}
