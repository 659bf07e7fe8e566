package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fiplan/data/store"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fiplan-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "fiplan")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// command runs the binary with only the given environment.
func command(t *testing.T, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	// The web app's compression at start is off: it would spend seconds of
	// CPU in each of the many short-lived servers here; the browser suite
	// runs with it.
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "FI_WEB_WARM=off"}, env...)
	cmd.Dir = t.TempDir()
	return cmd
}

// exited checks what cmd.Run or cmd.Wait returned: an exit status is the
// test's to judge from ProcessState; any other failure (the binary did not
// start, its output could not be copied) ends the test.
func exited(t *testing.T, err error) {
	t.Helper()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("cannot run the command: %v", err)
	}
}

type server struct {
	cmd    *exec.Cmd
	addr   string
	logs   chan string
	listen chan string // the address, once it listens
}

// start runs the server on a free port and waits until it listens.
func start(t *testing.T, env ...string) *server {
	t.Helper()
	s := spawn(t, env...)
	s.wait(t)
	return s
}

// spawn runs the server on a free port without waiting: several servers
// started at once come up side by side; wait for each.
func spawn(t *testing.T, env ...string) *server {
	t.Helper()
	cmd := command(t, append(env, "FI_ADDR=127.0.0.1:0"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, logs: make(chan string, 1000), listen: make(chan string, 1)}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }) // it may have exited
	lines := bufio.NewScanner(stderr)
	go func() {
		for lines.Scan() {
			line := lines.Text()
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "listening" {
				s.listen <- rec["addr"].(string)
			}
			select {
			case s.logs <- line:
			default:
			}
		}
		close(s.logs)
	}()
	return s
}

// wait waits until s listens. Generous: a loaded machine (CI runs the
// packages side by side) can take seconds to load the datasets; a hung
// start still fails.
func (s *server) wait(t *testing.T) {
	t.Helper()
	select {
	case s.addr = <-s.listen:
	case <-time.After(60 * time.Second):
		t.Fatal("server did not start listening")
	}
}

// stop sends sig and returns the exit code.
func (s *server) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("cannot signal the server: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		exited(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("server did not exit after the signal")
	}
	return s.cmd.ProcessState.ExitCode()
}

func (s *server) get(t *testing.T, path, token string) (int, map[string]any) {
	return s.call(t, "GET", path, token, "")
}

func (s *server) call(t *testing.T, method, path, token, body string) (int, map[string]any) {
	t.Helper()
	status, v, err := s.try(method, path, token, body)
	if err != nil {
		t.Fatal(err)
	}
	return status, v
}

// try is call for a server that may be gone: it returns the error.
func (s *server) try(method, path, token, body string) (int, map[string]any, error) {
	req, _ := http.NewRequest(method, "http://"+s.addr+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	var v map[string]any
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, err
	}
	_ = json.Unmarshal(b, &v) // a body that is not JSON leaves v nil, for the caller to see
	return res.StatusCode, v, nil
}

func TestVersion(t *testing.T) {
	t.Parallel()
	out, err := command(t, nil, "-version").Output()
	if err != nil || !strings.HasPrefix(string(out), "fiplan ") {
		t.Fatalf("-version: %q %v", out, err)
	}
}

func TestLocalModeTokenWhileServing(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "fiplan.db")
	s := start(t, "FI_DB="+db)
	warned := false
	for !warned {
		line, ok := <-s.logs
		if !ok {
			t.Fatal("no local-mode warning")
		}
		warned = strings.Contains(line, `"level":"WARN"`) && strings.Contains(line, "local mode")
		if strings.Contains(line, "listening") && !warned {
			t.Fatal("no local-mode warning before listening")
		}
	}
	// The server holds the db's lock: the token command reads a snapshot.
	out, err := command(t, []string{"FI_DB=" + db}, "token", "-sub", "alice", "-tier", "pro").Output()
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	tok := strings.TrimSpace(string(out))
	status, body := s.call(t, "POST", "/api/v1/user/api-keys", tok, `{"name":"ci"}`)
	if status != 201 {
		t.Fatalf("token refused: %d %v", status, body)
	}
	key := body["data"].(map[string]any)["key"].(string)
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d after SIGTERM", code)
	}

	// The same db after a restart: the secret and the key persist.
	s2 := start(t, "FI_DB="+db)
	if status, body := s2.get(t, "/api/v1/user/api-keys", tok); status != 200 {
		t.Fatalf("token after restart: %d %v", status, body)
	}
	if status, _ := s2.get(t, "/api/v1/user/api-keys", key); status != 200 {
		t.Fatalf("API key after restart: %d", status)
	}
	if code := s2.stop(t, syscall.SIGINT); code != 0 {
		t.Fatalf("exit code %d after SIGINT", code)
	}
}

