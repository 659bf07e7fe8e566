package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

func tempPath(t testing.TB) string { return filepath.Join(t.TempDir(), "fiplan.db") }

func openT(t testing.TB, path string) *DB {
	t.Helper()
	d, err := Open(path, Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func hashOf(s string) [32]byte { return sha256.Sum256([]byte(s)) }

func TestPersistence(t *testing.T) {
	path := tempPath(t)
	d := openT(t, path)
	if d.Path() != path {
		t.Fatalf("Path = %q", d.Path())
	}
	if _, ok, err := d.PeekSecret(); err != nil || ok {
		t.Fatalf("PeekSecret on new db = %v, %v", ok, err)
	}
	s1, err := d.Secret()
	if err != nil || len(s1) != 32 {
		t.Fatalf("Secret = %x, %v", s1, err)
	}
	if err := d.SaveAccount("alice", "pro"); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateKey(Key{ID: "k1", Owner: "alice", Name: "ci", Hint: "svc_…abcd"}, hashOf("svc_one"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.PutDoc("alice", "profile", map[string]any{"age": 40}); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Size(); err != nil || n <= 0 {
		t.Fatalf("Size = %d, %v", n, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi.Mode(), err)
	}

	d = openT(t, path)
	s2, err := d.Secret()
	if err != nil || string(s1) != string(s2) {
		t.Fatalf("secret changed across reopen: %x vs %x (%v)", s1, s2, err)
	}
	if s3, ok, err := d.PeekSecret(); err != nil || !ok || string(s3) != string(s1) {
		t.Fatalf("PeekSecret = %x, %v, %v", s3, ok, err)
	}
	keys, err := d.Keys("alice")
	if err != nil || len(keys) != 1 || keys[0].ID != "k1" || keys[0].Name != "ci" || keys[0].Owner != "alice" {
		t.Fatalf("Keys = %+v, %v", keys, err)
	}
	k, a, err := d.LookupKey(hashOf("svc_one"))
	if err != nil || k.ID != "k1" || k.Owner != "alice" || a.Tier != "pro" {
		t.Fatalf("LookupKey = %+v %+v %v", k, a, err)
	}
	var prof map[string]any
	if ok, err := d.GetDoc("alice", "profile", &prof); err != nil || !ok || prof["age"] != float64(40) {
		t.Fatalf("GetDoc = %v %v %v", prof, ok, err)
	}
	if ok, err := d.GetDoc("bob", "profile", &prof); err != nil || ok {
		t.Fatalf("GetDoc(bob) = %v %v", ok, err)
	}
}

func TestSecretConcurrentFirstCall(t *testing.T) {
	d := openT(t, tempPath(t))
	const n = 8
	got := make(chan []byte, n)
	for range n {
		go func() {
			s, err := d.Secret()
			if err != nil {
				t.Error(err)
			}
			got <- s
		}()
	}
	first := <-got
	for range n - 1 {
		if s := <-got; string(s) != string(first) {
			t.Fatal("concurrent first Secret calls disagree")
		}
	}
}

func TestLocked(t *testing.T) {
	path := tempPath(t)
	d := openT(t, path)
	start := time.Now()
	d2, err := Open(path, Options{LockTimeout: 150 * time.Millisecond})
	if err == nil {
		d2.Close()
		t.Fatal("second Open of a locked file succeeded")
	}
	if !errors.Is(err, ErrLocked) || !errors.Is(err, berrors.ErrTimeout) {
		t.Fatalf("err = %v, want ErrLocked wrapping bbolt timeout", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("gave up after %s, want ~150ms", el)
	}
	if !strings.HasPrefix(err.Error(), `cannot open db "`+path+`": `) {
		t.Fatalf("message = %q", err)
	}
	// A read-only open needs a shared lock, which the writer's exclusive lock refuses too.
	if d3, err := Open(path, Options{LockTimeout: 100 * time.Millisecond, ReadOnly: true}); !errors.Is(err, ErrLocked) {
		if d3 != nil {
			d3.Close()
		}
		t.Fatalf("read-only open of a locked file: %v", err)
	}
	d.Close()
	d2, err = Open(path, Options{LockTimeout: 150 * time.Millisecond})
	if err != nil {
		t.Fatalf("Open after the holder closed: %v", err)
	}
	d2.Close()
}

func setRawVersion(t *testing.T, path string, v uint64) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	err = b.Update(func(tx *bolt.Tx) error {
		var raw [8]byte
		binary.BigEndian.PutUint64(raw[:], v)
		return tx.Bucket([]byte("meta")).Put([]byte("schema"), raw[:])
	})
	if err != nil {
		t.Fatal(err)
	}
}

func rawVersion(t *testing.T, path string) uint64 {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var v uint64
	_ = b.View(func(tx *bolt.Tx) error {
		v = binary.BigEndian.Uint64(tx.Bucket([]byte("meta")).Get([]byte("schema")))
		return nil
	})
	return v
}

func TestSchemaNewer(t *testing.T) {
	path := tempPath(t)
	d := openT(t, path)
	d.Close()
	if v := rawVersion(t, path); v != schemaVersion {
		t.Fatalf("new file has schema %d, want %d", v, schemaVersion)
	}
	setRawVersion(t, path, schemaVersion+1)
	for _, ro := range []bool{false, true} {
		d, err := Open(path, Options{ReadOnly: ro})
		if !errors.Is(err, ErrSchema) {
			if d != nil {
				d.Close()
			}
			t.Fatalf("ReadOnly=%v: err = %v, want ErrSchema", ro, err)
		}
	}
	// The refused open released the lock.
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("lock leaked after ErrSchema: %v", err)
	}
	b.Close()
}

func TestSchemaMigration(t *testing.T) {
	path := tempPath(t)
	openT(t, path).Close()

	old := schemaVersion
	t.Cleanup(func() { schemaVersion = old; delete(migrations, old) })
	schemaVersion = old + 1

	// A failing migration leaves the file untouched.
	migrations[old] = func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketMeta).Put([]byte("migrated"), []byte("half")); err != nil {
			return err
		}
		return errors.New("boom")
	}
	if d, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "boom") {
		if d != nil {
			d.Close()
		}
		t.Fatalf("failing migration: err = %v", err)
	}
	if v := rawVersion(t, path); v != old {
		t.Fatalf("version after failed migration = %d, want %d", v, old)
	}
	// Read-only opens refuse to migrate.
	if d, err := Open(path, Options{ReadOnly: true}); err == nil {
		d.Close()
		t.Fatal("read-only open migrated or accepted an old schema")
	}

	ran := 0
	migrations[old] = func(tx *bolt.Tx) error {
		ran++
		return tx.Bucket(bucketMeta).Put([]byte("migrated"), []byte("yes"))
	}
	d := openT(t, path)
	if ran != 1 {
		t.Fatalf("migration ran %d times", ran)
	}
	d.Close()
	if v := rawVersion(t, path); v != old+1 {
		t.Fatalf("version after migration = %d, want %d", v, old+1)
	}
	openT(t, path).Close()
	if ran != 1 {
		t.Fatalf("migration ran again on a current file (%d)", ran)
	}
}

