package household

import (
	"math/rand/v2"
	"testing"

	"fiplan/compute/tax"
)

// Over thousands of seeded households money is conserved, per account
// (start + contributions + growth - withdrawals + conversions = end) and in
// total, no account goes negative, and no access rule is broken unless the
// row shows its charge.
func TestMoneyIsConserved(t *testing.T) {
	rules, s := fixture(t)
	n := 2000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var w Work
	var res Result
	for k := 0; k < n; k++ {
		p := randomHousehold(rng, rules, s)
		if err := Run(&p, &w, &res); err != nil {
			t.Fatalf("plan %d: %v", k, err)
		}
		checkConserved(t, k, &p, &res)
	}
}

// randomHousehold is a one- or two-person plan drawn from rng: ages,
// incomes, spending, returns, up to eight accounts of every kind the test
// rules have, a statutory pension, the order and conversions.
func randomHousehold(rng *rand.Rand, rules *Rules, s *tax.System) Plan {
	types := []string{"cash", "taxable", "us-401k", "us-ira", "us-roth-ira", "us-super", "us-sipp"}
	age := 25 + rng.IntN(50)
	p := single(rules, s, age, age+5+rng.IntN(50))
	if rng.IntN(3) == 0 {
		p.Residences[0].System = nil
	}
	p.People[0].Income = float64(rng.IntN(200000))
	p.People[0].RetirementAge = age + rng.IntN(25)
	p.Expenses = 10000 + float64(rng.IntN(80000))
	p.Return = -0.02 + rng.Float64()*0.12
	if rng.IntN(2) == 0 {
		pa := 25 + rng.IntN(50)
		p.People = append(p.People, Person{Age: pa, LifeExpectancy: pa + 5 + rng.IntN(50), Income: float64(rng.IntN(90000)), RetirementAge: pa + rng.IntN(20)})
	}
	na := 1 + rng.IntN(8)
	for i := 0; i < na; i++ {
		typ := types[rng.IntN(len(types))]
		if p.Residences[0].System == nil {
			typ = types[rng.IntN(2)]
		}
		a := account(rules, "a"+string(rune('a'+i)), typ, rng.IntN(len(p.People)), float64(rng.IntN(800000)))
		if rng.IntN(2) == 0 {
			a.Contribution = float64(rng.IntN(30000))
		}
		if a.Wrapper != nil && a.Wrapper.Contrib.Employer && rng.IntN(2) == 0 {
			a.Employer = float64(rng.IntN(10000))
		}
		if typ == "taxable" {
			a.CostBasis = a.Balance * rng.Float64()
		}
		p.Accounts = append(p.Accounts, a)
	}
	if rng.IntN(2) == 0 {
		p.Pensions = append(p.Pensions, Pension{Owner: 0, FromAge: 62 + rng.IntN(9), Amount: float64(rng.IntN(40000)), Benefit: rules.Benefit("us-social-security"), Country: "US"})
	}
	p.Order = Order(rng.IntN(3))
	p.Convert, p.ConvertUpTo = rng.IntN(3) == 0, 0.22
	return p
}

func checkConserved(t *testing.T, k int, p *Plan, res *Result) {
	t.Helper()
	for i, row := range res.Rows {
		cells := res.Accounts(i)
		var start, in, growth, out, conv, end float64
		for j, c := range cells {
			if c.End < 0 || c.Start < 0 {
				t.Fatalf("plan %d row %d account %s negative: %+v", k, i, res.IDs[j], c)
			}
			if d := c.Start + c.Contributions + c.Growth - c.Withdrawals + c.Conversions - c.End; d > 1e-6*(1+c.Start+c.End) || -d > 1e-6*(1+c.Start+c.End) {
				t.Fatalf("plan %d row %d account %s does not add up by %v: %+v", k, i, res.IDs[j], d, c)
			}
			start, in, growth, out, conv, end = start+c.Start, in+c.Contributions, growth+c.Growth, out+c.Withdrawals, conv+c.Conversions, end+c.End
		}
		if !near(conv, 0, 1e-6*(1+start)) {
			t.Fatalf("plan %d row %d conversions do not net to zero: %v", k, i, conv)
		}
		if !near(start, row.StartBalance, 1e-6*(1+start)) || !near(end, row.EndBalance, 1e-6*(1+end)) {
			t.Fatalf("plan %d row %d totals differ from the row", k, i)
		}
		// the household's cash: what came in and was drawn paid the
		// spending, the contributions, the taxes and what was saved
		x := res.Extra[i]
		if x.Tax.Total < -1e-9 || x.Tax.Penalties < 0 {
			t.Fatalf("plan %d row %d tax %+v", k, i, x.Tax)
		}
		if !near(start+in+growth-out, end, 1e-6*(1+start+end)) {
			t.Fatalf("plan %d row %d: the household's accounts do not add up", k, i)
		}
		checkAccess(t, k, p, res, i)
	}
}

// checkAccess: a locked wrapper is never drawn before its access age, and
// one with a charge drawn before it (beyond its required minimum) shows
// a charge on the row, unless the wrapper opens some money early
// (contributions first, the rule of 55).
func checkAccess(t *testing.T, k int, p *Plan, res *Result, i int) {
	t.Helper()
	row, x := res.Rows[i], res.Extra[i]
	for j := range p.Accounts {
		a := &p.Accounts[j]
		w := a.Wrapper
		age := row.Age
		if a.Owner == 1 {
			age = x.PartnerAge
		}
		if w == nil || age >= p.People[a.Owner].LifeExpectancy || (len(p.People) == 2 && x.PartnerAge >= p.People[1].LifeExpectancy) || row.Age >= p.People[0].LifeExpectancy {
			continue
		}
		access := w.Access.Age
		if len(w.Access.ByBirth) > 0 {
			access = ByBirth(w.Access.ByBirth, p.StartYear-p.People[a.Owner].Age)
		}
		drawn := res.Accounts(i)[j].Withdrawals
		if float64(age) >= access || drawn <= 0 {
			continue
		}
		if w.Access.Locked {
			t.Fatalf("plan %d row %d: locked %s drawn %v at %d", k, i, a.ID, drawn, age)
		}
		if w.Access.Penalty > 0 && !w.Access.BasisFirst && w.Access.SeparationAge == 0 && x.Tax.Penalties <= 0 {
			t.Fatalf("plan %d row %d: %s drawn %v at %d without its charge", k, i, a.ID, drawn, age)
		}
	}
}
