package limit

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Checker is one decision per request; Limiter and Shared are both.
type Checker[K comparable] interface {
	Allow(key K, now int64) Decision
	AllowN(key K, n int, now int64) Decision
}

var (
	_ Checker[string] = (*Limiter[string])(nil)
	_ Checker[string] = (*Shared[string])(nil)
)

// Redis is one Redis server as the shared limiters use it, with what they
// know of its health: while it does not answer, every limiter on it
// decides locally, Redis is tried again after a second, the fall-back is
// logged at most once a minute (for all limiters together) and each
// locally decided request is counted.
type Redis struct {
	rdb     redis.UniversalClient
	rl      *redis_rate.Limiter
	log     *slog.Logger
	timeout time.Duration

	downUntil atomic.Int64 // Unix ns: until then, the local limiters decide
	warned    atomic.Int64 // Unix ns of the last fall-back warning
	fallbacks atomic.Uint64
	trips     atomic.Uint64
	// By reason, adding up to fallbacks.
	fellBack [fallbackReasons]atomic.Uint64
}

// Why a request was decided locally.
const (
	FallbackResting = iota // Redis failed less than a second ago and is left alone
	FallbackTimeout        // Redis did not answer within the timeout
	FallbackError          // Redis answered with an error, or the connection failed
	fallbackReasons
)

// FallbackReasons names the reasons, by their constant.
var FallbackReasons = [fallbackReasons]string{"resting", "timeout", "error"}

// FallbacksBy is the number of requests decided locally for reason
// (FallbackResting, FallbackTimeout or FallbackError), since start.
func (r *Redis) FallbacksBy(reason int) uint64 { return r.fellBack[reason].Load() }

func (r *Redis) fallBack(reason int) {
	r.fallbacks.Add(1)
	r.fellBack[reason].Add(1)
}

// PoolStats are the client's connection pool's figures.
func (r *Redis) PoolStats() *redis.PoolStats { return r.rdb.PoolStats() }

// Defaults of Redis.
const (
	DefaultRedisTimeout = 50 * time.Millisecond
	redisRetry          = time.Second
	warnEvery           = time.Minute
)

// NewRedis wraps rdb for shared limiters. A zero timeout, the longest a
// request waits for Redis, means DefaultRedisTimeout; a nil log discards.
func NewRedis(rdb redis.UniversalClient, timeout time.Duration, log *slog.Logger) *Redis {
	if timeout <= 0 {
		timeout = DefaultRedisTimeout
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Redis{rdb: rdb, rl: redis_rate.NewLimiter(rdb), log: log, timeout: timeout}
}

// ClientOptions fits o, a Redis client's options, to the limiters' budget:
// go-redis waits for a socket by its own timeouts (seconds by default, and
// a read retried) and ignores a call's context deadline unless told to
// heed it, so a Redis that accepts connections but never answers would
// hold every limited request for seconds. With it, a call ends at the
// limiter's timeout (Ping's for Ping); the dial, read, write and pool
// timeouts, where o leaves them unset, are PingTimeout, a ceiling for any
// call without a deadline. It returns o.
func ClientOptions(o *redis.Options) *redis.Options {
	o.ContextTimeoutEnabled = true
	for _, d := range []*time.Duration{&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.PoolTimeout} {
		if *d == 0 {
			*d = PingTimeout
		}
	}
	return o
}

// Fallbacks is the number of requests decided by a local limiter because
// Redis did not answer, since start.
func (r *Redis) Fallbacks() uint64 { return r.fallbacks.Load() }

// PingTimeout bounds Ping, which allows for a connection's first dial.
const PingTimeout = 500 * time.Millisecond

// Ping reports whether Redis answers within PingTimeout.
func (r *Redis) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, max(r.timeout, PingTimeout))
	defer cancel()
	return r.rdb.Ping(ctx).Err()
}

// Shared applies one Rate to keys across every node through Redis, with
// the same GCRA as Limiter (redis_rate's script, which reads Redis's clock):
// a burst of N, then one request every Per/N, counted once for the whole
// fleet.
//
// It fails open: when Redis does not answer within the timeout, the
// request is decided by the local limiter (this node's counts only), and
// Redis is left alone for a second before it is tried again. Refusing
// every request because the limiter's store is down would turn a Redis
// outage into a full outage; the local limits still bound each node.
type Shared[K comparable] struct {
	r      *Redis
	limit  redis_rate.Limit
	rate   Rate
	prefix string
	key    func(K) string
	local  *Limiter[K]
	grants *grants[K]
}

