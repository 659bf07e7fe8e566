package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

// tokenFor signs a session token for sub with the server's local secret.
func tokenFor(t *testing.T, db, sub string, extra ...string) string {
	t.Helper()
	out, err := command(t, []string{"FI_DB=" + db}, append([]string{"token", "-sub", sub}, extra...)...).Output()
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// export is the caller's export without the moment it was made.
func (s *server) export(t *testing.T, tok string) map[string]any {
	t.Helper()
	status, body := s.get(t, "/api/v1/user/export", tok)
	if status != 200 {
		t.Fatalf("export: %d %v", status, body)
	}
	d := body["data"].(map[string]any)
	delete(d, "exportedAt")
	return d
}

var unlimited = []string{"FI_RATE_PUBLIC=off", "FI_RATE_FREE=off", "FI_RATE_PRO=off"}

// A backup taken while writers write, restored into a fresh server, holds
// every user's data as it was and every asset acknowledged before the
// backup began.
func TestBackupWhileServingAndRestore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	a := start(t, append(unlimited, "FI_DB="+live)...)
	alice, bob := tokenFor(t, live, "alice", "-tier", "pro"), tokenFor(t, live, "bob")
	for i := range 20 {
		if st, b := a.call(t, "POST", "/api/v1/assets", alice, fmt.Sprintf(`{"name":"fund %d","value":%d}`, i, 1000+i)); st != 201 {
			t.Fatalf("create: %d %v", st, b)
		}
	}
	a.call(t, "PUT", "/api/v1/user/profile", alice, `{"currentAge":41,"annualIncome":70000,"annualExpenses":30000}`)
	a.call(t, "POST", "/api/v1/assets", bob, `{"name":"cash","value":5}`)
	wantAlice, wantBob := a.export(t, alice), a.export(t, bob)

	// Writers keep creating while the backup runs.
	var stop atomic.Bool
	var mu sync.Mutex
	acked := map[string]bool{}
	var wg sync.WaitGroup
	writers := make([]string, 4)
	for w := range writers {
		writers[w] = tokenFor(t, live, fmt.Sprintf("writer%d", w))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load() && i < 900; i++ {
				st, b := a.call(t, "POST", "/api/v1/assets", writers[w], fmt.Sprintf(`{"name":"w%d-%d","value":1}`, w, i))
				if st != 201 {
					t.Errorf("writer %d: %d %v", w, st, b)
					return
				}
				mu.Lock()
				acked[b["data"].(map[string]any)["id"].(string)] = true
				mu.Unlock()
			}
		}()
	}
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 20 {
			break
		}
	}
	mu.Lock()
	before := make([]string, 0, len(acked))
	for id := range acked {
		before = append(before, id)
	}
	mu.Unlock()
	backupFile := filepath.Join(dir, "backup.db")
	cmd := command(t, []string{"FI_DB=" + live, "FI_ADDR=" + a.addr}, "backup", "-o", backupFile)
	out, err := cmd.CombinedOutput()
	stop.Store(true)
	wg.Wait()
	if err != nil || !strings.Contains(string(out), "from the server") {
		t.Fatalf("backup: %v\n%s", err, out)
	}

	// The server holds its file: restoring over it is refused.
	cmd = command(t, []string{"FI_DB=" + live}, "restore", "-i", backupFile)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "stop the server") {
		t.Fatalf("restore over a running server: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
	if code := a.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit %d", code)
	}

	fresh := filepath.Join(dir, "fresh.db")
	if out, err := command(t, []string{"FI_DB=" + fresh}, "restore", "-i", backupFile).CombinedOutput(); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	b := start(t, append(unlimited, "FI_DB="+fresh)...)
	defer b.stop(t, syscall.SIGTERM)
	// The local secret travels with the file: the old tokens still work.
	if got := b.export(t, alice); !reflect.DeepEqual(got, wantAlice) {
		t.Errorf("alice after restore:\n%v\nwant\n%v", got, wantAlice)
	}
	if got := b.export(t, bob); !reflect.DeepEqual(got, wantBob) {
		t.Errorf("bob after restore:\n%v\nwant\n%v", got, wantBob)
	}
	restored := map[string]bool{}
	for _, tok := range writers {
		assets, _ := b.export(t, tok)["assets"].([]any)
		for _, x := range assets {
			id := x.(map[string]any)["id"].(string)
			if !acked[id] {
				t.Errorf("asset %s in the backup was never acknowledged", id)
			}
			restored[id] = true
		}
	}
	for _, id := range before {
		if !restored[id] {
			t.Errorf("asset %s, acknowledged before the backup began, is not in it", id)
		}
	}
	t.Logf("%d assets acknowledged before the backup, %d in it, %d in all", len(before), len(restored), len(acked))
}

func TestBackupOfflineAndErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "f.db")
	s := start(t, "FI_DB="+db)
	s.stop(t, syscall.SIGTERM)
	// No server listens: the command copies the file itself.
	file := filepath.Join(dir, "b.db")
	out, err := command(t, []string{"FI_DB=" + db, "FI_ADDR=127.0.0.1:1"}, "backup", "-o", file).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "from the file") {
		t.Fatalf("offline backup: %v\n%s", err, out)
	}
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("no bbolt here"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"backup"}, "-o FILE is required"},
		{[]string{"backup", "-o", file, "-db", "postgres://u@h/db"}, "pg_dump"},
		{[]string{"backup", "-o", file, "-db", filepath.Join(dir, "absent.db"), "-addr", "127.0.0.1:1"}, "absent.db"},
		{[]string{"restore"}, "-i FILE is required"},
		{[]string{"restore", "-i", junk, "-db", filepath.Join(dir, "n.db")}, "junk.db"},
		{[]string{"restore", "-i", file, "-db", file}, "same file"},
		{[]string{"restore", "-i", file, "-db", "postgres://u@h/db"}, "pg_restore"},
	} {
		cmd := command(t, nil, c.args...)
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), c.says) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args, cmd.ProcessState.ExitCode(), c.says, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "n.db")); err == nil {
		t.Error("a refused restore left a file")
	}
}
