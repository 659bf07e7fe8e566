package fi

import (
	"testing"
)

// The historical test replays the plan itself. A plan that never reaches
// FI never draws down, so no window has a success rate, where the
// drawdown-alone test (withdrawalRate x current savings, retired from the
// first year) answers a rate that says nothing of the plan.
func TestPlanBacktestNeverFIHasNoSuccessRate(t *testing.T) {
	t.Parallel()
	in := Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = 40, 40000, 39000
	in.CurrentSavings, in.LifeExpectancy = 50000, 70
	h := syntheticHistory()
	if s, _ := Project(&in, nil); s.Reached || s.RetirementAge >= 0 {
		t.Fatalf("the plan reaches FI (%+v): the test needs another", s)
	}
	old := Backtest(&in, h, 30)
	if old.Periods == 0 || old.SuccessRate == 0 {
		t.Fatalf("the drawdown-alone test has no rate to contrast with: %+v", old)
	}
	r := PlanBacktest(&in, h, 0)
	if r.Periods != 97-30+1 || r.Drawdowns != 0 || r.Successes != 0 || r.SuccessRate != 0 {
		t.Fatalf("a plan that never draws down: %+v, want 68 windows and none drawing down", r)
	}
	var v SequenceView
	PlanSequences(&in, h, 0, &v)
	for _, d := range v.Decades[:v.NumDecades] {
		if d.Periods != 0 {
			t.Fatalf("decade %d counts %d windows with a success rate", d.Decade, d.Periods)
		}
	}
}

// A plan retired today with exactly the FI number, without pensions or
// events, is the drawdown-alone test: the same windows, the same figures.
func TestPlanBacktestOfARetireeIsTheDrawdownTest(t *testing.T) {
	t.Parallel()
	in := Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = 65, 0, 40000
	in.CurrentSavings, in.LifeExpectancy = 1_000_000, 95
	h := syntheticHistory()
	for _, st := range []Strategy{StrategyConstant, StrategyGuytonKlinger, StrategyVPW} {
		in.Strategy = st
		want := Backtest(&in, h, 30)
		got := PlanBacktest(&in, h, 0)
		if got != want || got.Drawdowns != got.Periods {
			t.Fatalf("%v: plan replay %+v, drawdown test %+v", st, got, want)
		}
	}
}

// The replay is the plan's: it retires when the window's returns reach FI,
// spends the plan's spending and counts its pensions. A pension that pays
// the whole spending from 66 rescues windows the drawdown alone fails.
func TestPlanBacktestCountsThePlansPensions(t *testing.T) {
	t.Parallel()
	in := Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = 60, 0, 40000
	in.CurrentSavings, in.LifeExpectancy, in.TargetRetirementAge = 1_000_000, 90, 60
	in.WithdrawalRate = 0.04
	h := flat(1900, 60, 0, 0, 0) // nothing grows: 25 years of 40,000
	if r := PlanBacktest(&in, h, 0); r.Drawdowns != r.Periods || r.SuccessRate != 0 || r.WorstYearsLasted != 25 {
		t.Fatalf("no pension, 30 years of 40,000 from 1,000,000 without growth: %+v", r)
	}
	in.AddPension(Pension{FromAge: 66, Amount: 40000, Indexed: true})
	r := PlanBacktest(&in, h, 0)
	if r.Periods != 31 || r.Drawdowns != 31 || r.SuccessRate != 1 {
		t.Fatalf("a pension paying the spending from 66: %+v, want every window a success", r)
	}
	// years bounds the window: 20 years of the plan.
	if r := PlanBacktest(&in, h, 20); r.Periods != 41 || PlanWindow(&in, 20) != 20 || PlanWindow(&in, 0) != 30 || PlanWindow(&in, 50) != 30 {
		t.Fatalf("windows of 20 years: %d, want 41", r.Periods)
	}
}
