package fi

import "testing"

// Windows counts the windows a backtest replays, over either record, so
// that a caller can price a backtest before running it.
func TestWindowsCountsTheReplayedWindows(t *testing.T) {
	t.Parallel()
	s := flat(1900, 97, 0.07, 0.03, 0.03)
	const n = 1830
	price, div, cpi, rate := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range price {
		price[i], div[i], cpi[i], rate[i] = 100+float64(i%17), 4, 100+float64(i)/10, 4
	}
	m := NewMonthly(1871, 1, price, div, cpi, rate, nil)
	in := Defaults()
	for _, h := range []History{s, &m} {
		for _, years := range []int{5, 30, 60, 97, 98, 150} {
			want := Backtest(&in, h, years).Periods
			if got := Windows(h, years); got != want {
				t.Errorf("%T, %d years: Windows %d, Backtest replays %d", h, years, got, want)
			}
		}
	}
	if got := Windows(&m, 60); got != 1830-12*60 {
		t.Errorf("monthly, 60 years: %d windows, want every start month that fits (%d)", got, 1830-12*60)
	}
	if Windows(s, 0) != 0 || Windows(s, MaxYears+1) != 0 {
		t.Error("a window length out of range has windows")
	}
}

// The goal seeks' bounds: the rate search halves 1..2000 basis points
// after testing both ends; the saving search quadruples from 1 to the limit
// before its bisection.
func TestGoalSeekBounds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ceiling float64
		want    int
	}{{0.2, 13}, {0.0001, 2}, {0.0002, 2}, {0.0003, 3}, {0.0005, 4}, {1, 16}} {
		if got := RateSearchBacktests(c.ceiling); got != c.want {
			t.Errorf("RateSearchBacktests(%v) = %d, want %d", c.ceiling, got, c.want)
		}
	}
	// 1, 4, ..., 4^14, then the limit 1e9 (4^15 is past it).
	if got := SavingForRuns(1e9); got != 1+16+savingForSteps+3 {
		t.Errorf("SavingForRuns(1e9) = %d, want %d", got, 1+16+savingForSteps+3)
	}
	if got := SavingForRuns(0.5); got != 1+1+savingForSteps+3 {
		t.Errorf("SavingForRuns(0.5) = %d", got)
	}
}
