package household

import (
	"math/rand/v2"
	"testing"

	"fiplan/compute/tax"
)

// wealthHome is a residence in a country that taxes wealth, under its
// 2026 rules.
func wealthHome(t testing.TB, cc, region string) Residence {
	t.Helper()
	s := taxSystem(t, cc)
	return Residence{Country: s.Country, System: s, Year: 2026, Region: region}
}

var wealthHomes = []struct{ cc, region string }{{"nl", ""}, {"ch", "ZH"}, {"es", "MD"}, {"es", ""}, {"no", ""}}

// A retired resident of each country that taxes wealth pays it every
// year on the accounts' balances at the start of the year, as a tax: in
// the row's total and the lifetime tax, and drawn from the accounts.
func TestWealthTaxChargedEachYear(t *testing.T) {
	rules, _ := fixture(t)
	for _, h := range wealthHomes {
		home := wealthHome(t, h.cc, h.region)
		bal := 6e6
		if h.cc == "no" {
			bal = 6e7 // kroner
		}
		p := single(rules, nil, 60, 70, account(rules, "cash", "cash", 0, bal/10), account(rules, "brokerage", "taxable", 0, bal),
			account(rules, "pension", "us-401k", 0, bal))
		p.People[0].RetirementAge = 60
		p.Residences = []Residence{home}
		res := run(t, &p)
		lifeWealth := 0.0
		cpi := 1.0
		for i, x := range res.Extra {
			if !x.Tax.WealthOn || x.Tax.Wealth <= 0 {
				t.Fatalf("%s %s row %d: no wealth tax: %+v", h.cc, h.region, i, x.Tax)
			}
			// the tax on the year's opening balances of cash and the
			// brokerage account (the 401(k) is a pension: not wealth)
			cells := res.Accounts(i)
			w := tax.Wealth{Person: [2]tax.Holdings{{Cash: cells[0].Start / cpi, Investments: cells[1].Start / cpi}}}
			want, err := tax.WealthTax(home.System, 2026, h.region, &w)
			if err != nil || !near(x.Tax.Wealth, want*cpi, 1e-6*want*cpi+1e-9) {
				t.Fatalf("%s %s row %d: wealth tax %v, want %v (%v)", h.cc, h.region, i, x.Tax.Wealth, want*cpi, err)
			}
			sum := x.Tax.Income + x.Tax.Social + x.Tax.Capital + x.Tax.Penalties + x.Tax.Wealth
			if !near(x.Tax.Total, sum, 1e-6) {
				t.Fatalf("%s row %d: total %v is not the sum of its parts %v", h.cc, i, x.Tax.Total, sum)
			}
			checkCash(t, 0, &p, res, i, cpi)
			lifeWealth += x.Tax.Wealth / cpi
			cpi *= 1 + p.Inflation
		}
		if res.LifetimeTax < lifeWealth-1e-6 {
			t.Errorf("%s: lifetime tax %v leaves out the wealth tax %v", h.cc, res.LifetimeTax, lifeWealth)
		}
	}
}

// A US plan pays no wealth tax and its rows say the residence has none.
func TestNoWealthTaxInUS(t *testing.T) {
	rules, s := fixture(t)
	p := single(rules, s, 60, 70, account(rules, "brokerage", "taxable", 0, 5e7))
	p.People[0].RetirementAge = 60
	res := run(t, &p)
	for i, x := range res.Extra {
		if x.Tax.WealthOn || x.Tax.Wealth != 0 {
			t.Fatalf("row %d: %+v", i, x.Tax)
		}
	}
}

