package calculator

import (
	"strings"

	"fiplan/compute/plan"
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

// Expected runs body, a request Validate accepts, without backtest or
// Monte Carlo, charged and gated as this route's requests are, and returns
// the portfolio its projection expects at the start of year, in that
// year's money; found is false when the projection has no such year. ok
// is false when it has answered.
func (s *Handlers) Expected(c *rest.Ctx, body []byte, year int) (balance float64, found, ok bool) {
	w := calcPool.Get().(*calcWork)
	defer release(w)
	r := c.Result()
	if !s.schema.Decode(body, &w.req, r) {
		c.Invalid(r)
		return 0, false, false
	}
	req := &w.req
	req.Output, req.Every, req.Goals, req.Scenarios = "full", nil, nil, req.Scenarios[:0]
	req.Historical, req.MonteCarlo = nil, nil
	if !s.inputs(c, w, s.now().Year(), false) || !s.compute(c, w, false, &w.res) {
		return 0, false, false
	}
	if w.entered {
		s.gate.Leave(c)
		w.entered = false
	}
	for i := range w.res.Plans[0].Rows {
		if row := &w.res.Plans[0].Rows[i]; row.Year == year {
			return row.StartBalance, true, true
		}
	}
	return 0, false, true
}
