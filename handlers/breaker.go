package handlers

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/VictoriaMetrics/metrics"
	"github.com/sony/gobreaker/v2"

	"fiplan/data/store"
)

// The store's circuit breaker. A database that hangs would otherwise hold
// every request that needs it for the store's own timeouts (a statement's
// 5 s, an operation's 10 s) while requests pile up behind it. The breaker
// opens when this node's readiness check (a ping, bounded by 2 s) fails, or
// when breakerTrips calls within breakerWindow fail as a dependency that
// does not answer fails (a deadline passed, a network error), successes
// between them notwithstanding (a session's sign-out check, answered from
// this node's copy of the marks, succeeds while the database hangs); an
// answer the store gives (not found, conflict, a bad id) is not a failure. While it is open
// every store call but the readiness check fails at once with errBreaker,
// which the routes answer 503 SERVICE_UNAVAILABLE with Retry-After; the
// routes that need no database go on (a session is judged by the last
// sign-out marks this node read). After breakerOpen the breaker turns
// half-open and a background probe, never a client's request, pings the
// store: an answer closes it, a failure opens it again.
//
// The state machine is github.com/sony/gobreaker's two-step breaker; this
// file decides what trips it and keeps the probing off the requests, and
// the library off the requests' path while the database answers: a store
// call asks a copy of whether the breaker is closed (one atomic load, kept
// by the library's state changes) and reaches the library only when it
// failed to answer, the one outcome that can trip a closed breaker (its
// successes and answers change nothing ReadyToTrip reads). The library's
// Allow makes a closure per call; a call that reached the database costs
// no allocation and takes no lock for the breaker.

// breakerTrips is how many dependency failures within breakerWindow open
// the breaker: each took a store's timeout (seconds), so three are no
// accident.
const (
	breakerTrips  = 3
	breakerWindow = 10 * time.Second
)

// breakerRetry is the Retry-After, in seconds, of a request the open
// breaker refuses: about one probe's period and its ping.
const breakerRetry = 2

// errBreaker is the error of a store call the open breaker refused.
var errBreaker error = breakerOpen{}

type breakerOpen struct{}

func (breakerOpen) Error() string { return "the database does not answer: its circuit breaker is open" }

// RetryAfter is the wait, in seconds, to suggest to a client.
func (breakerOpen) RetryAfter() int { return breakerRetry }

type breaker struct {
	cb *gobreaker.TwoStepCircuitBreaker[struct{}]
	// closed mirrors cb's state being closed, set by its state changes
	// (under its lock, in their order).
	closed  atomic.Bool
	ping    func() error // the store's own ping, past the breaker
	tripNow atomic.Bool  // the readiness check failed: trip at this failure
	probing atomic.Bool
	refused *metrics.Counter
	every   time.Duration // how often run looks for a half-open breaker to probe
}

// newBreaker returns a closed breaker around a store whose ping is ping;
// open is how long it stays open before its probe.
func newBreaker(ping func() error, open time.Duration, log *slog.Logger, set *metrics.Set) *breaker {
	b := &breaker{ping: ping, every: max(open/4, time.Millisecond)}
	b.closed.Store(true)
	b.cb = gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
		Name:         "store",
		MaxRequests:  1,
		Interval:     breakerWindow,
		BucketPeriod: time.Second,
		Timeout:      open,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return b.tripNow.Swap(false) || c.TotalFailures >= breakerTrips
		},
		IsSuccessful: func(err error) bool { return err == nil || !unreachable(err) },
		IsExcluded: func(err error) bool {
			return errors.Is(err, store.ErrUnavailable) || errors.Is(err, errBreaker)
		},
		OnStateChange: func(_ string, from, to gobreaker.State) {
			b.closed.Store(to == gobreaker.StateClosed)
			switch to {
			case gobreaker.StateOpen:
				if from == gobreaker.StateClosed {
					log.Warn("store circuit breaker open: database routes answer 503 at once until a probe reaches the database")
				}
			case gobreaker.StateClosed:
				log.Info("store circuit breaker closed: the database answers again")
			}
		},
	})
	if set != nil {
		b.refused = set.NewCounter("fiplan_store_breaker_refused_total")
		set.NewGauge("fiplan_store_breaker_open", func() float64 {
			if b.closed.Load() {
				return 0
			}
			return 1
		})
	}
	return b
}

// unreachable reports whether err is a dependency's failure to answer: a
// deadline that passed or a network error, not an answer.
func unreachable(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || netError(err)
}

// netError reports whether err's tree holds a net.Error. It is errors.As
// without the target errors.As would move to the heap: every store call's
// error passes here.
func netError(err error) bool {
	for err != nil {
		if _, ok := err.(net.Error); ok {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if netError(e) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// admit lets a store call through, or refuses it with errBreaker. Only a
// closed breaker lets calls through: the half-open one's probe is the
// background's. A call admitted tells the breaker its outcome.
func (b *breaker) admit() error {
	if b.closed.Load() {
		return nil
	}
	if b.refused != nil {
		b.refused.Inc()
	}
	return errBreaker
}

// outcome tells the breaker of an admitted call's outcome. Only a failure
// to answer reaches the library, which counts it toward a trip (its
// IsSuccessful and IsExcluded judge it, as for every call); a success or an
// answer of the store would only be counted, and never trips a breaker.
// A failure that ends after the breaker left closed is not counted: the
// probe, not a late call, decides a half-open breaker.
func (b *breaker) outcome(err error) {
	if err == nil || !unreachable(err) || !b.closed.Load() {
		return
	}
	if done, aerr := b.cb.Allow(); aerr == nil {
		done(err)
	}
}

// readiness tells the breaker of a readiness check's outcome: a failure
// opens it at once (a store that has not been reached since start already
// fails at once, and is left alone); a success closes a half-open one.
func (b *breaker) readiness(err error) {
	switch b.cb.State() {
	case gobreaker.StateHalfOpen:
		if err == nil { // a check that passes is as good as the probe
			if done, aerr := b.cb.Allow(); aerr == nil {
				done(nil)
			}
		}
		return
	case gobreaker.StateOpen:
		return // the probe decides
	}
	done, aerr := b.cb.Allow()
	if aerr != nil {
		return
	}
	if err != nil && !errors.Is(err, store.ErrUnavailable) {
		b.tripNow.Store(true)
	}
	done(failed(err))
}

// failed makes any failed check count as a failure to answer.
func failed(err error) error {
	if err == nil || unreachable(err) {
		return err
	}
	return errors.Join(err, context.DeadlineExceeded)
}

// run probes the half-open breaker until stop is closed.
func (b *breaker) run(stop <-chan struct{}) {
	t := time.NewTicker(b.every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			b.probe()
		}
	}
}

// probe pings the store once when the breaker is half-open.
func (b *breaker) probe() {
	if b.cb.State() != gobreaker.StateHalfOpen || !b.probing.CompareAndSwap(false, true) {
		return
	}
	defer b.probing.Store(false)
	done, err := b.cb.Allow()
	if err != nil {
		return
	}
	done(failed(b.ping()))
}

// open reports whether the breaker refuses store calls.
func (b *breaker) open() bool { return !b.closed.Load() }
