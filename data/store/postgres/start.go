package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"fiplan/data/store"
)

// Start returns the store at url without waiting for the database to
// answer, for a server that should start (and answer what needs no
// database) while its database is down. It tries once at once: when the
// database answers within StartWait, Start applies pending migrations and
// returns a DB that is ready, as Open does. When it does not, every call of
// the DB fails at once with store.ErrUnavailable while Start's goroutine
// keeps trying, one second after the last attempt at first, then up to
// store.UnavailableRetry seconds; once the database answers, the
// migrations are applied and the DB serves. Ready says when.
//
// Start fails at once, never retrying, when the URL is malformed
// (ErrMalformedURL), when the database refuses the credentials or does not
// exist, and when its schema is one this binary cannot run on
// (store.ErrSchema): these are settings to fix, not outages to wait out.
// log, when not nil, hears about the wait.
func Start(ctx context.Context, url string, log *slog.Logger) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg, err := poolConfig(url)
	if err != nil {
		return nil, err
	}
	trips := &roundTrips{}
	trips.count(cfg)
	w := &waiting{url: url, log: log, ready: make(chan struct{}), done: make(chan struct{})}
	cfg.BeforeConnect = w.beforeConnect
	cfg.PrepareConn = w.prepareConn
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("cannot open db %s: %w", redact(url), err)
	}
	err = w.attempt(ctx, pool, StartWait)
	if err == nil {
		close(w.done)
		return &DB{pool: pool, wait: w, trips: trips}, nil
	}
	if permanent(err) {
		pool.Close()
		return nil, fmt.Errorf("cannot open db %s: %w", redact(url), err)
	}
	log.Warn("database does not answer: serving what needs none, and connecting in the background", "db", Redact(url), "err", err)
	bctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go w.retry(bctx, pool)
	return &DB{pool: pool, wait: w, trips: trips}, nil
}

// Ready is closed once the database has been reached and its migrations
// applied: at once for a DB from Open.
func (d *DB) Ready() <-chan struct{} {
	if d.wait == nil {
		return reached
	}
	return d.wait.ready
}

var reached = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// waiting is the state of a DB from Start until its database is reached.
// Until then the pool's hooks refuse every connection but the attempts'
// own (marked in their context), so that no call runs before the
// migrations have been applied.
type waiting struct {
	url    string
	log    *slog.Logger
	open   atomic.Bool
	ready  chan struct{} // closed when open is set
	cancel context.CancelFunc
	done   chan struct{} // closed when retry returns
}

type attemptKey struct{}

func (w *waiting) admits(ctx context.Context) bool {
	return w.open.Load() || ctx.Value(attemptKey{}) != nil
}

func (w *waiting) beforeConnect(ctx context.Context, _ *pgx.ConnConfig) error {
	if w.admits(ctx) {
		return nil
	}
	return store.ErrUnavailable
}

func (w *waiting) prepareConn(ctx context.Context, _ *pgx.Conn) (bool, error) {
	if w.admits(ctx) {
		return true, nil
	}
	return true, store.ErrUnavailable // the connection goes back to the pool
}

// StartWait is how long Start waits for the database's first answer
// before it returns a DB that connects in the background: a database that
// hangs (one that accepts connections and says nothing) must not hold the
// node's start-up for the connect timeout.
const StartWait = time.Second

// attempt checks that the database answers a ping within wait and applies
// pending migrations; on success the DB serves.
func (w *waiting) attempt(ctx context.Context, pool *pgxpool.Pool, wait time.Duration) error {
	ctx = context.WithValue(ctx, attemptKey{}, true)
	pctx, cancel := context.WithTimeout(ctx, wait)
	err := pool.Ping(pctx)
	late := pctx.Err() != nil && ctx.Err() == nil
	cancel()
	if late {
		return fmt.Errorf("no answer within %s: %w", wait, err)
	}
	if err != nil {
		return err
	}
	if err := migrate(ctx, pool); err != nil {
		return err
	}
	w.open.Store(true)
	close(w.ready)
	return nil
}

// retry attempts until the database is reached or ctx ends. It logs the
// wait at most once a minute, and a permanent error (see Start) at each
// attempt: it will not go away by itself.
func (w *waiting) retry(ctx context.Context, pool *pgxpool.Pool) {
	defer close(w.done)
	pause := time.Second
	warned := time.Now()
	for {
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		err := w.attempt(ctx, pool, OpTimeout)
		switch {
		case err == nil:
			w.log.Info("database reached: serving", "db", Redact(w.url))
			return
		case ctx.Err() != nil:
			return
		case permanent(err):
			w.log.Error("database reached but unusable: fix it; retrying", "db", Redact(w.url), "err", err)
		case time.Since(warned) >= time.Minute:
			warned = time.Now()
			w.log.Warn("database still does not answer: retrying", "db", Redact(w.url), "err", err)
		}
		pause = min(2*pause, store.UnavailableRetry*time.Second)
	}
}

// stop ends the retries; harmless on a nil waiting or a ready one.
func (w *waiting) stop() {
	if w == nil {
		return
	}
	if w.cancel != nil {
		w.cancel()
	}
	<-w.done
}

// permanent reports whether err is a setting to fix rather than an outage:
// the credentials refused (SQLSTATE class 28), no such database (3D000),
// or a schema this binary cannot run on.
func permanent(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "28") || pe.Code == "3D000"
	}
	return errors.Is(err, store.ErrSchema)
}
