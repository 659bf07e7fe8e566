package calculator

import (
	"fiplan/compute/decide"
	"fiplan/compute/fi"
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
// horizon years, with its target's simulations or backtests. On a
// failure it has answered.
func (s *Handlers) optimizeYears(c *rest.Ctx, req *calcRequest, horizon int) (int, bool) {
	o := req.Optimize
	if o == nil {
		return 0, true
	}
	var d decide.Request
	if field, _ := optimizeOf(o, &d); field != "" {
		return 0, true // refused later, naming the field
	}
	windows := 0
	switch d.Method {
	case decide.MonteCarlo:
		d.MonteCarlo = &fi.MonteCarlo{Simulations: 1000}
		if mc := req.MonteCarlo; mc != nil {
			d.MonteCarlo.Simulations = mc.Simulations
		}
	case decide.Historical:
		h, _, _, err := s.past(req)
		if err != nil {
			c.Internal(err)
			return 0, false
		}
		years, _ := window(req)
		if req.Historical == nil || req.Historical.Years == nil {
			years = horizon
		}
		windows = fi.Windows(fi.Sampled{Record: h, Sample: sample(req)}, min(years, horizon))
	}
	return decide.Cost(&d, horizon, windows), true
}
