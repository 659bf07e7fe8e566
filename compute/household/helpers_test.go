package household

import (
	"os"
	"testing"

	"fiplan/compute/tax"
)

// fixture is the test wrapper file (a fixture shaped like US law, not law)
// and the real US tax file.
func fixture(t testing.TB) (*Rules, *tax.System) {
	t.Helper()
	b, err := os.ReadFile("testdata/xx.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRules(b)
	if err != nil {
		t.Fatal(err)
	}
	return r, taxSystem(t, "us")
}

// taxSystem decodes a country's tax file (cc in lower case).
func taxSystem(t testing.TB, cc string) *tax.System {
	t.Helper()
	b, err := os.ReadFile("../../embed/tax/countries/" + cc + ".json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tax.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// account builds an account of the fixture's wrapper typ ("cash" and
// "taxable" have none).
func account(r *Rules, id, typ string, owner int, bal float64) Account {
	a := Account{ID: id, Type: typ, Owner: owner, Balance: bal, CostBasis: -1}
	if typ != "cash" && typ != "taxable" {
		a.Wrapper = r.Wrapper(typ)
	}
	return a
}

// single is a one-person plan taxed by s in 2026.
func single(r *Rules, s *tax.System, age, le int, accts ...Account) Plan {
	return Plan{
		People:         []Person{{Age: age, LifeExpectancy: le}},
		Accounts:       accts,
		Return:         0.05,
		Inflation:      0.02,
		Expenses:       40000,
		StartYear:      2026,
		Residences:     []Residence{{Country: "US", System: s, Year: 2026}},
		Converts:       []*Wrapper{r.Wrapper("us-roth-ira")},
		WithdrawalRate: 0.04,
	}
}

func run(t testing.TB, p *Plan) *Result {
	t.Helper()
	var w Work
	var r Result
	if err := Run(p, &w, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func near(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }
