package rest

import (
	"sync/atomic"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
)

// Limiter is the server's rate limit as a domain charges it: Charge takes
// extra units of the caller's limit for an expensive request, beyond the
// one every request costs (none when extra <= 0). Over the limit it has
// answered 429 and returns false.
type Limiter interface {
	Charge(c *Ctx, extra int) bool
}

// Gate bounds how many expensive requests (a Monte Carlo simulation, a tax
// optimisation across every country) run at once. A request past the bound
// is refused at once with 503 SERVICE_UNAVAILABLE and Retry-After; nothing
// waits in a queue, so a burst costs the server no more memory than the
// bound allows and the client decides when to come back. A nil *Gate
// admits everything.
type Gate struct {
	slots    chan struct{}
	refused  atomic.Uint64
	admitted atomic.Uint64
}

// NewGate makes a Gate that admits n requests at once (at least 1).
func NewGate(n int) *Gate {
	if n < 1 {
		n = 1
	}
	return &Gate{slots: make(chan struct{}, n)}
}

// GateRetryAfter is the Retry-After, in seconds, of a refused request.
const GateRetryAfter = 1

// Enter takes a slot, or answers 503 and returns false. Every true must be
// paired with Leave.
func (g *Gate) Enter(c *Ctx) bool {
	if g == nil {
		return true
	}
	select {
	case g.slots <- struct{}{}:
		g.admitted.Add(1)
		return true
	default:
		g.refused.Add(1)
		c.Unavailable(GateRetryAfter, "the server is busy with other expensive requests; retry after retryAfter seconds")
		return false
	}
}

// Leave gives back the slot an Enter took.
func (g *Gate) Leave() {
	if g != nil {
		<-g.slots
	}
}

// Cap is how many requests the gate admits at once; InUse how many run now.
func (g *Gate) Cap() int   { return cap(g.slots) }
func (g *Gate) InUse() int { return len(g.slots) }

// Refused and Admitted count the requests turned away and let in.
func (g *Gate) Refused() uint64  { return g.refused.Load() }
func (g *Gate) Admitted() uint64 { return g.admitted.Load() }

// Unavailable sends 503 SERVICE_UNAVAILABLE with retryAfter and Retry-After.
func (c *Ctx) Unavailable(retryAfter int, msg string) {
	c.SetHeaderInt(fasthttp.HeaderRetryAfter, int64(retryAfter))
	c.errorStart(errcode.Unavailable, msg)
	c.w.Key("retryAfter")
	c.w.Int(int64(retryAfter))
	c.w.End()
	c.flush(fasthttp.StatusServiceUnavailable)
}
