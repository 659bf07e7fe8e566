// Package owl holds fiplan's optimiser against Owl (mdlacasse/Owl), an
// open-source planner that solves a US household's withdrawals, Roth
// conversions and Social Security claiming as one linear program.
// owl_cases.json is Owl's optimum for a few couples under its fixed-rate
// model (gen_owl.py made it; its header gives the pinned commit and the
// command, `make oracle`), and owl_differences.txt lists every case where
// fiplan's optimum falls short of Owl's by more than the tolerance, the
// difference split term by term.
package owl

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// owlAnswer is one Owl solve: money in dollars, today's money except the
// yearly flows and the end balances, which are money of their year.
type owlAnswer struct {
	Bequest     float64 `json:"bequest"`
	Spending    float64 `json:"spending"`
	Seconds     float64 `json:"seconds"`
	ClaimAges   []float64
	Conversions []struct {
		Year   int     `json:"year"`
		Amount float64 `json:"amount"`
	} `json:"conversions"`
	Years []struct {
		Year      int     `json:"year"`
		Spending  float64 `json:"spending"`
		Benefits  float64 `json:"benefits"`
		Tax       float64 `json:"tax"`
		Converted float64 `json:"converted"`
	} `json:"years"`
	End struct {
		Taxable     float64 `json:"taxable"`
		TaxDeferred float64 `json:"taxDeferred"`
		TaxFree     float64 `json:"taxFree"`
	} `json:"end"`
	InflationToEnd float64 `json:"inflationToEnd"`
}

type owlCase struct {
	Name           string    `json:"name"`
	BirthYears     []int     `json:"birthYears"`
	LifeExpectancy []int     `json:"lifeExpectancy"`
	StartYear      int       `json:"startYear"`
	Taxable        []float64 `json:"taxable"`
	TaxDeferred    []float64 `json:"taxDeferred"`
	TaxFree        []float64 `json:"taxFree"`
	PIA            []float64 `json:"pia"`
	ClaimAges      []int     `json:"claimAges"`
	Return         float64   `json:"return"`
	Inflation      float64   `json:"inflation"`
	HeirsRate      float64   `json:"heirsRate"`
	NetSpending    float64   `json:"netSpending"`
	Owl            map[string]owlAnswer
}

type fixture struct {
	OwlCommit string    `json:"owlCommit"`
	Command   string    `json:"command"`
	Cases     []owlCase `json:"cases"`
}

