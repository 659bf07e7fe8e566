package handlers

import (
	"fiplan/handlers/auth"
	"fiplan/handlers/limit"
	"fiplan/handlers/rest"
)

// limit applies the caller's rate limit and sets the RateLimit headers. A
// tool call over /mcp has paid its unit with the message that carried it.
// A health check is never limited: a balancer polling every node from one
// address would otherwise take nodes out of rotation with 429s.
func (s *Server) limit(c *rest.Ctx) bool {
	if c.Route().Access == rest.Probe {
		return true
	}
	return paid(c) || s.take(c, 1)
}

// limiter is the server's rate limit as the domains charge it
// (rest.Limiter).
type limiter struct{ s *Server }

// Charge takes extra units for an expensive request, beyond the one its
// request paid. A request whose whole cost (the one unit and the extra)
// is more than the allowance is put to the limiter whole, so that it is
// refused as no wait admits it instead of with a retryAfter after which
// its retry is refused again.
func (l limiter) Charge(c *rest.Ctx, extra int) bool {
	if extra <= 0 {
		return true
	}
	if r := l.s.rateOf(c); !r.Off() && extra+1 > r.N {
		return l.s.take(c, extra+1)
	}
	return l.s.take(c, extra)
}

// rateOf is the rate of the caller's tier.
func (s *Server) rateOf(c *rest.Ctx) limit.Rate {
	switch {
	case !c.Authed:
		return s.cfg.RatePublic
	case c.Principal.Tier == auth.TierPro:
		return s.cfg.RatePro
	}
	return s.cfg.RateFree
}

// take charges n units to the caller's limit and sets the RateLimit
// headers; over the limit it answers 429.
func (s *Server) take(c *rest.Ctx, n int) bool {
	now := s.now().UnixNano()
	var d limit.Decision
	switch {
	case !c.Authed:
		d = s.public.AllowN(c.Client(), n, now)
	case c.Principal.Tier == auth.TierPro:
		d = s.pro.AllowN(c.Principal.User, n, now)
	default:
		d = s.free.AllowN(c.Principal.User, n, now)
	}
	if d.Limit == 0 {
		return true // "off"
	}
	if d.Never {
		s.rateHeaders(c, d)
		c.OverAllowance(n, d.Limit)
		return false
	}
	if !d.OK {
		s.rateLimited(c, d)
		return false
	}
	s.rateHeaders(c, d)
	return true
}

func (s *Server) rateHeaders(c *rest.Ctx, d limit.Decision) {
	c.SetHeaderInt("RateLimit-Limit", int64(d.Limit))
	c.SetHeaderInt("RateLimit-Remaining", int64(d.Remaining))
	c.SetHeaderInt("RateLimit-Reset", int64(d.Reset))
}

func (s *Server) rateLimited(c *rest.Ctx, d limit.Decision) {
	s.rateHeaders(c, d)
	c.RateLimited(d.RetryAfter)
}
