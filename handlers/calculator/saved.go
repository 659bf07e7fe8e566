package calculator

import (
	"math"
	"strings"

	"fiplan/compute/fiscore"
	"fiplan/compute/plan"
	"fiplan/data/store"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// A saved plan (handlers/plans) keeps a body of this route: it is checked
// as this route checks a request before computing when it is saved, and
// run through this route's own path (Answer) or, for a check-in, computed
// here and read typed (CheckIn), charged and gated as any calculation.

// Validate checks body as this route checks a request before computing
// it: its declaration and the plan's rules (plan.Check), which need no
// dataset beyond the tax countries. On a
// refusal it reports false and r holds it, each path prefixed by prefix
// (such as "input." for a body kept in a field named input).
func (s *Handlers) Validate(body []byte, prefix string, r *schema.Result) bool {
	w := calcPool.Get().(*calcWork)
	defer release(w)
	ok := s.schema.Decode(body, &w.req, r)
	if ok {
		if err := s.translate(w, s.now().Year()); err != nil {
			fe, _ := err.(*plan.FieldError)
			if fe == nil {
				fe = &plan.FieldError{Message: err.Error()}
			}
			r.Reset()
			r.Code, r.Error = errcode.Validation, "request failed validation"
			r.Details = append(r.Details, schema.Detail{Path: fe.Field, Message: fe.Message})
			ok = false
		}
	}
	if !ok {
		for i := range r.Details {
			if r.Details[i].Path == "" {
				r.Details[i].Path = strings.TrimSuffix(prefix, ".")
			} else {
				r.Details[i].Path = prefix + r.Details[i].Path
			}
		}
	}
	return ok
}

// Answer answers c with this route's answer for body, as if body had been
// POSTed to it: cached, charged by its work, gated, and in CSV when the
// request's Accept asks.
func (s *Handlers) Answer(c *rest.Ctx, body []byte) {
	c.RC.Request.SetBody(body)
	s.Calculate(c)
}

// CheckIn computes body, a request Validate accepts, with every row and,
// unless it asks for one, the default historical backtest, charged and
// gated as this route's requests are, and reads the check-in from it
// (plan.CheckInOf). It also returns the plan's currency and the backtest
// window. ok is false when it has answered (429, 503, or a refusal).
func (s *Handlers) CheckIn(c *rest.Ctx, body []byte) (ci plan.CheckIn, currency string, window int, ok bool) {
	w := calcPool.Get().(*calcWork)
	defer release(w)
	r := c.Result()
	if !s.schema.Decode(body, &w.req, r) {
		c.Invalid(r)
		return ci, "", 0, false
	}
	req := &w.req
	req.Output, req.Every, req.Goals, req.Scenarios = "full", nil, nil, req.Scenarios[:0]
	if req.Historical == nil {
		req.Historical = &calcHistorical{Dataset: "annual"}
	}
	if !s.inputs(c, w, s.now().Year(), false) || !s.compute(c, w, false, &w.res) {
		return ci, "", 0, false
	}
	if w.entered {
		s.gate.Leave(c)
		w.entered = false
	}
	years := 30
	if w.res.Backtest != nil {
		years = w.res.Backtest.WindowYears
	}
	return plan.CheckInOf(&w.res), w.res.Currency, years, true
}

// Path runs body, a saved plan's input, from its own start (startYear
// when it names none) without its scenarios, goals, decisions, backtest or
// Monte Carlo, and returns its path: the portfolio its projection expects
// at the start of each year, in that year's money, and its FI number in
// each year's money (the first year's, raised by the plan's inflation).
// The body is decoded once. A path is one projection, part of the request
// that needs it (a plan's save, a check-in), so it is neither charged
// apart nor gated, and it never answers c: found is false when the input
// no longer runs.
func (s *Handlers) Path(c *rest.Ctx, body []byte, startYear int) (p store.PlanWatch, found bool) {
	w := calcPool.Get().(*calcWork)
	defer release(w)
	var r schema.Result
	if !s.schema.Decode(body, &w.req, &r) {
		return p, false
	}
	req := &w.req
	if req.StartYear == nil {
		req.StartYear = &startYear
	}
	req.Output, req.Every, req.Goals, req.Scenarios = "full", nil, nil, req.Scenarios[:0]
	req.Historical, req.MonteCarlo, req.Optimize = nil, nil, nil
	if s.translate(w, s.now().Year()) != nil {
		return p, false
	}
	// inputs answers only what translate refused; compute, with nothing
	// extra to charge and nothing to gate, only an input it cannot run,
	// whose answer the caller's own answer replaces.
	if !s.inputs(c, w, s.now().Year(), false) {
		return p, false
	}
	w.extra = 0
	if !s.compute(c, w, false, &w.res) {
		return p, false
	}
	pr := &w.res.Plans[0]
	if len(pr.Rows) == 0 {
		return p, false
	}
	p.Currency, p.FromYear = w.res.Currency, pr.Rows[0].Year
	p.Answer = store.PlanAnswer{FINumber: pr.Summary.FINumber, FinalReal: pr.Summary.FinalReal, FIAge: pr.Summary.FIAge}
	p.Expected, p.FINumber = make([]float64, len(pr.Rows)), make([]float64, len(pr.Rows))
	for i := range pr.Rows {
		p.Expected[i] = pr.Rows[i].StartBalance
		p.FINumber[i] = pr.Summary.FINumber * math.Pow(1+w.base.InflationRate, float64(i))
	}
	return p, true
}

// FIFigures runs body, a request Validate accepts, without backtest,
// Monte Carlo or scenarios, charged and gated as this route's requests
// are, and writes what the FI score reads of it into p (its FI number, the
// after-tax one when taxed; its FI age; the portfolio it starts from),
// returning the currency of those amounts. ok is false when it has
// answered.
func (s *Handlers) FIFigures(c *rest.Ctx, body []byte, p *fiscore.Plan) (currency string, ok bool) {
	w := calcPool.Get().(*calcWork)
	defer release(w)
	r := c.Result()
	if !s.schema.Decode(body, &w.req, r) {
		c.Invalid(r)
		return "", false
	}
	req := &w.req
	req.Output, req.Every, req.Goals, req.Scenarios = "full", nil, nil, req.Scenarios[:0]
	req.Historical, req.MonteCarlo, req.Optimize = nil, nil, nil
	if !s.inputs(c, w, s.now().Year(), false) || !s.compute(c, w, false, &w.res) {
		return "", false
	}
	if w.entered {
		s.gate.Leave(c)
		w.entered = false
	}
	run := &w.res.Plans[0]
	p.FINumber, p.FIAge, p.Savings = run.Summary.FINumber, run.Summary.FIAge, 0
	if len(run.Rows) > 0 {
		p.Savings = run.Rows[0].StartBalance
	}
	return w.res.Currency, true
}
