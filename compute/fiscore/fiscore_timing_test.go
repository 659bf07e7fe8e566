package fiscore

import (
	"testing"

	"fiplan/compute/portfolio"
)

// BenchmarkScore200 scores a full profile with 200 holdings in three
// currencies, as GET /fi-score does.
func BenchmarkScore200(b *testing.B) {
	in := person()
	in.Holdings = nil
	for i := range 200 {
		in.Holdings = append(in.Holdings, portfolio.Holding{Name: "Holding", Category: []string{"equity", "bond", "cash", "real_estate"}[i%4],
			Value: float64(1000 + i), Currency: []string{"USD", "EUR", "GBP"}[i%3], ExpenseRatio: 0.002, HasExpenseRatio: true, Region: "global"})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Score(&in, rates)
	}
}
