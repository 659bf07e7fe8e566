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
	if err := checkUser(user); err != nil {
		return fmt.Errorf("cannot create asset: %w", err)
	}
	if err := checkKeep(user, kept); err != nil {
		return fmt.Errorf("cannot create asset: %w", err)
	}
	ctx, cancel := opContext()
	defer cancel()
	for range 3 {
		err := d.createAsset(ctx, user, m, doc, max, kept)
		if !isCode(err, codeForeignKey) {
			if err != nil {
				return fmt.Errorf("cannot create asset: %w", d.keyUsed(ctx, err, kept))
			}
			return nil
		}
		// The user was erased between the row's insert and its lock.
	}
	return fmt.Errorf("cannot create asset: user %q deleted while being written", user)
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
	switch {
	case isCode(err, codeLimit):
		return store.ErrLimit
	case err != nil:
		return conflict(err)
	}
	return nil
}

// UpdateAsset rewrites user's asset id in one transaction, the asset's row
// locked: fn receives the stored JSON and returns the new meta and JSON,
// or an error returned as it is. store.ErrNotFound when the user has no
// such asset; store.ErrConflict when the new ISIN is held by another.
func (d *DB) UpdateAsset(user, id string, fn func(old []byte) (store.AssetMeta, []byte, error)) error {
	return d.updateOwned("assets", "asset", user, id, func(ctx context.Context, tx pgx.Tx, old []byte) error {
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
func (d *DB) DeleteAsset(user, id string, check func(doc []byte) error) error {
	if !readable(user) || !readable(id) {
		return store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	if check == nil {
		switch err := d.deleteAsset(ctx, user, id); {
		case errors.Is(err, store.ErrNotFound):
			return err
		case err == nil:
			return nil
		case !isCode(err, codeWatched):
			return fmt.Errorf("cannot delete asset: %w", err)
		}
	}
	var checkErr error
	err := d.write(ctx, func(tx pgx.Tx) error {
		var doc []byte
		err := tx.QueryRow(ctx, `SELECT doc FROM assets WHERE user_id = $1 AND id = $2 FOR UPDATE`, user, id).Scan(&doc)
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
		b := &pgx.Batch{}
		b.Queue(`DELETE FROM assets WHERE user_id = $1 AND id = $2`, user, id)
		return d.watchAssets(ctx, tx, user, b)
	})
	switch {
	case checkErr != nil:
		return checkErr
	case errors.Is(err, store.ErrNotFound):
		return err
	case err != nil:
		return fmt.Errorf("cannot delete asset: %w", err)
	}
	return nil
}

// deleteAsset deletes without a check in one round trip: the delete, then,
// when asset writes are judged, the check that fails the pipeline (and
// undoes the delete) for a user with a watched plan.
func (d *DB) deleteAsset(ctx context.Context, user, id string) error {
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM assets WHERE user_id = $1 AND id = $2`, user, id)
	d.queueUnwatched(b, user)
	br := d.pool.SendBatch(ctx, b)
	tag, err := br.Exec()
	if err == nil && b.Len() > 1 {
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

// AppendAsset appends the JSON of user's asset id to dst;
// store.ErrNotFound when absent.
func (d *DB) AppendAsset(dst []byte, user, id string) ([]byte, error) {
	if !readable(user) || !readable(id) {
		return dst, store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, `SELECT doc FROM assets WHERE user_id = $1 AND id = $2`, user, id)
	if err != nil {
		return dst, fmt.Errorf("cannot read asset: %w", err)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		found = true
		doc, err := column(rows, 0)
		if err != nil {
			return dst, fmt.Errorf("cannot read asset: %w", err)
		}
		dst = append(dst, doc...)
	}
	if err := rows.Err(); err != nil {
		return dst, fmt.Errorf("cannot read asset: %w", err)
	}
	if !found {
		return dst, store.ErrNotFound
	}
	return dst, nil
}

// listAssets returns the count of matches as its first row (doc NULL),
// then the page, in one statement and so one snapshot.
const listAssets = `
	SELECT 0 AS part, 0::bigint AS seq, count(*) AS total, NULL::bytea AS doc
	FROM assets WHERE user_id = $1 AND ($2::int < 0 OR category = $2)
	UNION ALL
	(SELECT 1, seq, 0, doc FROM assets WHERE user_id = $1 AND ($2::int < 0 OR category = $2)
	 ORDER BY seq OFFSET $3 LIMIT $4)
	ORDER BY part, seq`

// AppendAssets appends to dst, comma-separated, the JSON of user's assets
// of category (store.AnyCategory for all), in creation order, skipping
// offset and taking at most limit; total counts every match.
func (d *DB) AppendAssets(dst []byte, user string, category, offset, limit int) (_ []byte, total int, err error) {
	if !readable(user) {
		return dst, 0, nil
	}
	offset, limit = max(offset, 0), max(limit, 0)
	if category < 0 {
		category = store.AnyCategory
	}
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, listAssets, user, category, offset, limit)
	if err != nil {
		return dst, 0, fmt.Errorf("cannot list assets: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		doc, err := column(rows, 3)
		if err != nil {
			return dst, 0, fmt.Errorf("cannot list assets: %w", err)
		}
		if doc == nil {
			if total, err = bigint(rows, 2); err != nil {
				return dst, 0, fmt.Errorf("cannot list assets: %w", err)
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
		return dst, 0, fmt.Errorf("cannot list assets: %w", err)
	}
	return dst, total, nil
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