func TestNotABoltFile(t *testing.T) {
	dir := t.TempDir()
	garbage := make([]byte, 64<<10)
	rand.Read(garbage)
	files := map[string][]byte{
		"text":    []byte("this is not a database\n"),
		"garbage": garbage,
		"zeros":   make([]byte, 16<<10),
		"json":    []byte(`{"users": []}`),
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, ro := range []bool{false, true} {
			d, err := Open(path, Options{LockTimeout: 100 * time.Millisecond, ReadOnly: ro})
			if err == nil {
				d.Close()
				t.Fatalf("%s (ReadOnly=%v): Open succeeded", name, ro)
			}
			if !strings.HasPrefix(err.Error(), `cannot open db "`+path+`": `) || errors.Is(err, ErrLocked) {
				t.Fatalf("%s: unclear error %q", name, err)
			}
			t.Logf("%s: %v", name, err)
		}
		if got, _ := os.ReadFile(path); string(got) != string(content) {
			t.Fatalf("%s: Open modified a foreign file", name)
		}
	}

	// A directory.
	if d, err := Open(dir, Options{}); err == nil {
		d.Close()
		t.Fatal("Open of a directory succeeded")
	}

	// A bbolt file that is not fiplan's.
	foreign := filepath.Join(dir, "foreign.db")
	b, err := bolt.Open(foreign, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = b.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("other")); return err })
	b.Close()
	if d, err := Open(foreign, Options{}); err == nil || !strings.Contains(err.Error(), "not a fiplan database") {
		if d != nil {
			d.Close()
		}
		t.Fatalf("foreign bbolt file: %v", err)
	}
}

