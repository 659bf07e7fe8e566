package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
)

// openStore opens the store named by db: a postgres:// or postgresql://
// URL is a PostgreSQL database, anything else a bbolt file path.
func openStore(ctx context.Context, db string, lockTimeout time.Duration) (store.Store, error) {
	if postgres.IsURL(db) {
		return postgres.Open(ctx, db)
	}
	return store.Open(db, store.Options{LockTimeout: lockTimeout})
}

// dbName is db as it may be logged: a URL without its password.
func dbName(db string) string {
	if postgres.IsURL(db) {
		return postgres.Redact(db)
	}
	return db
}

// migrate brings the store's schema up to date and exits: a PostgreSQL
// database gets its pending migrations, a bbolt file its format upgrade.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fiplan migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "fiplan.db", "bbolt file path or postgres:// URL (FI_DB)")
	if err := parseFlags(fs, args, getenv, map[string]string{"db": "FI_DB"}); err != nil {
		return fail(stderr, err)
	}
	if fs.NArg() > 0 {
		return fail(stderr, fmt.Errorf("migrate: unexpected argument %q", fs.Arg(0)))
	}
	if postgres.IsURL(*db) {
		applied, err := postgres.Migrate(ctx, *db)
		if err != nil {
			return fail(stderr, err)
		}
		if len(applied) == 0 {
			fmt.Fprintf(stdout, "db %s: schema is current\n", dbName(*db))
		} else {
			fmt.Fprintf(stdout, "db %s: applied migrations %v\n", dbName(*db), applied)
		}
		return 0
	}
	// A missing file is more likely a mistyped path than a wish for a new
	// database.
	if _, err := os.Stat(*db); err != nil {
		return fail(stderr, fmt.Errorf("cannot migrate db %q: %w", *db, err))
	}
	d, err := store.Open(*db, store.Options{LockTimeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			err = fmt.Errorf("%w (stop the server first: a bbolt file has one writer)", err)
		}
		return fail(stderr, err)
	}
	if err := d.Close(); err != nil {
		return fail(stderr, fmt.Errorf("cannot close db %q: %w", *db, err))
	}
	fmt.Fprintf(stdout, "db %q: format is current\n", *db)
	return 0
}
