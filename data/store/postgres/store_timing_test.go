package postgres

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fiplan/data/store"
)

// benchDoc is about the size of a real asset record.
var benchDoc = []byte(`{"id":"ast_xxxxxxxxxxxxxxxxxxxxxxxxxx","name":"Vanguard FTSE All-World UCITS ETF","category":"equity","isin":"IE00BK5BQT80","ticker":"VWCE","quantity":120,"value":14400,"currency":"EUR","costBasis":11000,"expenseRatio":0.0022,"region":"global","accountType":"taxable","notes":null,"createdAt":"2026-11-21T10:00:00Z","updatedAt":"2026-11-21T10:00:00Z"}`)

// BenchmarkCreateAsset is one durable create (one committed transaction)
// at a time.
func BenchmarkCreateAsset(b *testing.B) {
	d := openT(b, freshSchema(b))
	// As served: asset writes are judged, and these users watch no plan,
	// so the pipeline's one more statement finds none.
	d.WatchAssets(func(string, func(func([]byte) error) error, []store.PlanWatch) ([]store.Event, error) {
		return nil, nil
	})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m := store.AssetMeta{ID: fmt.Sprint("a", i), ISIN: fmt.Sprintf("US%010d", i)}
		if err := d.CreateAsset(fmt.Sprint("u", i/100), m, benchDoc, 1000, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
}

// BenchmarkCreateAsset32 is 32 concurrent writers on 64 users; writes of
// one user queue on its row lock, the pool's connections bound the rest.
func BenchmarkCreateAsset32(b *testing.B) {
	d := openT(b, withParam(b, freshSchema(b), "pool_max_conns", "16"))
	// Open the pool's connections before timing.
	for _, err := range parallel(32, func(i int) error {
		return d.CreateAsset(fmt.Sprint("warm", i), store.AssetMeta{ID: "w"}, benchDoc, 1, nil)
	}) {
		if err != nil {
			b.Fatal(err)
		}
	}
	var seq atomic.Int64
	b.ReportAllocs()
	b.SetParallelism((32 + 1) / 2) // 32 goroutines on 2 CPUs
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := seq.Add(1)
			m := store.AssetMeta{ID: fmt.Sprint("a", i), ISIN: fmt.Sprintf("US%010d", i)}
			if err := d.CreateAsset(fmt.Sprint("u", i%64), m, benchDoc, 1<<20, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
}

func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = fn(i) }()
	}
	wg.Wait()
	return errs
}

// BenchmarkListAssets200 copies a page of 200 assets into a reused buffer.
func BenchmarkListAssets200(b *testing.B) {
	d := openT(b, freshSchema(b))
	for i := range 200 {
		doc := []byte(strings.Replace(string(benchDoc), "xxxx", fmt.Sprintf("%04d", i), 1))
		if err := d.CreateAsset("alice", store.AssetMeta{ID: fmt.Sprint("a", i), Category: uint8(i % 7)}, doc, 1000, nil); err != nil {
			b.Fatal(err)
		}
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var total int
		var err error
		buf, total, err = d.AppendAssets(buf[:0], "alice", store.AnyCategory, 0, 200)
		if err != nil || total != 200 {
			b.Fatal(total, err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkLookupKey is the API-key check of every key-authenticated
// request: the handlers keep no copy, so that a revoked key fails on every
// node at once.
func BenchmarkLookupKey(b *testing.B) {
	d := openT(b, freshSchema(b))
	hash := sha256.Sum256([]byte("svc_bench"))
	if err := d.CreateKey(store.Key{ID: "k", Owner: "alice", Name: "bench"}, hash, 25, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if k, _, err := d.LookupKey(hash); err != nil || k.ID != "k" {
			b.Fatal(k, err)
		}
	}
}
