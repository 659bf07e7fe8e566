package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// TestMoveBoltToPostgres: a single node's bbolt file, copied with
// `fiplan migrate -from`, serves the same answers from PostgreSQL: every
// read of the API, the API key, the flags and their exposures, the kept
// secret. A second copy into the now non-empty database is refused.
func TestMoveBoltToPostgres(t *testing.T) {
	t.Parallel()
	pg := pgSchema(t)
	file := filepath.Join(t.TempDir(), "fiplan.db")
	bolt := []string{"FI_DB=" + file, "FI_JWT_SECRET=" + clusterSecret}
	mia := sign(t, "mia", "pro", "")
	root := sign(t, "root", "free", "admin")

	// Written through the API of a node on bbolt.
	a := start(t, bolt...)
	for _, c := range []struct{ method, path, token, body string }{
		{"PUT", "/api/v1/user/profile", mia, `{"displayName":"Mia","currentAge":41,"annualExpenses":38000,"country":"PT"}`},
		{"PUT", "/api/v1/user/settings", mia, `{"units":"imperial"}`},
		{"POST", "/api/v1/assets", mia, `{"name":"World","value":120000,"currency":"EUR","isin":"IE00B4L5Y983"}`},
		{"POST", "/api/v1/assets", mia, `{"name":"Bonds","value":40000,"currency":"EUR"}`},
		{"POST", "/api/v1/assets", mia, `{"name":"Savings","value":9000.5,"currency":"USD"}`},
		{"PUT", "/api/v1/features/move-test", root, `{"enabled":true,"variants":[{"name":"a","weight":50},{"name":"b","weight":50}]}`},
		{"GET", "/api/v1/features/move-test", mia, ""},
	} {
		if st, b := a.call(t, c.method, c.path, c.token, c.body); st >= 300 {
			t.Fatalf("%s %s: %d %v", c.method, c.path, st, b)
		}
	}
	st, b := a.call(t, "POST", "/api/v1/user/api-keys", mia, `{"name":"laptop"}`)
	if st != 201 {
		t.Fatalf("create key: %d %v", st, b)
	}
	key := b["data"].(map[string]any)["key"].(string)
	if st, _ := a.call(t, "GET", "/api/v1/assets", key, ""); st != 200 { // a last-use time to copy
		t.Fatalf("API key on bbolt: %d", st)
	}
	a.stop(t, syscall.SIGTERM) // writes the exposures and key uses

	// Every read, first from bbolt, then from PostgreSQL.
	reads := func(s *server) map[string]any {
		t.Helper()
		out := map[string]any{}
		get := func(path, who string) map[string]any {
			st, b := s.call(t, "GET", path, map[string]string{"mia": mia, "root": root}[who], "")
			if st != 200 {
				t.Fatalf("GET %s: %d %v", path, st, b)
			}
			out[path+" as "+who] = normalize(b)
			return b
		}
		for _, p := range []string{"/api/v1/assets?limit=200", "/api/v1/assets/summary", "/api/v1/user/profile",
			"/api/v1/user/settings", "/api/v1/user/notifications", "/api/v1/user/api-keys", "/api/v1/fi-score", "/api/v1/features"} {
			get(p, "mia")
		}
		for _, x := range get("/api/v1/assets", "mia")["data"].([]any) {
			get("/api/v1/assets/"+x.(map[string]any)["id"].(string), "mia")
		}
		export := get("/api/v1/user/export", "mia")["data"].(map[string]any)
		if len(export["assets"].([]any)) != 3 || len(export["apiKeys"].([]any)) != 1 || len(export["featureFlags"].([]any)) != 1 {
			t.Fatalf("export: %v", export)
		}
		get("/api/v1/features/move-test/stats", "root") // root evaluates no flag: the counts stay
		return out
	}
	a = start(t, bolt...)
	before := reads(a)
	a.stop(t, syscall.SIGTERM)

	// A signed-out session's mark moves too, or the move would take the
	// sign-out back.
	marked, err := store.Open(file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	markUntil := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	if _, err := marked.Revoke("sid-moved", markUntil, time.Now()); err != nil {
		t.Fatal(err)
	}
	marked.Close()

	out, code := runCmd(t, []string{"FI_DB=" + pg}, "migrate", "-from", file)
	// The sign-out marks are the session's above and, while they last
	// (store.KeyMarkFor), the tier marks mia's and root's first requests
	// wrote for the nodes' key caches: one to three, by how long this ran.
	moved := regexp.MustCompile(`3 assets, 1 API keys, 1 flags, 1 exposures, ([1-3]) sign-out marks, 0 webhooks, 0 events, 0 deliveries, 0 queued mails and the local secret`)
	if code != 0 || !moved.MatchString(out) {
		t.Fatalf("migrate -from: exit %d\n%s", code, out)
	}

	p := start(t, "FI_DB="+pg, "FI_JWT_SECRET="+clusterSecret)
	after := reads(p)
	for k, v := range before {
		if !reflect.DeepEqual(v, after[k]) {
			bv, _ := json.Marshal(v)
			av, _ := json.Marshal(after[k])
			t.Errorf("GET %s differs after the move:\nbbolt:      %s\npostgres:   %s", k, bv, av)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d reads after, %d before", len(after), len(before))
	}
	if st, _ := p.call(t, "GET", "/api/v1/assets", key, ""); st != 200 {
		t.Fatalf("the API key after the move: %d", st)
	}
	p.stop(t, syscall.SIGTERM)

	// The secret kept in the file is the database's now.
	src, err := store.Open(file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, ok, err := src.PeekSecret()
	src.Close()
	if err != nil || !ok {
		t.Fatalf("bbolt secret: %v %v", ok, err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var got []byte
	if err := conn.QueryRow(ctx, `SELECT value FROM meta WHERE name = 'jwt_secret'`).Scan(&got); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("secret after the move: %v (equal %v)", err, bytes.Equal(got, want))
	}

	var until time.Time
	if err := conn.QueryRow(ctx, `SELECT until FROM revocations WHERE id = 'sid-moved'`).Scan(&until); err != nil || !until.Equal(markUntil) {
		t.Fatalf("the sign-out mark after the move: %v %v, want %v", until, err, markUntil)
	}

	// Into a database that holds records: refused, nothing written.
	out, code = runCmd(t, []string{"FI_DB=" + pg}, "migrate", "-from", file)
	if code != 2 || !strings.Contains(out, "already holds records") {
		t.Fatalf("second migrate -from: exit %d\n%s", code, out)
	}
	var assets int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM assets`).Scan(&assets); err != nil || assets != 3 {
		t.Fatalf("%d assets after the refused copy, %v", assets, err)
	}
	// Into a bbolt path: refused with its own message.
	out, code = runCmd(t, []string{"FI_DB=" + filepath.Join(t.TempDir(), "other.db")}, "migrate", "-from", file)
	if code != 2 || !strings.Contains(out, "must name the PostgreSQL database") {
		t.Fatalf("migrate -from into bbolt: exit %d\n%s", code, out)
	}
}

func runCmd(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := command(t, env, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	exited(t, cmd.Run())
	return out.String(), cmd.ProcessState.ExitCode()
}

// normalize makes an answer comparable across backends and runs: the
// request id and the export's own time go, and times keep microseconds
// (what PostgreSQL stores).
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k == "requestId" || k == "exportedAt" {
				continue
			}
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case string:
		if tm, err := time.Parse(time.RFC3339Nano, x); err == nil && strings.Contains(x, "T") {
			return fmt.Sprint(tm.UTC().Truncate(time.Microsecond).UnixMicro())
		}
	}
	return v
}
