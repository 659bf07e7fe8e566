package plan

import (
	"testing"

	"fiplan/compute/fi"
	"fiplan/compute/tax"
)

// timedPlan is a 60-year plan with three scenarios after UK tax, the base
// retiring to a city's budget for two.
func timedPlan(t testing.TB) Plan {
	p := basePlan()
	p.Place = Place{CityID: "lisbon-pt", Household: 2}
	p.Tax = &Tax{System: loadSystem(t, "gb"), Withdrawal: tax.Pension}
	for _, name := range []string{"frugal", "bear", "vpw"} {
		sc := Scenario{Name: name, Input: p.Base}
		switch name {
		case "frugal":
			sc.Input.AnnualExpenses = 35000
		case "bear":
			sc.Input.ExpectedReturn = 0.05
		case "vpw":
			sc.Input.Strategy = fi.StrategyVPW
		}
		p.Scenarios = append(p.Scenarios, sc)
	}
	return p
}

// A warm Result is filled again without allocating: its rows, row taxes
// and scratch are reused.
func TestRunReusesTheResult(t *testing.T) {
	p, in := timedPlan(t), testInputs()
	mc := fi.MonteCarlo{Simulations: 100, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.04}
	o := &Options{Step: 1, MonteCarlo: &mc, Window: 30, Backtest: true, Sequences: true}
	var r Result
	if err := Run(&p, in, o, &r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = Run(&p, in, o, &r) }); n != 0 {
		t.Fatalf("a warm Run allocates %v times", n)
	}
}

func BenchmarkRunTaxCity(b *testing.B) {
	p, in := timedPlan(b), testInputs()
	o := &Options{Step: 1}
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Run(&p, in, o, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRunMilestones(b *testing.B) {
	p, in := timedPlan(b), testInputs()
	o := &Options{Step: 1, Milestones: true}
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Run(&p, in, o, &r); err != nil {
			b.Fatal(err)
		}
	}
}