func TestSecretFromEnvironment(t *testing.T) {
	t.Parallel()
	secret := "an-operator-secret-of-32-bytes!!"
	db := filepath.Join(t.TempDir(), "fiplan.db")
	s := start(t, "FI_DB="+db, "FI_JWT_SECRET="+secret)
	out, err := command(t, []string{"FI_JWT_SECRET=" + secret}, "token", "-sub", "bob").Output()
	if err != nil {
		t.Fatal(err)
	}
	if status, _ := s.get(t, "/api/v1/user/api-keys", strings.TrimSpace(string(out))); status != 200 {
		t.Fatalf("status %d", status)
	}
	// A token signed with another secret is refused.
	other, _ := command(t, []string{"FI_JWT_SECRET=" + strings.Repeat("z", 32)}, "token", "-sub", "bob").Output()
	if status, body := s.get(t, "/api/v1/user/api-keys", strings.TrimSpace(string(other))); status != 401 || body["code"] != "UNAUTHORIZED" {
		t.Fatalf("foreign token: %d %v", status, body)
	}
}

// busyAddr returns an address a listener of the test holds, so that no
// test depends on a fixed port being free (or busy).
func busyAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String()
}

// closedAddr returns a local address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Every setting is checked before the address is bound: with the address
// busy, the line still names the setting that is wrong.
func TestBadSettingsExit2(t *testing.T) {
	t.Parallel()
	busy := "FI_ADDR=" + busyAddr(t)
	notBolt := filepath.Join(t.TempDir(), "not.db")
	if err := os.WriteFile(notBolt, []byte("this is not a bbolt file, not at all, no header here"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		env   []string
		args  []string
		names string // what the one line must name
	}{
		{"rate", []string{"FI_RATE_PUBLIC=lots"}, nil, "-rate-public (FI_RATE_PUBLIC)"},
		{"rate flag wins over env", []string{"FI_RATE_FREE=10/1m"}, []string{"-rate-free", "0/1m"}, "-rate-free"},
		{"jwks unreadable", []string{"FI_JWT_JWKS=/nonexistent/jwks.json"}, nil, "-jwt-jwks (FI_JWT_JWKS)"},
		{"jwks http", []string{"FI_JWT_JWKS=http://idp.example/jwks"}, nil, "-jwt-jwks"},
		{"short secret", []string{"FI_JWT_SECRET=short"}, nil, "-jwt-secret (FI_JWT_SECRET)"},
		{"log level", []string{"FI_LOG_LEVEL=loud"}, nil, "-log-level"},
		{"web warm", []string{"FI_WEB_WARM=maybe"}, nil, "-web-warm (FI_WEB_WARM)"},
		{"proxies", []string{"FI_TRUSTED_PROXIES=10.0.0.0/8,nonsense"}, nil, "-trusted-proxies"},
		{"not a db", []string{"FI_DB=" + notBolt}, nil, "-db (FI_DB)"},
		{"bad address", []string{"FI_ADDR=256.0.0.1:http"}, nil, "-addr (FI_ADDR)"},
		{"unknown flag", nil, []string{"-nope"}, "-nope"},
		{"issuer without client", []string{"FI_OIDC_ISSUER=https://idp.example"}, nil, "-oidc-client-id (FI_OIDC_CLIENT_ID)"},
		{"issuer over http", []string{"FI_OIDC_ISSUER=http://idp.example", "FI_OIDC_CLIENT_ID=fiplan"}, nil, "-oidc-issuer (FI_OIDC_ISSUER)"},
		{"issuer unreachable", []string{"FI_OIDC_ISSUER=http://127.0.0.1:1/", "FI_OIDC_CLIENT_ID=fiplan"}, nil, "-oidc-issuer (FI_OIDC_ISSUER)"},
		{"public URL", []string{"FI_PUBLIC_URL=ftp://fiplan.example"}, nil, "-public-url (FI_PUBLIC_URL)"},
		{"redis URL", []string{"FI_REDIS_URL=http://:hunter2@cache.example"}, nil, "-redis-url (FI_REDIS_URL)"},
		{"smtp URL", []string{"FI_SMTP_URL=http://fiplan:hunter2@mail.example"}, nil, "-smtp-url (FI_SMTP_URL)"},
		{"smtp sender", []string{"FI_SMTP_FROM=nobody"}, nil, "-smtp-from (FI_SMTP_FROM)"},
		{"delivery lease too short", []string{"FI_DELIVERY_LEASE=10ms"}, nil, "-delivery-lease (FI_DELIVERY_LEASE)"},
		{"delivery lease not a duration", []string{"FI_DELIVERY_LEASE=soon"}, nil, "-delivery-lease (FI_DELIVERY_LEASE)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := c.env
			if !strings.HasPrefix(strings.Join(env, " "), "FI_ADDR=") {
				env = append([]string{busy}, env...)
			}
			cmd := command(t, env, c.args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 2 {
				t.Fatalf("exit %v, want 2; stderr %s", err, stderr.String())
			}
			out := stderr.String()
			if !strings.Contains(out, c.names) || strings.Contains(out, "goroutine") || strings.Contains(out, "panic") {
				t.Fatalf("stderr does not name %q cleanly:\n%s", c.names, out)
			}
			if c.name != "unknown flag" && strings.Count(strings.TrimSpace(out), "\n") != 0 {
				t.Fatalf("more than one line:\n%s", out)
			}
		})
	}
}

func TestLockedDatabaseFailsFast(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "fiplan.db")
	s := start(t, "FI_DB="+db)
	defer s.stop(t, syscall.SIGTERM)
	cmd := command(t, []string{"FI_DB=" + db, "FI_ADDR=127.0.0.1:0"})
	var stderr strings.Builder
	cmd.Stderr = &stderr
	began := time.Now()
	exited(t, cmd.Run())
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "-db (FI_DB)") || !strings.Contains(stderr.String(), "locked") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if d := time.Since(began); d > 8*time.Second {
		t.Fatalf("took %v to give up", d)
	}
}

