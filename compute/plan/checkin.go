package plan

import (
	"math"

	"fiplan/compute/fi"
)

// A check-in reads a saved plan again in a later year: the plan is run
// from today, its savings those of today and its ages advanced to today,
// and CheckInOf takes from that run what the plan's withdrawal strategy
// lets its owner spend and the plan's odds from here.

// CheckIn is a plan's answer for the year it is run from.
type CheckIn struct {
	Year     int         // the calendar year of the run's first row
	Age      int         // the first person's age in it
	Strategy fi.Strategy // the plan's withdrawal strategy
	// Retired: drawdown has begun, so Withdrawal is this year's.
	Retired bool
	// DrawdownAge and DrawdownYear are the first drawdown year's; -1
	// when drawdown never starts within the horizon.
	DrawdownAge, DrawdownYear int
	// Withdrawal is what the strategy takes from the portfolio in the
	// first drawdown year, in today's money (net of pensions under the
	// constant strategy; with tax, the gross income drawn); 0 when
	// drawdown never starts.
	Withdrawal float64
	// Portfolio is the portfolio at the start of that year, today's money.
	Portfolio float64
	// Rate is Withdrawal / Portfolio; 0 when the portfolio is empty.
	Rate float64
	// Guardrails is the guardrail state of a guardrail strategy (nil for
	// the others).
	Guardrails *Guardrails
	// Historical is the backtest's success rate, HistoricalWindows the
	// windows it tested; Historical is NaN when it tested none or no
	// backtest ran.
	Historical        float64
	HistoricalWindows int
	// MonteCarlo is the Monte Carlo success rate; NaN when none ran.
	MonteCarlo float64
	// DepletionAge is the age the money runs out in the projection; -1
	// when it lasts.
	DepletionAge int
	// FINumber is the plan's FI number from this year, in this year's
	// money: after tax when the plan is taxed (Summary.FINumber).
	FINumber float64
}

// Guardrails is the state of the Guyton-Klinger rules at the start of
// drawdown: the rate the withdrawal starts at and the rates past which a
// later year's withdrawal is cut or raised by Adjustment, with the
// portfolio values (today's money) at which this year's withdrawal would
// reach them.
type Guardrails struct {
	InitialRate float64
	// CutAbove: above this rate (InitialRate x 1.2) the withdrawal is cut.
	CutAbove float64
	// RaiseBelow: below this rate (InitialRate x 0.8) it is raised.
	RaiseBelow float64
	// CutBelowPortfolio and RaiseAbovePortfolio are Withdrawal / CutAbove
	// and Withdrawal / RaiseBelow.
	CutBelowPortfolio, RaiseAbovePortfolio float64
	Adjustment                             float64 // the size of a cut or raise, 0.10
	// InflationCap caps a year's inflation raise (guardrails-capped); 0
	// when uncapped.
	InflationCap float64
}

// CheckInOf reads the check-in from r, a run of the base plan with every
// row (Options.Step 1).
func CheckInOf(r *Result) CheckIn {
	base := &r.Plans[0]
	in := &base.input
	c := CheckIn{Year: in.StartYear, Age: in.CurrentAge, Strategy: in.Strategy, DrawdownAge: -1, DrawdownYear: -1,
		Historical: math.NaN(), MonteCarlo: math.NaN(), DepletionAge: base.Summary.DepletionAge, FINumber: base.Summary.FINumber}
	for t := range base.Rows {
		row := &base.Rows[t]
		if !row.Retired {
			continue
		}
		cpi := math.Pow(1+in.InflationRate, float64(t))
		c.Retired = t == 0
		c.DrawdownAge, c.DrawdownYear = row.Age, row.Year
		c.Withdrawal = row.Withdrawals / cpi
		c.Portfolio = row.StartBalance / cpi
		if c.Portfolio > 0 {
			c.Rate = c.Withdrawal / c.Portfolio
		}
		break
	}
	if c.DrawdownAge >= 0 && (in.Strategy == fi.StrategyGuytonKlinger || in.Strategy == fi.StrategyGuardrailsCapped) {
		g := &Guardrails{InitialRate: c.Rate, CutAbove: c.Rate * (1 + fi.GKGuardrail), RaiseBelow: c.Rate * (1 - fi.GKGuardrail), Adjustment: fi.GKAdjustment}
		if g.CutAbove > 0 {
			g.CutBelowPortfolio = c.Withdrawal / g.CutAbove
		}
		if g.RaiseBelow > 0 {
			g.RaiseAbovePortfolio = c.Withdrawal / g.RaiseBelow
		}
		if in.Strategy == fi.StrategyGuardrailsCapped {
			g.InflationCap = fi.GuardrailInflationCap
		}
		c.Guardrails = g
	}
	if b := r.Backtest; b != nil && b.Periods > 0 {
		c.Historical, c.HistoricalWindows = b.SuccessRate, b.Periods
	}
	if m := r.MonteCarlo; m != nil {
		c.MonteCarlo = m.SuccessRate
	}
	return c
}