// NewShared returns a limiter for rate on r. Keys are stored as prefix +
// key(k) and expire once idle; local decides while Redis is unreachable and
// should have the same rate.
func NewShared[K comparable](r *Redis, rate Rate, prefix string, key func(K) string, local *Limiter[K]) *Shared[K] {
	return &Shared[K]{
		r:      r,
		limit:  redis_rate.Limit{Rate: rate.N, Burst: rate.N, Period: rate.Per},
		rate:   rate,
		prefix: prefix,
		key:    key,
		local:  local,
		grants: newGrants(local.hash),
	}
}

// Sweep forgets the batches of keys gone idle.
func (s *Shared[K]) Sweep(now int64) { s.grants.sweep(now) }

// RoundTrips is the number of rate-limit decisions sent to Redis, since
// start.
func (r *Redis) RoundTrips() uint64 { return r.trips.Load() }

// Rate returns the configured rate.
func (s *Shared[K]) Rate() Rate { return s.rate }

// Allow charges one request to key. now (Unix nanoseconds) is used by the
// local fall-back and the retry and warning clocks; Redis uses its own.
func (s *Shared[K]) Allow(key K, now int64) Decision { return s.AllowN(key, 1, now) }

// AllowN charges n requests' worth to key, all or none.
func (s *Shared[K]) AllowN(key K, n int, now int64) Decision {
	if s.rate.Off() {
		return Decision{OK: true}
	}
	r := s.r
	if now < r.downUntil.Load() {
		r.fallBack(FallbackResting)
		return s.local.AllowN(key, n, now)
	}
	if n > s.rate.N {
		return s.never(key, n, now)
	}
	d, extra, ok := s.grants.spend(key, n, now, s.rate.N/maxGrantShare)
	if ok {
		d.Limit = s.rate.N
		return d
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	k := s.prefix + s.key(key)
	res, err := r.rl.AllowN(ctx, k, s.limit, n+extra)
	r.trips.Add(1)
	if err == nil && res.Allowed == 0 && extra > 0 {
		// The batch does not fit; the request alone may.
		extra = 0
		res, err = r.rl.AllowN(ctx, k, s.limit, n)
		r.trips.Add(1)
	}
	if err != nil {
		r.downUntil.Store(now + int64(redisRetry))
		if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
			r.fallBack(FallbackTimeout)
		} else {
			r.fallBack(FallbackError)
		}
		r.warn(err, now)
		return s.local.AllowN(key, n, now)
	}
	d = Decision{
		OK:        res.Allowed > 0,
		Limit:     s.rate.N,
		Remaining: res.Remaining,
		Reset:     ceilSeconds(int64(res.ResetAfter)),
	}
	if d.OK && extra > 0 {
		d.Remaining += s.grants.keep(key, extra, res.Remaining, d.Reset, now)
	}
	if !d.OK {
		d.RetryAfter = max(ceilSeconds(int64(res.RetryAfter)), 1)
	}
	return d
}

// never answers a request that costs more than the whole allowance: it
// charges nothing and reads where the key stands (a charge of nothing).
func (s *Shared[K]) never(key K, n int, now int64) Decision {
	r := s.r
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	res, err := r.rl.AllowN(ctx, s.prefix+s.key(key), s.limit, 0)
	r.trips.Add(1)
	if err != nil {
		return s.local.AllowN(key, n, now)
	}
	return Decision{Limit: s.rate.N, Remaining: res.Remaining, Reset: ceilSeconds(int64(res.ResetAfter)), Never: true}
}

// warn logs the fall-back, at most once per warnEvery.
func (r *Redis) warn(err error, now int64) {
	last := r.warned.Load()
	if last != 0 && now-last < int64(warnEvery) {
		return
	}
	if r.warned.CompareAndSwap(last, now) {
		r.log.Warn("rate limits fall back to this node's own counts: redis is unreachable", "err", err, "retry", redisRetry.String())
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
