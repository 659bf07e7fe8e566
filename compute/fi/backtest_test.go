package fi

import (
	"math"
	"testing"
)

// flat is a series with the same stock, bond and inflation figures every year.
func flat(first, n int, stock, bond, infl float64) Series {
	s := Series{}
	for i := 0; i < n; i++ {
		s.Years = append(s.Years, first+i)
		s.Stocks = append(s.Stocks, stock)
		s.Bonds = append(s.Bonds, bond)
		s.Inflation = append(s.Inflation, infl)
	}
	return s
}

func TestBacktestFlatSeries(t *testing.T) {
	t.Parallel()
	in := Defaults()
	in.WithdrawalRate = 0.04
	s := flat(1900, 60, 0, 0, 0)

	// Nothing grows: 4% a year lasts 25 years exactly.
	r := Backtest(&in, s, 25)
	if r.Periods != 36 || r.SuccessRate != 1 || r.WorstFailed {
		t.Fatalf("25 years at 4%% with zero returns: %+v", r)
	}
	r = Backtest(&in, s, 30)
	if r.Periods != 31 || r.SuccessRate != 0 || !r.WorstFailed || r.WorstYearsLasted != 25 ||
		r.WorstStartYear != 1900 || r.WorstFailYear != 1925 {
		t.Fatalf("30 years at 4%% with zero returns: %+v", r)
	}

	// Constant 2% real return: the annuity of 1 over 30 years is the ceiling.
	s = flat(1900, 40, 0.05, 0.05, 1.05/1.02-1)
	limit := 1 / (1 + (1-math.Pow(1.02, -29))/0.02) // withdrawal at the start of each year
	in.WithdrawalRate = limit * 0.999
	if r = Backtest(&in, s, 30); r.SuccessRate != 1 {
		t.Fatalf("just under the annuity: %+v", r)
	}
	in.WithdrawalRate = limit * 1.001
	if r = Backtest(&in, s, 30); r.SuccessRate != 0 || r.WorstYearsLasted != 29 {
		t.Fatalf("just over the annuity: %+v", r)
	}
	got, capped := MaxWithdrawalRate(&in, s, 30, 0.95, 0.2)
	if capped {
		t.Fatal("the annuity limit is below the ceiling")
	}
	if got > limit || limit-got >= RateStep || got*1e4 != math.Round(got*1e4) {
		t.Fatalf("MaxWithdrawalRate %.6f, annuity limit %.6f: want the basis point at or below it", got, limit)
	}

	// A ceiling below the answer is the answer, flagged.
	if got, capped := MaxWithdrawalRate(&in, s, 30, 0.95, 0.03); got != 0.03 || !capped {
		t.Fatalf("ceiling 0.03: %v %v", got, capped)
	}
	// Nothing meets: 0 (no window fits, or a total loss every year).
	if got, capped := MaxWithdrawalRate(&in, s, 41, 0.95, 0.2); got != 0 || capped {
		t.Fatalf("no window: %v %v", got, capped)
	}
	if got, _ := MaxWithdrawalRate(&in, flat(1900, 40, -0.99, -0.99, 0), 30, 0.95, 0.2); got != 0 {
		t.Fatalf("total loss: %v", got)
	}

	// Windows that do not fit.
	if r = Backtest(&in, s, 41); r.Periods != 0 || r.SuccessRate != 0 {
		t.Fatalf("too long: %+v", r)
	}
	if r = Backtest(&in, Series{}, 30); r.Periods != 0 {
		t.Fatalf("empty: %+v", r)
	}
}

