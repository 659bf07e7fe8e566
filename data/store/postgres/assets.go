package postgres

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// isinArg is the ISIN column's value: NULL when the asset has none, so that
// assets without an ISIN never collide.
func isinArg(isin string) any {
	if isin == "" {
		return nil
	}
	return isin
}

func checkAsset(m *store.AssetMeta) error {
	if err := m.Check(); err != nil {
		return err
	}
	if err := checkText("asset id", m.ID); err != nil {
		return err
	}
	return checkText("ISIN", m.ISIN)
}

// CreateAsset stores a new asset of user. The insert decides a duplicate id
// or ISIN (store.ErrConflict); the count that follows it, under the user's
// row lock, decides the cap (store.ErrLimit), so racing creates cannot pass
// it.
func (d *DB) CreateAsset(user string, m store.AssetMeta, doc []byte, max int, kept *store.Keep) error {
	if err := checkAsset(&m); err != nil {
		return fmt.Errorf("cannot create asset: %w", err)
	}
	return d.createOwned("create asset", user, kept, func(ctx context.Context) error {
		return d.createAsset(ctx, user, m, doc, max, kept)
	})
}

// createAsset sends the create as one pipeline, one round trip: its
// statements run in one implicit transaction, each with a snapshot of its
// own (READ COMMITTED), and the first that fails rolls all back. The user's
// row is made and locked first, so that the user's writes run one at a
// time; the answer to keep, when there is one, is written next (queueKeep);
// the count that follows the insert sees every create committed before the
// lock was granted, and fails the pipeline (limitCheck) past max, as the
// unique index fails it on a held ISIN.
//
// For a user with a watched plan the pipeline fails at its end
// (queueUnwatched) and the create is made again inside a transaction that
// also judges the assets against the watches (watchAssets).
func (d *DB) createAsset(ctx context.Context, user string, m store.AssetMeta, doc []byte, max int, kept *store.Keep) error {
	queue := func(b *pgx.Batch) {
		queueUserLock(b, user)
		queueKeep(b, kept)
		b.Queue(`INSERT INTO assets (user_id, id, isin, category, doc) VALUES ($1, $2, $3, $4, $5)`,
			user, m.ID, isinArg(m.ISIN), int16(m.Category), doc)
		b.Queue(limitCheck(`SELECT count(*) FROM (SELECT 1 FROM assets WHERE user_id = $1 LIMIT $2) s`), user, max+1, max)
	}
	b := &pgx.Batch{}
	queue(b)
	d.queueUnwatched(b, user)
	err := d.pool.SendBatch(ctx, b).Close()
	if isCode(err, codeWatched) {
		err = d.write(ctx, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			queue(b)
			return d.watchAssets(ctx, tx, user, b)
		})
	}
	return err
}

// UpdateAsset rewrites user's asset id in one transaction, the asset's row
// locked: fn receives the stored JSON and returns the new meta and JSON,
// or an error returned as it is. store.ErrNotFound when the user has no
// such asset; store.ErrConflict when the new ISIN is held by another.
func (d *DB) UpdateAsset(user, id string, fn func(old []byte) (store.AssetMeta, []byte, error)) error {
	return d.updateOwned("assets", "update asset", user, id, func(ctx context.Context, tx pgx.Tx, old []byte) error {
		m, doc, err := fn(old)
		if err != nil {
			return asIs{err}
		}
		if m.ID != id {
			return errors.New("the asset id cannot change")
		}
		if err := checkAsset(&m); err != nil {
			return err
		}
		b := &pgx.Batch{}
		b.Queue(`UPDATE assets SET isin = $3, category = $4, doc = $5 WHERE user_id = $1 AND id = $2`,
			user, id, isinArg(m.ISIN), int16(m.Category), doc)
		return d.watchAssets(ctx, tx, user, b)
	})
}

