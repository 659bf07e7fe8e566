package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// The documents a user owns (assets, saved plans, webhook endpoints) are
// read, listed, rewritten and deleted the same way: a row of user_id, id
// and (but for webhooks) doc, listed in creation order (seq). Rewrites and
// checked deletes lock the row and give the caller's function the stored
// JSON, its error returned as it is, the new rows written in the same
// transaction. updateOwned, deleteOwned, deleteRow, appendOwned and
// appendPage are each of those once; each kind queues its own writes.

// asIs marks an error of the caller's function, returned without context.
type asIs struct{ error }

// createOwned runs create, a kind's one-round-trip create pipeline (the
// user's row made and locked, kept kept, the insert, the cap counted), for
// user, again when the user was erased between the row's insert and its
// lock; errors read "cannot <op>", the pipeline's past the cap
// store.ErrLimit and on a held unique value store.ErrConflict.
func (d *DB) createOwned(op, user string, kept *store.Keep, create func(ctx context.Context) error) error {
	if err := checkUser(user); err != nil {
		return fmt.Errorf("cannot %s: %w", op, err)
	}
	if err := checkKeep(user, kept); err != nil {
		return fmt.Errorf("cannot %s: %w", op, err)
	}
	ctx, cancel := opContext()
	defer cancel()
	for range 3 {
		err := create(ctx)
		if !isCode(err, codeForeignKey) {
			if err != nil {
				return fmt.Errorf("cannot %s: %w", op, d.keyUsed(ctx, created(err), kept))
			}
			return nil
		}
		// The user was erased between the row's insert and its lock.
	}
	return fmt.Errorf("cannot %s: user %q deleted while being written", op, user)
}

// created is a create pipeline's error as the store's sentinels.
func created(err error) error {
	if isCode(err, codeLimit) {
		return store.ErrLimit
	}
	return conflict(err)
}

// updateOwned rewrites user's document id in table (its rows hold user_id,
// id and doc) in one transaction, the row locked: edit receives the stored
// JSON and writes the new rows; an error it wraps in asIs is returned as
// it is, any other with "cannot <op>". store.ErrNotFound when the user has
// no such row.
func (d *DB) updateOwned(table, op, user, id string, edit func(ctx context.Context, tx pgx.Tx, old []byte) error) error {
	if !readable(user) || !readable(id) {
		return store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	var fnErr error
	err := d.write(ctx, func(tx pgx.Tx) error {
		var old []byte
		err := tx.QueryRow(ctx, `SELECT doc FROM `+table+` WHERE user_id = $1 AND id = $2 FOR UPDATE`, user, id).Scan(&old)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		err = edit(ctx, tx, old)
		if own := (asIs{}); errors.As(err, &own) {
			fnErr = own.error
		}
		return err
	})
	switch {
	case fnErr != nil:
		return fnErr
	case errors.Is(err, store.ErrNotFound):
		return err
	case err != nil:
		return fmt.Errorf("cannot %s: %w", op, err)
	}
	return nil
}

// deleteOwned deletes user's document id of table in one transaction, the
// row locked: check, when not nil, sees the stored JSON first and its
// error is returned as it is; finish sends the delete, queued in b, with
// the kind's other writes. store.ErrNotFound when the user has no such row.
func (d *DB) deleteOwned(table, op, user, id string, check func(doc []byte) error, finish func(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error) error {
	return d.updateOwned(table, op, user, id, func(ctx context.Context, tx pgx.Tx, old []byte) error {
		if check != nil {
			if err := check(old); err != nil {
				return asIs{err}
			}
		}
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM `+table+` WHERE user_id = $1 AND id = $2`, user, id)
		return finish(ctx, tx, b)
	})
}

// sendBatch is a finish of deleteOwned that writes nothing more.
func sendBatch(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error {
	return tx.SendBatch(ctx, b).Close()
}

// deleteRow deletes user's row id of table in one round trip, without a
// lock or a check; more, when set, queues statements after the delete
// that may fail it. store.ErrNotFound when the user has no such row; any
// other error as it is.
func (d *DB) deleteRow(ctx context.Context, table, user, id string, more func(b *pgx.Batch)) error {
	if !readable(user) || !readable(id) {
		return store.ErrNotFound
	}
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM `+table+` WHERE user_id = $1 AND id = $2`, user, id)
	if more != nil {
		more(b)
	}
	br := d.pool.SendBatch(ctx, b)
	tag, err := br.Exec()
	for i := 1; err == nil && i < b.Len(); i++ {
		_, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err == nil && tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return err
}

// deleteUnchecked is deleteRow with its own deadline and its error said
// as "cannot <op>".
func (d *DB) deleteUnchecked(table, op, user, id string) error {
	ctx, cancel := opContext()
	defer cancel()
	switch err := d.deleteRow(ctx, table, user, id, nil); {
	case err == nil, errors.Is(err, store.ErrNotFound):
		return err
	default:
		return fmt.Errorf("cannot %s: %w", op, err)
	}
}

// appendOwned appends the JSON of user's document id of table to dst;
// store.ErrNotFound when absent, other errors as "cannot <op>".
func (d *DB) appendOwned(dst []byte, table, op, user, id string) ([]byte, error) {
	if !readable(user) || !readable(id) {
		return dst, store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, `SELECT doc FROM `+table+` WHERE user_id = $1 AND id = $2`, user, id)
	if err != nil {
		return dst, fmt.Errorf("cannot %s: %w", op, err)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		found = true
		doc, err := column(rows, 0)
		if err != nil {
			return dst, fmt.Errorf("cannot %s: %w", op, err)
		}
		dst = append(dst, doc...)
	}
	if err := rows.Err(); err != nil {
		return dst, fmt.Errorf("cannot %s: %w", op, err)
	}
	if !found {
		return dst, store.ErrNotFound
	}
	return dst, nil
}

// pageOf is the statement of a page of user's documents of table whose
// rows match where ($1 is the user, then the kind's arguments): the count
// of matches as its first row (doc NULL), then the page (OFFSET and LIMIT
// the two arguments after the kind's), in one statement and so one
// snapshot.
func pageOf(table, where string, args int) string {
	off, lim := "$"+strconv.Itoa(args+2), "$"+strconv.Itoa(args+3)
	return `
	SELECT 0 AS part, 0::bigint AS seq, count(*) AS total, NULL::bytea AS doc
	FROM ` + table + ` WHERE user_id = $1` + where + `
	UNION ALL
	(SELECT 1, seq, 0, doc FROM ` + table + ` WHERE user_id = $1` + where + `
	 ORDER BY seq OFFSET ` + off + ` LIMIT ` + lim + `)
	ORDER BY part, seq`
}

// appendPage appends to dst, comma-separated, the JSON of the page that
// query (a pageOf statement) reads with args; total counts every match.
// Errors read "cannot <op>".
func (d *DB) appendPage(dst []byte, op, query string, args ...any) (_ []byte, total int, err error) {
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, query, args...)
	if err != nil {
		return dst, 0, fmt.Errorf("cannot %s: %w", op, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		doc, err := column(rows, 3)
		if err != nil {
			return dst, 0, fmt.Errorf("cannot %s: %w", op, err)
		}
		if doc == nil {
			if total, err = bigint(rows, 2); err != nil {
				return dst, 0, fmt.Errorf("cannot %s: %w", op, err)
			}
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, doc...)
		n++
	}
	if err := rows.Err(); err != nil {
		return dst, 0, fmt.Errorf("cannot %s: %w", op, err)
	}
	return dst, total, nil
}
