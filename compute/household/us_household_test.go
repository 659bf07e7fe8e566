package household_test

import (
	"os"
	"testing"

	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// usTax decodes the embedded US tax file.
func usTax(t *testing.T) *tax.System {
	t.Helper()
	b, err := os.ReadFile("../../embed/tax/countries/us.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tax.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// usPlan is a plan of people taxed under the US rules of 2026 with the
// real US wrappers; accounts name a wrapper id, "cash" or "taxable".
type usPlan struct {
	r   *household.Rules
	sys *tax.System
}

func newUS(t *testing.T) usPlan { return usPlan{loadUS(t), usTax(t)} }

func (u usPlan) account(id, typ string, owner int, bal, contrib float64) household.Account {
	a := household.Account{ID: id, Type: typ, Owner: owner, Balance: bal, CostBasis: -1, Contribution: contrib}
	if typ != "cash" && typ != "taxable" {
		a.Wrapper = u.r.Wrapper(typ)
	}
	return a
}

func (u usPlan) plan(people []household.Person, accts ...household.Account) household.Plan {
	return household.Plan{
		People: people, Accounts: accts, Expenses: 40000, Return: 0.05, Inflation: 0.02, WithdrawalRate: 0.04,
		StartYear: 2026, Joint: len(people) == 2, Converts: []*household.Wrapper{u.r.Wrapper("us-roth-ira")},
		Residences: []household.Residence{{Country: "US", System: u.sys, Year: 2026}},
	}
}

func runUS(t *testing.T, p *household.Plan) *household.Result {
	t.Helper()
	var w household.Work
	var r household.Result
	if err := household.Run(p, &w, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// Elective deferrals to a 401(k) and IRA contributions stay Social
// Security and Medicare wages (IRC 3121(v)(1)(A), 3121(a)); HSA
// contributions through a cafeteria plan do not (IRC 3121(a)(5)(G)). The
// employee's FICA is 6.2% + 1.45% of those wages below the 2026 wage base
// (IRS Pub. 15).
func TestUSDeferralsAreFICAWages(t *testing.T) {
	u := newUS(t)
	for _, c := range []struct {
		name                 string
		typ                  string
		wages, contrib, want float64
		tag                  string
	}{
		{"401(k) deferral", "us-401k", 150000, 23500, 0.0765 * 150000, computed},
		{"IRA contribution", "us-ira", 60000, 7000, 0.0765 * 60000, computed},
		{"HSA through payroll", "us-hsa", 100000, 4400, 0.0765 * (100000 - 4400), computed},
	} {
		checkTag(t, c.tag)
		p := u.plan([]household.Person{{Age: 40, LifeExpectancy: 90, RetirementAge: 65, Income: c.wages}},
			u.account("a", c.typ, 0, 10000, c.contrib))
		p.Expenses = 30000
		r := runUS(t, &p)
		if got := r.Extra[0].Tax.Social; !near(got, c.want, 0.01) {
			t.Errorf("%s: social contributions %.2f, want %.2f [%s]", c.name, got, c.want, c.tag)
		}
		// the income tax is still that of the wages after the deferral
		in := tax.Income{Employment: c.wages - c.contrib, Age: 40}
		d, err := u.sys.At(2026).DueByCategory(&in, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Extra[0].Tax.Income; !near(got, d.Income, 0.01) {
			t.Errorf("%s: income tax %.2f, want %.2f", c.name, got, d.Income)
		}
	}
}

// A plan for two takes the HSA's family limit (Rev. Proc. 2025-19 sec. 3:
// $8,750 for 2026, self-only $4,400), shared by the spouses, each adding
// their own $1,000 catch-up from 55 (IRC 223(b)(3), (b)(5)).
func TestUSHSAFamilyLimit(t *testing.T) {
	u := newUS(t)
	two := []household.Person{{Age: 40, LifeExpectancy: 90, RetirementAge: 60, Income: 120000}, {Age: 56, LifeExpectancy: 90, RetirementAge: 60, Income: 50000}}
	for _, c := range []struct {
		name     string
		people   []household.Person
		accts    []household.Account
		overWant float64
		tag      string
	}{
		{"couple, one HSA at the family limit", two, []household.Account{u.account("h", "us-hsa", 0, 0, 8750)}, 0, official},
		{"single, the self-only limit", two[:1], []household.Account{u.account("h", "us-hsa", 0, 0, 8750)}, 8750 - 4400, official},
		{"couple, two HSAs share the family limit", two, []household.Account{u.account("h", "us-hsa", 0, 0, 6000), u.account("g", "us-hsa", 1, 0, 4000)}, 6000 + 4000 - 8750 - 1000, computed},
		{"couple, the partner's catch-up is theirs", two, []household.Account{u.account("g", "us-hsa", 1, 0, 9750)}, 0, computed},
	} {
		checkTag(t, c.tag)
		p := u.plan(c.people, c.accts...)
		r := runUS(t, &p)
		if got := r.Extra[0].OverLimit; !near(got, c.overWant, 0.01) {
			t.Errorf("%s: over the limit %.2f, want %.2f [%s]", c.name, got, c.overWant, c.tag)
		}
	}
}

// A taxable account's dividends and interest are the year's income: the
// qualified share taxed as qualified dividends, the rest as interest
// (IRC 1(h)(11), 61(a)(4), (7)); the account's own growth is its price
// growth, and what the year leaves of the income after its tax is saved
// back at cost.
func TestUSYieldTaxedYearly(t *testing.T) {
	u := newUS(t)
	tx := u.account("t", "taxable", 0, 200000, 0)
	tx.Yield, tx.QualifiedShare = 0.03, 0.8
	p := u.plan([]household.Person{{Age: 40, LifeExpectancy: 90, RetirementAge: 60, Income: 100000}}, tx)
	p.Expenses = 60000
	r := runUS(t, &p)
	x := &r.Extra[0]
	if !near(x.Yield, 6000, 1e-6) {
		t.Fatalf("yield %.2f, want 6000", x.Yield)
	}
	in := tax.Income{Employment: 100000, Dividends: 4800, Interest: 1200, Age: 40}
	d, err := u.sys.At(2026).DueByCategory(&in, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !near(x.Tax.Income, d.Income+d.Regional, 0.01) {
		t.Errorf("income tax %.2f, want %.2f [computed]", x.Tax.Income, d.Income+d.Regional)
	}
	c := r.Accounts(0)[0]
	if !near(c.Growth, 200000*(0.05-0.03), 1e-6) {
		t.Errorf("growth %.2f, want the price growth %.2f", c.Growth, 200000*0.02)
	}
	saved := 100000 + 6000 - 60000 - x.Tax.Total
	if !near(c.Contributions, saved, 0.01) {
		t.Errorf("saved %.2f, want %.2f", c.Contributions, saved)
	}
}
