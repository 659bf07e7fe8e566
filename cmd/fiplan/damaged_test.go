package main

import (
	"context"
	bin "encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fiplan/data/store"
)

// A damaged bbolt file ends start-up with one line that says what to do
// and exit code 2: no fault, no goroutine dump, nothing served.
func TestDamagedDBExit2(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	d, err := store.Open(good, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		user := fmt.Sprint("user-", i)
		if err := d.PutDoc(user, "profile", map[string]string{"displayName": strings.Repeat("n", 60)}); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// The current meta page (the valid one with the higher transaction
	// id; both are valid here) names the root bucket's page.
	const page = 4096
	le := bin.LittleEndian
	m := raw[16:]
	if le.Uint64(raw[page+16+48:]) > le.Uint64(m[48:]) {
		m = raw[page+16:]
	}
	root := int(le.Uint64(m[16:]))
	corrupt := append([]byte(nil), raw...)
	le.PutUint16(corrupt[root*page+10:], 0xFFF0) // more elements than the page holds

	for _, c := range []struct {
		name string
		raw  []byte
	}{
		{"truncated", raw[:len(raw)/2]},
		{"a corrupted page", corrupt},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "fiplan.db")
			if err := os.WriteFile(path, c.raw, 0o600); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"FI_DB": path, "FI_ADDR": "127.0.0.1:0"}
			var stdout, stderr strings.Builder
			code := run(context.Background(), nil, func(k string) string { return env[k] }, &stdout, &stderr)
			out := stderr.String()
			want := fmt.Sprintf("cannot open db %q: the file is damaged; restore a backup with fiplan restore", path)
			if code != 2 || !strings.Contains(out, want) || strings.Count(out, "\n") != 1 || strings.Contains(out, "goroutine") {
				t.Fatalf("exit %d, stderr:\n%s", code, out)
			}
		})
	}
}
