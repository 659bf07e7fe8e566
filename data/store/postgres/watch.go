package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// SetPlanWatch stores w beside user's plan w.Plan, replacing any;
// store.ErrNotFound when the user has no such plan.
func (d *DB) SetPlanWatch(user string, w store.PlanWatch) error {
	if !readable(user) || !readable(w.Plan) {
		return store.ErrNotFound
	}
	doc, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("cannot store plan watch: %w", err)
	}
	ctx, cancel := opContext()
	defer cancel()
	tag, err := d.pool.Exec(ctx, `INSERT INTO plan_watch (user_id, plan_id, doc)
		SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM plans WHERE user_id = $1 AND id = $2)
		ON CONFLICT (user_id, plan_id) DO UPDATE SET doc = EXCLUDED.doc`, user, w.Plan, doc)
	switch {
	case isCode(err, codeForeignKey) || (err == nil && tag.RowsAffected() == 0):
		return store.ErrNotFound
	case err != nil:
		return fmt.Errorf("cannot store plan watch: %w", err)
	}
	return nil
}

// WatchAssets sets the judge of asset writes; set it before serving.
func (d *DB) WatchAssets(fn store.AssetWatch) { d.watch = fn }

// queueUnwatched ends an asset write's pipeline with the check that fails
// it (codeWatched) when the user has a watched plan, so that a user
// without one keeps the write's single round trip.
func (d *DB) queueUnwatched(b *pgx.Batch, user string) {
	if d.watch != nil {
		b.Queue(`SELECT fiplan_unwatched($1)`, user)
	}
}

// watchAssets sends the asset write queued in b and, in the same
// pipeline, reads user's watches, endpoints and assets (the last two only
// when a watch exists); it then asks the judge for the events the assets
// raise and emits them in tx in one more pipeline. An error of the write
// is returned as conflict makes it.
func (d *DB) watchAssets(ctx context.Context, tx pgx.Tx, user string, b *pgx.Batch) error {
	writes := b.Len()
	if d.watch != nil {
		b.Queue(`SELECT doc FROM plan_watch WHERE user_id = $1 ORDER BY plan_id`, user)
		b.Queue(`SELECT id, url, events, secret, created_at FROM webhooks WHERE user_id = $1
			AND EXISTS (SELECT 1 FROM plan_watch WHERE user_id = $1) ORDER BY created_at, id`, user)
		b.Queue(`SELECT doc FROM assets WHERE user_id = $1
			AND EXISTS (SELECT 1 FROM plan_watch WHERE user_id = $1) ORDER BY seq`, user)
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close() //nolint:errcheck // the first error is returned below
	for range writes {
		if _, err := br.Exec(); err != nil {
			return conflict(err)
		}
	}
	if d.watch == nil {
		return br.Close()
	}
	var ws []store.PlanWatch
	err := eachRow(br, func(r pgx.Rows) error {
		doc, err := column(r, 0)
		if err != nil {
			return err
		}
		var w store.PlanWatch
		if err := json.Unmarshal(doc, &w); err != nil {
			return fmt.Errorf("plan watch: %w", err)
		}
		ws = append(ws, w)
		return nil
	})
	if err != nil {
		return err
	}
	hs := []store.Hook{}
	err = eachRow(br, func(r pgx.Rows) error {
		h, err := scanHook(r, user)
		hs = append(hs, h)
		return err
	})
	if err != nil {
		return err
	}
	var docs [][]byte
	err = eachRow(br, func(r pgx.Rows) error {
		doc, err := column(r, 0)
		docs = append(docs, bytes.Clone(doc)) // pgx reuses its buffer
		return err
	})
	if err != nil {
		return err
	}
	if err := br.Close(); err != nil || len(ws) == 0 {
		return err
	}
	evs, err := d.watch(user, func(fn func(doc []byte) error) error {
		for _, doc := range docs {
			if err := fn(doc); err != nil {
				return err
			}
		}
		return nil
	}, ws)
	if err != nil {
		return err
	}
	_, err = emit(ctx, tx, evs, map[string][]store.Hook{user: hs}, time.Now().UTC().Round(0))
	return err
}

// eachRow calls fn with every row of the next result of br.
func eachRow(br pgx.BatchResults, fn func(pgx.Rows) error) error {
	rows, err := br.Query()
	return eachOf(rows, err, fn)
}

// EachWatch calls fn with every stored watch, from one statement.
func (d *DB) EachWatch(fn func(user string, w store.PlanWatch) error) error {
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, `SELECT user_id, doc FROM plan_watch ORDER BY user_id, plan_id`)
	if err != nil {
		return fmt.Errorf("cannot read plan watches: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var user string
		var doc []byte
		if err := rows.Scan(&user, &doc); err != nil {
			return fmt.Errorf("cannot read plan watches: %w", err)
		}
		var w store.PlanWatch
		if err := json.Unmarshal(doc, &w); err != nil {
			return fmt.Errorf("cannot read plan watch of %q: %w", user, err)
		}
		if err := fn(user, w); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("cannot read plan watches: %w", err)
	}
	return nil
}
