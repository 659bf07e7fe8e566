package calculator

import (
	"fiplan/compute/fi"
	"fiplan/data/history"
	"fiplan/handlers/rest"
)

// A calculation is charged to the rate limit by the work it asks for, not
// only as one request, so that the limit bounds the CPU a caller can use.
// The work is counted in modelled years: one year of one path through the
// engine, whether a simulated Monte Carlo path, a replayed window of the
// historical backtest or a timeline a goal seek tries. They cost about the
// same (tens of nanoseconds each).

// YearsPerUnit is how many modelled years one unit of the rate limit buys:
// a calculation costs its modelled years over it, rounded up, and at least
// the one unit every request costs, which also pays for the projections.
const YearsPerUnit = 100_000

// Units is the rate-limit cost of a calculation that models years years.
func Units(years int) int {
	return max(1, (years+YearsPerUnit-1)/YearsPerUnit)
}

// MonthlyPayCost is what a window year with monthly withdrawals costs, in
// modelled years: it values the year's twelve payments out of the month's
// mix, which takes a backtest over every start month about 2.5 times as
// long (BenchmarkBacktestMonthlyWithdrawals in compute/fi).
const MonthlyPayCost = 3

// window is the length of the backtest's windows and the dataset it and
// the withdrawal-rate goal replay.
func window(req *calcRequest) (years int, dataset string) {
	if h := req.Historical; h != nil {
		years = 30
		if h.Years != nil {
			years = *h.Years
		}
		return years, h.Dataset
	}
	return 30, "annual"
}

// sample is the part of the record the request's backtest and goals
// replay, and how each year's spending is paid (see fi.Sample); plan.Run
// checks it against the record.
func sample(req *calcRequest) fi.Sample {
	h := req.Historical
	if h == nil {
		return fi.Sample{}
	}
	s := fi.Sample{January: h.StartMonths == "january", MonthlyWithdrawals: h.WithdrawalTiming == "monthly"}
	if h.From != nil {
		s.From = *h.From
	}
	if h.To != nil {
		s.To = *h.To
	}
	return s
}

// past is the historical record the request's backtest and goals replay,
// with its first and last calendar years.
func (s *Handlers) past(req *calcRequest) (h fi.History, first, last int, err error) {
	if _, dataset := window(req); dataset == "shiller-monthly" {
		m, err := history.ShillerReturns()
		if err != nil {
			return nil, 0, 0, err
		}
		return m, m.FirstYear, m.FirstYear + (m.FirstMonth-1+m.Len()-1)/12, nil
	}
	return fi.Series(s.history), s.history.First(), s.history.Last(), nil
}

// expensive reports whether the answer runs more than the projections (a
// Monte Carlo simulation, a backtest or a goal seek), which then takes one
// of the slots of expensive requests. A CSV answer carries the projections
// alone and computes nothing else.
func expensive(req *calcRequest, csv bool) bool {
	return !csv && (req.MonteCarlo != nil || req.Historical != nil || req.Goals != nil || req.Optimize != nil)
}

// modelledYears is the work of what the answer computes beyond the
// projections, in modelled years (see YearsPerUnit): Monte Carlo's
// simulations x horizon, the backtest's windows x window years (once more,
// and three paths, for the sequences; each window year MonthlyPayCost with
// monthly withdrawals), the withdrawal-rate goal's most
// backtests and the saving goal's most timelines x horizon. horizon is the
// base plan's years. On a failure it has answered.
func (s *Handlers) modelledYears(c *rest.Ctx, req *calcRequest, horizon int, csv bool) (int, bool) {
	if !expensive(req, csv) {
		return 0, true
	}
	n := 0
	if mc := req.MonteCarlo; mc != nil {
		n += mc.Simulations * horizon
	}
	opt, ok := s.optimizeYears(c, req, horizon)
	if !ok {
		return 0, false
	}
	n += opt
	g := req.Goals
	if g != nil && g.FIByAge != nil {
		n += fi.SavingForRuns(MaxContribution) * horizon
	}
	if req.Historical == nil && (g == nil || g.TargetSuccessRate == nil) {
		return n, true
	}
	h, _, _, err := s.past(req)
	if err != nil {
		c.Internal(err)
		return 0, false
	}
	years, _ := window(req)
	smp := sample(req)
	replay := fi.Windows(fi.Sampled{Record: h, Sample: smp}, years) * years
	if smp.MonthlyWithdrawals {
		replay *= MonthlyPayCost
	}
	if req.Historical != nil {
		n += replay
		if req.Historical.Sequences {
			n += replay + 3*years
		}
	}
	if g != nil && g.TargetSuccessRate != nil {
		n += fi.RateSearchBacktests(MaxWithdrawalRate) * replay
	}
	return n, true
}
