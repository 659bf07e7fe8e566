package plan

import (
	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/compute/household"
)

// Optimized is the decisions compute/decide chose for the base plan, with
// the plan's rows under them.
type Optimized struct {
	*decide.Answer
	// Request is what was asked (its target's history left out).
	Request decide.Request
	// Rows is the base plan run under the decisions (nil when not
	// feasible).
	Rows *PlanResult
}

// optimize searches the base plan's decisions as o.Optimize asks, on the
// backtest's sample (past) or the request's simulation when its target
// says so.
func (r *Result) optimize(o *Options, past fi.Sampled, hw *householdWork) error {
	r.Optimized = nil
	if o.Optimize == nil {
		return nil
	}
	req := *o.Optimize
	in0 := &r.Plans[0].input
	switch req.Method {
	case decide.Historical:
		req.History, req.Stock, req.Cash = past, in0.StockShare, in0.CashShare
		if o.WindowSet {
			req.Years = o.Window
		}
	case decide.MonteCarlo:
		if req.MonteCarlo == nil {
			mc := fi.MonteCarlo{Simulations: 1000, Seed: 1, ReturnStdDev: fi.DefaultReturnStdDev, InflationStdDev: fi.DefaultInflationStdDev}
			if o.MonteCarlo != nil {
				mc = *o.MonteCarlo
			}
			req.MonteCarlo = &mc
		}
	}
	if hw.decide == nil {
		hw.decide = new(decide.Work)
	}
	a, err := decide.OptimizeChecked(&hw.plans[0], &req, hw.decide) // runHousehold checked it
	if err != nil {
		return engineField(err)
	}
	r.opt = Optimized{Answer: a, Request: *o.Optimize}
	if a.Feasible {
		hr := &hw.optRes
		if err := household.Run(&a.Plan, &hw.work, &hr.Result); err != nil {
			return engineField(err)
		}
		pr := &r.optPlan
		pr.Household, pr.Summary = hr, hr.Summary
		pr.Rows = append(pr.Rows[:0], hr.Rows...)
		r.opt.Rows = pr
	}
	r.Optimized = &r.opt
	return nil
}
