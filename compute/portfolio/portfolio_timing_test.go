package portfolio

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSummarize200 summarises 200 holdings in three currencies, as
// GET /assets/summary does.
func BenchmarkSummarize200(b *testing.B) {
	hs := randomHoldings(rand.New(rand.NewPCG(1, 2)), 200)
	for i := range hs {
		hs[i].Currency = []string{"USD", "EUR", "GBP"}[i%3]
		hs[i].Value = float64(1000 + i)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Summarize(hs, "EUR", rates)
	}
}