// A crash early in the record makes that start year the worst; the mix and the
// fee matter.
func TestBacktestWorstYearAndMix(t *testing.T) {
	t.Parallel()
	s := flat(1950, 50, 0.08, 0.03, 0.03)
	s.Stocks[5], s.Stocks[6] = -0.45, -0.30
	in := Defaults()
	in.WithdrawalRate = 0.06
	in.StockShare = 1
	r := Backtest(&in, s, 30)
	if r.WorstStartYear != 1955 || r.MedianEndBalance <= r.WorstEndBalance {
		t.Fatalf("worst start should be the crash year: %+v", r)
	}
	in.StockShare = 0 // bonds only never see the crash
	rb := Backtest(&in, s, 30)
	if rb.WorstStartYear == 1955 && rb.WorstEndBalance < r.WorstEndBalance {
		t.Fatalf("bond-only result should not suffer the stock crash: %+v", rb)
	}
	in.StockShare, in.Fee = 1, 0.02
	if rf := Backtest(&in, s, 30); rf.SuccessRate > r.SuccessRate || rf.MedianEndBalance >= r.MedianEndBalance {
		t.Fatalf("fees should not help: %+v vs %+v", rf, r)
	}
	in.Fee, in.Strategy = 0, StrategyGuytonKlinger
	if rg := Backtest(&in, s, 30); rg.LowestSpending >= 1 {
		t.Fatalf("guardrails should cut spending after the crash: %+v", rg)
	}
}

// SavingFor solves by bisection what RequiredSaving gives in closed form when
// nothing but saving and growth is involved.
func TestSavingFor(t *testing.T) {
	t.Parallel()
	in := Defaults()
	in.CurrentAge = 30
	in.StartYear = 2025
	in.AnnualIncome = 100_000
	in.AnnualExpenses = 40_000
	in.CurrentSavings = 50_000
	for _, by := range []int{40, 45, 55} {
		got, ok := SavingFor(&in, by, 1e15)
		real := (1.07)/1.03 - 1
		want := RequiredSaving(1_000_000, 50_000, real, by-30)
		if !ok || !near(got, want, 1e-6) || got < want || got-want > 0.01 {
			t.Fatalf("by %d: %.4f (ok %v), closed form %.4f: want the cent at or above it", by, got, ok, want)
		}
		if cents := got * 100; cents != math.Round(cents) {
			t.Fatalf("by %d: %v is not a whole number of cents", by, got)
		}
		c := in
		c.FixedContribution, c.Contribution = true, got
		if s, _ := Project(&c, nil); s.FIAge != by {
			t.Fatalf("saving %.2f reaches FI at %d, want %d", got, s.FIAge, by)
		}
	}
	in.CurrentSavings = 2_000_000
	if got, ok := SavingFor(&in, 31, 1e15); !ok || got != 0 {
		t.Fatalf("already FI needs nothing: %.2f %v", got, ok)
	}
	in.CurrentSavings = 0
	if _, ok := SavingFor(&in, 30, 1e15); ok {
		t.Fatal("FI today from nothing cannot be bought")
	}
	if _, ok := SavingFor(&in, 25, 1e15); ok {
		t.Fatal("an age already past is not reachable")
	}
	if got, ok := SavingFor(&in, 40, 1e4); ok {
		t.Fatalf("a million in ten years cannot be saved at 10,000 a year: %.2f", got)
	}
	if got, ok := SavingFor(&in, 40, 1e5); !ok || got > 1e5 {
		t.Fatalf("about 82,000 a year does it: %.2f %v", got, ok)
	}
}

func TestClosedFormEdges(t *testing.T) {
	t.Parallel()
	if YearsToTarget(100, 0, 0, 0.05) != -1 || YearsToTarget(100, 0, 0, 0) != -1 || YearsToTarget(100, 200, 0, 0.05) != 0 {
		t.Fatal("YearsToTarget edge cases")
	}
	if YearsToTarget(100, 0, 10, 0) != 10 || YearsToTarget(100, 0, 10, -0.5) != -1 {
		t.Fatal("YearsToTarget zero/negative rate")
	}
	if RequiredSaving(100, 0, 0, 10) != 10 || RequiredSaving(100, 200, 0.05, 10) != 0 || RequiredSaving(100, 0, 0.05, 0) != -1 {
		t.Fatal("RequiredSaving edge cases")
	}
	if VPWRate(0, 4) != 0.25 || VPWRate(0.05, 1) != 1 || VPWRate(0.05, 0) != 1 {
		t.Fatal("VPWRate edge cases")
	}
	if got := RealReturn(0.07, 0.03); !near(got, 1.07/1.03-1, 1e-15) || RealReturn(0.05, -1) != 0 {
		t.Fatal("RealReturn")
	}
	if FutureValue(100, 10, 0, 5) != 150 {
		t.Fatal("FutureValue at zero rate")
	}
}

