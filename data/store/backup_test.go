package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A backup taken under concurrent writes is one snapshot: every asset
// created before it began is in it, each asset in it is whole, and the
// copy restores into a file a server can open.
func TestBackupUnderWritesAndRestore(t *testing.T) {
	dir := t.TempDir()
	d := openT(t, filepath.Join(dir, "live.db"))
	if err := d.PutDoc("alice", "profile", map[string]any{"currentAge": 40}); err != nil {
		t.Fatal(err)
	}
	create := func(user string, i int) error {
		id := fmt.Sprintf("ast_%s_%04d", user, i)
		return d.CreateAsset(user, AssetMeta{ID: id}, []byte(`{"id":"`+id+`"}`), 100000, nil)
	}
	for i := range 50 {
		if err := create("alice", i); err != nil {
			t.Fatal(err)
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var written [4]atomic.Int64
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				if err := create(fmt.Sprintf("writer%d", w), i); err != nil {
					t.Error(err)
					return
				}
				written[w].Add(1)
			}
		}()
	}
	for written[0].Load() < 5 {
		time.Sleep(time.Millisecond)
	}
	var before [4]int64
	for w := range before {
		before[w] = written[w].Load()
	}
	var buf bytes.Buffer
	n, err := d.Backup(&buf)
	stop.Store(true)
	wg.Wait()
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("backup: %d bytes (%d buffered), %v", n, buf.Len(), err)
	}

	backup := filepath.Join(dir, "backup.db")
	if err := os.WriteFile(backup, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	restored := filepath.Join(dir, "restored.db")
	if err := Restore(backup, restored, time.Second); err != nil {
		t.Fatal(err)
	}
	r := openT(t, restored)
	if _, total, err := r.AppendAssets(nil, "alice", AnyCategory, 0, 1000); err != nil || total != 50 {
		t.Fatalf("alice has %d assets in the restored copy, %v", total, err)
	}
	var prof map[string]any
	if ok, err := r.GetDoc("alice", "profile", &prof); !ok || err != nil || prof["currentAge"] != float64(40) {
		t.Fatalf("profile %v %v %v", prof, ok, err)
	}
	for w := range 4 {
		user := fmt.Sprintf("writer%d", w)
		_, got, err := r.AppendAssets(nil, user, AnyCategory, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		_, live, _ := d.AppendAssets(nil, user, AnyCategory, 0, 1)
		if int64(got) < before[w] || got > live {
			t.Errorf("%s: %d assets in the backup; %d were written before it began, %d in all", user, got, before[w], live)
		}
		// Each writer creates in order: the snapshot holds a prefix.
		for i := range got {
			if _, err := r.AppendAsset(nil, user, fmt.Sprintf("ast_%s_%04d", user, i)); err != nil {
				t.Fatalf("%s: asset %d of %d missing from the backup: %v", user, i, got, err)
			}
		}
	}
}

func TestRestoreErrors(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	d := openT(t, live)
	var buf bytes.Buffer
	if _, err := d.Backup(&buf); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	if err := os.WriteFile(backup, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	// The live file is held open: restore refuses to replace it.
	if err := Restore(backup, live, 100*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Fatalf("restore over a held db: %v", err)
	}
	// Not a database, a truncated backup, a missing file.
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, []byte("not a bbolt file at all, not even close to one"), 0o600); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.db")
	if err := os.WriteFile(cut, buf.Bytes()[:buf.Len()/2], 0o600); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{junk, cut, filepath.Join(dir, "absent.db")} {
		if err := Restore(src, filepath.Join(dir, "new.db"), time.Second); err == nil {
			t.Errorf("restore from %s succeeded", filepath.Base(src))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed restore left a file: %v", err)
	}
	// Closed: a backup fails cleanly.
	d.Close()
	if _, err := d.Backup(&buf); err == nil {
		t.Error("backup of a closed db succeeded")
	}
}
