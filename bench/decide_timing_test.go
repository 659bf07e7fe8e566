package bench

import (
	"os"
	"testing"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// optimizeCouple is two people of 38 and 36 with six accounts and Social
// Security for both, 60 years, taxed in the US.
func optimizeCouple(b *testing.B) household.Plan {
	wb, err := os.ReadFile("../embed/tax/wrappers/us.json")
	if err != nil {
		b.Fatal(err)
	}
	r, err := household.ParseRules(wb)
	if err != nil {
		b.Fatal(err)
	}
	tb, err := os.ReadFile("../embed/tax/countries/us.json")
	if err != nil {
		b.Fatal(err)
	}
	s, err := tax.Parse(tb)
	if err != nil {
		b.Fatal(err)
	}
	acct := func(id, typ string, owner int, bal float64) household.Account {
		a := household.Account{ID: id, Type: typ, Owner: owner, Balance: bal, CostBasis: -1}
		if typ != "cash" && typ != "taxable" {
			a.Wrapper = r.Wrapper(typ)
		}
		return a
	}
	p := household.Plan{
		People: []household.Person{{Age: 38, LifeExpectancy: 98, Income: 150000, RetirementAge: 50}, {Age: 36, LifeExpectancy: 96, Income: 90000, RetirementAge: 50}},
		Accounts: []household.Account{acct("k1", "us-401k", 0, 250000), acct("k2", "us-401k", 1, 180000), acct("r1", "us-roth-ira", 0, 60000),
			acct("i2", "us-ira", 1, 40000), acct("t", "taxable", 0, 150000), acct("c", "cash", 0, 30000)},
		Pensions: []household.Pension{
			{Owner: 0, FromAge: 67, Amount: 30000, Kind: "us-social-security", Benefit: r.Benefit("us-social-security"), Country: "US"},
			{Owner: 1, FromAge: 67, Amount: 20000, Kind: "us-social-security", Benefit: r.Benefit("us-social-security"), Country: "US"}},
		Expenses: 80000, Retirement: 70000, Return: 0.06, Inflation: 0.025, WithdrawalRate: 0.04, StartYear: 2026, Joint: true,
		Residences: []household.Residence{{Country: "US", System: s, Year: 2026}},
		Converts:   []*household.Wrapper{r.Wrapper("us-roth-ira")},
	}
	p.Accounts[0].Contribution, p.Accounts[1].Contribution = 23500, 15000
	return p
}

// BenchmarkOptimizeSpending is the optimised answer of the couple on the
// expected path: every decision, the highest spending.
func BenchmarkOptimizeSpending(b *testing.B) {
	p := optimizeCouple(b)
	var w decide.Work
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decide.Optimize(&p, &decide.Request{Objective: decide.Spending}, &w); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOptimizeMonteCarlo is the same with a 1,000-path Monte Carlo
// success target of 0.9.
func BenchmarkOptimizeMonteCarlo(b *testing.B) {
	p := optimizeCouple(b)
	var w decide.Work
	req := decide.Request{Objective: decide.Spending, Method: decide.MonteCarlo, Target: 0.9,
		MonteCarlo: &fi.MonteCarlo{Simulations: 1000, Seed: 1, ReturnStdDev: fi.DefaultReturnStdDev, InflationStdDev: fi.DefaultInflationStdDev}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decide.Optimize(&p, &req, &w); err != nil {
			b.Fatal(err)
		}
	}
}