func TestReadOnly(t *testing.T) {
	path := tempPath(t)
	d := openT(t, path)
	sec, _ := d.Secret()
	if err := d.CreateKey(Key{ID: "k1", Owner: "alice"}, hashOf("a"), 5, nil); err != nil {
		t.Fatal(err)
	}
	d.Close()

	r1, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := Open(path, Options{ReadOnly: true, LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("second read-only open (shared lock): %v", err)
	}
	defer r2.Close()

	if err := r1.Ping(); err != nil {
		t.Fatal(err)
	}
	if s, err := r1.Secret(); err != nil || string(s) != string(sec) {
		t.Fatalf("Secret read-only = %v", err)
	}
	if k, _, err := r1.LookupKey(hashOf("a")); err != nil || k.ID != "k1" {
		t.Fatalf("LookupKey read-only = %v", err)
	}
	if ks, err := r2.Keys("alice"); err != nil || len(ks) != 1 {
		t.Fatalf("Keys read-only = %v %v", ks, err)
	}
	writes := map[string]error{
		"SaveAccount": r1.SaveAccount("bob", "free"),
		"CreateKey":   r1.CreateKey(Key{ID: "k2", Owner: "alice"}, hashOf("b"), 5, nil),
		"RevokeKey":   r1.RevokeKey("alice", "k1"),
		"TouchKeys":   r1.TouchKeys(map[string]time.Time{KeyRef("alice", "k1"): time.Now()}),
		"DeleteUser":  r1.DeleteUser("alice"),
		"PutDoc":      r1.PutDoc("alice", "profile", 1),
	}
	if err := r1.SaveAccount("alice", "free"); err != nil {
		t.Fatalf("SaveAccount with an unchanged tier on a read-only db: %v", err)
	}
	for name, err := range writes {
		if !errors.Is(err, berrors.ErrDatabaseReadOnly) {
			t.Errorf("%s on a read-only db: %v", name, err)
		}
	}
	if _, _, err := r1.LookupKey(hashOf("a")); err != nil {
		t.Fatalf("key gone after refused writes: %v", err)
	}

	// Read-only open never creates a file.
	missing := filepath.Join(t.TempDir(), "missing.db")
	if d, err := Open(missing, Options{ReadOnly: true}); err == nil {
		d.Close()
		t.Fatal("read-only open of a missing file succeeded")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatal("read-only open created the file")
	}
}

func TestReadOnlySecretAbsent(t *testing.T) {
	path := tempPath(t)
	openT(t, path).Close()
	r, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Secret(); err == nil {
		t.Fatal("Secret generated a secret on a read-only db")
	}
}

func TestPingAndClosed(t *testing.T) {
	d := openT(t, tempPath(t))
	if err := d.Ping(); err != nil {
		t.Fatal(err)
	}
	if err := d.CreateKey(Key{ID: "k1", Owner: "alice"}, hashOf("a"), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := d.Ping(); err == nil {
		t.Fatal("Ping after Close succeeded")
	}
	var v any
	_, sizeErr := d.Size()
	_, secErr := d.Secret()
	_, _, peekErr := d.PeekSecret()
	_, acctErr := d.Account("alice")
	_, keysErr := d.Keys("alice")
	_, _, lookErr := d.LookupKey(hashOf("a"))
	_, docErr := d.GetDoc("alice", "profile", &v)
	errs := map[string]error{
		"Size":        sizeErr,
		"Secret":      secErr,
		"PeekSecret":  peekErr,
		"Account":     acctErr,
		"Keys":        keysErr,
		"LookupKey":   lookErr,
		"GetDoc":      docErr,
		"SaveAccount": d.SaveAccount("alice", "pro"),
		"CreateKey":   d.CreateKey(Key{ID: "k2", Owner: "alice"}, hashOf("b"), 5, nil),
		"RevokeKey":   d.RevokeKey("alice", "k1"),
		"TouchKeys":   d.TouchKeys(map[string]time.Time{KeyRef("alice", "k1"): time.Now()}),
		"DeleteUser":  d.DeleteUser("alice"),
		"PutDoc":      d.PutDoc("alice", "profile", 1),
	}
	for name, err := range errs {
		if !errors.Is(err, berrors.ErrDatabaseNotOpen) {
			t.Errorf("%s after Close: %v, want an error wrapping ErrDatabaseNotOpen", name, err)
		}
		if errors.Is(err, ErrNotFound) {
			t.Errorf("%s after Close looks like ErrNotFound", name)
		}
	}
}

func TestAccount(t *testing.T) {
	d := openT(t, tempPath(t))
	if _, err := d.Account("alice"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Account of unknown user: %v", err)
	}
	if err := d.SaveAccount("alice", "free"); err != nil {
		t.Fatal(err)
	}
	a1, err := d.Account("alice")
	if err != nil || a1.Tier != "free" || a1.CreatedAt.IsZero() || !a1.UpdatedAt.Equal(a1.CreatedAt) {
		t.Fatalf("Account = %+v, %v", a1, err)
	}
	time.Sleep(2 * time.Millisecond)
	if err := d.SaveAccount("alice", "free"); err != nil {
		t.Fatal(err)
	}
	if a2, _ := d.Account("alice"); !a2.UpdatedAt.Equal(a1.UpdatedAt) {
		t.Fatal("SaveAccount with an unchanged tier wrote")
	}
	// The unchanged path is a read transaction only: it does not wait for a writer.
	tx, err := d.bolt.Begin(true)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.SaveAccount("alice", "free") }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		_ = tx.Rollback()
		t.Fatalf("SaveAccount with an unchanged tier waited for the write lock (then returned %v)", <-done)
	}
	_ = tx.Rollback()
	if err := d.SaveAccount("alice", "pro"); err != nil {
		t.Fatal(err)
	}
	a3, _ := d.Account("alice")
	if a3.Tier != "pro" || !a3.UpdatedAt.After(a1.UpdatedAt) || !a3.CreatedAt.Equal(a1.CreatedAt) {
		t.Fatalf("after tier change: %+v (was %+v)", a3, a1)
	}
	for _, bad := range []string{"", strings.Repeat("x", MaxIDLen+1)} {
		if err := d.SaveAccount(bad, "free"); err == nil {
			t.Errorf("SaveAccount(%q) succeeded", bad)
		}
		if _, err := d.Account(bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("Account(%q) = %v, want ErrNotFound", bad, err)
		}
	}
	if err := d.SaveAccount(strings.Repeat("x", MaxIDLen), "free"); err != nil {
		t.Fatalf("SaveAccount with a %d-byte id: %v", MaxIDLen, err)
	}
}