// Spouses in Zürich are assessed together on the married tariff, even
// where their income is taxed apart: the tax of the couple's 4 000 000,
// not twice a single person's on 2 000 000.
func TestWealthTaxCouple(t *testing.T) {
	rules, _ := fixture(t)
	home := wealthHome(t, "ch", "ZH")
	p := single(rules, nil, 60, 62, account(rules, "a", "taxable", 0, 2e6), account(rules, "b", "taxable", 1, 2e6))
	p.People = append(p.People, Person{Age: 60, LifeExpectancy: 62, RetirementAge: 60})
	p.People[0].RetirementAge = 60
	p.Residences = []Residence{home}
	res := run(t, &p)
	w := tax.Wealth{Person: [2]tax.Holdings{{Investments: 2e6}, {Investments: 2e6}}, Couple: true}
	want, _ := tax.WealthTax(home.System, 2026, "ZH", &w)
	w.Couple = false
	apart, _ := tax.WealthTax(home.System, 2026, "ZH", &w)
	if got := res.Extra[0].Tax.Wealth; !near(got, want, 1e-6) || want <= 0 || near(want, apart, 1) {
		t.Fatalf("couple's wealth tax %v, want %v (assessed apart %v)", got, want, apart)
	}
}

// checkCash: in a retired year without pensions, contributions or events,
// what was taken from the accounts less what was saved back paid the
// spending and every tax, the wealth tax included, less what went unmet.
func checkCash(t *testing.T, k int, p *Plan, res *Result, i int, cpi float64) {
	t.Helper()
	var out, in float64
	for _, c := range res.Accounts(i) {
		out += c.Withdrawals
		in += c.Contributions
	}
	x := res.Extra[i]
	paid := p.Expenses*cpi + x.Tax.Total - x.Short
	if !near(out-in, paid, 0.01+1e-9*(out+paid)) {
		t.Fatalf("plan %d row %d: drawn %v less saved %v is not spending and tax %v (wealth %v, short %v)", k, i, out, in, paid, x.Tax.Wealth, x.Short)
	}
}

// Over seeded retired households living where wealth is taxed, money is
// conserved with the wealth tax counted as a tax: per account, in total,
// and in the household's cash.
func TestMoneyIsConservedWithWealthTax(t *testing.T) {
	rules, _ := fixture(t)
	types := []string{"cash", "taxable", "us-401k", "us-ira", "us-roth-ira"}
	n := 400
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(3, 5))
	var homes []Residence
	for _, h := range wealthHomes {
		homes = append(homes, wealthHome(t, h.cc, h.region))
	}
	var w Work
	var res Result
	for k := 0; k < n; k++ {
		age := 30 + rng.IntN(50)
		p := single(rules, nil, age, age+5+rng.IntN(40))
		p.People[0].RetirementAge = age
		p.Residences = []Residence{homes[rng.IntN(len(homes))]}
		p.Expenses = 10000 + float64(rng.IntN(150000))
		p.Return = -0.03 + rng.Float64()*0.12
		if rng.IntN(2) == 0 {
			pa := 30 + rng.IntN(50)
			p.People = append(p.People, Person{Age: pa, LifeExpectancy: pa + 5 + rng.IntN(40), RetirementAge: pa})
		}
		for i, na := 0, 1+rng.IntN(5); i < na; i++ {
			a := account(rules, "a"+string(rune('a'+i)), types[rng.IntN(len(types))], rng.IntN(len(p.People)), float64(rng.IntN(8_000_000)))
			if a.Type == "taxable" {
				a.CostBasis = a.Balance * rng.Float64()
			}
			p.Accounts = append(p.Accounts, a)
		}
		p.Order = Order(rng.IntN(3))
		if err := Run(&p, &w, &res); err != nil {
			t.Fatalf("plan %d: %v", k, err)
		}
		checkConserved(t, k, &p, &res)
		cpi := 1.0
		for i := range res.Rows {
			if x := res.Extra[i].Tax; !x.WealthOn || x.Wealth < 0 {
				t.Fatalf("plan %d row %d: %+v", k, i, x)
			}
			checkCash(t, k, &p, &res, i, cpi)
			cpi *= 1 + p.Inflation
		}
	}
}
