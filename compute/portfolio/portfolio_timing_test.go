package portfolio

import (
	"math/rand/v2"
	"strconv"
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

// Cost growth with the number of holdings (10 to 1,000, the most an account
// holds): one pass over the holdings and a fixed set of groups, so the time
// per holding should stay flat.
func BenchmarkSummarizeGrowth(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run("assets="+strconv.Itoa(n), func(b *testing.B) {
			hs := randomHoldings(rand.New(rand.NewPCG(1, 2)), n)
			for i := range hs {
				hs[i].Currency = []string{"USD", "EUR", "GBP"}[i%3]
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = Summarize(hs, "EUR", rates)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/asset")
		})
	}
}
