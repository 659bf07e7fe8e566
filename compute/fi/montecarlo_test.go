package fi

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func mcInput() Input {
	in := Defaults()
	in.CurrentAge = 35
	in.StartYear = 2025
	in.AnnualIncome = 90_000
	in.AnnualExpenses = 45_000
	in.CurrentSavings = 100_000
	return in
}

func TestMonteCarloDeterministicBySeed(t *testing.T) {
	t.Parallel()
	in := mcInput()
	mc := MonteCarlo{Simulations: 2000, Seed: 42, ReturnStdDev: 0.15, InflationStdDev: 0.02}
	var s1, s2 Scratch
	var a, b, c MCResult
	Simulate(&in, &mc, &s1, &a)
	Simulate(&in, &mc, &s2, &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different results")
	}
	Simulate(&in, &mc, &s1, &c) // reused scratch
	if !reflect.DeepEqual(a, c) {
		t.Fatal("reused scratch changes the result")
	}
	mc.Seed = 43
	Simulate(&in, &mc, &s1, &c)
	if reflect.DeepEqual(a.Bands, c.Bands) {
		t.Fatal("different seeds, identical bands")
	}
	if a.SuccessRate <= 0 || a.SuccessRate >= 1 || a.ReachedFI <= 0 || !near(a.ReachedFI+a.NeverFI, 1, 1e-15) {
		t.Fatalf("implausible distribution: %+v", a.FIAge)
	}
	for _, band := range a.Bands {
		if !(band.P10 <= band.P25 && band.P25 <= band.P50 && band.P50 <= band.P75 && band.P75 <= band.P90) {
			t.Fatalf("unordered percentiles %+v", band)
		}
	}
	if f := a.FIAge; !(f.P10 <= f.P25 && f.P25 <= f.P50 && f.P50 <= f.P75 && f.P75 <= f.P90) {
		t.Fatalf("unordered FI ages %+v", f)
	}
}

// With no randomness every path is the deterministic timeline.
func TestMonteCarloZeroStdDevIsDeterministic(t *testing.T) {
	t.Parallel()
	for _, st := range []Strategy{StrategyConstant, StrategyGuytonKlinger, StrategyVPW} {
		in := mcInput()
		in.Strategy = st
		in.TargetRetirementAge = 45 // retires before FI: runs out under constant spending
		s, rows := Project(&in, nil)
		mc := MonteCarlo{Simulations: 50, Seed: 9}
		var sc Scratch
		var out MCResult
		Simulate(&in, &mc, &sc, &out)
		wantSuccess := 1.0
		if s.RunsOut {
			wantSuccess = 0
		}
		if out.SuccessRate != wantSuccess {
			t.Fatalf("%v: success %.2f, deterministic runs out %v", st, out.SuccessRate, s.RunsOut)
		}
		if len(out.Bands) != len(rows) {
			t.Fatalf("%v: %d bands for %d rows", st, len(out.Bands), len(rows))
		}
		for k, b := range out.Bands {
			r := rows[k].RealEndBalance
			if b.P10 != r || b.P50 != r || b.P90 != r || b.Age != rows[k].Age || b.Year != rows[k].Year {
				t.Fatalf("%v year %d: band %+v, deterministic %.6f", st, k, b, r)
			}
		}
		wantAge := float64(s.FIAge)
		if out.FIAge.P10 != wantAge || out.FIAge.P90 != wantAge {
			t.Fatalf("%v: FI age %+v, deterministic %d", st, out.FIAge, s.FIAge)
		}
	}
	// A plan that never reaches FI reports -1 ages and a zero FI share.
	in := mcInput()
	in.AnnualIncome = 40_000
	var sc Scratch
	var out MCResult
	Simulate(&in, &MonteCarlo{Simulations: 10}, &sc, &out)
	if out.ReachedFI != 0 || out.FIAge.P50 != -1 || out.NeverFI != 1 {
		t.Fatalf("never FI: %+v %.2f", out.FIAge, out.ReachedFI)
	}
}

func TestMonteCarloNoAllocAfterWarmup(t *testing.T) {
	in := mcInput()
	mc := MonteCarlo{Simulations: 500, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.01}
	var sc Scratch
	var out MCResult
	Simulate(&in, &mc, &sc, &out)
	allocs := testing.AllocsPerRun(20, func() { Simulate(&in, &mc, &sc, &out) })
	if allocs != 0 {
		t.Fatalf("Simulate allocates %.1f times per call after warm-up", allocs)
	}
}

func TestMonteCarloClampsCells(t *testing.T) {
	t.Parallel()
	in := mcInput() // 60 years
	mc := MonteCarlo{Simulations: 50_000, Seed: 1, ReturnStdDev: 0.1}
	var sc Scratch
	var out MCResult
	Simulate(&in, &mc, &sc, &out)
	if out.Simulations != MaxCells/60 {
		t.Fatalf("ran %d paths, want %d", out.Simulations, MaxCells/60)
	}
	mc.Simulations = 0
	Simulate(&in, &mc, &sc, &out)
	if out.Simulations != 1 {
		t.Fatalf("ran %d paths for 0 requested", out.Simulations)
	}
}

// Selection must agree with sorting.
func TestColumnPercentiles(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{1, 2, 3, 7, 16, 17, 100, 1001, 4096, 10_000} {
		for rep := 0; rep < 5; rep++ {
			v := make([]float64, n)
			for i := range v {
				v[i] = math.Floor(r.NormFloat64() * 10) // with ties
				if rep == 4 && i%3 == 0 {
					v[i] = 0 // a third of the paths empty
				}
			}
			sorted := slices.Clone(v)
			slices.Sort(sorted)
			got := columnPercentiles(v)
			want := Percentiles{sorted[rank(.1, n)], sorted[rank(.25, n)], sorted[rank(.5, n)], sorted[rank(.75, n)], sorted[rank(.9, n)]}
			if got != want {
				t.Fatalf("n=%d: %+v, want %+v", n, got, want)
			}
		}
	}
	if rank(0.5, 10) != 4 || rank(0.9, 10) != 8 || rank(0.1, 10) != 0 || rank(0.5, 1) != 0 {
		t.Fatal("nearest rank")
	}
}
