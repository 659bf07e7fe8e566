package fi

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The sampler's moments, tails and distribution function match the standard
// normal's within sampling error over a few million draws.
func TestNormalMatchesGaussian(t *testing.T) {
	t.Parallel()
	const n = 4_000_000
	var g normal
	g.seed(7)
	// Cells of the distribution function; the last edges sit beyond the
	// ziggurat's tail start r = 3.654 to check the tail sampler.
	edges := []float64{-4, -3.654, -3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 3.654, 4}
	counts := make([]int, len(edges)+1)
	var sum, sum2, sum3, sum4 float64
	for range n {
		z := g.norm()
		sum += z
		sum2 += z * z
		sum3 += z * z * z
		sum4 += z * z * z * z
		k := 0
		for k < len(edges) && z >= edges[k] {
			k++
		}
		counts[k]++
	}
	mean, variance := sum/n, sum2/n-(sum/n)*(sum/n)
	// Standard errors: mean 1/sqrt(n), variance sqrt(2/n), third moment
	// sqrt(15/n), fourth sqrt(96/n); five of them is a loose bound.
	if math.Abs(mean) > 5/math.Sqrt(n) {
		t.Errorf("mean %.5f", mean)
	}
	if math.Abs(variance-1) > 5*math.Sqrt(2.0/n) {
		t.Errorf("variance %.5f", variance)
	}
	if m3 := sum3 / n; math.Abs(m3) > 5*math.Sqrt(15.0/n) {
		t.Errorf("third moment %.5f", m3)
	}
	if m4 := sum4 / n; math.Abs(m4-3) > 5*math.Sqrt(96.0/n) {
		t.Errorf("fourth moment %.5f, want 3", m4)
	}
	cdf := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	chi2 := 0.0
	for k, c := range counts {
		lo, hi := 0.0, 1.0
		if k > 0 {
			lo = cdf(edges[k-1])
		}
		if k < len(edges) {
			hi = cdf(edges[k])
		}
		want := n * (hi - lo)
		if d := math.Abs(float64(c) - want); d > 5*math.Sqrt(want)+1 {
			t.Errorf("cell %d: %d draws, want %.0f", k, c, want)
		}
		chi2 += (float64(c) - want) * (float64(c) - want) / want
	}
	// 13 degrees of freedom: the 0.999 quantile is 34.5.
	if chi2 > 34.5 {
		t.Errorf("chi-square %.1f over %d cells", chi2, len(counts))
	}
}

func TestNormalSeeds(t *testing.T) {
	t.Parallel()
	var a, b normal
	a.seed(1)
	b.seed(1)
	for range 1000 {
		if a.norm() != b.norm() {
			t.Fatal("same seed, different draws")
		}
	}
	b.seed(2)
	same := 0
	for range 1000 {
		if a.norm() == b.norm() {
			same++
		}
	}
	if same > 0 {
		t.Fatalf("seeds 1 and 2 share %d draws in 1000", same)
	}
	a.seed(0) // splitmix64 keeps the zero seed usable
	if a.s0|a.s1|a.s2|a.s3 == 0 || a.norm() == a.norm() {
		t.Fatal("zero seed gives a stuck generator")
	}
}

// Simulate with the ziggurat agrees, within sampling error, with the same
// model replayed path by path through ProjectPath on the standard library's
// normal sampler: the success rate, the FI share and the median and outer
// bands of the final year.
func TestMonteCarloMatchesReferenceSampler(t *testing.T) {
	t.Parallel()
	const sims = 20_000
	in := mcInput()
	in.TargetRetirementAge = 50
	mc := MonteCarlo{Simulations: sims, Seed: 11, ReturnStdDev: 0.12, InflationStdDev: 0.03}
	var sc Scratch
	var got MCResult
	Simulate(&in, &mc, &sc, &got)

	r := rand.New(rand.NewPCG(5, 6))
	var p plan
	p.init(&in)
	rets, infls := make([]float64, p.n), make([]float64, p.n)
	rows := make([]Year, 0, p.n)
	// Real end balances of the reference paths in three years: accumulation,
	// the first drawdown year and the last year.
	years := []int{10, 15, p.n - 1}
	ends := make([][]float64, len(years))
	for k := range ends {
		ends[k] = make([]float64, sims)
	}
	ok, reached := 0, 0
	for i := range sims {
		for y := range p.n {
			rets[y] = p.gross + mc.ReturnStdDev*r.NormFloat64()
			infls[y] = p.infl + mc.InflationStdDev*r.NormFloat64()
		}
		var s Summary
		s, rows = ProjectPath(&in, rets, infls, rows[:0])
		ok += b2i(!s.RunsOut)
		reached += b2i(s.Reached)
		for k, y := range years {
			ends[k][i] = rows[y].RealEndBalance
		}
	}
	// Two independent estimates of a share q differ by sampling error
	// sqrt(2 q (1-q) / n).
	se := func(q float64) float64 { return math.Sqrt(2*max(q*(1-q), 1e-4)/sims) + 1e-12 }
	share := func(name string, a, b float64) {
		if q := (a + b) / 2; math.Abs(a-b) > 5*se(q) {
			t.Errorf("%s: ziggurat %.4f, reference %.4f (se %.4f)", name, a, b, se(q))
		}
	}
	share("success rate", got.SuccessRate, float64(ok)/sims)
	share("reached FI", got.ReachedFI, float64(reached)/sims)
	if got.SuccessRate < 0.05 || got.SuccessRate > 0.95 {
		t.Fatalf("success rate %.3f leaves the comparison no power", got.SuccessRate)
	}
	// A band is a quantile q: the reference's share of values below it must
	// not exceed q, and its share at or below it must reach q, within
	// sampling error (ties matter where many paths are empty).
	for k, y := range years {
		b := got.Bands[y]
		for _, c := range []struct{ q, v float64 }{{0.10, b.P10}, {0.50, b.P50}, {0.90, b.P90}} {
			below, atOrBelow := 0, 0
			for _, f := range ends[k] {
				below += b2i(f < c.v)
				atOrBelow += b2i(f <= c.v)
			}
			lo, hi := float64(below)/sims, float64(atOrBelow)/sims
			if lo > c.q+5*se(c.q) || hi < c.q-5*se(c.q) {
				t.Errorf("year %d: band p%.0f = %.0f holds %.4f-%.4f of the reference", y, 100*c.q, c.v, lo, hi)
			}
		}
	}
}
