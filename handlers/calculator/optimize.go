package calculator

import (
	"strings"

	json "github.com/goccy/go-json"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/compute/plan"
	"fiplan/handlers/rest"
)

// optimizeReplays reports whether the request's optimize meets a
// historical target, which replays the backtest's sample.
func optimizeReplays(req *calcRequest) bool {
	o := req.Optimize
	return o != nil && o.Target != nil && o.Target.Method == "historical"
}

// optimizeYears is the work of the request's optimize in modelled years:
// the most plan runs the search makes (decide.Cost), each a plan of
// horizon years, with its target's simulations or backtests. d is the
// optimize as translate read it.
func (s *Handlers) optimizeYears(req *calcRequest, d decide.Request, user *plan.History, horizon int) (int, error) {
	if req.Optimize == nil {
		return 0, nil
	}
	windows := 0
	switch d.Method {
	case decide.MonteCarlo:
		d.MonteCarlo = &fi.MonteCarlo{Simulations: 1000}
		if mc := req.MonteCarlo; mc != nil {
			d.MonteCarlo.Simulations = mc.Simulations
		}
	case decide.Historical:
		h, _, _, err := s.past(req, user)
		if err != nil {
			return 0, err
		}
		years, _ := window(req)
		if req.Historical == nil || req.Historical.Years == nil {
			years = horizon
		}
		windows = fi.Windows(fi.Sampled{Record: h, Sample: sample(req)}, min(years, horizon))
	}
	return decide.Cost(&d, horizon, windows), nil
}

// AnswerOptimized answers c with this route's answer for body, a request
// Validate accepts, with optimize (a body of the calculator's optimize
// field, checked here with its paths as sent) set in it: a saved plan's
// optimize action.
func (s *Handlers) AnswerOptimized(c *rest.Ctx, body, optimize []byte) {
	var o calcOptimize
	r := c.Result()
	if !s.optSchema.Decode(optimize, &o, r) {
		c.Invalid(r)
		return
	}
	var d decide.Request
	if err := plan.ParseOptimize(optimizeOf(&o, new(plan.Optimize)), &d); err != nil {
		fe := err.(*plan.FieldError)
		c.Fail(strings.TrimPrefix(fe.Field, "optimize."), fe.Message)
		return
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(body, &in); err != nil {
		c.Internal(err)
		return
	}
	in["optimize"] = optimize
	merged, err := json.Marshal(in)
	if err != nil {
		c.Internal(err)
		return
	}
	s.Answer(c, merged)
}

// OptimizeBody is the declaration of the optimize field, the body of a
// saved plan's optimize action.
func (s *Handlers) OptimizeBody() rest.Schema { return s.optSchema }