func TestDocs(t *testing.T) {
	d := openT(t, tempPath(t))
	type settings struct {
		Currency string `json:"currency"`
	}
	if err := d.PutDoc("carol", "settings", settings{"EUR"}); err != nil {
		t.Fatal(err)
	}
	var s settings
	if ok, err := d.GetDoc("carol", "settings", &s); err != nil || !ok || s.Currency != "EUR" {
		t.Fatalf("GetDoc = %+v %v %v", s, ok, err)
	}
	if ok, err := d.GetDoc("carol", "profile", &s); err != nil || ok {
		t.Fatalf("GetDoc(absent) = %v %v", ok, err)
	}
	if a, err := d.Account("carol"); err != nil || a.Tier != "free" {
		t.Fatalf("PutDoc did not create a free account: %+v %v", a, err)
	}
	for _, name := range []string{"", "account", "keys"} {
		if err := d.PutDoc("carol", name, 1); err == nil {
			t.Errorf("PutDoc(%q) succeeded", name)
		}
	}
	if a, _ := d.Account("carol"); a.Tier != "free" {
		t.Fatal("account overwritten via PutDoc")
	}
}

func readFile(p string) ([]byte, error)  { return os.ReadFile(p) }
func writeFile(p string, b []byte) error { return os.WriteFile(p, b, 0o600) }
