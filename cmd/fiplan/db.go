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
	from := fs.String("from", "", "a bbolt file to copy, every record, into the empty PostgreSQL database named by -db")
	if err := parseFlags(fs, args, getenv, map[string]string{"db": "FI_DB"}); err != nil {
		return fail(stderr, err)
	}
	if fs.NArg() > 0 {
		return fail(stderr, fmt.Errorf("migrate: unexpected argument %q", fs.Arg(0)))
	}
	if *from != "" {
		return moveBolt(ctx, *from, *db, stdout, stderr)
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

// moveBolt copies every record of the bbolt file from into the empty
// PostgreSQL database db, in one transaction, and reports the counts.
func moveBolt(ctx context.Context, from, db string, stdout, stderr io.Writer) int {
	if !postgres.IsURL(db) {
		return fail(stderr, fmt.Errorf("migrate -from: -db (FI_DB) must name the PostgreSQL database to copy into, not %q", db))
	}
	// A missing file is more likely a mistyped path than an empty store.
	if _, err := os.Stat(from); err != nil {
		return fail(stderr, fmt.Errorf("cannot copy db %q: %w", from, err))
	}
	src, err := store.Open(from, store.Options{LockTimeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, store.ErrLocked) {
			err = fmt.Errorf("%w (stop the server first: a bbolt file has one writer)", err)
		}
		return fail(stderr, err)
	}
	all, err := src.Everything()
	src.Close()
	if err != nil {
		return fail(stderr, err)
	}
	if len(all.Secret) > 0 && len(all.Secret) < minSecret {
		// No server starts with it: the first node makes a new one.
		fmt.Fprintf(stdout, "the kept local-mode secret of %q is %d bytes, fewer than the %d a server accepts: not copied; the first node on the database makes a new one, and sessions signed with the old one end\n",
			from, len(all.Secret), minSecret)
		all.Secret = nil
	}
	n, err := postgres.Load(ctx, db, all)
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "db %s: copied %s from %q\n", dbName(db), n, from)
	return 0
}
