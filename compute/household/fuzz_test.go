package household

import (
	"math"
	"math/rand/v2"
	"testing"
)

// FuzzRun runs households drawn from the fuzzer's seeds (with the fuzzer
// also choosing extreme returns, inflation and spending): the engine
// runs every one without a panic, keeps every figure finite, and conserves
// money in every account and row.
func FuzzRun(f *testing.F) {
	rules, s := fixture(f)
	f.Add(uint64(7), uint64(11), 0.05, 0.02, 40000.0)
	f.Add(uint64(1), uint64(2), -0.5, 0.15, 0.0)
	f.Add(uint64(99), uint64(3), 0.3, -0.02, 250000.0)
	var w Work
	var res Result
	f.Fuzz(func(t *testing.T, a, b uint64, ret, infl, spend float64) {
		if math.IsNaN(ret) || math.IsNaN(infl) || math.IsNaN(spend) {
			return
		}
		p := randomHousehold(rand.New(rand.NewPCG(a, b)), rules, s)
		// the ranges the request schema allows
		p.Return = math.Max(-0.5, math.Min(ret, 0.5))
		p.Inflation = math.Max(-0.1, math.Min(infl, 0.5))
		p.Expenses = math.Max(0, math.Min(math.Abs(spend), 10_000_000))
		if err := Run(&p, &w, &res); err != nil {
			t.Fatalf("seeds %d %d: %v", a, b, err)
		}
		for i, row := range res.Rows {
			if math.IsNaN(row.EndBalance) || math.IsInf(row.EndBalance, 0) || math.IsNaN(res.Extra[i].Tax.Total) {
				t.Fatalf("seeds %d %d row %d: %+v", a, b, i, row)
			}
		}
		checkConserved(t, 0, &p, &res)
	})
}
