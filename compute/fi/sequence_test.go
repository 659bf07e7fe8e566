package fi

import (
	"math"
	"testing"
)

// A record with one crash: the windows starting just before it are the
// worst, those after it the best, and the decades show it.
func TestSequences(t *testing.T) {
	s := flat(1950, 60, 0.07, 0.07, 0.02)
	s.Stocks[12], s.Bonds[12] = -0.6, -0.6 // 1962
	in := Defaults()
	in.WithdrawalRate = 0.06
	in.CurrentSavings = 1000
	var v SequenceView
	Sequences(&in, s, 30, &v)
	bt := Backtest(&in, s, 30)
	if v.Periods != 31 || v.Periods != bt.Periods {
		t.Fatalf("%d windows, Backtest %d", v.Periods, bt.Periods)
	}
	w := &v.Worst
	if w.StartYear != bt.WorstStartYear || w.Failed != bt.WorstFailed || w.YearsLasted != bt.WorstYearsLasted || w.EndBalance != bt.WorstEndBalance {
		t.Fatalf("worst %+v differs from Backtest's %+v", w, bt)
	}
	if w.StartYear < 1955 || w.StartYear > 1962 || !w.Failed {
		t.Fatalf("worst start %d (failed %v), want a failed start that meets the 1962 crash early", w.StartYear, w.Failed)
	}
	// Starts after the crash never see it; at a flat 7%, the last start ends
	// no higher than the others after the crash, and all those tie: the best is
	// the first window after the crash.
	if v.Best.StartYear != 1963 || v.Best.Failed || v.Best.EndBalance < v.Median.EndBalance || v.Median.EndBalance < w.EndBalance {
		t.Fatalf("best %d %.2f, median %d %.2f, worst %.2f", v.Best.StartYear, v.Best.EndBalance, v.Median.StartYear, v.Median.EndBalance, w.EndBalance)
	}
	// The path: 30 years, consecutive calendar years, first withdrawal 6% of
	// the start, and the last end balance is the window's.
	p := &v.Best
	if p.NumYears != 30 || p.Years[0].Year != 1963 || p.Years[29].Year != 1992 || !near(p.Years[0].Withdrawal, 60, 1e-12) ||
		!near(p.Years[1].Withdrawal, 60, 1e-12) || p.Years[29].EndBalance != p.EndBalance {
		t.Fatalf("best path %+v", p.Years[:3])
	}
	// Decades 1950 (10 starts: 1950-1959) and 1960 (10), 1970 (10), 1980 (1).
	want := []DecadeRate{{1950, 10, 0}, {1960, 10, 7}, {1970, 10, 10}, {1980, 1, 1}}
	if v.NumDecades != len(want) {
		t.Fatalf("%d decades %+v", v.NumDecades, v.Decades[:v.NumDecades])
	}
	total := 0
	for k, d := range want {
		got := v.Decades[k]
		if got.Decade != d.Decade || got.Periods != d.Periods {
			t.Fatalf("decade %d: %+v, want %+v", k, got, d)
		}
		total += got.Successes
	}
	if total != bt.Successes || v.Decades[1].Successes != 7 || v.Decades[2].Successes != 10 {
		t.Fatalf("decade successes %+v, Backtest %d", v.Decades[:4], bt.Successes)
	}
	if a := testing.AllocsPerRun(3, func() { Sequences(&in, s, 30, &v) }); a != 0 {
		t.Fatalf("Sequences allocates %v times", a)
	}
	// A reused view holds the last run only.
	again := v
	Sequences(&in, s, 30, &v)
	if v != again || v.Decades[1].Periods != 10 {
		t.Fatalf("a second run into the same view differs: %+v", v.Decades[:4])
	}
	Sequences(&in, s, 61, &v)
	if v.Periods != 0 || v.NumDecades != 0 || v.Worst.NumYears != 0 {
		t.Fatalf("no window fits: %+v", v.Decades[0])
	}
	if decade(1969) != 1960 || decade(-5) != -10 || decade(0) != 0 || math.Abs(float64(decade(2024)-2020)) != 0 {
		t.Fatal("decade")
	}
}
