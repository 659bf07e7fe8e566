package postgres

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// roundTrips counts the database round trips of a DB: each statement sent
// alone (Exec, Query, QueryRow, a transaction's BEGIN and COMMIT), each
// pipeline (SendBatch), each statement prepared outside one, and each ping
// of a connection the pool hands out after it idled. It is the pool's
// tracer: counting is one atomic add.
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.n.Add(1)
	return ctx
}

func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}

func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func (r *roundTrips) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	return ctx
}

func (r *roundTrips) TracePrepareEnd(_ context.Context, _ *pgx.Conn, d pgx.TracePrepareEndData) {
	if !d.AlreadyPrepared {
		r.n.Add(1)
	}
}

// count makes cfg's connections report to r, and counts the pings of
// connections idle a second or more, which the pool sends by default.
func (r *roundTrips) count(cfg *pgxpool.Config) {
	cfg.ConnConfig.Tracer = r
	cfg.ShouldPing = func(_ context.Context, p pgxpool.ShouldPingParams) bool {
		if p.IdleDuration > time.Second {
			r.n.Add(1)
			return true
		}
		return false
	}
}

// RoundTrips is how many round trips to the database the DB has made.
func (d *DB) RoundTrips() int64 { return d.trips.n.Load() }
