package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// pgProxied is a fresh schema's URL routed through a proxy of the test.
func pgProxied(t *testing.T) (string, *proxy) {
	t.Helper()
	db := pgSchema(t)
	host := db[strings.Index(db, "://")+3:]
	host = host[strings.IndexByte(host, '@')+1:]
	host = host[:strings.IndexByte(host, '/')]
	p := newProxy(t, host)
	return strings.Replace(db, host, p.ln.Addr().String(), 1), p
}

// notReady checks what a node answers before it has reached its
// database: /livez and the database-free routes as usual, /readyz and the
// routes that need the database 503 with Retry-After.
func notReady(t *testing.T, addr string, session []string) {
	t.Helper()
	if r := must(t, addr, "GET", "/livez", ""); r.status != 200 || r.data()["status"] != "ok" {
		t.Fatalf("livez: %d %v", r.status, r.body)
	}
	calc := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000}`
	if r := must(t, addr, "POST", "/api/v1/calculator", calc); r.status != 200 {
		t.Fatalf("calculator: %d %v", r.status, r.body)
	}
	if r := must(t, addr, "GET", "/api/v1/geo/cities?limit=1", ""); r.status != 200 {
		t.Fatalf("cities: %d %v", r.status, r.body)
	}
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/readyz", ""},
		{"GET", "/api/v1/status", ""},
		{"GET", "/api/v1/assets", ""},
		{"POST", "/api/v1/assets", `{"name":"Savings","value":10,"currency":"EUR"}`},
	} {
		var h []string
		if strings.HasPrefix(c.path, "/api/v1/assets") {
			h = session
		}
		r := must(t, addr, c.method, c.path, c.body, h...)
		if r.status != 503 || r.code() != "SERVICE_UNAVAILABLE" || r.body["success"] != false {
			t.Fatalf("%s %s before the database answers: %d %v", c.method, c.path, r.status, r.body)
		}
		if c.path != "/api/v1/status" && r.header.Get("Retry-After") == "" {
			t.Fatalf("%s %s: no Retry-After", c.method, c.path)
		}
	}
	// The web app's key needs the database too: its pages wait for it.
	if status, h := page(t, addr); status != 503 || h.Get("Retry-After") == "" {
		t.Fatalf("web app before the database answers: %d %v", status, h)
	}
}

// page fetches the web app's home page.
func page(t *testing.T, addr string) (int, http.Header) {
	t.Helper()
	res, err := nodeClient.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header
}

// TestStartWithDatabaseDown: a node whose PostgreSQL does not answer at
// start starts all the same and reports not ready.
func TestStartWithDatabaseDown(t *testing.T) {
	pgSchema(t) // skips without FI_TEST_POSTGRES
	db := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/test?sslmode=disable", freePort(t))
	n := start(t, "FI_DB="+db, "FI_JWT_SECRET="+clusterSecret)
	notReady(t, n.addr, bearer(sign(t, "carol", "free", "")))
}

// TestStartWithDatabaseHung: a database that accepts connections and
// never answers holds a node's start-up for the start-up wait, not for its
// connect timeout (an hour here): the node says so, listens and reports
// not ready.
func TestStartWithDatabaseHung(t *testing.T) {
	db, p := pgProxied(t)
	p.mode.Store(2) // black hole
	if strings.Contains(db, "?") {
		db += "&connect_timeout=3600"
	} else {
		db += "?connect_timeout=3600"
	}
	n := start(t, "FI_DB="+db, "FI_JWT_SECRET="+clusterSecret)
	var warned bool
	for len(n.logs) > 0 && !warned {
		line := <-n.logs
		warned = strings.Contains(line, "database does not answer") && strings.Contains(line, "no answer within 1s")
	}
	if !warned {
		t.Fatal("no warning that the database gave no answer within the start-up wait")
	}
	notReady(t, n.addr, bearer(sign(t, "erin", "free", "")))
}

// TestDatabaseReturns: a node started while its database refused
// connections connects, creates the schema and serves once it accepts
// them, without a restart.
func TestDatabaseReturns(t *testing.T) {
	db, p := pgProxied(t)
	p.mode.Store(1) // refuse
	n := start(t, "FI_DB="+db, "FI_JWT_SECRET="+clusterSecret)
	session := bearer(sign(t, fmt.Sprintf("dave-%d", time.Now().UnixNano()), "free", ""))
	notReady(t, n.addr, session)

	p.mode.Store(0) // the database is back
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := must(t, n.addr, "GET", "/readyz", "")
		if r.status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz after the database came back: %d %v", r.status, r.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	r := must(t, n.addr, "POST", "/api/v1/assets", `{"name":"Savings","value":10,"currency":"EUR"}`, session...)
	if r.status != 201 {
		t.Fatalf("create once the database answers: %d %v", r.status, r.body)
	}
	if r := must(t, n.addr, "GET", "/api/v1/assets", "", session...); r.status != 200 || len(r.body["data"].([]any)) != 1 {
		t.Fatalf("list once the database answers: %d %v", r.status, r.body)
	}
	if r := must(t, n.addr, "GET", "/api/v1/status", ""); r.status != 200 {
		t.Fatalf("status once the database answers: %d %v", r.status, r.body)
	}
	deadline = time.Now().Add(20 * time.Second)
	for {
		status, _ := page(t, n.addr)
		if status == 200 {
			break
		}
		if status != 503 {
			t.Fatalf("web app once the database answers: %d", status)
		}
		if time.Now().After(deadline) {
			t.Fatal("the web app did not start once the database answered")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// What is wrong with the setting itself still ends start-up at once, with
// its own message; local mode, whose signing secret is in the database,
// cannot start without it and says so.
func TestDatabaseSettingErrors(t *testing.T) {
	pgSchema(t)
	closed := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/test?sslmode=disable", freePort(t))
	for _, c := range []struct {
		name string
		env  []string
		want string
	}{
		{"malformed", []string{"FI_DB=postgres://fiplan:hunter2@db.example:port/fiplan"}, "invalid -db (FI_DB): cannot open db \"postgres://fiplan@db.example:port/fiplan\": malformed PostgreSQL URL"},
		{"local mode", []string{"FI_DB=" + closed}, "local mode signs sessions with a secret kept in the database, which does not answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := command(t, append(c.env, "FI_ADDR=127.0.0.1:0"))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			began := time.Now()
			exited(t, cmd.Run())
			if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), c.want) || strings.Contains(stderr.String(), "hunter2") {
				t.Fatalf("exit %d, want 2 and %q:\n%s", code, c.want, stderr.String())
			}
			if d := time.Since(began); d > 10*time.Second {
				t.Fatalf("took %s to give up", d)
			}
		})
	}
}
