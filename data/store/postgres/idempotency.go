package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// sweepClaims bounds the expired claims one BeginIdempotent forgets.
const sweepClaims = 64

// BeginIdempotent claims key (see store.Idempotency) in one transaction:
// expired claims go first, then the insert; of racing inserts of one key
// the primary key lets one win, and the others read its row.
func (d *DB) BeginIdempotent(user, key string, hash [32]byte, now time.Time, ttl time.Duration) (prev *store.Replay, err error) {
	if !readable(user) || !readable(key) {
		return nil, fmt.Errorf("cannot begin idempotent: invalid user or key (1..%d bytes of UTF-8 without NUL)", store.MaxIDLen)
	}
	ctx, cancel := opContext()
	defer cancel()
	horizon := now.Add(-ttl).UTC()
	err = d.write(ctx, func(tx pgx.Tx) error {
		prev = nil
		if _, err := tx.Exec(ctx, `DELETE FROM idempotency WHERE (user_id, key) IN
			(SELECT user_id, key FROM idempotency WHERE at <= $1 ORDER BY at LIMIT $2)`, horizon, sweepClaims); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM idempotency WHERE user_id = $1 AND key = $2 AND at <= $3`, user, key, horizon); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO idempotency (user_id, key, hash, at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (user_id, key) DO NOTHING`, user, key, hash[:], now.UTC())
		if err != nil || tag.RowsAffected() == 1 {
			return err
		}
		r := &store.Replay{}
		var h []byte
		err = tx.QueryRow(ctx, `SELECT hash, at, done, status, body FROM idempotency WHERE user_id = $1 AND key = $2`,
			user, key).Scan(&h, &r.At, &r.Done, &r.Status, &r.Body)
		if err != nil {
			return err
		}
		copy(r.Hash[:], h)
		prev = r
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot begin idempotent: %w", err)
	}
	return prev, nil
}

// FinishIdempotent records the answer of the request that claimed key.
func (d *DB) FinishIdempotent(user, key string, status int, body []byte) error {
	if !readable(user) || !readable(key) {
		return fmt.Errorf("cannot finish idempotent: invalid user or key")
	}
	ctx, cancel := opContext()
	defer cancel()
	tag, err := d.pool.Exec(ctx, `UPDATE idempotency SET done = true, status = $3, body = $4 WHERE user_id = $1 AND key = $2`,
		user, key, status, body)
	if err != nil {
		return fmt.Errorf("cannot finish idempotent: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("cannot finish idempotent: %w", store.ErrNotFound)
	}
	return nil
}

// AbandonIdempotent forgets the claim, so that a retry runs again.
func (d *DB) AbandonIdempotent(user, key string) error {
	if !readable(user) || !readable(key) {
		return fmt.Errorf("cannot abandon idempotent: invalid user or key")
	}
	ctx, cancel := opContext()
	defer cancel()
	if _, err := d.pool.Exec(ctx, `DELETE FROM idempotency WHERE user_id = $1 AND key = $2`, user, key); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("cannot abandon idempotent: %w", err)
	}
	return nil
}
