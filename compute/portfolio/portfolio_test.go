package portfolio

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// perUSD is a rate table for tests: units of each currency per US dollar.
type perUSD map[string]float64

func (r perUSD) Convert(x float64, from, to string) (float64, bool) {
	f, ok1 := r[from]
	t, ok2 := r[to]
	if !ok1 || !ok2 {
		return 0, false
	}
	return x / f * t, true
}

var rates = perUSD{"USD": 1, "EUR": 0.8, "GBP": 0.5}

func TestSummarize(t *testing.T) {
	t.Parallel()
	hs := []Holding{
		{Name: "World", Category: "equity", Value: 8000, Currency: "EUR", CostBasis: 6000, HasCostBasis: true, ExpenseRatio: 0.002, HasExpenseRatio: true, Region: "global", AccountType: "taxable"},
		{Name: "Treasury", Category: "bond", Value: 5000, Currency: "USD", ExpenseRatio: 0.0005, HasExpenseRatio: true},
		{Name: "Cash", Category: "cash", Value: 1000, Currency: "GBP", CostBasis: 1000, HasCostBasis: true, AccountType: "taxable"},
		{Name: "Lost", Category: "other", Value: 700, Currency: "XXX"}, // no rate: counts 0
	}
	s := Summarize(hs, "USD", rates)
	// In USD: 10,000 + 5,000 + 2,000 + 0.
	if s.Currency != "USD" || s.Assets != 4 || s.Total != 17000 {
		t.Fatalf("total: %+v", s)
	}
	want := []Share{{"equity", 10000, 0.588235}, {"bond", 5000, 0.294118}, {"cash", 2000, 0.117647}, {"other", 0, 0}}
	if !slices.Equal(s.ByCategory, want) {
		t.Errorf("byCategory %v, want %v", s.ByCategory, want)
	}
	if want := []Share{{"taxable", 12000, 0.705882}, {Unspecified, 5000, 0.294118}}; !slices.Equal(s.ByAccountType, want) {
		t.Errorf("byAccountType %v, want %v", s.ByAccountType, want)
	}
	if want := []Share{{"global", 10000, 0.588235}, {Unspecified, 7000, 0.411765}}; !slices.Equal(s.ByRegion, want) {
		t.Errorf("byRegion %v, want %v", s.ByRegion, want)
	}
	// (10,000 x 0.2% + 5,000 x 0.05%) / 15,000 over 15,000 of 17,000.
	if !s.HasExpenseRatio || s.ExpenseRatio != 0.001500 || s.ExpenseRatioCoverage != 0.882353 {
		t.Errorf("expense ratio %v over %v", s.ExpenseRatio, s.ExpenseRatioCoverage)
	}
	// Basis 7,500 + 2,000 against a value of 12,000.
	if !s.HasCostBasis || s.CostBasis != 9500 || s.UnrealisedGain != 2500 || s.CostBasisCoverage != 0.705882 {
		t.Errorf("cost basis %v gain %v coverage %v", s.CostBasis, s.UnrealisedGain, s.CostBasisCoverage)
	}
	// The rate of each currency held, in ByCurrency's order; none for XXX.
	if want := []Rate{{"EUR", 0.8}, {"USD", 1}, {"GBP", 0.5}}; !slices.Equal(s.Rates, want) {
		t.Errorf("rates %v, want %v", s.Rates, want)
	}
}

