package postgres

import (
	"fmt"

	json "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// PutFlag stores the flag's definition v under key, reporting whether it
// is new.
func (d *DB) PutFlag(key string, v any) (created bool, err error) {
	if err := checkText("flag key", key); err != nil {
		return false, fmt.Errorf("cannot put flag: %w", err)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return false, fmt.Errorf("cannot encode flag %q: %w", key, err)
	}
	ctx, cancel := opContext()
	defer cancel()
	// xmax is 0 on a row version that an insert made, not an update.
	err = d.pool.QueryRow(ctx, `INSERT INTO flags (key, def) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET def = EXCLUDED.def RETURNING xmax = 0`, key, raw).Scan(&created)
	if err != nil {
		return false, fmt.Errorf("cannot put flag: %w", err)
	}
	return created, nil
}

// DeleteFlag removes a flag and its exposures; store.ErrNotFound when
// absent.
func (d *DB) DeleteFlag(key string) error {
	if checkText("", key) != nil {
		return store.ErrNotFound
	}
	ctx, cancel := opContext()
	defer cancel()
	tag, err := d.pool.Exec(ctx, `DELETE FROM flags WHERE key = $1`, key)
	if err != nil {
		return fmt.Errorf("cannot delete flag: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return store.ErrNotFound
	}
	return nil
}

// Flags calls fn with every flag's key and JSON definition, in byte order
// of the key; raw is valid only during the call.
func (d *DB) Flags(fn func(key string, raw []byte) error) error {
	ctx, cancel := opContext()
	defer cancel()
	rows, err := d.pool.Query(ctx, `SELECT key, def FROM flags ORDER BY key`)
	if err != nil {
		return fmt.Errorf("cannot read flags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		key, err := column(rows, 0)
		if err != nil {
			return fmt.Errorf("cannot read flags: %w", err)
		}
		def, err := column(rows, 1)
		if err != nil {
			return fmt.Errorf("cannot read flags: %w", err)
		}
		if err := fn(string(key), def); err != nil {
			return fmt.Errorf("cannot read flags: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("cannot read flags: %w", err)
	}
	return nil
}

// FlagsVersion reads the counter that every change to the flags table
// moves (a trigger, so edits by hand count too).
func (d *DB) FlagsVersion() (int64, error) {
	ctx, cancel := opContext()
	defer cancel()
	var v int64
	if err := d.pool.QueryRow(ctx, `SELECT version FROM flags_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("cannot read flags version: %w", err)
	}
	return v, nil
}

// RecordExposures writes flag -> user -> variant in one statement;
// exposures of flags that do not exist are dropped.
func (d *DB) RecordExposures(seen map[string]map[string]string) error {
	var flags, users, variants []string
	for flag, us := range seen {
		if checkText("", flag) != nil {
			continue
		}
		for user, variant := range us {
			if checkText("", user) != nil || checkText("", variant) != nil {
				continue
			}
			flags, users, variants = append(flags, flag), append(users, user), append(variants, variant)
		}
	}
	if len(flags) == 0 {
		return nil
	}
	ctx, cancel := opContext()
	defer cancel()
	const sql = `INSERT INTO exposures (flag, user_id, variant)
		SELECT e.flag, e.user_id, e.variant
		FROM unnest($1::text[], $2::text[], $3::text[]) AS e(flag, user_id, variant)
		JOIN flags f ON f.key = e.flag
		ON CONFLICT (flag, user_id) DO UPDATE SET variant = EXCLUDED.variant`
	_, err := d.pool.Exec(ctx, sql, flags, users, variants)
	if isCode(err, codeForeignKey) {
		// A flag was deleted after the statement's snapshot: the retry's
		// join no longer sees it.
		_, err = d.pool.Exec(ctx, sql, flags, users, variants)
	}
	if err != nil {
		return fmt.Errorf("cannot record exposures: %w", err)
	}
	return nil
}

// Exposures counts the distinct users recorded for a flag, by variant.
func (d *DB) Exposures(key string) (map[string]int, error) {
	counts := map[string]int{}
	if checkText("", key) != nil {
		return counts, nil
	}
	ctx, cancel := opContext()
	defer cancel()
	err := each(ctx, d.pool, `SELECT variant, count(*) FROM exposures WHERE flag = $1 GROUP BY variant`, key, func(r pgx.Rows) error {
		var v string
		var n int
		if err := r.Scan(&v, &n); err != nil {
			return err
		}
		counts[v] = n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot count exposures: %w", err)
	}
	return counts, nil
}
