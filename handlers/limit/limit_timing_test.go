package limit

import (
	"testing"
	"time"
)

func BenchmarkAllowAddr(b *testing.B) {
	l := New[[16]byte](Rate{N: 1e9, Per: time.Hour}, 1<<16, HashAddr)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var a [16]byte
		i := 0
		for pb.Next() {
			i++
			a[15] = byte(i)
			l.Allow(a, int64(i))
		}
	})
}

func BenchmarkAllowUser(b *testing.B) {
	l := New[string](Rate{N: 1e9, Per: time.Hour}, 1<<16, HashString)
	keys := []string{"alice", "bob", "carol", "dave"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		l.Allow(keys[i&3], int64(i))
	}
}
