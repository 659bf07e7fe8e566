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
// Every file declares, in a comment line, whether the binaries before it
// can run on the schema it leaves:
//
//	-- compat: expand
//	-- compat: breaking
//
// expand: they can. The file adds (tables, nullable or defaulted columns,
// indexes, triggers that older writes satisfy), or removes only what the
// release before no longer reads or writes: the contract half of an
// expand/contract change, shipped a release after the code stopped using
// what it drops. breaking: they cannot; the file starts a new major
// version, and a rollback across it means restoring a backup.
//
// Each row of schema_migrations keeps compatible_from: the oldest
// migration a binary must know to run on the schema once that row's file
// is applied (its own version for a breaking file, the previous row's for
// an expand one). A binary that knows migrations up to K and finds the
// schema at N > K runs on it when the newest row's compatible_from is at
// most K, applying nothing; so within a major version, the previous
// release runs on the schema the next one left, and a release can be
// rolled back by deploying the previous binary. Otherwise it refuses with
// store.ErrSchema.
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
	version  int
	name     string
	sql      string
	breaking bool // see the compat declaration above
}

// compat reads a file's compat declaration.
func compat(path, sql string) (breaking bool, err error) {
	for _, line := range strings.Split(sql, "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "-- compat:")
		if !ok {
			continue
		}
		word, _, _ := strings.Cut(strings.TrimSpace(v), " ") // a reason may follow
		switch word {
		case "expand":
			return false, nil
		case "breaking":
			return true, nil
		}
		return false, fmt.Errorf("migration file %q: compat is %q, not expand or breaking", path, word)
	}
	return false, fmt.Errorf("migration file %q declares no compat (a line \"-- compat: expand\" or \"-- compat: breaking\")", path)
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
		breaking, err := compat(path, string(raw))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(raw), breaking: breaking})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("two migration files have version %d", out[i].version)
		}
	}
	if len(out) > 0 && !out[0].breaking {
		return nil, fmt.Errorf("migration file %q is the first: nothing before it runs on its schema, so it is breaking", out[0].name)
	}
	return out, nil
}

// compatibleFrom returns, for each file, the compatible_from of its row.
func compatibleFrom(files []migration) map[int]int {
	out := make(map[int]int, len(files))
	from := 0
	for _, m := range files {
		if m.breaking || from == 0 {
			from = m.version
		}
		out[m.version] = from
	}
	return out
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

func migrateAll(ctx context.Context, pool *pgxpool.Pool) ([]int, error) {
	files, err := migrations()
	if err != nil {
		return nil, err
	}
	return migrateFiles(ctx, pool, files)
}

// lockKey names the advisory lock of the current schema's migrations.
const lockKey = `hashtextextended('fiplan schema_migrations ' || current_schema(), 0)`

// migrateFiles brings the schema to files, the migrations a binary knows,
// or checks that the binary can run on a newer one.
func migrateFiles(ctx context.Context, pool *pgxpool.Pool, files []migration) (applied []int, err error) {
	ctx, cancel := context.WithTimeout(ctx, migrateTimeout)
	defer cancel()
	if current(ctx, pool, files) {
		return nil, nil
	}
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
	// compatible_from is nullable: rows written before it existed get it
	// from this binary's declarations below.
	_, err = conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now());
		ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS compatible_from integer`)
	if err != nil {
		return nil, err
	}
	from := compatibleFrom(files)
	for v, f := range from {
		if _, err := conn.Exec(ctx, `UPDATE schema_migrations SET compatible_from = $2 WHERE version = $1 AND compatible_from IS NULL`, v, f); err != nil {
			return nil, err
		}
	}
	done := map[int]bool{}
	rows, err := conn.Query(ctx, `SELECT version, compatible_from FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	newest, newestFrom := 0, 0
	for rows.Next() {
		var v int
		var f *int
		if err := rows.Scan(&v, &f); err != nil {
			rows.Close()
			return nil, err
		}
		done[v] = true
		if v > newest {
			// A row no binary declared is taken as breaking.
			newest, newestFrom = v, v
			if f != nil {
				newestFrom = *f
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if known := files[len(files)-1].version; newest > known {
		if newestFrom > known {
			return nil, fmt.Errorf("%w: database has migration %d, which binaries that know migrations before %d cannot run on; this binary knows up to %d", store.ErrSchema, newest, newestFrom, known)
		}
		for _, m := range files {
			if !done[m.version] {
				return nil, fmt.Errorf("%w: database has migration %d but lacks %s", store.ErrSchema, newest, m.name)
			}
		}
		return nil, nil // a newer schema of this binary's line: nothing to apply
	}
	for _, m := range files {
		if done[m.version] {
			continue
		}
		err := pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{}, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, compatible_from) VALUES ($1, $2, $3)`, m.version, m.name, from[m.version])
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("cannot apply migration %s: %w", m.name, err)
		}
		applied = append(applied, m.version)
	}
	return applied, nil
}

// current reports, with one read and no lock, whether the schema holds
// exactly files, each row with its compatible_from: then there is nothing
// to apply, and a node started through a transaction-pooling proxy
// (PgBouncer), which cannot keep a session's advisory lock, takes none.
// Any other answer, an error included, goes the locked way.
func current(ctx context.Context, pool *pgxpool.Pool, files []migration) bool {
	rows, err := pool.Query(ctx, `SELECT version, compatible_from IS NOT NULL FROM schema_migrations`)
	if err != nil {
		return false
	}
	defer rows.Close()
	have := map[int]bool{}
	for rows.Next() {
		var v int
		var declared bool
		if rows.Scan(&v, &declared) != nil || !declared {
			return false
		}
		have[v] = true
	}
	if rows.Err() != nil || len(have) != len(files) {
		return false
	}
	for _, m := range files {
		if !have[m.version] {
			return false
		}
	}
	return true
}
