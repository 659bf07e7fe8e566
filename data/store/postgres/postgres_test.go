package postgres

import (
	"context"
	"errors"
	"net"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/postgres/pgtest"
	"fiplan/data/store/storetest"
)

// baseURL is the test database, or a skip saying how to name one.
func baseURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("FI_TEST_POSTGRES")
	if u == "" {
		t.Skip("PostgreSQL tests skipped: set FI_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable to run them")
	}
	return u
}

func withParam(t testing.TB, raw, key, value string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// freshSchema creates an empty schema, dropped when the test ends, and
// returns the test URL with search_path set to it, so that parallel tests
// and packages never share tables.
func freshSchema(t testing.TB) string {
	t.Helper()
	return pgtest.Schema(t, "fiplan_test_")
}

func openT(t testing.TB, u string) *DB {
	t.Helper()
	d, err := Open(context.Background(), u)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func TestConformance(t *testing.T) {
	baseURL(t)
	storetest.Run(t, func(t *testing.T) store.Store { return openT(t, freshSchema(t)) })
}

func TestMigrate(t *testing.T) {
	u := freshSchema(t)
	files, err := migrations()
	if err != nil || len(files) == 0 {
		t.Fatalf("migrations = %v, %v", files, err)
	}
	applied, err := Migrate(context.Background(), u)
	if err != nil || len(applied) != len(files) || applied[0] != 1 {
		t.Fatalf("first Migrate applied %v, %v", applied, err)
	}
	applied, err = Migrate(context.Background(), u)
	if err != nil || len(applied) != 0 {
		t.Fatalf("second Migrate applied %v, %v", applied, err)
	}
	// Nodes starting together: each file is applied once, nobody fails.
	u2 := freshSchema(t)
	var wg sync.WaitGroup
	total := make(chan int, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			applied, err := Migrate(context.Background(), u2)
			if err != nil {
				t.Error(err)
			}
			total <- len(applied)
		}()
	}
	wg.Wait()
	close(total)
	n := 0
	for a := range total {
		n += a
	}
	if n != len(files) {
		t.Fatalf("concurrent runs applied %d files in all, want %d", n, len(files))
	}
	d := openT(t, u2)
	var count int
	if err := d.pool.QueryRow(context.Background(), `SELECT count(*) FROM schema_migrations`).Scan(&count); err != nil || count != len(files) {
		t.Fatalf("schema_migrations has %d rows, %v", count, err)
	}
}

func TestMigrateNewerSchema(t *testing.T) {
	u := freshSchema(t)
	d := openT(t, u)
	if _, err := d.pool.Exec(context.Background(), `INSERT INTO schema_migrations (version, name) VALUES (9999, '9999_future')`); err != nil {
		t.Fatal(err)
	}
	if _, err := Migrate(context.Background(), u); !errors.Is(err, store.ErrSchema) {
		t.Fatalf("Migrate of a newer schema: %v", err)
	}
	if d2, err := Open(context.Background(), u); !errors.Is(err, store.ErrSchema) {
		if d2 != nil {
			d2.Close()
		}
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

// A server that accepts connections and never answers must not hang Open.
func TestOpenSilentServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	}()
	start := time.Now()
	u := "postgres://postgres@" + ln.Addr().String() + "/test?sslmode=disable&connect_timeout=1"
	d, err := Open(context.Background(), u)
	if err == nil {
		d.Close()
		t.Fatal("Open of a silent server succeeded")
	}
	if el := time.Since(start); el > 4*time.Second {
		t.Fatalf("Open gave up after %s, want about 1s", el)
	}
	if !strings.HasPrefix(err.Error(), "cannot open db ") {
		t.Fatalf("message = %q", err)
	}
}

// A statement stuck behind a lock gives up after statement_timeout.
func TestStatementTimeout(t *testing.T) {
	u := withParam(t, freshSchema(t), "statement_timeout", "300ms")
	d := openT(t, u)
	if err := d.SaveAccount("alice", "free"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }() // after the test's checks, whatever they found
	if _, err := tx.Exec(ctx, `SELECT 1 FROM users WHERE id = 'alice' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = d.PutDoc("alice", "profile", map[string]int{"age": 1})
	if err == nil || time.Since(start) > 3*time.Second {
		t.Fatalf("PutDoc behind a held lock = %v after %s", err, time.Since(start))
	}
	if !strings.HasPrefix(err.Error(), "cannot put profile: ") {
		t.Fatalf("message = %q", err)
	}
}

func TestOpenErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a port nothing listens on once closed
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	cases := []struct{ url, want string }{
		{"postgres://u:hunter2@" + closed + "/x?sslmode=disable&connect_timeout=1", `cannot open db "postgres://u@` + closed + `/x`},
		{"postgres://u:hunter2@[::1/x", `cannot open db "postgres://u@[::1/x": malformed`},
	}
	for _, c := range cases {
		d, err := Open(context.Background(), c.url)
		if err == nil {
			d.Close()
			t.Fatalf("Open(%q) succeeded", c.url)
		}
		if !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open(%q) = %q, want prefix %q and no password", c.url, err, c.want)
		}
	}
}

