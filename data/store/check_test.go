package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// damageFixture writes a file with every shape of page the store makes:
// branch and leaf pages, overflow pages (a document larger than a page),
// nested and inline buckets, and a freelist with free pages. It returns
// the file's bytes and its meta page.
func damageFixture(t *testing.T) (string, []byte, meta) {
	t.Helper()
	path := tempPath(t)
	d := openT(t, path)
	d.bolt.NoSync = true    // only to fill the file quickly
	d.bolt.MaxBatchSize = 1 // one create at a time: no batch delay
	for u := range 30 {
		user := fmt.Sprint("user-", u)
		for a := range 20 {
			m := AssetMeta{ID: fmt.Sprintf("ast-%d-%d", u, a)}
			if err := d.CreateAsset(user, m, []byte(`{"name":"`+strings.Repeat("x", 100)+`"}`), 1000, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.CreateKey(Key{ID: fmt.Sprint("k", u), Owner: user, Name: "n"}, hashOf(user), 10, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.PutDoc("user-1", "profile", map[string]string{"notes": strings.Repeat("long ", 3000)}); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteUser("user-2"); err != nil { // frees pages
		t.Fatal(err)
	}
	d.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := currentMeta(f)
	if err != nil {
		t.Fatal(err)
	}
	return path, raw, m
}

// pagesOf lists the reachable pages of raw by type.
func pagesOf(t *testing.T, path string, m meta) (leaves, branches []uint64, overflow uint64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &checker{f: f, pageSize: int(m.pageSize), pgid: m.pgid}
	if err := c.check(m); err != nil {
		t.Fatalf("the fixture itself is damaged: %v", err)
	}
	raw, _ := os.ReadFile(path)
	ps := uint64(m.pageSize)
	for id := uint64(2); id < m.pgid; id++ {
		if !c.seen.has(id) || native.Uint64(raw[id*ps:]) != id {
			continue // free, or the tail of an overflowing page
		}
		switch native.Uint16(raw[id*ps+8:]) {
		case flagLeaf:
			leaves = append(leaves, id)
			if native.Uint32(raw[id*ps+12:]) > 0 {
				overflow = id
			}
		case flagBranch:
			branches = append(branches, id)
		}
	}
	if len(leaves) < 3 || len(branches) == 0 || overflow == 0 {
		t.Fatalf("fixture has %d leaves, %d branches, overflowing page %d", len(leaves), len(branches), overflow)
	}
	return leaves, branches, overflow
}

// expectDamaged opens raw, written to a new file, and wants ErrDamaged, in
// one line that says what to do. (A new file each time: when bbolt itself
// finds the damage, its memory map keeps the file locked.)
func expectDamaged(t *testing.T, raw []byte, what string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Open(path, Options{LockTimeout: 200 * time.Millisecond})
	if err == nil {
		d.Close()
		t.Fatalf("%s: Open succeeded", what)
	}
	msg := err.Error()
	if !errors.Is(err, ErrDamaged) || !strings.HasPrefix(msg, fmt.Sprintf("cannot open db %q: ", path)) ||
		!strings.Contains(msg, "fiplan restore") || strings.Contains(msg, "\n") {
		t.Fatalf("%s: %v", what, err)
	}
	p := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Check(p); !errors.Is(err, ErrDamaged) {
		t.Fatalf("%s: Check: %v", what, err)
	}
}

func TestOpenRefusesTruncatedFile(t *testing.T) {
	path, raw, m := damageFixture(t)
	ps := int(m.pageSize)
	for _, n := range []int{len(raw) / 2, int(m.pgid-1) * ps, 2*ps + 100, 3 * ps} {
		expectDamaged(t, raw[:n], fmt.Sprintf("truncated to %d of %d bytes", n, len(raw)))
	}
	// The message says truncated when the meta page is there to say so.
	if err := os.WriteFile(path, raw[:len(raw)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("half a file: %v", err)
	}
}

func TestOpenRefusesDamagedPage(t *testing.T) {
	path, raw, m := damageFixture(t)
	leaves, branches, overflow := pagesOf(t, path, m)
	ps := uint64(m.pageSize)
	leaf, branch := leaves[len(leaves)/2], branches[0]
	cases := []struct {
		what   string
		damage func(b []byte)
	}{
		{"a leaf page's type", func(b []byte) { native.PutUint16(b[leaf*ps+8:], 0x55) }},
		{"a leaf page's id", func(b []byte) { native.PutUint64(b[leaf*ps:], leaf+1) }},
		{"a leaf page's element count", func(b []byte) { native.PutUint16(b[leaf*ps+10:], 0xFFF0) }},
		{"a leaf element's position", func(b []byte) { native.PutUint32(b[leaf*ps+16+4:], 1<<30) }},
		{"a branch element's child", func(b []byte) { native.PutUint64(b[branch*ps+16+8:], m.pgid+1000) }},
		{"a branch element pointing at itself", func(b []byte) { native.PutUint64(b[branch*ps+16+8:], branch) }},
		{"an overflow count", func(b []byte) { native.PutUint32(b[overflow*ps+12:], uint32(m.pgid)) }},
		{"a zeroed page", func(b []byte) { clear(b[leaf*ps : (leaf+1)*ps]) }},
		{"the freelist", func(b []byte) { native.PutUint16(b[m.freelist*ps+8:], flagLeaf) }},
		{"a freed page in use", func(b []byte) {
			p := b[m.freelist*ps:]
			if native.Uint16(p[10:]) == 0 {
				t.Fatal("the fixture's freelist is empty")
			}
			native.PutUint64(p[16:], leaf)
		}},
	}
	for _, c := range cases {
		b := append([]byte(nil), raw...)
		c.damage(b)
		expectDamaged(t, b, c.what)
	}
	// The untouched file opens.
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	openT(t, path).Close()
}

// Damage anywhere, of any kind, never takes the process down: Open refuses
// the file or serves it, and what it serves reads without a panic or a
// fault. (A fault would end the test binary, not fail one test.)
func TestOpenRandomDamageNeverCrashes(t *testing.T) {
	_, raw, m := damageFixture(t)
	rng := rand.New(rand.NewPCG(1, 2))
	ps := int(m.pageSize)
	refused := 0
	n := 150
	if testing.Short() {
		n = 40
	}
	for i := range n {
		b := append([]byte(nil), raw...)
		// Past the meta pages (bbolt's checksums guard them), a few bytes
		// of one page, or a whole page of noise.
		at := 2*ps + rng.IntN(len(b)-2*ps-8)
		if i%5 == 0 {
			at -= at % ps
			for j := at; j < at+ps; j++ {
				b[j] = byte(rng.Uint32())
			}
		} else {
			native.PutUint64(b[at:], rng.Uint64()>>(rng.IntN(8)*8))
		}
		p := filepath.Join(t.TempDir(), "f.db")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := Open(p, Options{LockTimeout: 200 * time.Millisecond})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "cannot open db ") {
				t.Fatalf("unclear error: %v", err)
			}
			refused++
			continue
		}
		for u := range 30 {
			_, _ = d.Export(fmt.Sprint("user-", u))
		}
		_ = d.Flags(func(string, []byte) error { return nil })
		_ = d.CreateAsset("user-3", AssetMeta{ID: "new"}, []byte(`{}`), 1000, nil)
		d.Close()
	}
	if refused == 0 {
		t.Fatal("no damage was found: the check checks nothing")
	}
	t.Logf("%d of %d damaged copies refused at open", refused, n)
}
