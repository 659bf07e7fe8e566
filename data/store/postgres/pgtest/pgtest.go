// Package pgtest gives tests a PostgreSQL schema of their own in the
// database FI_TEST_POSTGRES names, so that tests of every package can run
// side by side against one server without seeing each other's rows.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Schema creates an empty schema named prefix + 16 random hex digits,
// drops it when the test ends, and returns FI_TEST_POSTGRES with its
// search_path set to it. Without FI_TEST_POSTGRES the test is skipped.
func Schema(t testing.TB, prefix string) string {
	t.Helper()
	base := os.Getenv("FI_TEST_POSTGRES")
	if base == "" {
		t.Skip("PostgreSQL tests skipped: set FI_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable to run them")
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := prefix + hex.EncodeToString(b[:])
	exec := func(sql string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Fatalf("cannot connect to FI_TEST_POSTGRES: %v", err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec(`CREATE SCHEMA ` + name)
	t.Cleanup(func() { exec(`DROP SCHEMA ` + name + ` CASCADE`) })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("FI_TEST_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}