// DeleteAsset removes user's asset id; store.ErrNotFound when absent.
// check, when not nil, sees the stored JSON first, the row locked until the
// delete commits; its error aborts the delete and is returned as it is.
// Without a check the delete is one round trip: the delete, then, when
// asset writes are judged, the check that fails the pipeline (and undoes
// the delete) for a user with a watched plan, who is deleted from again
// inside a transaction that judges the assets.
func (d *DB) DeleteAsset(user, id string, check func(doc []byte) error) error {
	if check == nil {
		ctx, cancel := opContext()
		err := d.deleteRow(ctx, "assets", user, id, func(b *pgx.Batch) { d.queueUnwatched(b, user) })
		cancel()
		switch {
		case err == nil, errors.Is(err, store.ErrNotFound):
			return err
		case !isCode(err, codeWatched):
			return fmt.Errorf("cannot delete asset: %w", err)
		}
	}
	return d.deleteOwned("assets", "delete asset", user, id, check, func(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error {
		return d.watchAssets(ctx, tx, user, b)
	})
}

// AppendAsset appends the JSON of user's asset id to dst;
// store.ErrNotFound when absent.
func (d *DB) AppendAsset(dst []byte, user, id string) ([]byte, error) {
	return d.appendOwned(dst, "assets", "read asset", user, id)
}

// listAssets is a page of the assets of a category ($2, < 0 for all).
var listAssets = pageOf("assets", " AND ($2::int < 0 OR category = $2)", 1)

// AppendAssets appends to dst, comma-separated, the JSON of user's assets
// of category (store.AnyCategory for all), in creation order, skipping
// offset and taking at most limit; total counts every match.
func (d *DB) AppendAssets(dst []byte, user string, category, offset, limit int) (_ []byte, total int, err error) {
	if !readable(user) {
		return dst, 0, nil
	}
	if category < 0 {
		category = store.AnyCategory
	}
	return d.appendPage(dst, "list assets", listAssets, user, category, max(offset, 0), max(limit, 0))
}

// Assets calls fn with the JSON of each of user's assets, in creation
// order, from one statement; doc is valid only during the call.
func (d *DB) Assets(user string, fn func(doc []byte) error) error {
	if !readable(user) {
		return nil
	}
	ctx, cancel := opContext()
	defer cancel()
	if err := eachAsset(ctx, d.pool, user, fn); err != nil {
		return fmt.Errorf("cannot read assets: %w", err)
	}
	return nil
}

func eachAsset(ctx context.Context, q querier, user string, fn func(doc []byte) error) error {
	rows, err := q.Query(ctx, `SELECT doc FROM assets WHERE user_id = $1 ORDER BY seq`, user)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		doc, err := column(rows, 0)
		if err != nil {
			return err
		}
		if err := fn(doc); err != nil {
			return err
		}
	}
	return rows.Err()
}

// bigint returns column i of the current row, a bigint: read from pgx's
// buffer when the row came in binary format (Scan would move its targets
// to the heap, on every list), else scanned.
func bigint(rows pgx.Rows, i int) (int, error) {
	if rows.FieldDescriptions()[i].Format == pgx.BinaryFormatCode {
		raw := rows.RawValues()[i]
		if len(raw) != 8 {
			return 0, fmt.Errorf("column %d has %d bytes, not a bigint's 8", i, len(raw))
		}
		return int(int64(binary.BigEndian.Uint64(raw))), nil
	}
	vals, err := rows.Values()
	if err != nil {
		return 0, err
	}
	n, ok := vals[i].(int64)
	if !ok {
		return 0, fmt.Errorf("column %d has type %T", i, vals[i])
	}
	return int(n), nil
}

// column returns the bytes of column i of the current row, a bytea or
// text column, nil when NULL: pgx's buffer itself when the row came in
// binary format (valid until the next row), a decoded copy when it came as
// text (a URL may ask for the simple protocol, for a pooler).
func column(rows pgx.Rows, i int) ([]byte, error) {
	if rows.FieldDescriptions()[i].Format == pgx.BinaryFormatCode {
		return rows.RawValues()[i], nil
	}
	vals, err := rows.Values()
	if err != nil {
		return nil, err
	}
	switch v := vals[i].(type) {
	case nil:
		return nil, nil
	case []byte:
		return v, nil
	case string:
		return []byte(v), nil
	}
	return nil, fmt.Errorf("column %d has type %T", i, vals[i])
}
