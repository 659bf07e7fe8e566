package store

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// benchDoc is about the size of a real asset record.
var benchDoc = []byte(`{"id":"ast_xxxxxxxxxxxxxxxxxxxxxxxxxx","name":"Vanguard FTSE All-World UCITS ETF","category":"equity","isin":"IE00BK5BQT80","ticker":"VWCE","quantity":120,"value":14400,"currency":"EUR","costBasis":11000,"expenseRatio":0.0022,"region":"global","accountType":"taxable","notes":null,"createdAt":"2026-11-21T10:00:00Z","updatedAt":"2026-11-21T10:00:00Z"}`)

// BenchmarkCreateAsset is one durable (fsync'd) create at a time.
func BenchmarkCreateAsset(b *testing.B) {
	d := openT(b, tempPath(b))
	d.bolt.NoSync = os.Getenv("NOSYNC") != ""
	d.WatchAssets(benchJudge) // as served; these users watch no plan
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m := AssetMeta{ID: fmt.Sprint("a", i), ISIN: fmt.Sprintf("US%010d", i)}
		if err := d.CreateAsset(fmt.Sprint("u", i/100), m, benchDoc, 1000, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
}

// BenchmarkCreateAsset32 is 32 concurrent writers: Batch shares one
// transaction and one fsync among them.
func BenchmarkCreateAsset32(b *testing.B) {
	d := openT(b, tempPath(b))
	var seq atomic.Int64
	b.ReportAllocs()
	b.SetParallelism((32 + 1) / 2) // 32 goroutines on 2 CPUs; more on bigger machines
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := seq.Add(1)
			m := AssetMeta{ID: fmt.Sprint("a", i), ISIN: fmt.Sprintf("US%010d", i)}
			if err := d.CreateAsset(fmt.Sprint("u", i%64), m, benchDoc, 1<<20, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "creates/s")
}

// BenchmarkListAssets200 copies a page of 200 assets into a reused buffer.
func BenchmarkListAssets200(b *testing.B) {
	d := openT(b, tempPath(b))
	d.bolt.NoSync = true // setup only
	for i := range 200 {
		doc := []byte(strings.Replace(string(benchDoc), "xxxx", fmt.Sprintf("%04d", i), 1))
		if err := d.CreateAsset("alice", AssetMeta{ID: fmt.Sprint("a", i), Category: uint8(i % 7)}, doc, 1000, nil); err != nil {
			b.Fatal(err)
		}
	}
	d.bolt.NoSync = false
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var total int
		var err error
		buf, total, err = d.AppendAssets(buf[:0], "alice", AnyCategory, 0, 200)
		if err != nil || total != 200 {
			b.Fatal(total, err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// benchJudge judges as the server's does: each asset's value and currency
// decoded, the total against each watch's year.
func benchJudge(user string, each func(fn func(doc []byte) error) error, ws []PlanWatch) ([]Event, error) {
	by := map[string]float64{}
	err := each(func(doc []byte) error {
		var h struct {
			Value    float64 `json:"value"`
			Currency string  `json:"currency"`
		}
		if err := json.Unmarshal(doc, &h); err != nil {
			return err
		}
		by[h.Currency] += h.Value
		return nil
	})
	if err != nil {
		return nil, err
	}
	var evs []Event
	for i := range ws {
		expected, fiNumber, ok := ws[i].At(2026)
		more, err := Track(user, ws[i].Plan, ws[i].Name, 2026, ws[i].Currency, by["EUR"], expected, ok, fiNumber, now())
		if err != nil {
			return nil, err
		}
		evs = append(evs, more...)
	}
	return evs, nil
}

// BenchmarkCreateAssetWatched is a create of a user with MaxPlans-many
// (100) watched plans of 60-year paths and 100 assets: the write reads the
// watches, decodes the assets and compares the total with each plan (the
// events, raised by the first create, are stored once).
func BenchmarkCreateAssetWatched(b *testing.B) {
	d := openT(b, tempPath(b))
	d.bolt.NoSync = os.Getenv("NOSYNC") != ""
	d.WatchAssets(benchJudge)
	path := make([]float64, 60)
	for i := range path {
		path[i] = 1e5 * float64(i+1)
	}
	for p := range 100 {
		id := fmt.Sprint("pln_", p)
		if err := d.CreatePlan("u", id, []byte(`{}`), 100, nil, nil); err != nil {
			b.Fatal(err)
		}
		if err := d.SetPlanWatch("u", PlanWatch{Plan: id, Name: id, Currency: "EUR", FromYear: 2000, Expected: path, FINumber: path}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 100 {
		if err := d.CreateAsset("u", AssetMeta{ID: fmt.Sprint("s", i)}, benchDoc, 1<<20, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		id := fmt.Sprint("a", i)
		if err := d.CreateAsset("u", AssetMeta{ID: id}, benchDoc, 1<<20, nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := d.DeleteAsset("u", id, nil); err != nil { // keep 100 assets
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
