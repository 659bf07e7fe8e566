package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// QueueMail stores m, due at m.NextAt (its CreatedAt when zero), the
// user's row made when absent; store.ErrConflict when its id is queued,
// a *store.TooSoonError within m.Every of the last mail of its kind to
// its user. The user's row, locked for the transaction, makes two nodes
// queueing at once take turns, so the second sees the first's mail.
func (d *DB) QueueMail(m store.Mail) error {
	if err := store.CheckMail(&m); err != nil {
		return fmt.Errorf("cannot queue mail: %w", err)
	}
	if err := checkText("mail", m.User+m.ID+m.Kind+m.To); err != nil {
		return fmt.Errorf("cannot queue mail: %w", err)
	}
	if m.NextAt.IsZero() {
		m.NextAt = m.CreatedAt
	}
	ctx, cancel := opContext()
	defer cancel()
	err := d.write(ctx, func(tx pgx.Tx) error {
		if err := ensureUser(ctx, tx, m.User, now()); err != nil {
			return err
		}
		var last time.Time
		err := tx.QueryRow(ctx, `SELECT queued_at FROM mail_last WHERE user_id = $1 AND kind = $2`, m.User, m.Kind).Scan(&last)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if err := store.TooSoon(&m, last); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO mails (id, user_id, kind, recipient, next_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			m.ID, m.User, m.Kind, m.To, m.NextAt.UTC(), m.CreatedAt.UTC())
		if err != nil {
			return conflict(err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO mail_last (user_id, kind, queued_at) VALUES ($1, $2, $3)
			ON CONFLICT (user_id, kind) DO UPDATE SET queued_at = EXCLUDED.queued_at`, m.User, m.Kind, m.CreatedAt.UTC())
		return err
	})
	if err != nil {
		return fmt.Errorf("cannot queue mail: %w", err)
	}
	return nil
}

// ClaimMails leases up to max due mails as Claim leases deliveries: rows
// picked with FOR UPDATE SKIP LOCKED, their next_at moved to the end of
// the lease.
func (d *DB) ClaimMails(at time.Time, lease time.Duration, max int) ([]store.Mail, error) {
	ctx, cancel := opContext()
	defer cancel()
	at = at.UTC().Round(0)
	var out []store.Mail
	err := d.write(ctx, func(tx pgx.Tx) error {
		out = out[:0]
		rows, err := tx.Query(ctx, `WITH c AS (
				SELECT id FROM mails WHERE next_at <= $1 ORDER BY next_at LIMIT $2 FOR UPDATE SKIP LOCKED)
			UPDATE mails m SET next_at = $3, lease = md5(random()::text || clock_timestamp()::text || m.id)
			FROM c WHERE m.id = c.id
			RETURNING m.id, m.user_id, m.kind, m.recipient, m.attempts, m.next_at, m.last_error, m.created_at, m.lease`,
			at, max, at.Add(lease))
		return eachOf(rows, err, func(r pgx.Rows) error {
			var m store.Mail
			if err := r.Scan(&m.ID, &m.User, &m.Kind, &m.To, &m.Attempts, &m.NextAt, &m.LastError, &m.CreatedAt, &m.Lease); err != nil {
				return err
			}
			m.NextAt, m.CreatedAt = m.NextAt.UTC(), m.CreatedAt.UTC()
			out = append(out, m)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("cannot claim mails: %w", err)
	}
	return out, nil
}

// SettleMail records an attempt of a claimed mail; store.ErrStale when
// the claim's lease was lost.
func (d *DB) SettleMail(a store.Attempt) error {
	var m store.Mail
	queued := store.SettleMail(&m, &a)
	ctx, cancel := opContext()
	defer cancel()
	sql := `DELETE FROM mails WHERE id = $1 AND user_id = $2 AND lease = $3 AND lease <> ''`
	args := []any{a.ID, a.User, a.Lease}
	if queued {
		sql = `UPDATE mails SET attempts = attempts + 1, next_at = $4, last_error = $5, lease = ''
			WHERE id = $1 AND user_id = $2 AND lease = $3 AND lease <> ''`
		args = append(args, m.NextAt, m.LastError)
	}
	tag, err := d.pool.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("cannot settle mail: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrStale
	}
	return nil
}
