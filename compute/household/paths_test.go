package household

import (
	"testing"

	"fiplan/compute/fi"
)

// With no spread every Monte Carlo path is the projection: all succeed or
// all fail as it does, and the median band is its real balance.
func TestSimulateWithoutSpreadIsTheProjection(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 45, 90, account(r, "t", "taxable", 0, 600000), account(r, "k", "us-401k", 0, 700000))
	p.People[0].RetirementAge = 50
	p.People[0].Income = 120000
	res := run(t, &p)
	var w Work
	var out fi.MCResult
	mc := fi.MonteCarlo{Simulations: 20, Seed: 3}
	Simulate(&p, &mc, &w, &out)
	if out.Drawdowns != 20 {
		t.Fatalf("drawdowns %d of 20", out.Drawdowns)
	}
	want := 1.0
	if res.Summary.RunsOut {
		want = 0
	}
	if out.SuccessRate != want {
		t.Fatalf("success %v, want %v", out.SuccessRate, want)
	}
	for i, b := range out.Bands {
		if !near(b.P50, res.Rows[i].RealEndBalance, 1e-6*(1+b.P50)) {
			t.Fatalf("year %d: band %v, projection %v", i, b.P50, res.Rows[i].RealEndBalance)
		}
	}
}

// A plan that never draws down has no success rate: a worker who saves
// until the end of the horizon.
func TestNeverDrawsDownHasNoSuccessRate(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 30, 50, account(r, "t", "taxable", 0, 1000))
	p.People[0].Income = 100000
	p.People[0].RetirementAge = 60
	var w Work
	var out fi.MCResult
	mc := fi.MonteCarlo{Simulations: 50, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.03}
	Simulate(&p, &mc, &w, &out)
	if out.Drawdowns != 0 {
		t.Fatalf("%d paths drew down", out.Drawdowns)
	}
	h := fi.Series{Years: []int{2000, 2001, 2002, 2003, 2004}, Stocks: []float64{-0.1, -0.1, -0.2, 0.3, 0.1}, Bonds: []float64{0.05, 0.05, 0.05, 0.05, 0.05}, Inflation: []float64{0.02, 0.02, 0.02, 0.02, 0.02}}
	bt, years := Backtest(&p, h, 5, 0.6, 0, &w)
	if years != 5 || bt.Periods != 1 || bt.Drawdowns != 0 {
		t.Fatalf("backtest %+v over %d years", bt, years)
	}
	// the same history for a retiree draws down
	q := single(r, s, 65, 90, account(r, "t", "taxable", 0, 100000))
	bt, _ = Backtest(&q, h, 5, 0.6, 0, &w)
	if bt.Drawdowns != 1 {
		t.Fatalf("retiree backtest %+v", bt)
	}
}
