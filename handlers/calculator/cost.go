package calculator

import (
	"math"

	"fiplan/compute/fi"
	"fiplan/compute/plan"
)

// A calculation is charged to the rate limit by the work it asks for, not
// only as one request, so that the limit bounds the CPU a caller can use.
// The work is counted in one-pot path-years: the CPU of one year of one
// simulated path of the one-pot plan. Every other part is weighed against
// it by the cost model (costmodel.go): a replayed window year, a household
// path-year (by its people, accounts, taxes and relocations), a cell of
// the answer's rows.

// YearsPerUnit is how many one-pot path-years one unit of the rate limit
// buys: a calculation costs its work over it, rounded up, and at least the
// one unit every request costs.
const YearsPerUnit = 100_000

// Units is the rate-limit cost of a calculation of work one-pot
// path-years.
func Units(work int) int {
	return max(1, (work+YearsPerUnit-1)/YearsPerUnit)
}

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
// in the request's money (see record), with its first and last calendar
// years.
func (s *Handlers) past(req *calcRequest, user *plan.History) (h fi.History, first, last int, err error) {
	r, err := s.record(req, user)
	if err != nil {
		return nil, 0, 0, err
	}
	return r.Series, r.First, r.Last, nil
}

// expensive reports whether the answer runs more than the projections (a
// Monte Carlo simulation, a backtest or a goal seek), which then takes one
// of the slots of expensive requests. A CSV answer carries the projections
// alone and computes nothing else; it, and any answer, takes a slot too
// when its projections and rows cost more than the request's one unit
// (extra > 0).
func expensive(req *calcRequest, csv bool, extra int) bool {
	return extra > 0 || !csv && (req.MonteCarlo != nil || req.Historical != nil || req.Goals != nil || req.Optimize != nil)
}

// work is what the answer costs, in one-pot path-years (see YearsPerUnit
// and the weights of costmodel.go): its projections (household ones by
// the household's weight), the cells of the rows it writes, Monte Carlo's
// simulations x horizon, the backtest's windows x window years (once more,
// and three paths, for the sequences), the withdrawal-rate goal's most
// backtests and the saving goal's most timelines x horizon. w.base and
// w.scen hold the plans' inputs. Every door that computes a calculation
// (this route, a saved plan's run and check-in, the MCP tools and the web
// planner, which call them) is charged by it.
func (s *Handlers) work(w *calcWork, csv bool) (int, error) {
	req := &w.req
	horizon := w.base.LifeExpectancy - w.base.CurrentAge
	hh := req.isHousehold()
	perYear := 1.0 // a path-year of the base plan
	cells := float64(rowCells)
	if hh {
		perYear = householdWeight(req)
		cells += householdCells + accountCells*float64(max(len(req.Accounts), 1))
		if req.Tax != nil || len(req.Relocations) > 0 {
			cells += taxedCells
		}
		if p := req.Partner; p != nil {
			le := 95
			if p.LifeExpectancy != nil {
				le = *p.LifeExpectancy
			}
			horizon = max(horizon, le-p.Age)
		}
	}
	rowsPerYear, stp := 1.0, step(req)
	if stp == 0 {
		rowsPerYear = 0
	} else if stp > 1 {
		rowsPerYear = 1 / float64(stp)
	}
	if req.Tax != nil {
		cells++
	}
	// the projections and their rows
	var n, rows float64
	for k := 0; k <= len(req.Scenarios); k++ {
		years := horizon
		if k > 0 && !hh {
			x := &w.scen[k-1].Input
			years = x.LifeExpectancy - x.CurrentAge
		}
		rows += float64(years) * rowsPerYear
		n += float64(years)
		if hh {
			n += float64(years) * perYear * householdRowYear
		}
	}
	if csv {
		n += rows * cells * csvCell
	} else {
		n += rows * cells * answerCell
	}
	w.size = int(rows * cells * cellBytes)
	if !expensive(req, csv, 0) {
		return ceilWork(n), nil
	}
	if mc := req.MonteCarlo; mc != nil {
		n += float64(mc.Simulations*horizon) * perYear
	}
	// the search runs household plans, each path-year at the household's
	// weight
	opt, err := s.optimizeYears(req, w.dreq, w.user, horizon)
	if err != nil {
		return 0, err
	}
	n += float64(opt) * perYear
	g := req.Goals
	if g != nil && g.FIByAge != nil {
		n += float64(fi.SavingForRuns(MaxContribution) * horizon)
	}
	if req.Historical == nil && (g == nil || g.TargetSuccessRate == nil) {
		return ceilWork(n), nil
	}
	bt, err := s.backtestWork(req, w.user, horizon, perYear, hh)
	if err != nil {
		return 0, err
	}
	return ceilWork(n + bt), nil
}

// backtestWork is the work of the request's backtests in one-pot
// path-years: the plan's own backtest over its windows (household
// path-years at perYear), the sequences' replays and the success-rate
// goal's searches.
func (s *Handlers) backtestWork(req *calcRequest, user *plan.History, horizon int, perYear float64, hh bool) (float64, error) {
	g := req.Goals
	var n float64
	h, _, _, err := s.past(req, user)
	if err != nil {
		return 0, err
	}
	window, _ := window(req)
	smp := sample(req)
	past := fi.Sampled{Record: h, Sample: smp}
	replay := float64(fi.Windows(past, window)*window) * BacktestYear
	if smp.MonthlyWithdrawals && !hh {
		replay *= MonthlyPayCost
	}
	if hr := req.Historical; hr != nil {
		// the plan's own backtest replays its horizon unless the request
		// bounds the window (a plan retired today: window years)
		years := window
		if hr.Years == nil {
			years = max(window, fi.FitWindow(past, horizon))
		}
		bt := float64(fi.Windows(past, years)*years) * BacktestYear
		if smp.MonthlyWithdrawals && !hh {
			bt *= MonthlyPayCost
		}
		n += bt * perYear
		if hr.Sequences && !hh {
			n += replay + 3*float64(window)
		}
	}
	if g != nil && g.TargetSuccessRate != nil {
		n += float64(fi.RateSearchBacktests(MaxWithdrawalRate)) * replay
	}
	return n, nil
}

// householdWeight is a household path-year of req in one-pot path-years.
func householdWeight(req *calcRequest) float64 {
	accounts := float64(max(len(req.Accounts), 1))
	if req.Tax == nil && len(req.Relocations) == 0 {
		return householdYear + householdAccount*accounts
	}
	w := taxedYear + taxedAccount*accounts
	if req.Partner != nil {
		w += taxedPartner
	}
	if len(req.Relocations) > 0 {
		w *= relocated
	}
	return w
}

func ceilWork(n float64) int { return int(math.Ceil(n)) }
