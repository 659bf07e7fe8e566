package limit

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Checker is one decision per request; Limiter and Shared are both.
type Checker[K comparable] interface {
	Allow(key K, now int64) Decision
}

var (
	_ Checker[string] = (*Limiter[string])(nil)
	_ Checker[string] = (*Shared[string])(nil)
)

// Shared applies one Rate to keys across every node through Redis, with
// the same GCRA as Limiter (redis_rate's script, which reads Redis's clock):
// a burst of N, then one request every Per/N, counted once for the whole
// fleet.
//
// It fails open: when Redis does not answer within the timeout, the
// request is decided by the local limiter (this node's counts only), and
// Redis is left alone for a second before it is tried again. The fall-back
// is logged at most once a minute.
type Shared[K comparable] struct {
	rl      *redis_rate.Limiter
	limit   redis_rate.Limit
	rate    Rate
	prefix  string
	key     func(K) string
	local   *Limiter[K]
	log     *slog.Logger
	timeout time.Duration

	downUntil atomic.Int64 // Unix ns: until then, the local limiter decides
	warned    atomic.Int64 // Unix ns of the last fall-back warning
}

// Defaults of Shared.
const (
	DefaultRedisTimeout = 50 * time.Millisecond
	redisRetry          = time.Second
	warnEvery           = time.Minute
)

// NewShared returns a limiter for rate on rdb. Keys are stored as prefix +
// key(k) and expire once idle; local decides while Redis is unreachable and
// should have the same rate. A zero timeout means DefaultRedisTimeout; a
// nil log discards.
func NewShared[K comparable](rdb redis.UniversalClient, rate Rate, prefix string, key func(K) string, local *Limiter[K], timeout time.Duration, log *slog.Logger) *Shared[K] {
	if timeout <= 0 {
		timeout = DefaultRedisTimeout
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Shared[K]{
		rl:      redis_rate.NewLimiter(rdb),
		limit:   redis_rate.Limit{Rate: rate.N, Burst: rate.N, Period: rate.Per},
		rate:    rate,
		prefix:  prefix,
		key:     key,
		local:   local,
		log:     log,
		timeout: timeout,
	}
}

// Rate returns the configured rate.
func (s *Shared[K]) Rate() Rate { return s.rate }

// Allow charges one request to key. now (Unix nanoseconds) is used by the
// local fall-back and the retry and warning clocks; Redis uses its own.
func (s *Shared[K]) Allow(key K, now int64) Decision {
	if s.rate.Off() {
		return Decision{OK: true}
	}
	if now < s.downUntil.Load() {
		return s.local.Allow(key, now)
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	res, err := s.rl.Allow(ctx, s.prefix+s.key(key), s.limit)
	cancel()
	if err != nil {
		s.downUntil.Store(now + int64(redisRetry))
		s.warn(err, now)
		return s.local.Allow(key, now)
	}
	d := Decision{
		OK:        res.Allowed > 0,
		Limit:     s.rate.N,
		Remaining: res.Remaining,
		Reset:     ceilSeconds(int64(res.ResetAfter)),
	}
	if !d.OK {
		d.RetryAfter = max(ceilSeconds(int64(res.RetryAfter)), 1)
	}
	return d
}

// warn logs the fall-back, at most once per warnEvery.
func (s *Shared[K]) warn(err error, now int64) {
	last := s.warned.Load()
	if last != 0 && now-last < int64(warnEvery) {
		return
	}
	if s.warned.CompareAndSwap(last, now) {
		s.log.Warn("rate limits fall back to this node's own counts: redis is unreachable", "err", err, "retry", redisRetry.String())
	}
}
