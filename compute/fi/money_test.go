package fi

import (
	"math"
	"testing"
)

func usRecord() Series {
	return Series{
		Years:     []int{1970, 1971, 1972, 1973},
		Stocks:    []float64{0.04, 0.14, 0.19, -0.15},
		Bonds:     []float64{0.16, 0.10, 0.03, 0.04},
		Inflation: []float64{0.055, 0.034, 0.034, 0.088},
	}
}

func realReturn(r, infl float64) float64 { return (1+r)/(1+infl) - 1 }

func TestSeriesInWorkedExample(t *testing.T) {
	t.Parallel()
	s := usRecord()
	// 2.0 units a dollar in December 1970, 1.8 in December 1971: the
	// dollar loses a tenth, so 14% in dollars is 1.14 * 0.9 - 1 = 2.6%.
	m := Money{FXYear: 1970, FXMonth: 12, PerUSD: []float64{2.0, 1.95, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.9, 1.8}, CPIYear: 1971, Inflation: []float64{0.05}}
	out, cov := s.In(m)
	if got := out.Stocks[1]; math.Abs(got-0.026) > 1e-12 {
		t.Errorf("1971 stocks = %v, want 0.026", got)
	}
	if got := out.Bonds[1]; math.Abs(got-(1.10*0.9-1)) > 1e-12 {
		t.Errorf("1971 bonds = %v, want %v", got, 1.10*0.9-1)
	}
	if out.Inflation[1] != 0.05 {
		t.Errorf("1971 inflation = %v, want the country's 0.05", out.Inflation[1])
	}
	if cov != (Coverage{1971, 1971}) {
		t.Errorf("coverage = %+v, want 1971-1971", cov)
	}
	// 1970 and 1972-1973 have no rates: their real returns are the US ones.
	for _, i := range []int{0, 2, 3} {
		if a, b := realReturn(out.Stocks[i], out.Inflation[i]), realReturn(s.Stocks[i], s.Inflation[i]); math.Abs(a-b) > 1e-12 {
			t.Errorf("%d: real stocks %v, want the US %v", s.Years[i], a, b)
		}
	}
}

func TestSeriesInWithoutRecordKeepsRealReturns(t *testing.T) {
	t.Parallel()
	s := usRecord()
	// Prices on record but no rates: nominal returns move, real ones stay.
	out, cov := s.In(Money{CPIYear: 1970, Inflation: []float64{0.2, 0.1, 0.0, 0.3}})
	if cov != (Coverage{}) {
		t.Errorf("coverage = %+v, want none", cov)
	}
	for i := range s.Len() {
		if a, b := realReturn(out.Bonds[i], out.Inflation[i]), realReturn(s.Bonds[i], s.Inflation[i]); math.Abs(a-b) > 1e-12 {
			t.Errorf("%d: real bonds %v, want %v", s.Years[i], a, b)
		}
	}
	if out.Inflation[0] != 0.2 {
		t.Errorf("inflation = %v, want the country's", out.Inflation[0])
	}
}

func TestMonthlyInConstantRate(t *testing.T) {
	t.Parallel()
	n := 36
	st, bd, cpi := make([]float64, n), make([]float64, n), make([]float64, n)
	for k := range n {
		st[k], bd[k], cpi[k] = math.Pow(1.01, float64(k)), math.Pow(1.003, float64(k)), math.Pow(1.002, float64(k))
	}
	m := MonthlyIndexes(1990, 1, st, bd, cpi, nil)
	rates := make([]float64, n)
	for k := range rates {
		rates[k] = 1.5
	}
	out, cov := m.In(Money{FXYear: 1990, FXMonth: 1, PerUSD: rates, CPIYear: 1990, Inflation: []float64{0.03, 0.03, 0.03}})
	if cov != (Coverage{1990, 1992}) {
		t.Errorf("coverage = %+v, want 1990-1992", cov)
	}
	for k := 1; k < n; k++ {
		if a, b := out.Stocks[k]/out.Stocks[k-1], st[k]/st[k-1]; math.Abs(a-b) > 1e-12 {
			t.Fatalf("month %d: stocks grow %v in the currency, want the dollar's %v at a constant rate", k, a, b)
		}
	}
	if got := out.CPI[12] / out.CPI[0]; math.Abs(got-1.03) > 1e-12 {
		t.Errorf("a year's prices grow %v, want the country's 1.03", got)
	}
	// The 12-month windows read the restated indexes.
	if got := out.infl12[0]; math.Abs(got-0.03) > 1e-12 {
		t.Errorf("12-month inflation %v, want 0.03", got)
	}
}

func TestMonthlyInWithoutRecordKeepsRealReturns(t *testing.T) {
	t.Parallel()
	n := 24
	st, bd, cpi := make([]float64, n), make([]float64, n), make([]float64, n)
	for k := range n {
		st[k], bd[k], cpi[k] = 1+0.02*float64(k%5), 1+0.001*float64(k), 100+float64(k)
	}
	m := MonthlyIndexes(1900, 6, st, bd, cpi, nil)
	out, cov := m.In(Money{FXYear: 2000, FXMonth: 1, PerUSD: []float64{1}})
	if cov != (Coverage{}) {
		t.Errorf("coverage = %+v, want none", cov)
	}
	for k := range n {
		if a, b := out.Stocks[k]/out.CPI[k], st[k]/cpi[k]; math.Abs(a/b-out.Stocks[0]/out.CPI[0]*cpi[0]/st[0]) > 1e-12 {
			t.Fatalf("month %d: real stock index %v, want the US %v up to a constant", k, a, b)
		}
	}
}
