package hooks

import (
	"sync"
	"time"
)

// DefaultPerUser is how many deliveries a user's endpoints get a minute
// from one node, at most, and the burst: beyond it a delivery waits (no
// attempt is counted) until the user's allowance has refilled.
const DefaultPerUser = 600

// userRate is a token bucket per user: burst tokens, refilled at burst a
// minute. Buckets that have refilled are dropped, so the map holds only
// the users sending now.
type userRate struct {
	mu      sync.Mutex
	burst   float64
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newUserRate(perMinute int) *userRate {
	return &userRate{burst: float64(perMinute), buckets: map[string]*bucket{}}
}

// take spends one of user's tokens at now; when none is left it says
// when one will be.
func (r *userRate) take(user string, now time.Time) (ok bool, next time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	perSecond := r.burst / 60
	b := r.buckets[user]
	if b == nil {
		b = &bucket{tokens: r.burst, at: now}
		r.buckets[user] = b
	}
	if dt := now.Sub(b.at).Seconds(); dt > 0 {
		b.tokens = min(r.burst, b.tokens+dt*perSecond)
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, time.Time{}
	}
	wait := time.Duration((1 - b.tokens) / perSecond * float64(time.Second))
	return false, now.Add(max(wait, time.Second))
}

// sweep drops the buckets that are full again at now.
func (r *userRate) sweep(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for u, b := range r.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*r.burst/60 >= r.burst {
			delete(r.buckets, u)
		}
	}
}
