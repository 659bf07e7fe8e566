package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

func checkPlan(id string) error {
	if err := store.CheckPlanID(id); err != nil {
		return err
	}
	return checkText("plan id", id)
}

// CreatePlan stores a new plan of user and its watch w in one round trip
// (one implicit transaction): the user's row is made and locked, the
// insert decides a duplicate id (store.ErrConflict) and the count after
// it, under the lock, the cap (store.ErrLimit), and kept is kept, as
// CreateAsset does.
func (d *DB) CreatePlan(user, id string, doc []byte, max int, kept *store.Keep, w *store.PlanWatch) error {
	if err := checkPlan(id); err != nil {
		return fmt.Errorf("cannot create plan: %w", err)
	}
	if err := checkUser(user); err != nil {
		return fmt.Errorf("cannot create plan: %w", err)
	}
	if err := checkKeep(user, kept); err != nil {
		return fmt.Errorf("cannot create plan: %w", err)
	}
	var watch []byte
	if w != nil {
		w.Plan = id
		var err error
		if watch, err = json.Marshal(w); err != nil {
			return fmt.Errorf("cannot create plan: %w", err)
		}
	}
	ctx, cancel := opContext()
	defer cancel()
	for range 3 {
		err := d.createPlan(ctx, user, id, doc, max, kept, watch)
		if !isCode(err, codeForeignKey) {
			if err != nil {
				return fmt.Errorf("cannot create plan: %w", d.keyUsed(ctx, err, kept))
			}
			return nil
		}
		// The user was erased between the row's insert and its lock.
	}
	return fmt.Errorf("cannot create plan: user %q deleted while being written", user)
}

func (d *DB) createPlan(ctx context.Context, user, id string, doc []byte, max int, kept *store.Keep, watch []byte) error {
	b := &pgx.Batch{}
	queueUserLock(b, user)
	queueKeep(b, kept)
	b.Queue(`INSERT INTO plans (user_id, id, doc) VALUES ($1, $2, $3)`, user, id, doc)
	if watch != nil {
		b.Queue(`INSERT INTO plan_watch (user_id, plan_id, doc) VALUES ($1, $2, $3)`, user, id, watch)
	}
	b.Queue(limitCheck(`SELECT count(*) FROM (SELECT 1 FROM plans WHERE user_id = $1 LIMIT $2) s`), user, max+1, max)
	err := d.pool.SendBatch(ctx, b).Close()
	switch {
	case isCode(err, codeLimit):
		return store.ErrLimit
	case err != nil:
		return conflict(err)
	}
	return nil
}

// UpdatePlan rewrites user's plan id in one transaction, the plan's row
// locked: fn receives the stored JSON and returns the new JSON, or an
// error returned as it is. store.ErrNotFound when the user has no such
// plan.
func (d *DB) UpdatePlan(user, id string, fn func(old []byte) ([]byte, *store.PlanWatch, error)) error {
	return d.updateOwned("plans", "plan", user, id, func(ctx context.Context, tx pgx.Tx, old []byte) error {
		doc, w, err := fn(old)
		if err != nil {
			return asIs{err}
		}
		b := &pgx.Batch{}
		b.Queue(`UPDATE plans SET doc = $3 WHERE user_id = $1 AND id = $2`, user, id, doc)
		if w == nil {
			b.Queue(`DELETE FROM plan_watch WHERE user_id = $1 AND plan_id = $2`, user, id)
		} else {
			w.Plan = id
			watch, err := json.Marshal(w)
			if err != nil {
				return err
			}
			b.Queue(`INSERT INTO plan_watch (user_id, plan_id, doc) VALUES ($1, $2, $3)
				ON CONFLICT (user_id, plan_id) DO UPDATE SET doc = EXCLUDED.doc`, user, id, watch)
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// DeletePlan removes user's plan id; store.ErrNotFound when absent.
// check, when not nil, sees the stored JSON first, the row locked until
// the delete commits; its error aborts the delete and is returned as it is.
func (d *DB) DeletePlan(user, id string, check func(doc []byte) error) error {
	if !readable(user) || !readable(id) {
		return store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	var checkErr error
	err := d.write(ctx, func(tx pgx.Tx) error {
		var doc []byte
		err := tx.QueryRow(ctx, `SELECT doc FROM plans WHERE user_id = $1 AND id = $2 FOR UPDATE`, user, id).Scan(&doc)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		if check != nil {
			if checkErr = check(doc); checkErr != nil {
				return checkErr
			}
		}
		_, err = tx.Exec(ctx, `DELETE FROM plans WHERE user_id = $1 AND id = $2`, user, id)
		return err
	})
	switch {
	case checkErr != nil:
		return checkErr
	case errors.Is(err, store.ErrNotFound):
		return err
	case err != nil:
		return fmt.Errorf("cannot delete plan: %w", err)
	}
	return nil
}

// AppendPlan appends the JSON of user's plan id to dst;
// store.ErrNotFound when absent.
func (d *DB) AppendPlan(dst []byte, user, id string) ([]byte, error) {
	if !readable(user) || !readable(id) {
		return dst, store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	var doc []byte
	err := d.pool.QueryRow(ctx, `SELECT doc FROM plans WHERE user_id = $1 AND id = $2`, user, id).Scan(&doc)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return dst, store.ErrNotFound
	case err != nil:
		return dst, fmt.Errorf("cannot read plan: %w", err)
	}
	return append(dst, doc...), nil
}

// listPlans returns the count as its first row (doc NULL), then the page,
// in one statement and so one snapshot.
const listPlans = `
	SELECT 0 AS part, 0::bigint AS seq, count(*) AS total, NULL::bytea AS doc
	FROM plans WHERE user_id = $1
	UNION ALL
	(SELECT 1, seq, 0, doc FROM plans WHERE user_id = $1 ORDER BY seq OFFSET $2 LIMIT $3)
	ORDER BY part, seq`

// AppendPlans appends to dst, comma-separated, the JSON of user's plans in
// creation order, skipping offset and taking at most limit; total counts
// them all.
func (d *DB) AppendPlans(dst []byte, user string, offset, limit int) (_ []byte, total int, err error) {
	if !readable(user) {
		return dst, 0, nil
	}
	offset, limit = max(offset, 0), max(limit, 0)
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, listPlans, user, offset, limit)
	if err != nil {
		return dst, 0, fmt.Errorf("cannot list plans: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		doc, err := column(rows, 3)
		if err != nil {
			return dst, 0, fmt.Errorf("cannot list plans: %w", err)
		}
		if doc == nil {
			var part, seq, t int64
			if err := rows.Scan(&part, &seq, &t, nil); err != nil {
				return dst, 0, fmt.Errorf("cannot list plans: %w", err)
			}
			total = int(t)
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, doc...)
		n++
	}
	if err := rows.Err(); err != nil {
		return dst, 0, fmt.Errorf("cannot list plans: %w", err)
	}
	return dst, total, nil
}
