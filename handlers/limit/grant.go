package limit

import "sync"

// Batches. A round trip to Redis for every limited request cost the public
// calculator about half its throughput. A key that came back in the last
// second therefore takes, in the same round trip, as many more units as it
// used in that second (at most a tenth of its limit), and spends them here
// on its next requests, for at most grantLife. The limit itself stays
// exact: every unit is taken from Redis before it is spent, so the fleet
// never admits more than the limit. What batching costs is units taken
// and not spent: a key that stops, or moves to another node, drops what
// it held here when grantLife ends, at most its own rate of the last
// second and never more than a tenth of its limit. A key seen for the
// first time in a second takes exactly what it needs, so a client that
// calls now and then is counted unit by unit, as before.

const (
	grantLife     = int64(1e9) // nanoseconds a batch may be spent
	grantWindow   = int64(1e9) // the demand is counted per second
	maxGrantShare = 10         // a batch is at most 1/maxGrantShare of the limit
)

type grants[K comparable] struct {
	hash   func(K) uint64
	shards [shards]grantShard[K]
}

type grantShard[K comparable] struct {
	mu sync.Mutex
	m  map[K]*grant
	_  [40]byte // keep shards on separate cache lines
}

type grant struct {
	tokens    int   // units taken from Redis, not yet spent
	expires   int64 // Unix ns: tokens left then are dropped
	remaining int   // what Redis had left after the last take
	reset     int
	window    int64 // start of the second units counts
	units     int   // units asked for this second
	prev      int   // and in the second before
}

func newGrants[K comparable](hash func(K) uint64) *grants[K] {
	g := &grants[K]{hash: hash}
	for i := range g.shards {
		g.shards[i].m = map[K]*grant{}
	}
	return g
}

// spend takes n units from key's batch at now; ok false means the caller
// goes to Redis, asking for n plus extra.
func (g *grants[K]) spend(key K, n int, now int64, maxExtra int) (d Decision, extra int, ok bool) {
	s := &g.shards[g.hash(key)%shards]
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.m[key]
	if e == nil {
		e = &grant{window: now}
		s.m[key] = e
	}
	switch {
	case now-e.window >= 2*grantWindow:
		e.window, e.units, e.prev = now, 0, 0
	case now-e.window >= grantWindow:
		e.window, e.units, e.prev = now, 0, e.units
	}
	e.units += n
	if now < e.expires && e.tokens >= n {
		e.tokens -= n
		return Decision{OK: true, Remaining: e.remaining + e.tokens, Reset: e.reset}, 0, true
	}
	return Decision{}, min(e.prev, maxExtra), false
}

// keep records what a round trip took beyond the n units it spent.
func (g *grants[K]) keep(key K, left, remaining, reset int, now int64) int {
	s := &g.shards[g.hash(key)%shards]
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.m[key]
	if e == nil {
		e = &grant{window: now}
		s.m[key] = e
	}
	if now >= e.expires {
		e.tokens = 0
	}
	e.tokens += left
	e.expires = now + grantLife
	e.remaining, e.reset = remaining, reset
	return e.tokens
}

// sweep forgets keys idle for two seconds.
func (g *grants[K]) sweep(now int64) {
	for i := range g.shards {
		s := &g.shards[i]
		s.mu.Lock()
		for k, e := range s.m {
			if now-e.window >= 2*grantWindow && now >= e.expires {
				delete(s.m, k)
			}
		}
		s.mu.Unlock()
	}
}
