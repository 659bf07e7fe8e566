package decide

import (
	"os"
	"testing"

	"fiplan/compute/fi"
	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// rules reads a country's wrapper file and tax file (cc lower case).
func rules(t testing.TB, cc string) (*household.Rules, *tax.System) {
	t.Helper()
	b, err := os.ReadFile("../../embed/tax/wrappers/" + cc + ".json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := household.ParseRules(b)
	if err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile("../../embed/tax/countries/" + cc + ".json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tax.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

// account is an account of wrapper typ of r ("cash" and "taxable" have
// none).
func account(r *household.Rules, id, typ string, owner int, bal float64) household.Account {
	a := household.Account{ID: id, Type: typ, Owner: owner, Balance: bal, CostBasis: -1}
	if typ != "cash" && typ != "taxable" {
		a.Wrapper = r.Wrapper(typ)
	}
	return a
}

// benefit is a statutory pension of kind claimed at age.
func benefit(r *household.Rules, kind, country string, owner, age int, amount float64) household.Pension {
	return household.Pension{Owner: owner, FromAge: age, Amount: amount, Kind: kind, Benefit: r.Benefit(kind), Country: country}
}

// couple is a plan of two people of the ages given, taxed in the country
// of r and s from 2026.
func couple(r *household.Rules, s *tax.System, country string, age, partner, le int, accts ...household.Account) household.Plan {
	p := household.Plan{
		People:         []household.Person{{Age: age, LifeExpectancy: le}, {Age: partner, LifeExpectancy: le}},
		Accounts:       accts,
		Return:         0.06,
		Inflation:      0.025,
		Expenses:       60000,
		StartYear:      2026,
		WithdrawalRate: 0.04,
		Joint:          true,
		Residences:     []household.Residence{{Country: country, System: s, Year: 2026}},
	}
	for _, a := range accts {
		if w := a.Wrapper; w != nil && w.Access.ConvertTo != "" {
			p.Converts = []*household.Wrapper{r.Wrapper(w.Access.ConvertTo)}
		}
	}
	return p
}

// usCouple is a US couple of 60 and 58 retiring now: two 401(k)s, a Roth,
// a taxable account and cash, Social Security for both.
func usCouple(t testing.TB) household.Plan {
	r, s := rules(t, "us")
	p := couple(r, s, "US", 60, 58, 92,
		account(r, "k1", "us-401k", 0, 900000), account(r, "k2", "us-401k", 1, 400000),
		account(r, "r1", "us-roth-ira", 0, 80000), account(r, "t", "taxable", 0, 250000),
		account(r, "c", "cash", 0, 40000), account(r, "i2", "us-ira", 1, 60000))
	p.Pensions = []household.Pension{benefit(r, "us-social-security", "US", 0, 67, 36000), benefit(r, "us-social-security", "US", 1, 67, 24000)}
	return p
}

func eventAt(age int, amount float64) fi.Event { return fi.Event{Age: age, Amount: amount} }
