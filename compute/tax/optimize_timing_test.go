package tax

import (
	"strconv"
	"testing"
)

// benchOptimize ranks a mixed US income over every country file with the
// Italian-style flat offer in each, as POST /tax/optimize does.
func benchOptimize(b *testing.B, budgetUSD float64) {
	all := loadAll(b)
	q := &Query{Home: loadSystem(b, "us"), Programs: true, BudgetUSD: budgetUSD, WithdrawalRate: 0.04,
		Income: Income{Pension: 30000, Interest: 2000, Dividends: 20000, CapitalGains: 15000}}
	for _, s := range all {
		q.Candidates = append(q.Candidates, Candidate{System: s, Offers: []*Offer{flat7()}})
	}
	rates := perUSD{}
	for _, s := range all {
		rates[s.Currency] = 1.5 // one rate for all: only the tax differs
	}
	rates["USD"] = 1
	var r Ranking
	b.ReportAllocs()
	for b.Loop() {
		if err := Optimize(q, rates, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOptimize: every country and its offer, with the after-tax FI
// number of each (one GrossFor per option).
func BenchmarkOptimize(b *testing.B) { benchOptimize(b, 48000) }

// BenchmarkOptimizeNoBudget: the ranking alone.
func BenchmarkOptimizeNoBudget(b *testing.B) { benchOptimize(b, 0) }

// Cost growth with the number of candidate countries (5, 10, 20, then every
// country file): each candidate is a Calculate per regime and one GrossFor,
// so the time per candidate should stay flat; the ranking's sort is the only
// superlinear step.
func BenchmarkOptimizeGrowth(b *testing.B) {
	all := loadAll(b)
	rates := perUSD{"USD": 1}
	for _, s := range all {
		rates[s.Currency] = 1.5
	}
	for _, n := range []int{5, 10, 20, len(all)} {
		n = min(n, len(all))
		b.Run("countries="+strconv.Itoa(n), func(b *testing.B) {
			q := &Query{Home: loadSystem(b, "us"), Programs: true, BudgetUSD: 48000, WithdrawalRate: 0.04,
				Income: Income{Pension: 30000, Interest: 2000, Dividends: 20000, CapitalGains: 15000}}
			for _, s := range all[:n] {
				q.Candidates = append(q.Candidates, Candidate{System: s, Offers: []*Offer{flat7()}})
			}
			var r Ranking
			b.ReportAllocs()
			for b.Loop() {
				if err := Optimize(q, rates, &r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/country")
		})
	}
}
