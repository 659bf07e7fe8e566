package plan

import (
	"math"
	"testing"

	"fiplan/compute/fi"
)

func checkInRun(t *testing.T, in fi.Input, o Options) CheckIn {
	t.Helper()
	p := Plan{Base: in}
	o.Step = 1
	var r Result
	if err := Run(&p, testInputs(), &o, &r); err != nil {
		t.Fatal(err)
	}
	return CheckInOf(&r)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

// Already retired: this year's withdrawal is the plan's spending, today's
// money, at spending / savings of the portfolio.
func TestCheckInRetired(t *testing.T) {
	t.Parallel()
	in := fi.Defaults()
	in.StartYear, in.CurrentAge, in.AnnualExpenses, in.RetirementExpenses = 2030, 60, 40_000, 40_000
	in.CurrentSavings, in.TargetRetirementAge = 1_000_000, 60
	c := checkInRun(t, in, Options{Window: 30, Backtest: true})
	if !c.Retired || c.Age != 60 || c.Year != 2030 || c.DrawdownAge != 60 || c.DrawdownYear != 2030 {
		t.Fatalf("check-in = %+v; want retired at 60 in 2030", c)
	}
	if !near(c.Withdrawal, 40_000) || !near(c.Portfolio, 1_000_000) || !near(c.Rate, 0.04) {
		t.Errorf("withdrawal %v of %v (rate %v); want 40000 of 1000000 (0.04)", c.Withdrawal, c.Portfolio, c.Rate)
	}
	if c.Guardrails != nil {
		t.Errorf("the constant strategy has guardrails: %+v", c.Guardrails)
	}
	if !near(c.FINumber, 1_000_000) {
		t.Errorf("FI number = %v; want 40000 / 0.04", c.FINumber)
	}
	if c.HistoricalWindows == 0 || math.IsNaN(c.Historical) || c.Historical < 0 || c.Historical > 1 {
		t.Errorf("historical = %v over %d windows", c.Historical, c.HistoricalWindows)
	}
	if !math.IsNaN(c.MonteCarlo) {
		t.Errorf("Monte Carlo = %v without a simulation; want NaN", c.MonteCarlo)
	}
}

// Still saving: the first drawdown year's withdrawal is in today's money,
// not in money of that year.
func TestCheckInBeforeDrawdown(t *testing.T) {
	t.Parallel()
	in := fi.Defaults()
	in.StartYear, in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = 2030, 40, 90_000, 36_000
	in.CurrentSavings, in.TargetRetirementAge = 200_000, 50
	c := checkInRun(t, in, Options{MonteCarlo: &fi.MonteCarlo{Simulations: 200, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.04}})
	if c.Retired || c.DrawdownAge != 50 || c.DrawdownYear != 2040 {
		t.Fatalf("check-in = %+v; want drawdown from 50 (2040)", c)
	}
	if !near(c.Withdrawal, 36_000) {
		t.Errorf("withdrawal = %v; want the spending, 36000 in today's money", c.Withdrawal)
	}
	if !math.IsNaN(c.Historical) || c.HistoricalWindows != 0 {
		t.Errorf("historical = %v over %d windows without a backtest", c.Historical, c.HistoricalWindows)
	}
	if math.IsNaN(c.MonteCarlo) || c.MonteCarlo < 0 || c.MonteCarlo > 1 {
		t.Errorf("Monte Carlo = %v", c.MonteCarlo)
	}
}

// A guardrail strategy answers where the guardrails stand: 20% either side
// of the initial rate, and the portfolio values at which this year's
// withdrawal would reach them.
func TestCheckInGuardrails(t *testing.T) {
	t.Parallel()
	for _, s := range []fi.Strategy{fi.StrategyGuytonKlinger, fi.StrategyGuardrailsCapped} {
		in := fi.Defaults()
		in.StartYear, in.CurrentAge, in.AnnualExpenses, in.RetirementExpenses = 2030, 65, 50_000, 50_000
		in.CurrentSavings, in.TargetRetirementAge, in.Strategy = 1_000_000, 65, s
		c := checkInRun(t, in, Options{})
		g := c.Guardrails
		if g == nil {
			t.Fatalf("%v: no guardrails", s)
		}
		if !near(g.InitialRate, 0.05) || !near(g.CutAbove, 0.06) || !near(g.RaiseBelow, 0.04) || !near(g.Adjustment, 0.10) {
			t.Errorf("%v: guardrails = %+v; want 0.05 between 0.04 and 0.06, steps of 0.10", s, g)
		}
		if !near(g.CutBelowPortfolio, 50_000/0.06) || !near(g.RaiseAbovePortfolio, 50_000/0.04) {
			t.Errorf("%v: portfolio bounds = %v, %v", s, g.CutBelowPortfolio, g.RaiseAbovePortfolio)
		}
		if capped := s == fi.StrategyGuardrailsCapped; (g.InflationCap > 0) != capped {
			t.Errorf("%v: inflation cap %v", s, g.InflationCap)
		}
	}
}

// A plan that never draws down answers no withdrawal.
func TestCheckInNoDrawdown(t *testing.T) {
	t.Parallel()
	in := fi.Defaults()
	in.StartYear, in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = 2030, 30, 40_000, 39_900
	in.LifeExpectancy = 40
	c := checkInRun(t, in, Options{})
	if c.DrawdownAge != -1 || c.DrawdownYear != -1 || c.Withdrawal != 0 || c.Retired {
		t.Errorf("check-in = %+v; want no drawdown", c)
	}
}
