package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fiplan/data/store/postgres/pgtest"
)

// pgSchema creates an empty schema in FI_TEST_POSTGRES, dropped when the
// test ends, and returns a URL whose search_path is that schema; without
// FI_TEST_POSTGRES the test is skipped.
func pgSchema(t *testing.T) string {
	t.Helper()
	return pgtest.Schema(t, "fiplan_cmd_")
}

func TestMigrateBolt(t *testing.T) {
	// A file written by the first release of the store.
	raw, err := os.ReadFile("../../data/store/testdata/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(db, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := command(t, nil, "migrate", "-db", db).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "format is current") {
		t.Fatalf("migrate: %q, %v", out, err)
	}
	missing := filepath.Join(t.TempDir(), "typo.db")
	cmd := command(t, []string{"FI_DB=" + missing}, "migrate")
	out, _ = cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "cannot migrate db") {
		t.Fatalf("migrate of a missing file: exit %d, %q", code, out)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Fatal("migrate created the missing file")
	}
	cmd = command(t, nil, "migrate", "extra")
	out, _ = cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), `unexpected argument "extra"`) {
		t.Fatalf("migrate with an argument: exit %d, %q", code, out)
	}
}

func TestMigratePostgres(t *testing.T) {
	db := pgSchema(t)
	for _, want := range []string{"applied migrations [1 2 4 5 6 7 8 10 11 12 13]", "schema is current"} {
		out, err := command(t, []string{"FI_DB=" + db}, "migrate").CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Fatalf("migrate: %q, %v; want %q", out, err, want)
		}
	}
	// The same database on a port nothing listens on, with a password.
	u, err := url.Parse(db)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = closedAddr(t)
	u.User = url.UserPassword(u.User.Username(), "hunter2")
	q := u.Query()
	q.Set("connect_timeout", "1")
	u.RawQuery = q.Encode()
	cmd := command(t, nil, "migrate", "-db", u.String())
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "cannot open db") || strings.Contains(string(out), "hunter2") {
		t.Fatalf("migrate of an unreachable server: exit %d, %q", code, out)
	}
}

// Local mode on PostgreSQL: the generated secret is kept in the database,
// so tokens made by the token command work, across restarts too.
func TestLocalModePostgres(t *testing.T) {
	db := pgSchema(t)
	s := start(t, "FI_DB="+db)
	out, err := command(t, []string{"FI_DB=" + db}, "token", "-sub", "alice").Output()
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	tok := strings.TrimSpace(string(out))
	status, body := s.call(t, "POST", "/api/v1/user/api-keys", tok, `{"name":"ci"}`)
	if status != 201 {
		t.Fatalf("token refused: %d %v", status, body)
	}
	key := body["data"].(map[string]any)["key"].(string)
	if status, body := s.get(t, "/api/v1/status", ""); status != 200 {
		t.Fatalf("status: %d %v", status, body)
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d after SIGTERM", code)
	}
	s2 := start(t, "FI_DB="+db)
	if status, body := s2.get(t, "/api/v1/user/api-keys", tok); status != 200 {
		t.Fatalf("token after restart: %d %v", status, body)
	}
	if status, _ := s2.get(t, "/api/v1/user/api-keys", key); status != 200 {
		t.Fatalf("API key after restart: %d", status)
	}
}
