package fi

import (
	"math"
	"math/rand/v2"
	"testing"
)

// wavyMonthly is a monthly record of n months from firstYear-firstMonth
// whose prices, rates and CPI move every month (a seeded walk), so that
// paying through the year differs from paying at its start.
func wavyMonthly(firstYear, firstMonth, n int) Monthly {
	r := rand.New(rand.NewPCG(uint64(firstYear), uint64(n)))
	price, div, cpi, rate := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	p, c, y := 100.0, 50.0, 5.0
	for i := range price {
		price[i], div[i], cpi[i], rate[i] = p, 0.04*p, c, y
		p *= 1 + 0.006 + 0.05*r.NormFloat64()
		c *= 1 + 0.002 + 0.004*r.NormFloat64()
		y = max(0.5, y+0.2*r.NormFloat64())
	}
	return NewMonthly(firstYear, firstMonth, price, div, cpi, rate, nil)
}

// A sample bounds the windows by calendar years: each starts in From or
// later and ends in To or earlier; January keeps the January starts.
func TestSampleBoundsTheWindows(t *testing.T) {
	t.Parallel()
	m := wavyMonthly(1900, 3, 12*60) // March 1900 to February 1960
	s := flat(1928, 97, 0.07, 0.03, 0.03)
	for _, c := range []struct {
		h           History
		years, n    int
		first, last WindowStart
	}{
		// Every month: January 1910 to January 1920 for 30 years in 1910-1949.
		{Sampled{Record: &m, Sample: Sample{From: 1910, To: 1949}}, 30, 121, WindowStart{1910, 1}, WindowStart{1920, 1}},
		// Januaries alone: 1910 to 1920.
		{Sampled{Record: &m, Sample: Sample{From: 1910, To: 1949, January: true}}, 30, 11, WindowStart{1910, 1}, WindowStart{1920, 1}},
		// From before the record: its first January, 1901, to the last
		// whose window ends by January 1960 (February 1960, the last
		// month, has no return yet).
		{Sampled{Record: &m, Sample: Sample{From: 1850, January: true}}, 30, 30, WindowStart{1901, 1}, WindowStart{1930, 1}},
		// No bounds: every month whose window fits, as the bare record.
		{Sampled{Record: &m}, 30, m.windows(30), WindowStart{1900, 3}, WindowStart{1930, 2}},
		// An annual record: 1950 to 1970 for 30 years in 1950-1999.
		{Sampled{Record: s, Sample: Sample{From: 1950, To: 1999, January: true}}, 30, 21, WindowStart{1950, 0}, WindowStart{1970, 0}},
		// A span shorter than the window: none.
		{Sampled{Record: s, Sample: Sample{From: 1950, To: 1970}}, 30, 0, WindowStart{}, WindowStart{}},
		// From after To: none.
		{Sampled{Record: &m, Sample: Sample{From: 1940, To: 1930}}, 5, 0, WindowStart{}, WindowStart{}},
	} {
		if n := Windows(c.h, c.years); n != c.n {
			t.Errorf("%+v: %d windows, want %d", c.h, n, c.n)
		}
		first, last, ok := Span(c.h, c.years)
		if ok != (c.n > 0) || first != c.first || last != c.last {
			t.Errorf("%+v: span %v-%v (%v), want %v-%v", c.h, first, last, ok, c.first, c.last)
		}
		if r := Backtest(&Input{WithdrawalRate: 0.04, StockShare: 0.5}, c.h, c.years); r.Periods != c.n {
			t.Errorf("%+v: the backtest replays %d windows, want %d", c.h, r.Periods, c.n)
		}
	}
}

// The zero sample is the record itself: the same answer to the bit.
func TestZeroSampleIsTheRecord(t *testing.T) {
	t.Parallel()
	m := wavyMonthly(1871, 1, 12*100)
	s := syntheticHistory()
	in := Input{WithdrawalRate: 0.045, StockShare: 0.6, Strategy: StrategyGuytonKlinger}
	if a, b := Backtest(&in, &m, 30), Backtest(&in, Sampled{Record: &m}, 30); a != b {
		t.Errorf("monthly: %+v, sampled %+v", a, b)
	}
	if a, b := Backtest(&in, s, 30), Backtest(&in, Sampled{Record: s}, 30); a != b {
		t.Errorf("annual: %+v, sampled %+v", a, b)
	}
	// Monthly withdrawals mean nothing to an annual record.
	if a, b := Backtest(&in, s, 30), Backtest(&in, Sampled{Record: s, Sample: Sample{MonthlyWithdrawals: true}}, 30); a != b {
		t.Errorf("annual with monthly withdrawals: %+v, want %+v", b, a)
	}
}

