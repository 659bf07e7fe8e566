package fi

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// viaText is x as a client would send it back after reading it rounded to
// the given decimals (the precision the HTTP layer writes).
func viaText(x float64, decimals int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', decimals, 64), 64)
	return v
}

// Every required saving, sent back rounded to the cent as a fixed
// contribution, reaches FI by the age asked; two cents less does not (the
// answer is the smallest to within the bisection's precision).
func TestPropertySavingForRoundTrip(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 34))
	const limit = 1e9
	found := 0
	for i := 0; i < 3000; i++ {
		in := randomInput(r)
		if r.IntN(4) == 0 {
			in.FixedContribution, in.Contribution = true, r.Float64()*50_000
		}
		by := in.CurrentAge + r.IntN(in.LifeExpectancy-in.CurrentAge+5)
		x, ok := SavingFor(&in, by, limit)
		if !ok {
			// Then not even the limit does it.
			c := in
			c.FixedContribution, c.Contribution = true, limit
			if s, _ := Project(&c, nil); s.Reached && s.FIAge <= by {
				t.Fatalf("case %d: no answer, but %v a year reaches FI at %d <= %d", i, limit, s.FIAge, by)
			}
			continue
		}
		found++
		c := in
		c.FixedContribution, c.Contribution = true, viaText(x, 2)
		s, _ := Project(&c, nil)
		if !s.Reached || s.FIAge > by {
			t.Fatalf("case %d: saving %.2f reaches FI at %d, asked by %d (%+v)", i, x, s.FIAge, by, in)
		}
		if x >= 0.02 && x < 1e6 {
			c.Contribution = x - 0.02
			if s, _ := Project(&c, nil); s.Reached && s.FIAge <= by {
				t.Fatalf("case %d: %.2f is not the smallest: %.2f also reaches FI by %d", i, x, c.Contribution, by)
			}
		}
	}
	if found < 1500 {
		t.Fatalf("only %d of 3000 cases had an answer: the property was barely exercised", found)
	}
}

// Every highest safe withdrawal rate, sent back rounded to the basis point,
// meets its success target over the same windows; for the constant strategy,
// whose success falls as the rate rises, one basis point more misses it.
func TestPropertyMaxWithdrawalRateRoundTrip(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(55, 89))
	s := syntheticHistory()
	const ceiling = 0.2
	capped := 0
	const cases = 600
	for i := 0; i < cases; i++ {
		in := Defaults()
		in.CurrentSavings = 1_000_000
		in.StockShare = r.Float64()
		in.Fee = r.Float64() * 0.01
		in.Strategy = Strategy(r.IntN(numStrategies))
		years := 5 + r.IntN(56)
		target := 0.05 + r.Float64()*0.95
		rate, atCeiling := MaxWithdrawalRate(&in, s, years, target, ceiling)
		if rate == 0 {
			t.Fatalf("case %d: no rate at all for target %.3f over %d years", i, target, years)
		}
		if rate > ceiling {
			t.Fatalf("case %d: %v is above the ceiling", i, rate)
		}
		c := in
		if !c.Strategy.canRunOut() {
			c.Strategy = StrategyConstant
		}
		c.WithdrawalRate = viaText(rate, 4)
		if got := Backtest(&c, s, years); got.SuccessRate < target {
			t.Fatalf("case %d: rate %.4f succeeds in %.4f of windows, target %.4f", i, rate, got.SuccessRate, target)
		}
		if atCeiling {
			capped++
			continue
		}
		if c.Strategy == StrategyConstant {
			c.WithdrawalRate = viaText(rate+RateStep, 4)
			if got := Backtest(&c, s, years); got.SuccessRate >= target {
				t.Fatalf("case %d: %.4f is not the highest: %.4f succeeds in %.4f", i, rate, c.WithdrawalRate, got.SuccessRate)
			}
		}
	}
	if capped == cases {
		t.Fatal("every case hit the ceiling: the search was never exercised")
	}
}
