package limit

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
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

// BenchmarkSharedAllow is one check against Redis (a round trip and the
// GCRA script); needs FI_TEST_REDIS.
func BenchmarkSharedAllow(b *testing.B) {
	u := os.Getenv("FI_TEST_REDIS")
	if u == "" {
		b.Skip("set FI_TEST_REDIS=redis://127.0.0.1:6379/15 to run it")
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		b.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	r := Rate{N: 1e9, Per: time.Hour}
	s := NewShared(NewRedis(rdb, time.Second, nil), r, "fiplan-bench:", func(s string) string { return s }, New[string](r, 100, HashString))
	now := time.Now().UnixNano()
	b.ReportAllocs()
	for b.Loop() {
		if !s.Allow("alice", now).OK {
			b.Fatal("refused")
		}
	}
	rdb.Del(context.Background(), "rate:fiplan-bench:alice")
}
