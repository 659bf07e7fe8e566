package fi

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// timingInput is a 60-year plan (35 to 95) with a pension and an event.
func timingInput() Input {
	in := Defaults()
	in.CurrentAge = 35
	in.StartYear = 2025
	in.AnnualIncome = 95_000
	in.AnnualExpenses = 48_000
	in.CurrentSavings = 120_000
	in.AddPension(Pension{FromAge: 67, Amount: 18_000, Indexed: true})
	in.AddEvent(Event{Age: 40, Amount: -80_000})
	return in
}

// Target: a base timeline plus 3 scenarios (4 Project calls) in < 10 µs, 0 allocs.
func BenchmarkProjectScenarios(b *testing.B) {
	in := timingInput()
	var bufs [4][MaxYears]Year
	b.ReportAllocs()
	for b.Loop() {
		Project(&in, bufs[0][:0])
		sc := in
		sc.ExpectedReturn = 0.05
		Project(&sc, bufs[1][:0])
		sc = in
		sc.AnnualExpenses = 40_000
		sc.Strategy = StrategyGuytonKlinger
		Project(&sc, bufs[2][:0])
		sc = in
		sc.TargetRetirementAge = 55
		sc.Strategy = StrategyVPW
		Project(&sc, bufs[3][:0])
	}
}

// Target: 10,000 paths x 60 years in < 15 ms on one core, no allocations
// after warm-up.
func BenchmarkMonteCarlo(b *testing.B) {
	in := timingInput()
	mc := MonteCarlo{Simulations: 10_000, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.02}
	var sc Scratch
	var out MCResult
	Simulate(&in, &mc, &sc, &out)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Simulate(&in, &mc, &sc, &out)
	}
}

// The cost grows linearly in paths x years: each cell is one engine year and
// two normal draws, and each year's five percentiles are linear-time
// selections over its paths.
func BenchmarkMonteCarloGrowth(b *testing.B) {
	for _, years := range []int{30, 60} {
		for _, sims := range []int{1_000, 5_000, 10_000} {
			b.Run(fmt.Sprintf("sims=%d/years=%d", sims, years), func(b *testing.B) {
				in := timingInput()
				in.LifeExpectancy = in.CurrentAge + years
				mc := MonteCarlo{Simulations: sims, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.02}
				var sc Scratch
				var out MCResult
				Simulate(&in, &mc, &sc, &out)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					Simulate(&in, &mc, &sc, &out)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sims*years), "ns/cell")
			})
		}
	}
}

// Draws of the Monte Carlo sampler: a year's returns, 60 at a time.
func BenchmarkNormalFill(b *testing.B) {
	var g normal
	g.seed(1)
	dst := make([]float64, 60)
	b.ReportAllocs()
	for b.Loop() {
		g.fill(dst, 0.07, 0.12, -0.99, 10)
	}
}

// syntheticHistory is a 97-year record shaped like the US series (1928-2024).
func syntheticHistory() Series {
	r := rand.New(rand.NewPCG(1928, 2024))
	var s Series
	for i := 0; i < 97; i++ {
		s.Years = append(s.Years, 1928+i)
		s.Stocks = append(s.Stocks, 0.118+0.195*r.NormFloat64())
		s.Bonds = append(s.Bonds, 0.048+0.079*r.NormFloat64())
		s.Inflation = append(s.Inflation, 0.031+0.039*r.NormFloat64())
	}
	return s
}

// Every 30-year window of a 97-year record (68 start years).
func BenchmarkBacktest(b *testing.B) {
	s := syntheticHistory()
	for _, st := range []Strategy{StrategyConstant, StrategyGuytonKlinger} {
		b.Run(st.String(), func(b *testing.B) {
			in := Defaults()
			in.Strategy = st
			b.ReportAllocs()
			for b.Loop() {
				Backtest(&in, s, 30)
			}
		})
	}
}

// Bisection over the backtest for the highest rate with 95% success.
func BenchmarkMaxWithdrawalRate(b *testing.B) {
	s := syntheticHistory()
	in := Defaults()
	b.ReportAllocs()
	for b.Loop() {
		MaxWithdrawalRate(&in, s, 30, 0.95, 0.2)
	}
}

func BenchmarkSavingFor(b *testing.B) {
	in := timingInput()
	b.ReportAllocs()
	for b.Loop() {
		SavingFor(&in, 50, 1e15)
	}
}