func TestSummarizeEdges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		hs    []Holding
		check func(t *testing.T, s *Summary)
	}{
		{"nothing", nil, func(t *testing.T, s *Summary) {
			if s.Total != 0 || len(s.ByCategory) != 0 || s.HasExpenseRatio || s.HasCostBasis || s.Rates == nil || len(s.Rates) != 0 {
				t.Errorf("%+v", s)
			}
		}},
		{"worth nothing", []Holding{{Category: "cash", Value: 0, Currency: "USD", ExpenseRatio: 0.01, HasExpenseRatio: true}}, func(t *testing.T, s *Summary) {
			if s.ByCategory[0].Share != 0 || s.HasExpenseRatio || s.ExpenseRatioCoverage != 0 {
				t.Errorf("%+v", s)
			}
		}},
		{"equal values tie by key", []Holding{{Category: "bond", Value: 5, Currency: "USD"}, {Category: "cash", Value: 5, Currency: "USD"}, {Category: "bond", Value: 0.001, Currency: "USD"}}, func(t *testing.T, s *Summary) {
			// 5.001 rounds to 5: the rounded values tie and the keys decide.
			if s.ByCategory[0].Key != "bond" || s.ByCategory[1].Key != "cash" {
				t.Errorf("%v", s.ByCategory)
			}
		}},
		{"a stated 0 basis is a basis", []Holding{{Category: "equity", Value: 100, Currency: "USD", HasCostBasis: true}}, func(t *testing.T, s *Summary) {
			if !s.HasCostBasis || s.UnrealisedGain != 100 || s.CostBasisCoverage != 1 {
				t.Errorf("%+v", s)
			}
		}},
		{"values too large to add stay finite", []Holding{{Category: "equity", Value: math.MaxFloat64, Currency: "USD"}, {Category: "equity", Value: math.MaxFloat64, Currency: "USD"}}, func(t *testing.T, s *Summary) {
			checkFinite(t, s)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.check(t, Summarize(c.hs, "USD", rates)) })
	}
}

func checkFinite(t *testing.T, s *Summary) {
	t.Helper()
	nums := []float64{s.Total, s.ExpenseRatio, s.ExpenseRatioCoverage, s.CostBasis, s.UnrealisedGain, s.CostBasisCoverage}
	for _, l := range [][]Share{s.ByCategory, s.ByCurrency, s.ByRegion, s.ByAccountType} {
		for _, x := range l {
			nums = append(nums, x.Value, x.Share)
		}
	}
	for _, r := range s.Rates {
		nums = append(nums, r.Rate)
	}
	for i, x := range nums {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("number %d is %v: %+v", i, x, s)
		}
	}
}

func randomHoldings(rng *rand.Rand, n int) []Holding {
	cats := []string{"equity", "bond", "cash", "crypto"}
	curs := []string{"USD", "EUR", "GBP", "XXX"}
	hs := make([]Holding, n)
	for i := range hs {
		h := Holding{Category: cats[rng.IntN(len(cats))], Currency: curs[rng.IntN(len(curs))], Value: rng.Float64() * 1e6}
		if rng.IntN(10) == 0 {
			h.Value = []float64{0, 1e-320, 1e15, math.MaxFloat64, math.Inf(1), math.NaN()}[rng.IntN(6)]
		}
		if rng.IntN(2) == 0 {
			h.CostBasis, h.HasCostBasis = rng.Float64()*1e6, true
		}
		if rng.IntN(2) == 0 {
			h.ExpenseRatio, h.HasExpenseRatio = rng.Float64()*0.02, true
		}
		if rng.IntN(2) == 0 {
			h.Region = "global"
		}
		hs[i] = h
	}
	return hs
}

// Over random holdings, extreme values included: every number is finite,
// coverages and shares are fractions, allocations are sorted and each sums
// to the total, and adding a holding never lowers the total.
func TestSummarizeProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 9))
	for i := range 500 {
		hs := randomHoldings(rng, rng.IntN(30))
		s := Summarize(hs, "EUR", rates)
		checkFinite(t, s)
		for _, f := range []float64{s.ExpenseRatioCoverage, s.CostBasisCoverage} {
			if f < 0 || f > 1 {
				t.Fatalf("case %d: coverage %v", i, f)
			}
		}
		for _, l := range [][]Share{s.ByCategory, s.ByCurrency, s.ByRegion, s.ByAccountType} {
			sum := 0.0
			for j, x := range l {
				if x.Share < 0 || x.Share > 1 || j > 0 && x.Value > l[j-1].Value {
					t.Fatalf("case %d: allocation %v", i, l)
				}
				sum += x.Value
			}
			if s.Total < 1e12 && math.Abs(sum-s.Total) > 0.01*float64(len(l)) {
				t.Fatalf("case %d: allocation sums to %v, total %v", i, sum, s.Total)
			}
		}
		more := append(slices.Clone(hs), Holding{Category: "cash", Value: rng.Float64() * 1000, Currency: "USD"})
		if s2 := Summarize(more, "EUR", rates); s2.Total < s.Total {
			t.Fatalf("case %d: total fell from %v to %v with one more holding", i, s.Total, s2.Total)
		}
	}
}
