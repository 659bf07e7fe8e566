package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// CreateKey stores k with hash, the SHA-256 of the plain key, in one round
// trip under the owner's row lock, as CreateAsset does: the insert decides
// a duplicate hash or id (store.ErrConflict); the count after it decides
// the cap (store.ErrLimit; max <= 0 permits none); kept is kept. A zero
// CreatedAt becomes now.
func (d *DB) CreateKey(k store.Key, hash [32]byte, max int, kept *store.Keep) error {
	if !store.ValidID(k.Owner) || !store.ValidID(k.ID) || strings.IndexByte(k.ID, 0) >= 0 {
		return fmt.Errorf("cannot create key: %w", fmt.Errorf("invalid owner or key id (1..%d bytes, id without NUL)", store.MaxIDLen))
	}
	for _, f := range []struct{ what, v string }{{"owner", k.Owner}, {"key id", k.ID}, {"key name", k.Name}, {"key hint", k.Hint}} {
		if err := checkText(f.what, f.v); err != nil {
			return fmt.Errorf("cannot create key: %w", err)
		}
	}
	if err := checkKeep(k.Owner, kept); err != nil {
		return fmt.Errorf("cannot create key: %w", err)
	}
	created := k.CreatedAt.UTC()
	if k.CreatedAt.IsZero() {
		created = now()
	}
	var lastUsed any
	if !k.LastUsedAt.IsZero() {
		lastUsed = k.LastUsedAt.UTC()
	}
	ctx, cancel := opContext()
	defer cancel()
	for range 3 {
		b := &pgx.Batch{}
		queueUserLock(b, k.Owner)
		queueKeep(b, kept)
		b.Queue(`INSERT INTO api_keys (hash, user_id, id, name, hint, created_at, last_used_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, hash[:], k.Owner, k.ID, k.Name, k.Hint, created, lastUsed)
		b.Queue(limitCheck(`SELECT count(*) FROM api_keys WHERE user_id = $1`), k.Owner, max)
		err := d.pool.SendBatch(ctx, b).Close()
		switch {
		case err == nil:
			return nil
		case isCode(err, codeForeignKey):
			continue // the owner was erased between the row's insert and its lock
		case isCode(err, codeLimit):
			return fmt.Errorf("cannot create key: %w", store.ErrLimit)
		}
		return fmt.Errorf("cannot create key: %w", d.keyUsed(ctx, conflict(err), kept))
	}
	return fmt.Errorf("cannot create key: owner %q deleted while being written", k.Owner)
}

const keyColumns = `id, user_id, name, hint, created_at, last_used_at`

// scanKey reads the keyColumns of a row.
func scanKey(r pgx.Row, extra ...any) (store.Key, error) {
	var (
		k    store.Key
		last *time.Time
	)
	err := r.Scan(append([]any{&k.ID, &k.Owner, &k.Name, &k.Hint, &k.CreatedAt, &last}, extra...)...)
	k.CreatedAt = utc(k.CreatedAt)
	if last != nil {
		k.LastUsedAt = utc(*last)
	}
	return k, err
}

// Keys lists owner's keys sorted by CreatedAt, then ID; an empty, non-nil
// slice when there are none.
func (d *DB) Keys(owner string) ([]store.Key, error) {
	out := []store.Key{}
	if !readable(owner) {
		return out, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	out, err := keys(ctx, d.pool, owner, out)
	if err != nil {
		return nil, fmt.Errorf("cannot list keys: %w", err)
	}
	return out, nil
}

func keys(ctx context.Context, q querier, owner string, out []store.Key) ([]store.Key, error) {
	err := each(ctx, q, `SELECT `+keyColumns+` FROM api_keys WHERE user_id = $1 ORDER BY created_at, id`, owner, func(r pgx.Rows) error {
		k, err := scanKey(r)
		out = append(out, k)
		return err
	})
	return out, err
}

// RevokeKey deletes owner's key id; store.ErrNotFound when owner has no
// such key. The next LookupKey, on any node, no longer finds it.
func (d *DB) RevokeKey(owner, id string) error {
	return d.deleteUnchecked("api_keys", "revoke key", owner, id)
}

// LookupKey finds the key whose plain text hashes to hash, with its
// owner's account; store.ErrNotFound when there is none.
func (d *DB) LookupKey(hash [32]byte) (store.Key, store.Account, error) {
	ctx, cancel := opContext()
	defer cancel()
	var a store.Account
	row := d.pool.QueryRow(ctx, `SELECT k.id, k.user_id, k.name, k.hint, k.created_at, k.last_used_at,
			u.tier, u.created_at, u.updated_at
		FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.hash = $1`, hash[:])
	k, err := scanKey(row, &a.Tier, &a.CreatedAt, &a.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Key{}, store.Account{}, store.ErrNotFound
	}
	if err != nil {
		return store.Key{}, store.Account{}, fmt.Errorf("cannot look up key: %w", err)
	}
	a.CreatedAt, a.UpdatedAt = utc(a.CreatedAt), utc(a.UpdatedAt)
	return k, a, nil
}

// TouchKeys records key use (store.KeyRef -> time) in one statement; a
// stored later time is kept, unknown refs are ignored.
func (d *DB) TouchKeys(used map[string]time.Time) error {
	owners := make([]string, 0, len(used))
	ids := make([]string, 0, len(used))
	times := make([]time.Time, 0, len(used))
	for ref, t := range used {
		owner, id, ok := store.SplitKeyRef(ref)
		if !ok || !readable(owner) || !readable(id) {
			continue
		}
		owners, ids, times = append(owners, owner), append(ids, id), append(times, t.UTC())
	}
	if len(owners) == 0 {
		return nil
	}
	ctx, cancel := opContext()
	defer cancel()
	_, err := d.pool.Exec(ctx, `UPDATE api_keys k SET last_used_at = u.t
		FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u(owner, id, t)
		WHERE k.user_id = u.owner AND k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.t)`,
		owners, ids, times)
	if err != nil {
		return fmt.Errorf("cannot touch keys: %w", err)
	}
	return nil
}
