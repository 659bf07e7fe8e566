package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"fiplan/data/store"
)

// Migrations are the files migrations/NNNN_name.sql, applied in order of
// NNNN, each in its own transaction together with its row in
// schema_migrations. A file is never edited once released; a change is a
// new file.
//
// A small runner rather than a migration library: there are few files, it
// adds no dependency, and the locking is ours to see: one session takes a
// PostgreSQL advisory lock (named after the schema, so schemas of one
// database migrate independently), so nodes starting together apply each
// file once and the others wait, then find nothing to do.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrateTimeout bounds one run: waiting for another node's run and
// applying the files.
const migrateTimeout = 5 * time.Minute

type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the embedded files in version order.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, path := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(path, "migrations/"), ".sql")
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration file %q is not named NNNN_name.sql", path)
		}
		raw, err := migrationFiles.ReadFile(path)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(raw)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("two migration files have version %d", out[i].version)
		}
	}
	return out, nil
}

// Migrate applies pending migrations to the database at url and returns
// the versions it applied (none when the schema is current).
func Migrate(ctx context.Context, url string) ([]int, error) {
	pool, err := connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	applied, err := migrateAll(ctx, pool)
	if err != nil {
		return nil, fmt.Errorf("cannot migrate db %s: %w", redact(url), err)
	}
	return applied, nil
}

func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	_, err := migrateAll(ctx, pool)
	return err
}

// lockKey names the advisory lock of the current schema's migrations.
const lockKey = `hashtextextended('fiplan schema_migrations ' || current_schema(), 0)`

func migrateAll(ctx context.Context, pool *pgxpool.Pool) (applied []int, err error) {
	files, err := migrations()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, migrateTimeout)
	defer cancel()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	// Waiting for another node's migration may outlast statement_timeout.
	if _, err := conn.Exec(ctx, `SET statement_timeout = 0`); err != nil {
		return nil, err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, rerr := conn.Exec(rctx, `RESET statement_timeout`); rerr != nil {
			// Do not hand a session with odd settings back to the pool.
			_ = conn.Conn().Close(rctx)
		}
	}()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(`+lockKey+`)`); err != nil {
		return nil, fmt.Errorf("cannot take the migration lock: %w", err)
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, uerr := conn.Exec(rctx, `SELECT pg_advisory_unlock(`+lockKey+`)`); uerr != nil {
			// Closing the session releases its advisory locks.
			_ = conn.Conn().Close(rctx)
		}
	}()
	_, err = conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`)
	if err != nil {
		return nil, err
	}
	done := map[int]bool{}
	rows, err := conn.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	newest := 0
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return nil, err
		}
		done[v] = true
		newest = max(newest, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if known := files[len(files)-1].version; newest > known {
		return nil, fmt.Errorf("%w: database has migration %d, this binary knows up to %d", store.ErrSchema, newest, known)
	}
	for _, m := range files {
		if done[m.version] {
			continue
		}
		err := pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{}, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.version, m.name)
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("cannot apply migration %s: %w", m.name, err)
		}
		applied = append(applied, m.version)
	}
	return applied, nil
}
