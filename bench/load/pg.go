package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgreSQL. With -db postgres://... fiplan runs on that database instead
// of a temporary bbolt file, in a schema of its own (fiplan_load_ and 16
// random hex digits, the connection's search_path) that the run creates
// empty and drops at its end, so that runs never see each other's rows and
// the same user, key and assets are made afresh on either store.

// pgSchema creates the run's schema in the database base names and
// returns base with its search_path set to it, and the drop to defer.
func pgSchema(ctx context.Context, base string) (string, func(), error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("cannot parse -db: %w", err)
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", nil, err
	}
	name := "fiplan_load_" + hex.EncodeToString(b[:])
	// The pool's settings (pool_max_conns and the like) are fiplan's, read
	// by its pool; one connection of the harness's own takes none.
	admin := *u
	q := admin.Query()
	for k := range q {
		if strings.HasPrefix(k, "pool_") {
			q.Del(k)
		}
	}
	admin.RawQuery = q.Encode()
	exec := func(ctx context.Context, sql string) error {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin.String())
		if err != nil {
			return fmt.Errorf("cannot connect to -db: %w", err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
		return nil
	}
	if err := exec(ctx, `CREATE SCHEMA `+name); err != nil {
		return "", nil, err
	}
	q = u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	drop := func() {
		// The run's context may be cancelled (Ctrl-C): drop all the same.
		if err := exec(context.Background(), `DROP SCHEMA `+name+` CASCADE`); err != nil {
			fmt.Println("load: cannot drop the run's schema:", err)
		}
	}
	return u.String(), drop, nil
}
