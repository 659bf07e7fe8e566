package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	json "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"fiplan/data/store"
)

// CreateHook stores h; the user's row is locked while the cap is counted.
func (d *DB) CreateHook(h store.Hook, max int) error {
	if err := checkUser(h.User); err != nil {
		return fmt.Errorf("cannot create webhook: %w", err)
	}
	ctx, cancel := opContext()
	defer cancel()
	err := d.write(ctx, func(tx pgx.Tx) error {
		if err := ensureUser(ctx, tx, h.User, now()); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM webhooks WHERE user_id = $1 AND id <> $2`, h.User, store.MailHook).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return store.ErrLimit
		}
		_, err := tx.Exec(ctx, `INSERT INTO webhooks (user_id, id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			h.User, h.ID, h.URL, h.Events, h.Secret, h.CreatedAt)
		return conflict(err)
	})
	if err != nil {
		return fmt.Errorf("cannot create webhook: %w", err)
	}
	return nil
}

// SetMailHook stores or replaces h, the user's email channel.
func (d *DB) SetMailHook(h store.Hook) error {
	if err := checkUser(h.User); err != nil {
		return fmt.Errorf("cannot set email channel: %w", err)
	}
	if h.ID != store.MailHook {
		return fmt.Errorf("cannot set email channel: id %q is not %q", h.ID, store.MailHook)
	}
	ctx, cancel := opContext()
	defer cancel()
	err := d.write(ctx, func(tx pgx.Tx) error {
		if err := ensureUser(ctx, tx, h.User, now()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO webhooks (user_id, id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, '', $5)
			ON CONFLICT (user_id, id) DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events`,
			h.User, h.ID, h.URL, h.Events, h.CreatedAt)
		return err
	})
	if err != nil {
		return fmt.Errorf("cannot set email channel: %w", err)
	}
	return nil
}

// Hooks lists user's endpoints, oldest first.
func (d *DB) Hooks(user string) ([]store.Hook, error) {
	ctx, cancel := opContext()
	defer cancel()
	out, err := hooks(ctx, d.pool, user)
	if err != nil {
		return nil, fmt.Errorf("cannot list webhooks: %w", err)
	}
	return out, nil
}

func hooks(ctx context.Context, q querier, user string) ([]store.Hook, error) {
	out := []store.Hook{}
	if !readable(user) {
		return out, nil
	}
	err := each(ctx, q, `SELECT id, url, events, secret, created_at FROM webhooks WHERE user_id = $1 ORDER BY created_at, id`, user, func(r pgx.Rows) error {
		h, err := scanHook(r, user)
		out = append(out, h)
		return err
	})
	return out, err
}

// scanHook reads user's endpoint from a row of id, url, events, secret,
// created_at.
func scanHook(r pgx.Rows, user string) (store.Hook, error) {
	h := store.Hook{User: user}
	err := r.Scan(&h.ID, &h.URL, &h.Events, &h.Secret, &h.CreatedAt)
	h.CreatedAt = h.CreatedAt.UTC()
	return h, err
}

// DeleteHook removes user's endpoint id.
func (d *DB) DeleteHook(user, id string) error {
	return d.deleteUnchecked("webhooks", "delete webhook", user, id)
}

// RotateHook replaces the secret of user's endpoint id.
func (d *DB) RotateHook(user, id, secret string) (store.Hook, error) {
	h := store.Hook{User: user, ID: id, Secret: secret}
	if !readable(user) || !readable(id) {
		return h, store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	err := d.pool.QueryRow(ctx, `UPDATE webhooks SET secret = $3 WHERE user_id = $1 AND id = $2 RETURNING url, events, created_at`,
		user, id, secret).Scan(&h.URL, &h.Events, &h.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return h, store.ErrNotFound
	}
	if err != nil {
		return h, fmt.Errorf("cannot rotate webhook secret: %w", err)
	}
	h.CreatedAt = h.CreatedAt.UTC()
	return h, nil
}

// Emit stores the new events and their deliveries in one transaction:
// the endpoints of each user concerned are read, then every event goes in
// one pipeline.
func (d *DB) Emit(evs []store.Event, at time.Time) (int, error) {
	ctx, cancel := opContext()
	defer cancel()
	at = at.UTC().Round(0)
	n := 0
	err := d.write(ctx, func(tx pgx.Tx) error {
		byUser := map[string][]store.Hook{}
		for i := range evs {
			u := evs[i].User
			if _, ok := byUser[u]; ok {
				continue
			}
			hs, err := hooks(ctx, tx, u)
			if err != nil {
				return err
			}
			byUser[u] = hs
		}
		var err error
		n, err = emit(ctx, tx, evs, byUser, at)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("cannot emit events: %w", err)
	}
	return n, nil
}

// emitSQL stores an event ($1 id, $2 user, $3 JSON, $4 type) when it is
// new and its user exists, with a pending delivery (ids $6, endpoints $7)
// made at $5 to each endpoint that wants it; it answers 1 when the event
// was new, else 0 and nothing is written.
const emitSQL = `WITH e AS (
		INSERT INTO events (id, user_id, doc) SELECT $1, $2, $3
		WHERE EXISTS (SELECT 1 FROM users WHERE id = $2) ON CONFLICT (id) DO NOTHING RETURNING id
	), d AS (
		INSERT INTO deliveries (id, user_id, event_id, event_type, webhook_id, status, next_at, created_at, updated_at)
		SELECT w.id, $2, e.id, $4, w.hook, 'pending', $5, $5, $5 FROM e, unnest($6::text[], $7::text[]) AS w(id, hook)
	)
	SELECT count(*) FROM e`

// emit stores evs and their deliveries to the endpoints in hooks (by
// user) in one pipeline of tx, and returns how many events were new.
func emit(ctx context.Context, tx pgx.Tx, evs []store.Event, hooks map[string][]store.Hook, at time.Time) (int, error) {
	b := &pgx.Batch{}
	for i := range evs {
		ev := &evs[i]
		if !readable(ev.User) || !readable(ev.ID) {
			continue
		}
		doc, err := json.Marshal(ev)
		if err != nil {
			return 0, err
		}
		ids, to := []string{}, []string{}
		for _, h := range hooks[ev.User] {
			if (ev.Hook != "" && ev.Hook != h.ID) || (ev.Hook == "" && !h.Wants(ev.Type)) {
				continue
			}
			ids, to = append(ids, store.DeliveryID(ev.ID, h.ID)), append(to, h.ID)
		}
		b.Queue(emitSQL, ev.ID, ev.User, doc, ev.Type, at, ids, to)
	}
	if b.Len() == 0 {
		return 0, nil
	}
	br := tx.SendBatch(ctx, b)
	n := 0
	for range b.Len() {
		var fresh int
		if err := br.QueryRow().Scan(&fresh); err != nil {
			_ = br.Close()
			return 0, err
		}
		n += fresh
	}
	return n, br.Close()
}

// Events lists user's events, newest first.
func (d *DB) Events(user string, offset, limit int) ([]store.Event, int, error) {
	out := []store.Event{}
	if !readable(user) {
		return out, 0, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	var total int
	if err := d.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE user_id = $1`, user).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("cannot list events: %w", err)
	}
	rows, err := d.pool.Query(ctx, `SELECT doc FROM events WHERE user_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3`, user, offset, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot list events: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return nil, 0, fmt.Errorf("cannot list events: %w", err)
		}
		e := store.Event{User: user}
		if err := json.Unmarshal(doc, &e); err != nil {
			return nil, 0, fmt.Errorf("cannot list events: %w", err)
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}

const deliveryColumns = `id, user_id, event_id, event_type, webhook_id, status, attempts, next_at, last_status, last_error, created_at, updated_at`

func scanDelivery(r pgx.Row, extra ...any) (store.Delivery, error) {
	var dl store.Delivery
	err := r.Scan(append([]any{&dl.ID, &dl.User, &dl.EventID, &dl.EventType, &dl.HookID, &dl.Status, &dl.Attempts, &dl.NextAt,
		&dl.LastStatus, &dl.LastError, &dl.CreatedAt, &dl.UpdatedAt}, extra...)...)
	dl.NextAt, dl.CreatedAt, dl.UpdatedAt = dl.NextAt.UTC(), dl.CreatedAt.UTC(), dl.UpdatedAt.UTC()
	return dl, err
}

// Deliveries lists user's deliveries, newest first.
func (d *DB) Deliveries(user string, offset, limit int) ([]store.Delivery, int, error) {
	out := []store.Delivery{}
	if !readable(user) {
		return out, 0, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	var total int
	if err := d.pool.QueryRow(ctx, `SELECT count(*) FROM deliveries WHERE user_id = $1`, user).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("cannot list deliveries: %w", err)
	}
	out, err := deliveries(ctx, d.pool, `SELECT `+deliveryColumns+` FROM deliveries WHERE user_id = $1 ORDER BY seq DESC OFFSET $2 LIMIT $3`, user, offset, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot list deliveries: %w", err)
	}
	return out, total, nil
}

func deliveries(ctx context.Context, q querier, sql string, args ...any) ([]store.Delivery, error) {
	out := []store.Delivery{}
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		dl, err := scanDelivery(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, dl)
	}
	return out, rows.Err()
}

// Claim leases up to max due deliveries: the rows are picked with FOR
// UPDATE SKIP LOCKED, so nodes claiming at once take different rows and
// never wait on each other, and a claimed row's next_at moves to the end
// of its lease, after which any node may claim it again.
func (d *DB) Claim(at time.Time, lease time.Duration, max int) ([]store.Job, error) {
	ctx, cancel := opContext()
	defer cancel()
	at = at.UTC().Round(0)
	var jobs []store.Job
	err := d.write(ctx, func(tx pgx.Tx) error {
		jobs = jobs[:0]
		rows, err := tx.Query(ctx, `WITH c AS (
				SELECT id FROM deliveries WHERE status = 'pending' AND next_at <= $1
				ORDER BY next_at LIMIT $2 FOR UPDATE SKIP LOCKED)
			UPDATE deliveries d SET next_at = $3, updated_at = $1,
				lease = md5(random()::text || clock_timestamp()::text || d.id)
			FROM c WHERE d.id = c.id
			RETURNING d.`+deliveryColumnsOf("d")+`, d.lease,
				(SELECT doc FROM events e WHERE e.id = d.event_id),
				(SELECT url FROM webhooks w WHERE w.user_id = d.user_id AND w.id = d.webhook_id),
				(SELECT secret FROM webhooks w WHERE w.user_id = d.user_id AND w.id = d.webhook_id)`,
			at, max, at.Add(lease))
		if err != nil {
			return err
		}
		var gone []string
		for rows.Next() {
			var j store.Job
			var url, secret *string
			var lease string
			if j.Delivery, err = scanDelivery(rows, &lease, &j.Body, &url, &secret); err != nil {
				rows.Close()
				return err
			}
			j.Lease = lease
			if url == nil || secret == nil || j.Body == nil {
				gone = append(gone, j.ID)
				continue
			}
			j.URL, j.Secret = *url, *secret
			jobs = append(jobs, j)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(gone) > 0 {
			_, err = tx.Exec(ctx, `UPDATE deliveries SET status = 'failed', lease = '', last_error = 'the endpoint was removed' WHERE id = ANY($1)`, gone)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cannot claim deliveries: %w", err)
	}
	return jobs, nil
}

// deliveryColumnsOf is deliveryColumns qualified by table t past the first.
func deliveryColumnsOf(t string) string {
	return `id, ` + t + `.user_id, ` + t + `.event_id, ` + t + `.event_type, ` + t + `.webhook_id, ` + t + `.status, ` + t + `.attempts, ` +
		t + `.next_at, ` + t + `.last_status, ` + t + `.last_error, ` + t + `.created_at, ` + t + `.updated_at`
}

// Settle records an attempt of a claimed delivery; store.ErrStale when the
// claim's lease was lost.
func (d *DB) Settle(a store.Attempt) error {
	dl := store.Delivery{Status: store.Pending}
	store.Settle(&dl, &a)
	ctx, cancel := opContext()
	defer cancel()
	var tag pgconn.CommandTag
	var err error
	if a.Postponed {
		tag, err = d.pool.Exec(ctx, `UPDATE deliveries SET next_at = $4, updated_at = $5, lease = ''
			WHERE id = $1 AND user_id = $2 AND lease = $3 AND lease <> '' AND status = 'pending'`,
			a.ID, a.User, a.Lease, dl.NextAt, dl.UpdatedAt)
	} else {
		tag, err = d.pool.Exec(ctx, `UPDATE deliveries SET attempts = attempts + 1, status = $4, next_at = CASE WHEN $4 = 'pending' THEN $5 ELSE next_at END,
			last_status = $6, last_error = $7, updated_at = $8, lease = ''
			WHERE id = $1 AND user_id = $2 AND lease = $3 AND lease <> '' AND status = 'pending'`,
			a.ID, a.User, a.Lease, dl.Status, dl.NextAt, dl.LastStatus, dl.LastError, dl.UpdatedAt)
	}
	if err != nil {
		return fmt.Errorf("cannot settle delivery: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrStale
	}
	return nil
}

// EachPlan calls fn with every saved plan.
func (d *DB) EachPlan(fn func(user string, doc []byte) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*OpTimeout)
	defer cancel()
	rows, err := d.pool.Query(ctx, `SELECT user_id, doc FROM plans ORDER BY user_id, seq`)
	if err != nil {
		return fmt.Errorf("cannot read plans: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var user string
		var doc []byte
		if err := rows.Scan(&user, &doc); err != nil {
			return fmt.Errorf("cannot read plans: %w", err)
		}
		if err := fn(user, doc); err != nil {
			return err
		}
	}
	return rows.Err()
}

// exportOutbox reads user's webhooks (without secrets), events and
// deliveries into e.
func exportOutbox(ctx context.Context, tx pgx.Tx, user string, e *store.Export) error {
	hs, err := hooks(ctx, tx, user)
	if err != nil {
		return err
	}
	for _, h := range hs {
		h.Secret = ""
		e.Hooks = append(e.Hooks, h)
	}
	err = each(ctx, tx, `SELECT doc FROM events WHERE user_id = $1 ORDER BY seq DESC`, user, func(r pgx.Rows) error {
		var doc []byte
		if err := r.Scan(&doc); err != nil {
			return err
		}
		ev := store.Event{User: user}
		if err := json.Unmarshal(doc, &ev); err != nil {
			return err
		}
		e.Events = append(e.Events, ev)
		return nil
	})
	if err != nil {
		return err
	}
	dls, err := deliveries(ctx, tx, `SELECT `+deliveryColumns+` FROM deliveries WHERE user_id = $1 ORDER BY seq DESC`, user)
	e.Deliveries = append(e.Deliveries, dls...)
	return err
}
