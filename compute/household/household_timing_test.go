package household

import (
	"testing"

	"fiplan/compute/fi"
)

// couple is the benchmark household: two people, six accounts, 60 years,
// Social Security for both, a Roth conversion ladder.
func couple(tb testing.TB) Plan {
	r, s := fixture(tb)
	p := single(r, s, 38, 98,
		account(r, "k1", "us-401k", 0, 250000), account(r, "k2", "us-401k", 1, 180000),
		account(r, "r1", "us-roth-ira", 0, 60000), account(r, "i2", "us-ira", 1, 40000),
		account(r, "t", "taxable", 0, 150000), account(r, "c", "cash", 0, 30000))
	p.People[0].Income, p.People[0].RetirementAge = 150000, 45
	p.People = append(p.People, Person{Age: 36, LifeExpectancy: 96, Income: 90000, RetirementAge: 45})
	p.Accounts[0].Contribution, p.Accounts[1].Contribution = 23500, 15000
	p.Accounts[0].Employer = 6000
	p.Expenses, p.Retirement = 80000, 70000
	p.Pensions = []Pension{
		{Owner: 0, FromAge: 67, Amount: 30000, Benefit: r.Benefit("us-social-security"), Country: "US"},
		{Owner: 1, FromAge: 70, Amount: 20000, Benefit: r.Benefit("us-social-security"), Country: "US"},
	}
	p.Convert, p.ConvertUpTo = true, 0.12
	p.Order = TaxSmart
	return p
}

func BenchmarkCouple60Years(b *testing.B) {
	p := couple(b)
	var w Work
	var r Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Run(&p, &w, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCoupleMonteCarlo1k(b *testing.B) {
	p := couple(b)
	var w Work
	var out fi.MCResult
	mc := fi.MonteCarlo{Simulations: 1000, Seed: 1, ReturnStdDev: 0.12, InflationStdDev: 0.04}
	b.ReportAllocs()
	for b.Loop() {
		Simulate(&p, &mc, &w, &out)
	}
}

// BenchmarkCouple60YearsSEPP is the benchmark household with a 72(t)
// series from the partner's IRA at 50.
func BenchmarkCouple60YearsSEPP(b *testing.B) {
	p := couple(b)
	r := parseWrapperFile(b, "us")
	p.Accounts[3].Wrapper = r.Wrapper("us-ira")
	p.SEPP, p.SEPPRules = []Series{{Account: 3, Method: SEPPAmortization, FromAge: 50}}, r.SEPP
	var w Work
	var res Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Run(&p, &w, &res); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAUCoupleAgePension is an Australian couple of 60 and 58 with
// super and shares over 35 years, paid the Age Pension from 67.
func BenchmarkAUCoupleAgePension(b *testing.B) {
	r := parseWrapperFile(b, "au")
	p := Plan{
		People:   []Person{{Age: 60, LifeExpectancy: 95, RetirementAge: 60}, {Age: 58, LifeExpectancy: 93, RetirementAge: 58}},
		Accounts: []Account{acct(r, "au-super", 500000, -1, 0, 0), {ID: "t", Type: "taxable", Balance: 200000, CostBasis: -1}},
		Expenses: 60000, Return: 0.06, Inflation: 0.025, StartYear: 2026, WithdrawalRate: 0.04,
		Residences:  []Residence{{Country: "AU", System: taxSystem(b, "au"), Year: 2026}},
		Supplements: []*Supplement{&r.Supplements[0]},
	}
	var w Work
	var res Result
	b.ReportAllocs()
	for b.Loop() {
		if err := Run(&p, &w, &res); err != nil {
			b.Fatal(err)
		}
	}
}
