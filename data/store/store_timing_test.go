package store

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"
)

// BenchmarkLookupKey is the API-key authentication read path.
func BenchmarkLookupKey(b *testing.B) {
	d := openT(b, tempPath(b))
	d.bolt.NoSync = true // setup only
	const n = 1000
	hashes := make([][32]byte, n)
	for i := range n {
		hashes[i] = hashOf(fmt.Sprint("svc_", i))
		k := Key{ID: fmt.Sprintf("key%04d", i), Owner: fmt.Sprintf("user%03d", i%100), Name: "ci", Hint: "svc_…abcd"}
		if err := d.CreateKey(k, hashes[i], 100, nil); err != nil {
			b.Fatal(err)
		}
	}
	if err := d.TouchKeys(map[string]time.Time{KeyRef("user000", "key0000"): time.Now()}); err != nil {
		b.Fatal(err)
	}
	d.bolt.NoSync = false
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, _, err := d.LookupKey(hashes[i%n]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookupKeyParallel measures concurrent readers.
func BenchmarkLookupKeyParallel(b *testing.B) {
	d := openT(b, tempPath(b))
	h := hashOf("svc_x")
	if err := d.CreateKey(Key{ID: "k", Owner: "alice"}, h, 1, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := d.LookupKey(h); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkCreateKey is a durable (fsync'd) write.
func BenchmarkCreateKey(b *testing.B) {
	d := openT(b, tempPath(b))
	b.ReportAllocs()
	var h [32]byte
	for i := 0; b.Loop(); i++ {
		binary.BigEndian.PutUint64(h[:], uint64(i))
		k := Key{ID: fmt.Sprint("k", i), Owner: fmt.Sprint("u", i/10)}
		if err := d.CreateKey(k, h, 10, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveAccountUnchanged is the per-login call when nothing changed:
// a read transaction only.
func BenchmarkSaveAccountUnchanged(b *testing.B) {
	d := openT(b, tempPath(b))
	if err := d.SaveAccount("alice", "pro"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := d.SaveAccount("alice", "pro"); err != nil {
			b.Fatal(err)
		}
	}
}