func TestAddressInUse(t *testing.T) {
	t.Parallel()
	s := start(t, "FI_DB="+filepath.Join(t.TempDir(), "a.db"))
	defer s.stop(t, syscall.SIGTERM)
	cmd := command(t, []string{"FI_DB=" + filepath.Join(t.TempDir(), "b.db"), "FI_ADDR=" + s.addr})
	var stderr strings.Builder
	cmd.Stderr = &stderr
	exited(t, cmd.Run())
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "-addr (FI_ADDR)") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}

// In local mode the token command signs with the secret the server keeps
// in the db; a db without one (or no db at all) would make it invent a
// secret the server never uses, so it refuses instead.
func TestTokenWithoutLocalSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	cmd := command(t, []string{"FI_DB=" + missing}, "token", "-sub", "alice")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	if code := cmd.ProcessState.ExitCode(); code != 2 || len(out) != 0 || !strings.Contains(stderr.String(), "no local secret") {
		t.Fatalf("token on a missing db: exit %d, stdout %q, stderr %q", code, out, stderr.String())
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatalf("the token command created %s: %v", missing, err)
	}
	// A db without a secret is left without one.
	db := filepath.Join(dir, "empty.db")
	d, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	cmd = command(t, []string{"FI_DB=" + db}, "token", "-sub", "alice")
	stderr.Reset()
	cmd.Stderr = &stderr
	out, _ = cmd.Output()
	if code := cmd.ProcessState.ExitCode(); code != 2 || len(out) != 0 || !strings.Contains(stderr.String(), "no local secret") {
		t.Fatalf("token on a db without a secret: exit %d, stdout %q, stderr %q", code, out, stderr.String())
	}
	if d, err = store.Open(db, store.Options{}); err != nil {
		t.Fatal(err)
	}
	_, ok, err := d.PeekSecret()
	d.Close()
	if ok || err != nil {
		t.Fatalf("the token command wrote a secret into %s (%v)", db, err)
	}
	// Once the server has run in local mode, the token command signs with
	// the secret it keeps.
	s := start(t, "FI_DB="+db)
	s.stop(t, syscall.SIGTERM)
	if out, err := command(t, []string{"FI_DB=" + db}, "token", "-sub", "alice").Output(); err != nil || len(out) < 20 {
		t.Fatalf("token after local mode: %q %v", out, err)
	}
}

func TestTokenCommandErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"token"}, {"token", "-sub", "a", "-tier", "gold"}, {"token", "-sub", "a", "-role", "root"}, {"token", "-sub", "a", "-ttl", "2h"}} {
		cmd := command(t, []string{"FI_JWT_SECRET=" + strings.Repeat("s", 32)}, args...)
		if err := cmd.Run(); cmd.ProcessState.ExitCode() != 2 {
			t.Errorf("%v: exit %v, want 2", args, err)
		}
	}
}

// The binary checks Host against the public URL: a name pointed at the
// server by someone else (DNS rebinding) is refused, the public URL's host
// and the address itself are served.
func TestHostIsChecked(t *testing.T) {
	t.Parallel()
	s := start(t, "FI_DB="+filepath.Join(t.TempDir(), "h.db"), "FI_PUBLIC_URL=https://fiplan.example", "FI_ALLOWED_HOSTS=api.fiplan.example")
	defer s.stop(t, syscall.SIGTERM)
	for host, want := range map[string]int{"rebound.attacker.example": 400, "fiplan.example": 200, "api.fiplan.example:443": 200, s.addr: 200, "localhost": 400} {
		req, err := http.NewRequest("GET", "http://"+s.addr+"/api/v1/status", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, res.StatusCode, want)
		}
	}
}
