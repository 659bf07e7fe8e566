package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// sweepMarks bounds the expired marks one Revoke forgets.
const sweepMarks = 64

// Revoke marks id until the time given (see store.Sessions). Of racing
// calls for one id, the insert that wins the row is the only first: the
// others wait for it on the primary key and then update.
func (d *DB) Revoke(id string, until, at time.Time) (first bool, err error) {
	if !readable(id) {
		return false, fmt.Errorf("cannot revoke: invalid id (1..%d bytes of UTF-8 without NUL)", store.MaxIDLen)
	}
	ctx, cancel := opContext()
	defer cancel()
	if _, err := d.pool.Exec(ctx, `DELETE FROM revocations WHERE id IN
		(SELECT id FROM revocations WHERE until < $1 ORDER BY until LIMIT $2)`, at.UTC(), sweepMarks); err != nil {
		return false, fmt.Errorf("cannot revoke: %w", err)
	}
	// A mark extended takes a new number, so that every node's mirror
	// reads the new until; a mark left as it is returns no row.
	err = d.pool.QueryRow(ctx, `INSERT INTO revocations (id, until) VALUES ($1, $2)
		ON CONFLICT (id) DO UPDATE SET until = EXCLUDED.until, seq = nextval('revocations_seq')
		WHERE revocations.until < EXCLUDED.until
		RETURNING xmax = 0`, id, until.UTC()).Scan(&first)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("cannot revoke: %w", err)
	}
	return first, nil
}

// MarksAfter reads the marks numbered above after (see store.Sessions),
// in one indexed query.
func (d *DB) MarksAfter(after int64, fn func(id string, until time.Time)) (int64, error) {
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, `SELECT id, until, seq FROM revocations WHERE seq > $1`, after)
	if err != nil {
		return after, fmt.Errorf("cannot read revocations: %w", err)
	}
	defer rows.Close()
	last := after
	var (
		id    string
		until time.Time
		seq   int64
	)
	for rows.Next() {
		if err := rows.Scan(&id, &until, &seq); err != nil {
			return after, fmt.Errorf("cannot read revocations: %w", err)
		}
		fn(id, until)
		last = max(last, seq)
	}
	if err := rows.Err(); err != nil {
		return after, fmt.Errorf("cannot read revocations: %w", err)
	}
	return last, nil
}

// Revoked reports whether id holds a mark that lasts past at.
func (d *DB) Revoked(id string, at time.Time) (bool, error) {
	if !readable(id) {
		return false, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	var revoked bool
	err := d.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM revocations WHERE id = $1 AND until > $2)`, id, at.UTC()).Scan(&revoked)
	if err != nil {
		return false, fmt.Errorf("cannot read revocation: %w", err)
	}
	return revoked, nil
}

// SaveTier sets the tier as of issued (see store.Sessions), in one
// statement: the row changes only when issued is later than the stored
// issue time, or none is stored.
func (d *DB) SaveTier(user, tier string, issued time.Time) error {
	if err := checkUser(user); err != nil {
		return fmt.Errorf("cannot save tier: %w", err)
	}
	if err := checkText("tier", tier); err != nil {
		return fmt.Errorf("cannot save tier: %w", err)
	}
	ctx, cancel := opContext()
	defer cancel()
	_, err := d.pool.Exec(ctx, `INSERT INTO users (id, tier, created_at, updated_at, tier_at) VALUES ($1, $2, $3, $3, $4)
		ON CONFLICT (id) DO UPDATE SET tier = EXCLUDED.tier, tier_at = EXCLUDED.tier_at,
			updated_at = CASE WHEN users.tier <> EXCLUDED.tier THEN EXCLUDED.updated_at ELSE users.updated_at END
		WHERE users.tier_at IS NULL OR users.tier_at < EXCLUDED.tier_at`, user, tier, now(), issued.UTC().Truncate(time.Microsecond))
	if err != nil {
		return fmt.Errorf("cannot save tier: %w", err)
	}
	return nil
}