func TestInvalidText(t *testing.T) {
	d := openT(t, freshSchema(t))
	if err := d.SaveAccount("a\x00b", "free"); err == nil || !strings.Contains(err.Error(), "invalid user id") {
		t.Fatalf("NUL in user id: %v", err)
	}
	if err := d.PutDoc("\xff", "profile", 1); err == nil || !strings.Contains(err.Error(), "invalid user id") {
		t.Fatalf("invalid UTF-8 user id: %v", err)
	}
	if _, err := d.Account("a\x00b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Account of an unstorable id: %v", err)
	}
	m := store.AssetMeta{ID: "a", ISIN: "\xff"}
	if err := d.CreateAsset("u", m, []byte(`{}`), 10, nil); err == nil || errors.Is(err, store.ErrConflict) {
		t.Fatalf("invalid UTF-8 ISIN: %v", err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw@h:5432/db?sslmode=disable": "postgres://u@h:5432/db?sslmode=disable",
		"postgres://u@h/db":                         "postgres://u@h/db",
		"postgresql://h/db?x=a@b":                   "postgresql://h/db?x=a@b",
		"postgres://:pw@h/db":                       "postgres://@h/db",
		"fiplan.db":                                 "(not a URL)",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// Behind a transaction-mode pooler a URL may ask for the simple protocol,
// whose rows come as text: the raw reads decode them.
func TestSimpleProtocol(t *testing.T) {
	d := openT(t, withParam(t, freshSchema(t), "default_query_exec_mode", "simple_protocol"))
	doc := []byte(`{"id":"a1","note":"\\x00 é"}`)
	if err := d.CreateAsset("alice", store.AssetMeta{ID: "a1", ISIN: "IE00BK5BQT80"}, doc, 10, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := d.AppendAsset(nil, "alice", "a1"); err != nil || string(got) != string(doc) {
		t.Fatalf("AppendAsset = %q, %v", got, err)
	}
	if got, total, err := d.AppendAssets(nil, "alice", store.AnyCategory, 0, 10); err != nil || total != 1 || string(got) != string(doc) {
		t.Fatalf("AppendAssets = %q, %d, %v", got, total, err)
	}
	var seen []string
	if err := d.Assets("alice", func(b []byte) error { seen = append(seen, string(b)); return nil }); err != nil || len(seen) != 1 || seen[0] != string(doc) {
		t.Fatalf("Assets = %q, %v", seen, err)
	}
	if _, err := d.PutFlag("f", map[string]bool{"enabled": true}); err != nil {
		t.Fatal(err)
	}
	err := d.Flags(func(key string, raw []byte) error {
		if key != "f" || string(raw) != `{"enabled":true}` {
			t.Errorf("flag %q = %q", key, raw)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://h/db": true, "postgresql://h/db": true, "fiplan.db": false, "/var/lib/postgres/x.db": false, "": false,
	} {
		if IsURL(s) != want {
			t.Errorf("IsURL(%q) = %v", s, !want)
		}
	}
}

// The pool's default size is the README's sizing, two connections a CPU
// and at least eight, and a URL's pool_max_conns still decides.
func TestDefaultPoolSize(t *testing.T) {
	cfg, err := poolConfig("postgres://u@127.0.0.1:5432/db")
	if err != nil {
		t.Fatal(err)
	}
	if want := int32(max(8, 2*runtime.GOMAXPROCS(0))); cfg.MaxConns != want || cfg.MaxConns < 8 {
		t.Fatalf("default pool %d, want %d", cfg.MaxConns, want)
	}
	if cfg, err = poolConfig("postgres://u@127.0.0.1:5432/db?pool_max_conns=3"); err != nil || cfg.MaxConns != 3 {
		t.Fatalf("pool_max_conns=3: %v, %v", cfg.MaxConns, err)
	}
}
