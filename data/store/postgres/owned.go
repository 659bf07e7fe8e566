package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// The documents a user owns (assets, saved plans) are rewritten the same
// way: their row locked, the caller's function given the stored JSON, its
// error returned as it is, the new rows written in the same transaction.
// updateOwned is that once; each kind queues its own writes.

// asIs marks an error of the caller's function, returned without context.
type asIs struct{ error }

// updateOwned rewrites user's document id in table (its rows hold user_id,
// id and doc) in one transaction, the row locked: edit receives the stored
// JSON and writes the new rows; an error it wraps in asIs is returned as
// it is, any other with "cannot update <what>". store.ErrNotFound when the
// user has no such row.
func (d *DB) updateOwned(table, what, user, id string, edit func(ctx context.Context, tx pgx.Tx, old []byte) error) error {
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
		return fmt.Errorf("cannot update %s: %w", what, err)
	}
	return nil
}