// The bond leg: a par bond whose yield does not move earns its coupon; a
// rise in yields costs about duration x the rise; a fall gains.
func TestBondMonthReturn(t *testing.T) {
	t.Parallel()
	if r := BondMonthReturn(0.06, 0.06); math.Abs(r-0.005) > 1e-12 {
		t.Fatalf("unchanged yield: %v, want the coupon 0.005", r)
	}
	up, down := BondMonthReturn(0.05, 0.06), BondMonthReturn(0.05, 0.04)
	// Modified duration of a 10-year 5% par bond (annual coupons) is 7.7:
	// a point up costs about 7.3% of price, less the month's coupon.
	if !(up < -0.066 && up > -0.072) || !(down > 0.08 && down < 0.09) {
		t.Fatalf("yield 5%% -> 6%%: %v; 5%% -> 4%%: %v", up, down)
	}
	if r := BondMonthReturn(0.01, 0); math.Abs(r-(0.01*(10-1.0/12)+0.01/12)) > 1e-12 {
		t.Fatalf("zero yield: %v", r)
	}
}

// NewMonthly builds total-return indexes; a monthly window reads its years
// from them and starts in any month.
func TestMonthlyWindows(t *testing.T) {
	t.Parallel()
	const n = 12*40 + 1
	price, div, cpi, rate, cape := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range price {
		price[i], div[i], cpi[i], rate[i], cape[i] = 100, 12, 100*math.Pow(1.002, float64(i)), 5, 20
	}
	m := NewMonthly(1900, 3, price, div, cpi, rate, cape)
	// A flat price with a dividend of 1% a month: 12.68% a year.
	if g := m.Stocks[12] / m.Stocks[0]; math.Abs(g-math.Pow(1.01, 12)) > 1e-12 {
		t.Fatalf("stock index over a year: %v", g)
	}
	if y, mo := m.start(10); y != 1901 || mo != 1 {
		t.Fatalf("window 10 starts %d-%d, want 1901-1", y, mo)
	}
	if w := m.windows(30); w != n-360 {
		t.Fatalf("%d windows, want %d", w, n-360)
	}
	var rets, infl, cp [30]float64
	m.window(5, 30, mix{stock: 0.5, bond: 0.25, cash: 0.25}, rets[:], infl[:], cp[:])
	bond := math.Pow(1+5.0/1200, 12) - 1
	pi := math.Pow(1.002, 12) - 1
	want := 0.5*(math.Pow(1.01, 12)-1) + 0.25*bond + 0.25*pi
	if math.Abs(rets[7]-want) > 1e-12 || math.Abs(infl[7]-pi) > 1e-12 || cp[7] != 20 {
		t.Fatalf("year 7: return %v (want %v), inflation %v (want %v), CAPE %v", rets[7], want, infl[7], pi, cp[7])
	}
	in := Defaults()
	if r := Backtest(&in, &m, 30); r.Periods != n-360 || r.WorstStartMonth == 0 || r.SuccessRate != 1 {
		t.Fatalf("monthly backtest: %+v", r)
	}
}

// Backtests over either record allocate nothing.
func TestBacktestZeroAlloc(t *testing.T) {
	s := flat(1900, 97, 0.07, 0.03, 0.03)
	const n = 1830
	price, div, cpi, rate := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range price {
		price[i], div[i], cpi[i], rate[i] = 100+float64(i%17), 4, 100+float64(i)/10, 4
	}
	m := NewMonthly(1871, 1, price, div, cpi, rate, nil)
	in := Defaults()
	if a := testing.AllocsPerRun(5, func() { Backtest(&in, s, 30) }); a != 0 {
		t.Fatalf("annual backtest: %v allocations", a)
	}
	if a := testing.AllocsPerRun(5, func() { Backtest(&in, &m, 30) }); a != 0 {
		t.Fatalf("monthly backtest: %v allocations", a)
	}
	if a := testing.AllocsPerRun(2, func() { MaxWithdrawalRate(&in, &m, 30, 0.95, 0.2) }); a != 0 {
		t.Fatalf("max withdrawal rate: %v allocations", a)
	}
}
