package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fiplan/data/store"
	"fiplan/data/store/storetest"
)

// nextRelease is a migration the next release might ship: an expand one
// adds a table and a column the binary under test knows nothing of.
func nextRelease(t *testing.T, breaking bool) migration {
	t.Helper()
	files, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	m := migration{version: files[len(files)-1].version + 1, name: "next_release", breaking: breaking,
		sql: `CREATE TABLE next_release (id bigint PRIMARY KEY);
			ALTER TABLE assets ADD COLUMN next_note text;
			ALTER TABLE users ADD COLUMN next_flag boolean NOT NULL DEFAULT false`}
	if breaking {
		m.sql = `ALTER TABLE docs RENAME COLUMN body TO content`
	}
	return m
}

// migrateTo applies files to the schema at u, as the binary that knows
// them would.
func migrateTo(t *testing.T, u string, files []migration) []int {
	t.Helper()
	pool, err := connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	applied, err := migrateFiles(context.Background(), pool, files)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return applied
}

// The release procedure's promise: after the next release's expand
// migration, this binary (the previous release) starts on the schema
// without applying anything and keeps the whole store contract, so that
// rolling back is deploying it again.
func TestPreviousReleaseRunsOnTheNextSchema(t *testing.T) {
	baseURL(t)
	files, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	next := append(append([]migration(nil), files...), nextRelease(t, false))
	storetest.Run(t, func(t *testing.T) store.Store {
		u := freshSchema(t)
		migrateTo(t, u, next)
		return openT(t, u)
	})
}

// Exactly the previous release's check: a binary that knows one migration
// fewer than this one runs on the schema this one leaves, as long as what
// it lacks is expand-only.
func TestPreviousReleasesCheckAcceptsThisSchema(t *testing.T) {
	u := freshSchema(t)
	files, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	migrateTo(t, u, files)
	for n := len(files) - 1; n >= 1; n-- {
		prev := files[:n]
		breaking := false
		for _, m := range files[n:] {
			breaking = breaking || m.breaking
		}
		pool, err := connect(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		applied, err := migrateFiles(context.Background(), pool, prev)
		pool.Close()
		switch {
		case breaking && !errors.Is(err, store.ErrSchema):
			t.Fatalf("a binary that knows up to %s ran on a schema past a breaking migration: %v", prev[n-1].name, err)
		case !breaking && (err != nil || len(applied) != 0):
			t.Fatalf("a binary that knows up to %s on this schema: applied %v, %v", prev[n-1].name, applied, err)
		}
	}
}

// Past a breaking migration the previous release refuses to start, and
// says why; a row from a binary that declared nothing counts as breaking.
func TestPreviousReleaseRefusesABreakingSchema(t *testing.T) {
	u := freshSchema(t)
	files, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	next := nextRelease(t, true)
	migrateTo(t, u, append(append([]migration(nil), files...), next))
	_, err = Open(context.Background(), u)
	if !errors.Is(err, store.ErrSchema) || !strings.Contains(err.Error(), "cannot run on") {
		t.Fatalf("Open past a breaking migration: %v", err)
	}
	// Expand after breaking: still past the breaking one.
	u2 := freshSchema(t)
	expand := nextRelease(t, false)
	expand.version++
	migrateTo(t, u2, append(append([]migration(nil), files...), next, expand))
	if _, err := Open(context.Background(), u2); !errors.Is(err, store.ErrSchema) {
		t.Fatalf("Open past breaking then expand migrations: %v", err)
	}
}

// The declarations are read from the files: every file has one, the first
// is breaking, and a file without one is refused.
func TestMigrationsDeclareCompat(t *testing.T) {
	files, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if !files[0].breaking {
		t.Fatal("the first migration is not breaking")
	}
	for _, c := range []struct {
		sql      string
		breaking bool
		ok       bool
	}{
		{"-- compat: expand\nCREATE TABLE x ();", false, true},
		{"-- a comment\n-- compat: breaking (renames a column)\nALTER TABLE x RENAME a TO b;", true, true},
		{"CREATE TABLE x ();", false, false},
		{"-- compat: maybe\nCREATE TABLE x ();", false, false},
	} {
		breaking, err := compat("x.sql", c.sql)
		if (err == nil) != c.ok || breaking != c.breaking {
			t.Errorf("compat(%q) = %v, %v", c.sql, breaking, err)
		}
	}
	from := compatibleFrom([]migration{{version: 1, breaking: true}, {version: 2}, {version: 3, breaking: true}, {version: 4}})
	if from[1] != 1 || from[2] != 1 || from[3] != 3 || from[4] != 3 {
		t.Fatalf("compatibleFrom = %v", from)
	}
}
