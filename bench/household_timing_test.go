package bench

import (
	"testing"

	"fiplan/compute/fi"
	"fiplan/compute/household"
	"fiplan/data/history"
	"fiplan/data/taxtable"
)

// usCouple is the household benchmark plan on the real US data: two
// people, six accounts, 60 years, Social Security for both, a Roth
// ladder up to the 12% band, joint returns.
func usCouple(b *testing.B) household.Plan {
	b.Helper()
	t, err := taxtable.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	sys, _ := t.ByCountry("US")
	r := t.Wrappers("US")
	acct := func(id, typ string, owner int, bal, contrib float64) household.Account {
		a := household.Account{ID: id, Type: typ, Owner: owner, Balance: bal, CostBasis: -1, Contribution: contrib}
		if typ != "cash" && typ != "taxable" {
			a.Wrapper = r.Wrapper(typ)
		}
		return a
	}
	return household.Plan{
		People: []household.Person{{Age: 38, LifeExpectancy: 98, Income: 150000, RetirementAge: 45}, {Age: 36, LifeExpectancy: 96, Income: 90000, RetirementAge: 45}},
		Accounts: []household.Account{acct("k1", "us-401k", 0, 250000, 23500), acct("k2", "us-401k", 1, 180000, 15000),
			acct("r1", "us-roth-ira", 0, 60000, 0), acct("h", "us-hsa", 0, 20000, 4400), acct("t", "taxable", 0, 150000, 0), acct("c", "cash", 0, 30000, 0)},
		Pensions: []household.Pension{{Owner: 0, FromAge: 67, Amount: 30000, Benefit: r.Benefit("us-social-security"), Country: "US"},
			{Owner: 1, FromAge: 70, Amount: 20000, Benefit: r.Benefit("us-social-security"), Country: "US"}},
		Expenses: 80000, Retirement: 70000, Return: 0.06, Inflation: 0.025, WithdrawalRate: 0.04, StartYear: 2026,
		Convert: true, ConvertUpTo: 0.12, Joint: true, Converts: []*household.Wrapper{r.Wrapper("us-roth-ira")},
		Residences: []household.Residence{{Country: "US", System: sys, Year: 2026}},
	}
}

// BenchmarkHouseholdProjection: the couple's 60-year projection with its
// rows and the conventional baseline (two runs of the plan).
func BenchmarkHouseholdProjection(b *testing.B) { benchProjection(b, usCouple(b)) }

func benchProjection(b *testing.B, p household.Plan) {
	var w household.Work
	var r household.Result
	b.ReportAllocs()
	for b.Loop() {
		if err := household.Run(&p, &w, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHouseholdMonteCarlo10k: 10,000 paths of the whole plan.
func BenchmarkHouseholdMonteCarlo10k(b *testing.B) {
	p := usCouple(b)
	var w household.Work
	var out fi.MCResult
	mc := fi.MonteCarlo{Simulations: 10000, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.04}
	b.ReportAllocs()
	for b.Loop() {
		household.Simulate(&p, &mc, &w, &out)
	}
}

// BenchmarkHouseholdBacktestMonthly: the whole plan over every monthly
// window of Shiller's series from 1871 that its horizon fits (a 60-year
// horizon: every start month to 1963).
func BenchmarkHouseholdBacktestMonthly(b *testing.B) {
	p := usCouple(b)
	m, err := history.ShillerReturns()
	if err != nil {
		b.Fatal(err)
	}
	var w household.Work
	b.ReportAllocs()
	for b.Loop() {
		res, _ := household.Backtest(&p, m, 0, 0.6, 0, &w)
		if res.Periods == 0 {
			b.Fatal("no window")
		}
	}
}

// BenchmarkHouseholdProjectionOnce: the same couple drawn conventionally
// without conversions, so no baseline run: one projection with its rows.
func BenchmarkHouseholdProjectionOnce(b *testing.B) {
	p := usCouple(b)
	p.Convert = false
	benchProjection(b, p)
}

// BenchmarkHouseholdProjectionOnceHealth: the same projection with the
// taxable account's yield taxed yearly and health care before and after
// Medicare (the premium tax credit, IRMAA): every US household rule on.
func BenchmarkHouseholdProjectionOnceHealth(b *testing.B) {
	p := usCouple(b)
	p.Convert = false
	t, err := taxtable.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	p.Accounts[4].Yield, p.Accounts[4].QualifiedShare = 0.02, 0.9
	p.Care = &household.Care{Phases: []household.CarePhase{{FromAge: 38, Amount: 6000}, {FromAge: 45, Amount: 18000, Inflation: 0.05, HasInflation: true}, {FromAge: 65, Amount: 9000}},
		Benchmark: 16000, Rules: t.Wrappers("US").Health, Country: "US"}
	benchProjection(b, p)
}