// Monthly withdrawals replay what paying a twelfth at the start of each
// month does, month by month: the portfolio rebalanced to the mix at each
// window year's start and held through it, each twelfth taken out of it
// in proportion, the year's amount raised by the year's inflation. The
// real end balance agrees with that month-by-month replay, and so does
// the month the money runs out.
func TestMonthlyWithdrawalsMonthByMonth(t *testing.T) {
	t.Parallel()
	const years = 20
	m := wavyMonthly(1950, 1, 12*years+1) // exactly one window
	for _, c := range []struct {
		rate, stock float64
	}{{0.04, 0.6}, {0.09, 1}, {0.12, 0.3}} {
		in := Input{WithdrawalRate: c.rate, StockShare: c.stock}
		r := Backtest(&in, Sampled{Record: &m, Sample: Sample{MonthlyWithdrawals: true}}, years)
		if r.Periods != 1 {
			t.Fatalf("%d windows, want 1", r.Periods)
		}
		end, failYear := replayMonths(&m, c.rate, c.stock, years)
		if failYear != r.WorstFailYear || (failYear == 0 && math.Abs(r.MedianEndBalance-end) > 1e-9*max(1, end)) {
			t.Errorf("rate %v: end %v, fails %d; month by month %v, fails %d", c.rate, r.MedianEndBalance, r.WorstFailYear, end, failYear)
		}
		// Paying through the year leaves more than paying at its start
		// when markets rise on average, and never the same.
		y := Backtest(&in, &m, years)
		if !r.WorstFailed && !y.WorstFailed && y.MedianEndBalance == r.MedianEndBalance {
			t.Errorf("rate %v: monthly withdrawals change nothing: %v", c.rate, y.MedianEndBalance)
		}
	}
}

// replayMonths is the month-by-month replay of a constant withdrawal of
// rate x 1 a year paid a twelfth a month from the first window of m: the
// real end balance and the calendar year the money runs out (0: never).
func replayMonths(m *Monthly, rate, stock float64, years int) (endReal float64, failYear int) {
	bal := 1.0
	for k := 0; k < years; k++ {
		a := 12 * k
		w := rate * m.CPI[a] / m.CPI[0] / 12
		s, b := stock*bal/m.Stocks[a], (1-stock)*bal/m.Bonds[a] // units held through the year
		for j := 0; j < 12; j++ {
			v := s*m.Stocks[a+j] + b*m.Bonds[a+j]
			if w > v*(1+1e-9) {
				return 0, m.FirstYear + k
			}
			s, b = s*(1-w/v), b*(1-w/v)
		}
		bal = s*m.Stocks[a+12] + b*m.Bonds[a+12]
	}
	return bal / (m.CPI[12*years] / m.CPI[0]), 0
}

// Backtests over a sample allocate nothing, monthly withdrawals included.
func TestSampledBacktestZeroAlloc(t *testing.T) {
	m := wavyMonthly(1871, 1, 1830)
	in := Defaults()
	h := Sampled{Record: &m, Sample: Sample{From: 1900, To: 2000, January: true, MonthlyWithdrawals: true}}
	if a := testing.AllocsPerRun(5, func() { Backtest(&in, h, 30) }); a != 0 {
		t.Fatalf("sampled backtest: %v allocations", a)
	}
	var v SequenceView
	if a := testing.AllocsPerRun(3, func() { Sequences(&in, h, 30, &v) }); a != 0 {
		t.Fatalf("sampled sequences: %v allocations", a)
	}
	if a := testing.AllocsPerRun(2, func() { MaxWithdrawalRate(&in, h, 30, 0.95, 0.2) }); a != 0 {
		t.Fatalf("sampled max withdrawal rate: %v allocations", a)
	}
}

// BenchmarkBacktestMonthlyWithdrawals is a 30-year backtest over every
// start month of a 1830-month record, paying a twelfth a month.
func BenchmarkBacktestMonthlyWithdrawals(b *testing.B) {
	m := wavyMonthly(1871, 1, 1830)
	in := Defaults()
	for _, pay := range []bool{false, true} {
		h := Sampled{Record: &m, Sample: Sample{MonthlyWithdrawals: pay}}
		name := "start-of-year"
		if pay {
			name = "monthly"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Backtest(&in, h, 30)
			}
		})
	}
}