func readFixture(tb testing.TB) *fixture {
	b, err := os.ReadFile("owl_cases.json")
	if err != nil {
		tb.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(b, &f); err != nil {
		tb.Fatal(err)
	}
	if len(f.OwlCommit) != 40 || len(f.Cases) == 0 {
		tb.Fatalf("owl_cases.json names no pinned commit or no case: %q, %d cases", f.OwlCommit, len(f.Cases))
	}
	return &f
}

// us is the US rules: the wrappers and benefits, and the tax system.
type us struct {
	rules *household.Rules
	sys   *tax.System
}

func loadUS(tb testing.TB) us {
	wb, err := os.ReadFile("../../../embed/tax/wrappers/us.json")
	if err != nil {
		tb.Fatal(err)
	}
	r, err := household.ParseRules(wb)
	if err != nil {
		tb.Fatal(err)
	}
	sb, err := os.ReadFile("../../../embed/tax/countries/us.json")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := tax.Parse(sb)
	if err != nil {
		tb.Fatal(err)
	}
	return us{r, s}
}

// plan is c as a fiplan household: both retired, each person's taxable,
// IRA and Roth IRA accounts, Social Security at the primary insurance
// amount claimed at c's ages, one return on everything, federal tax only
// (no region), spending flat in today's money. A person's life expectancy
// in Owl is the age of the last year planned; fiplan plans up to the year
// before, hence one more.
func (u us) plan(c *owlCase) household.Plan {
	p := household.Plan{
		Return: c.Return, Inflation: c.Inflation, WithdrawalRate: 0.04, StartYear: c.StartYear, Joint: true,
		Residences: []household.Residence{{Country: "US", System: u.sys, Year: c.StartYear}},
		Converts:   []*household.Wrapper{u.rules.Wrapper("us-roth-ira")},
		Expenses:   c.NetSpending, Retirement: c.NetSpending,
	}
	kinds := []string{"taxable", "us-ira", "us-roth-ira"}
	for i := range c.BirthYears {
		age := c.StartYear - c.BirthYears[i]
		p.People = append(p.People, household.Person{Age: age, LifeExpectancy: c.LifeExpectancy[i] + 1, RetirementAge: age})
		for k, bal := range [][]float64{c.Taxable, c.TaxDeferred, c.TaxFree} {
			if bal[i] <= 0 {
				continue
			}
			a := household.Account{ID: kinds[k] + string(rune('a'+i)), Type: kinds[k], Owner: i, Balance: bal[i], CostBasis: -1}
			if k > 0 {
				a.Wrapper = u.rules.Wrapper(kinds[k])
			}
			p.Accounts = append(p.Accounts, a)
		}
		p.Pensions = append(p.Pensions, household.Pension{Owner: i, FromAge: c.ClaimAges[i], Amount: 12 * c.PIA[i],
			Kind: "us-social-security", Benefit: u.rules.Benefit("us-social-security"), Country: "US"})
	}
	return p
}

// terms are a plan's figures a difference is split into: each year's flows
// carried to the end at the plan's return, in today's money of the end.
type terms struct {
	Bequest  float64 // after heirs' tax at Owl's rate, today's money
	Spending float64 // the first year's spending, today's money
	// the flows, each grown at the return to the end and deflated to today
	Benefits, Tax, Spent float64
	HeirsTax             float64 // Owl's rate on the pre-tax money left
	Converted            float64 // today's money
}

// fiplanTerms runs p and values it as Owl values its answer.
func fiplanTerms(tb testing.TB, p *household.Plan, heirs float64) terms {
	var w household.Work
	var r household.Result
	if err := household.Run(p, &w, &r); err != nil {
		tb.Fatal(err)
	}
	n := len(r.Rows)
	infl := math.Pow(1+p.Inflation, float64(n))
	var t terms
	for y := range r.Rows {
		carry := math.Pow(1+p.Return, float64(n-y)) / infl
		x := &r.Extra[y]
		t.Benefits += x.Pensions * carry
		t.Tax += x.Tax.Total * carry
		// retired from the start, the spending is flat in today's money
		t.Spent += p.Retirement * math.Pow(1+p.Inflation, float64(y)) * carry
		t.Converted += x.Converted / math.Pow(1+p.Inflation, float64(y))
	}
	end, deferred := 0.0, 0.0
	for i, a := range r.Accounts(n - 1) {
		end += a.End
		if i < len(p.Accounts) && p.Accounts[i].Type == "us-ira" {
			deferred += a.End
		}
	}
	t.HeirsTax = heirs * deferred / infl
	t.Bequest = end/infl - t.HeirsTax
	t.Spending = r.Spending
	return t
}

// owlTerms is the same of Owl's answer.
func owlTerms(c *owlCase, a *owlAnswer) terms {
	n := len(a.Years)
	infl := a.InflationToEnd
	var t terms
	for y, x := range a.Years {
		carry := math.Pow(1+c.Return, float64(n-y)) / infl
		t.Benefits += x.Benefits * carry
		t.Tax += x.Tax * carry
		t.Spent += x.Spending * carry
		t.Converted += x.Converted / math.Pow(1+c.Inflation, float64(y))
	}
	t.HeirsTax = c.HeirsRate * a.End.TaxDeferred / infl
	t.Bequest, t.Spending = a.Bequest, a.Spending
	return t
}
