package postgres

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// SaveAccount creates the user's account with tier, or changes its tier,
// in one statement; an account that already has tier is not written.
func (d *DB) SaveAccount(user, tier string) error {
	if err := checkUser(user); err != nil {
		return fmt.Errorf("cannot save account: %w", err)
	}
	if err := checkText("tier", tier); err != nil {
		return fmt.Errorf("cannot save account: %w", err)
	}
	ctx, cancel := opContext()
	defer cancel()
	_, err := d.pool.Exec(ctx, `INSERT INTO users (id, tier, created_at, updated_at) VALUES ($1, $2, $3, $3)
		ON CONFLICT (id) DO UPDATE SET tier = EXCLUDED.tier, updated_at = EXCLUDED.updated_at
		WHERE users.tier <> EXCLUDED.tier`, user, tier, now())
	if err != nil {
		return fmt.Errorf("cannot save account: %w", err)
	}
	return nil
}

// Account returns the user's account; store.ErrNotFound when there is none.
func (d *DB) Account(user string) (store.Account, error) {
	if !readable(user) {
		return store.Account{}, store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	a, err := account(ctx, d.pool, user)
	if errors.Is(err, store.ErrNotFound) {
		return a, err
	}
	if err != nil {
		return a, fmt.Errorf("cannot read account: %w", err)
	}
	return a, nil
}

func account(ctx context.Context, q querier, user string) (store.Account, error) {
	var a store.Account
	err := q.QueryRow(ctx, `SELECT tier, created_at, updated_at FROM users WHERE id = $1`, user).
		Scan(&a.Tier, &a.CreatedAt, &a.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Account{}, store.ErrNotFound
	}
	a.CreatedAt, a.UpdatedAt = utc(a.CreatedAt), utc(a.UpdatedAt)
	return a, err
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func checkDoc(name string) error {
	if err := store.CheckDocName(name); err != nil {
		return err
	}
	return checkText("document name", name)
}

// GetDoc decodes the user's JSON document name into v; false, v untouched,
// when the document or the user does not exist.
func (d *DB) GetDoc(user, name string, v any) (bool, error) {
	if err := checkDoc(name); err != nil {
		return false, fmt.Errorf("cannot get %s: %w", name, err)
	}
	if !readable(user) {
		return false, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	var raw []byte
	err := d.pool.QueryRow(ctx, `SELECT body FROM docs WHERE user_id = $1 AND name = $2`, user, name).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("cannot get %s: %w", name, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("cannot decode %s: %w", name, err)
	}
	return true, nil
}

// PutDoc stores v as the user's JSON document name, creating the user
// (free tier) when absent.
func (d *DB) PutDoc(user, name string, v any) error {
	if err := checkDoc(name); err != nil {
		return fmt.Errorf("cannot put %s: %w", name, err)
	}
	if err := checkUser(user); err != nil {
		return fmt.Errorf("cannot put %s: %w", name, err)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cannot encode %s: %w", name, err)
	}
	ctx, cancel := opContext()
	defer cancel()
	err = d.write(ctx, func(tx pgx.Tx) error {
		if err := ensureUser(ctx, tx, user, now()); err != nil {
			return err
		}
		return putDoc(ctx, tx, user, name, raw)
	})
	if err != nil {
		return fmt.Errorf("cannot put %s: %w", name, err)
	}
	return nil
}

func putDoc(ctx context.Context, tx pgx.Tx, user, name string, raw []byte) error {
	_, err := tx.Exec(ctx, `INSERT INTO docs (user_id, name, body) VALUES ($1, $2, $3)
		ON CONFLICT (user_id, name) DO UPDATE SET body = EXCLUDED.body`, user, name, raw)
	return err
}

// DeleteDoc removes the user's document name; an absent one is not an
// error.
func (d *DB) DeleteDoc(user, name string) error {
	if err := checkDoc(name); err != nil {
		return fmt.Errorf("cannot delete %s: %w", name, err)
	}
	if err := checkUser(user); err != nil {
		return nil
	}
	ctx, cancel := opContext()
	defer cancel()
	err := d.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM docs WHERE user_id = $1 AND name = $2`, user, name)
		return err
	})
	if err != nil {
		return fmt.Errorf("cannot delete %s: %w", name, err)
	}
	return nil
}

// UpdateDoc rewrites the user's JSON document name in one transaction,
// under the user's row lock: fn receives the stored JSON (nil when none)
// and returns the new JSON, or an error returned as it is.
func (d *DB) UpdateDoc(user, name string, fn func(old []byte) ([]byte, error)) error {
	if err := checkDoc(name); err != nil {
		return fmt.Errorf("cannot update %s: %w", name, err)
	}
	if err := checkUser(user); err != nil {
		return fmt.Errorf("cannot update %s: %w", name, err)
	}
	ctx, cancel := opContext()
	defer cancel()
	var fnErr error
	err := d.write(ctx, func(tx pgx.Tx) error {
		if err := ensureUser(ctx, tx, user, now()); err != nil {
			return err
		}
		var old []byte
		err := tx.QueryRow(ctx, `SELECT body FROM docs WHERE user_id = $1 AND name = $2`, user, name).Scan(&old)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		doc, err := fn(old)
		if err != nil {
			fnErr = err
			return err
		}
		return putDoc(ctx, tx, user, name, doc)
	})
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("cannot update %s: %w", name, err)
	}
	return nil
}

// DeleteUser erases the user's account, documents, assets, plans, keys and flag
// exposures in one transaction. An unknown user is not an error.
func (d *DB) DeleteUser(user string) error {
	if !readable(user) {
		return nil
	}
	ctx, cancel := opContext()
	defer cancel()
	err := d.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM exposures WHERE user_id = $1`, user); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM idempotency WHERE user_id = $1`, user); err != nil {
			return err
		}
		// Documents, assets, plans, keys, webhooks, events and deliveries go
		// with the row (ON DELETE CASCADE).
		_, err := tx.Exec(ctx, `DELETE FROM users WHERE id = $1`, user)
		return err
	})
	if err != nil {
		return fmt.Errorf("cannot delete user: %w", err)
	}
	return nil
}

// Export reads everything stored about user in one REPEATABLE READ,
// read-only transaction.
func (d *DB) Export(user string) (store.Export, error) {
	e := store.Export{Docs: map[string][]byte{}, Assets: [][]byte{}, Plans: [][]byte{}, Keys: []store.Key{}, Exposures: map[string]string{},
		Hooks: []store.Hook{}, Deliveries: []store.Delivery{}, Events: []store.Event{}}
	if !readable(user) {
		return e, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err := pgx.BeginTxFunc(ctx, d.pool, opts, func(tx pgx.Tx) error {
		a, err := account(ctx, tx, user)
		switch {
		case err == nil:
			e.Account = &a
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		err = each(ctx, tx, `SELECT name, body FROM docs WHERE user_id = $1`, user, func(r pgx.Rows) error {
			var name string
			var body []byte
			if err := r.Scan(&name, &body); err != nil {
				return err
			}
			e.Docs[name] = body
			return nil
		})
		if err != nil {
			return err
		}
		err = each(ctx, tx, `SELECT doc FROM assets WHERE user_id = $1 ORDER BY seq`, user, func(r pgx.Rows) error {
			var doc []byte
			if err := r.Scan(&doc); err != nil {
				return err
			}
			e.Assets = append(e.Assets, doc)
			return nil
		})
		if err != nil {
			return err
		}
		err = each(ctx, tx, `SELECT doc FROM plans WHERE user_id = $1 ORDER BY seq`, user, func(r pgx.Rows) error {
			var doc []byte
			if err := r.Scan(&doc); err != nil {
				return err
			}
			e.Plans = append(e.Plans, doc)
			return nil
		})
		if err != nil {
			return err
		}
		if e.Keys, err = keys(ctx, tx, user, e.Keys); err != nil {
			return err
		}
		if err := exportOutbox(ctx, tx, user, &e); err != nil {
			return err
		}
		return each(ctx, tx, `SELECT flag, variant FROM exposures WHERE user_id = $1`, user, func(r pgx.Rows) error {
			var flag, variant string
			if err := r.Scan(&flag, &variant); err != nil {
				return err
			}
			e.Exposures[flag] = variant
			return nil
		})
	})
	if err != nil {
		return store.Export{}, fmt.Errorf("cannot export: %w", err)
	}
	return e, nil
}

// each runs a query with one argument and calls fn for each row.
func each(ctx context.Context, q querier, sql string, arg any, fn func(pgx.Rows) error) error {
	rows, err := q.Query(ctx, sql, arg)
	return eachOf(rows, err, fn)
}

// eachOf calls fn for each of rows, the answer of a query that failed
// with err or succeeded, and closes them.
func eachOf(rows pgx.Rows, err error, fn func(pgx.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
