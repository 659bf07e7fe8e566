package postgres

import (
	"context"
	"encoding/json"
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
	var watch []byte
	if w != nil {
		w.Plan = id
		var err error
		if watch, err = json.Marshal(w); err != nil {
			return fmt.Errorf("cannot create plan: %w", err)
		}
	}
	return d.createOwned("create plan", user, kept, func(ctx context.Context) error {
		return d.createPlan(ctx, user, id, doc, max, kept, watch)
	})
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
	return d.pool.SendBatch(ctx, b).Close()
}

// UpdatePlan rewrites user's plan id in one transaction, the plan's row
// locked: fn receives the stored JSON and returns the new JSON, or an
// error returned as it is. store.ErrNotFound when the user has no such
// plan.
func (d *DB) UpdatePlan(user, id string, fn func(old []byte) ([]byte, *store.PlanWatch, error)) error {
	return d.updateOwned("plans", "update plan", user, id, func(ctx context.Context, tx pgx.Tx, old []byte) error {
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

// DeletePlan removes user's plan id (its watch with it); store.ErrNotFound
// when absent. check, when not nil, sees the stored JSON first, the row
// locked until the delete commits; its error aborts the delete and is
// returned as it is.
func (d *DB) DeletePlan(user, id string, check func(doc []byte) error) error {
	if check == nil {
		return d.deleteUnchecked("plans", "delete plan", user, id)
	}
	return d.deleteOwned("plans", "delete plan", user, id, check, sendBatch)
}

// AppendPlan appends the JSON of user's plan id to dst;
// store.ErrNotFound when absent.
func (d *DB) AppendPlan(dst []byte, user, id string) ([]byte, error) {
	return d.appendOwned(dst, "plans", "read plan", user, id)
}

// listPlans is a page of the plans.
var listPlans = pageOf("plans", "", 0)

// AppendPlans appends to dst, comma-separated, the JSON of user's plans in
// creation order, skipping offset and taking at most limit; total counts
// them all.
func (d *DB) AppendPlans(dst []byte, user string, offset, limit int) (_ []byte, total int, err error) {
	if !readable(user) {
		return dst, 0, nil
	}
	return d.appendPage(dst, "list plans", listPlans, user, max(offset, 0), max(limit, 0))
}
