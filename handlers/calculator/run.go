package calculator

import (
	"errors"

	"github.com/valyala/fasthttp"

	"fiplan/compute/fi"
	"fiplan/compute/plan"
	"fiplan/handlers/rest"
)

// errAnswered ends a plan whose refusal (503, 429) has been answered.
var errAnswered = errors.New("answered")

// options sets what the answer computes: the rows it carries and, in
// JSON, what the request asks for besides.
func (s *Handlers) options(w *calcWork, csv bool) error {
	req, o := &w.req, &w.opt
	admit, milestones := o.Admit, o.Milestones
	*o = plan.Options{Step: step(req), Admit: admit, Milestones: milestones, Window: 30, MaxContribution: MaxContribution, MaxWithdrawalRate: MaxWithdrawalRate}
	if csv {
		return nil
	}
	if req.Optimize != nil {
		o.Optimize = &w.dreq
	}
	if mc := req.MonteCarlo; mc != nil {
		w.mc = fi.MonteCarlo{Simulations: mc.Simulations, Seed: uint64(mc.Seed), ReturnStdDev: mc.ReturnStdDev, InflationStdDev: mc.InflationStdDev}
		o.MonteCarlo = &w.mc
	}
	if req.Historical == nil && req.Goals == nil && !optimizeReplays(req) {
		return nil
	}
	o.Window, _ = window(req)
	o.Sample = sample(req)
	if h := req.Historical; h != nil {
		o.Backtest, o.Sequences, o.WindowSet = true, h.Sequences, h.Years != nil
	}
	if g := req.Goals; g != nil {
		if g.FIByAge != nil {
			o.FIByAge = *g.FIByAge
		}
		o.TargetRate = g.TargetSuccessRate
	}
	r, err := s.record(req, w.user)
	if err != nil {
		return err
	}
	w.in.History = *r
	return nil
}

// admit takes, for an answer that runs more than the projections, one of
// the slots of expensive requests, and charges the work: a refused
// request costs the one unit of any request, not the work it was refused.
func (w *calcWork) admit() error {
	if expensive(&w.req, w.csv, w.extra) {
		if !w.s.gate.Enter(w.c) {
			return errAnswered
		}
		w.entered = true
	}
	if !w.s.limiter.Charge(w.c, w.extra) {
		if w.entered {
			w.s.gate.Leave(w.c)
			w.entered = false
		}
		return errAnswered
	}
	return nil
}

// compute runs the plan into res. On a failure it has answered.
func (s *Handlers) compute(c *rest.Ctx, w *calcWork, csv bool, res *plan.Result) bool {
	w.in = s.data
	if err := s.options(w, csv); err != nil {
		c.Internal(err)
		return false
	}
	w.c, w.s, w.csv = c, s, csv
	err := plan.Run(&w.plan, &w.in, &w.opt, res)
	w.c = nil
	if err != nil {
		if err != errAnswered {
			fail(c, err)
		}
		return false
	}
	if mc := w.opt.MonteCarlo; mc != nil {
		s.pathYears.Add(uint64(mc.Simulations) * uint64(w.base.LifeExpectancy-w.base.CurrentAge))
	}
	return true
}

// typedKey is the key of the request value by which a caller asks for the
// typed Result behind the answer (see plan.Typed).
var typedKey = (*plan.Typed)(nil)

// typed answers a caller that asked for the typed Result as well as the
// answer: it computes into t.Result, bypassing the cache (a cached answer
// is bytes alone), and writes the answer in the form t asks for.
func (s *Handlers) typed(c *rest.Ctx, w *calcWork, t *plan.Typed) {
	w.opt.Milestones = t.Milestones
	if !s.compute(c, w, false, &t.Result) {
		return
	}
	if w.entered {
		defer s.gate.Leave(c)
	}
	out := w.reset()
	if err := w.docs.writeJSON(&t.Result, t.Milestones); err != nil {
		c.Internal(err)
		return
	}
	c.SendCopy(fasthttp.StatusOK, "", out.B)
}
