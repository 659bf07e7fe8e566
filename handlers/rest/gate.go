package rest

import (
	"sync"
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
// optimisation across every country) run at once, and shares them fairly:
// one caller (a user, whichever credential it signs in with, or a client
// address without one) holds at most half of the slots, so that a few
// large requests from one caller leave room for everyone else's. A request
// past either bound is refused at once with 503 SERVICE_UNAVAILABLE and
// Retry-After; nothing waits in a queue, so a burst costs the server no
// more memory than the bound allows and the client decides when to come
// back. A nil *Gate admits everything.
type Gate struct {
	mu sync.Mutex
	// holders has one entry per slot taken, in no order.
	holders []holder
	share   int // the most slots one caller holds
	inUse   atomic.Int64
	// refused counts every refusal, crowded those for the caller's share.
	refused  atomic.Uint64
	crowded  atomic.Uint64
	admitted atomic.Uint64
}

// holder is the caller holding a slot: a user, or an anonymous client's
// address. A nil Ctx (the server's own work) is a holder no share bounds.
type holder struct {
	user   string
	client [16]byte
	authed bool
	server bool
}

func holderOf(c *Ctx) holder {
	switch {
	case c == nil:
		return holder{server: true}
	case c.Authed:
		return holder{user: c.Principal.User, authed: true}
	}
	return holder{client: c.client}
}

// NewGate makes a Gate that admits n requests at once (at least 1), at
// most half of them (at least 1) from one caller.
func NewGate(n int) *Gate {
	n = max(n, 1)
	return &Gate{holders: make([]holder, 0, n), share: max(n/2, 1)}
}

// GateRetryAfter is the Retry-After, in seconds, of a refused request.
const GateRetryAfter = 1

// Enter takes a slot for c's caller, or answers 503 and returns false.
// Every true must be paired with Leave with the same c.
func (g *Gate) Enter(c *Ctx) bool {
	if g == nil {
		return true
	}
	h := holderOf(c)
	g.mu.Lock()
	full := len(g.holders) == cap(g.holders)
	held := 0
	if !full && !h.server {
		for i := range g.holders {
			if g.holders[i] == h {
				held++
			}
		}
	}
	if full || held >= g.share {
		g.mu.Unlock()
		g.refused.Add(1)
		if full {
			c.Unavailable(GateRetryAfter, "the server is busy with other expensive requests; retry after retryAfter seconds")
			return false
		}
		g.crowded.Add(1)
		c.Unavailable(GateRetryAfter, "you are running as many expensive requests at once as one caller may (half of the server's); retry after retryAfter seconds, when one has finished")
		return false
	}
	g.holders = append(g.holders, h)
	g.mu.Unlock()
	g.inUse.Add(1)
	g.admitted.Add(1)
	return true
}

// Leave gives back the slot an Enter with the same c took.
func (g *Gate) Leave(c *Ctx) {
	if g == nil {
		return
	}
	h := holderOf(c)
	g.mu.Lock()
	for i := range g.holders {
		if g.holders[i] == h {
			last := len(g.holders) - 1
			g.holders[i] = g.holders[last]
			g.holders[last] = holder{}
			g.holders = g.holders[:last]
			g.mu.Unlock()
			g.inUse.Add(-1)
			return
		}
	}
	g.mu.Unlock()
}

// Cap is how many requests the gate admits at once; Share how many of
// them one caller may hold; InUse how many run now.
func (g *Gate) Cap() int   { return cap(g.holders) }
func (g *Gate) Share() int { return g.share }
func (g *Gate) InUse() int { return int(g.inUse.Load()) }

// Refused counts the requests turned away, Crowded those of them turned
// away for their caller's share, and Admitted the requests let in.
func (g *Gate) Refused() uint64  { return g.refused.Load() }
func (g *Gate) Crowded() uint64  { return g.crowded.Load() }
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
