// Package limit implements per-key rate limits with the generic cell rate
// algorithm (GCRA): each key keeps one timestamp, the theoretical arrival
// time of its next request, so a check is a map lookup and two additions.
//
// A rate of N per period admits a burst of N requests and then one request
// every period/N. A key whose theoretical arrival time has passed is
// indistinguishable from a new key, so such idle keys are evicted freely;
// the number of tracked keys is capped so that a flood of distinct clients
// cannot grow memory without bound.
package limit

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Rate is N requests per Per. The zero Rate is unlimited ("off").
type Rate struct {
	N   int
	Per time.Duration
}

// Off reports whether r imposes no limit.
func (r Rate) Off() bool { return r.N == 0 }

func (r Rate) String() string {
	if r.Off() {
		return "off"
	}
	return strconv.Itoa(r.N) + "/" + r.Per.String()
}

// ParseRate reads "N/DURATION" (for example "60/1m") or "off".
func ParseRate(s string) (Rate, error) {
	if s == "off" {
		return Rate{}, nil
	}
	ns, ds, ok := strings.Cut(s, "/")
	if !ok {
		return Rate{}, fmt.Errorf("invalid rate %q: want N/DURATION such as 60/1m, or off", s)
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n <= 0 || n > 1e9 {
		return Rate{}, fmt.Errorf("invalid rate %q: N must be a whole number from 1 to 1e9", s)
	}
	d, err := time.ParseDuration(ds)
	if err != nil || d < time.Second || d > 24*time.Hour {
		return Rate{}, fmt.Errorf("invalid rate %q: DURATION must be from 1s to 24h", s)
	}
	return Rate{N: n, Per: d}, nil
}

// Decision is the outcome of one check; the durations are whole seconds,
// rounded up, as the RateLimit headers and Retry-After carry them.
type Decision struct {
	OK         bool
	Limit      int
	Remaining  int
	Reset      int // seconds until the full quota is back
	RetryAfter int // seconds to wait when !OK and !Never; at least 1
	// Never: the request costs more than the whole allowance (n > N), so
	// no wait admits it; nothing was charged, RetryAfter is 0 and
	// Remaining and Reset say where the key stands.
	Never bool
}

const shards = 64

// Limiter applies one Rate to many keys. It is safe for concurrent use.
type Limiter[K comparable] struct {
	rate     Rate
	interval int64 // nanoseconds between requests at the steady rate
	period   int64
	perShard int
	shards   [shards]shard[K]
	hash     func(K) uint64
}

type shard[K comparable] struct {
	mu  sync.Mutex
	tat map[K]int64
	_   [40]byte // keep shards on separate cache lines
}

// New returns a limiter for rate that tracks at most maxKeys keys. hash
// spreads keys over the internal shards.
func New[K comparable](rate Rate, maxKeys int, hash func(K) uint64) *Limiter[K] {
	l := &Limiter[K]{rate: rate, hash: hash}
	if rate.Off() {
		return l
	}
	l.period = int64(rate.Per)
	l.interval = l.period / int64(rate.N)
	if l.interval < 1 {
		l.interval = 1
	}
	l.perShard = max(maxKeys/shards, 1)
	for i := range l.shards {
		l.shards[i].tat = make(map[K]int64)
	}
	return l
}

// Rate returns the configured rate.
func (l *Limiter[K]) Rate() Rate { return l.rate }

// Allow charges one request to key at now (Unix nanoseconds).
func (l *Limiter[K]) Allow(key K, now int64) Decision { return l.AllowN(key, 1, now) }

// AllowN charges n requests' worth (n >= 1) to key at now, all or none:
// an expensive request costs more of the allowance than a cheap one.
func (l *Limiter[K]) AllowN(key K, n int, now int64) Decision {
	if l.rate.Off() {
		return Decision{OK: true}
	}
	s := &l.shards[l.hash(key)%shards]
	s.mu.Lock()
	tat, ok := s.tat[key]
	if !ok || tat < now {
		tat = now
	}
	if n > l.rate.N {
		s.mu.Unlock()
		return Decision{
			Limit:     l.rate.N,
			Remaining: int(max(l.period-(tat-now), 0) / l.interval),
			Reset:     ceilSeconds(tat - now),
			Never:     true,
		}
	}
	next := tat + int64(n)*l.interval
	if next-now > l.period {
		s.mu.Unlock()
		// The request that would fit first arrives when next-period is now.
		return Decision{
			Limit:      l.rate.N,
			Reset:      ceilSeconds(tat - now),
			RetryAfter: max(ceilSeconds(next-l.period-now), 1),
		}
	}
	if !ok && len(s.tat) >= l.perShard {
		l.evict(s, now)
	}
	s.tat[key] = next
	s.mu.Unlock()
	return Decision{
		OK:        true,
		Limit:     l.rate.N,
		Remaining: int((l.period - (next - now)) / l.interval),
		Reset:     ceilSeconds(next - now),
	}
}

// evict makes room in a full shard: first every idle key, and when none is
// idle, one arbitrary key (which then starts afresh: under a flood of
// distinct keys, forgetting one client is better than unbounded memory).
func (l *Limiter[K]) evict(s *shard[K], now int64) {
	for k, tat := range s.tat {
		if tat <= now {
			delete(s.tat, k)
		}
	}
	if len(s.tat) < l.perShard {
		return
	}
	for k := range s.tat {
		delete(s.tat, k)
		return
	}
}

// Sweep drops every idle key; call it now and then from a timer.
func (l *Limiter[K]) Sweep(now int64) {
	if l.rate.Off() {
		return
	}
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		for k, tat := range s.tat {
			if tat <= now {
				delete(s.tat, k)
			}
		}
		s.mu.Unlock()
	}
}

// Len returns the number of tracked keys.
func (l *Limiter[K]) Len() int {
	n := 0
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		n += len(s.tat)
		s.mu.Unlock()
	}
	return n
}

func ceilSeconds(ns int64) int {
	if ns <= 0 {
		return 0
	}
	return int((ns + int64(time.Second) - 1) / int64(time.Second))
}

// HashString is a fast non-cryptographic hash (FNV-1a) for string keys.
func HashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// HashAddr hashes a 16-byte address key.
func HashAddr(a [16]byte) uint64 {
	lo := uint64(a[8]) | uint64(a[9])<<8 | uint64(a[10])<<16 | uint64(a[11])<<24 |
		uint64(a[12])<<32 | uint64(a[13])<<40 | uint64(a[14])<<48 | uint64(a[15])<<56
	hi := uint64(a[0]) | uint64(a[1])<<8 | uint64(a[2])<<16 | uint64(a[3])<<24 |
		uint64(a[4])<<32 | uint64(a[5])<<40 | uint64(a[6])<<48 | uint64(a[7])<<56
	return bits.RotateLeft64(lo*0x9E3779B97F4A7C15, 31) ^ hi*0xC2B2AE3D27D4EB4F
}
