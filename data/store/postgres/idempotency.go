package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"fiplan/data/store"
)

// sweepClaims bounds the expired claims one create forgets.
const sweepClaims = 64

// claimKeyConstraint is the idempotency table's primary key: its unique
// violation is a create whose key holds a claim.
const claimKeyConstraint = "idempotency_pkey"

// Idempotent returns the live claim of user's key (see store.Idempotency).
func (d *DB) Idempotent(user, key string, now time.Time, ttl time.Duration) (*store.Replay, error) {
	if !readable(user) || !readable(key) {
		return nil, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	r, err := readClaim(ctx, d.pool, user, key, now.Add(-ttl))
	if err != nil {
		return nil, fmt.Errorf("cannot read idempotent: %w", err)
	}
	return r, nil
}

// readClaim reads user's claim of key made after horizon; nil when none.
func readClaim(ctx context.Context, q querier, user, key string, horizon time.Time) (*store.Replay, error) {
	r := &store.Replay{}
	var h []byte
	err := q.QueryRow(ctx, `SELECT hash, at, done, status, body FROM idempotency WHERE user_id = $1 AND key = $2 AND at > $3`,
		user, key, horizon.UTC()).Scan(&h, &r.At, &r.Done, &r.Status, &r.Body)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	copy(r.Hash[:], h)
	r.At = utc(r.At)
	return r, nil
}

// checkKeep refuses a Keep PostgreSQL cannot hold.
func checkKeep(user string, k *store.Keep) error {
	if k == nil {
		return nil
	}
	if err := k.Check(user); err != nil {
		return err
	}
	return checkText("Idempotency-Key", k.Key)
}

// queueKeep adds to a create's pipeline, after the user's row lock and
// before the create's own statements, what keeps k's answer: a few expired
// claims forgotten (rows another transaction holds are skipped, so that two
// creates never wait on each other's sweep), an expired claim of the same
// key forgotten, then the insert, which fails the whole pipeline with a
// unique violation of claimKeyConstraint when the key holds a live claim.
// Under the user's row lock a claim of the user's key committed by another
// create is always seen: that create held the lock until it committed.
func queueKeep(b *pgx.Batch, k *store.Keep) {
	if k == nil {
		return
	}
	horizon := k.At.Add(-k.TTL).UTC()
	b.Queue(`DELETE FROM idempotency WHERE ctid IN
		(SELECT ctid FROM idempotency WHERE at <= $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED)`, horizon, sweepClaims)
	b.Queue(`DELETE FROM idempotency WHERE user_id = $1 AND key = $2 AND at <= $3`, k.User, k.Key, horizon)
	b.Queue(`INSERT INTO idempotency (user_id, key, hash, at, done, status, body) VALUES ($1, $2, $3, $4, true, $5, $6)`,
		k.User, k.Key, k.Hash[:], k.At.UTC(), k.Status, k.Body)
}

// keyUsed turns a create that failed on its claim into *store.KeyUsed,
// reading the claim that won; any other error is returned as it is.
func (d *DB) keyUsed(ctx context.Context, err error, k *store.Keep) error {
	var pe *pgconn.PgError
	if k == nil || !errors.As(err, &pe) || pe.Code != codeUnique || pe.ConstraintName != claimKeyConstraint {
		return err
	}
	prev, rerr := readClaim(ctx, d.pool, k.User, k.Key, k.At.Add(-k.TTL))
	switch {
	case rerr != nil:
		return fmt.Errorf("cannot read the claim that won: %w", rerr)
	case prev == nil: // expired, or erased, since: the caller may retry
		return fmt.Errorf("the claim that won is gone: %v", err)
	}
	return &store.KeyUsed{Prev: prev}
}
