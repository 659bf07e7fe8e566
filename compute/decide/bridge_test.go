package decide

import (
	"testing"

	"fiplan/compute/household"
)

// earlyRetiree is a couple of 50 retired today whose savings are nearly
// all in the first person's IRA, Social Security at 67, with the US rules
// on substantially equal periodic payments.
func earlyRetiree(t *testing.T) household.Plan {
	t.Helper()
	r, s := rules(t, "us")
	p := couple(r, s, "US", 50, 50, 90, account(r, "ira", "us-ira", 0, 1500000), account(r, "t", "taxable", 0, 60000))
	p.People[0].RetirementAge, p.People[1].RetirementAge = 50, 50
	p.Expenses = 60000
	p.Pensions = []household.Pension{benefit(r, "us-social-security", "US", 0, 67, 30000)}
	p.SEPPRules = r.SEPP
	return p
}

// An early retiree whose money is in an IRA before 59 1/2 gains from a
// 72(t) series: the search chooses one (as part of the drawing decision),
// the plan handed back pays it, and the spending is above the same search
// without series.
func TestSEPPChosenForEarlyRetiree(t *testing.T) {
	t.Parallel()
	p := earlyRetiree(t)
	req := &Request{Objective: Spending, Decisions: Set(0).With(Order)}
	a := optimize(t, &p, req)
	if !a.Feasible || len(a.SEPP) != 1 || a.SEPP[0].Account != 0 || a.SEPP[0].FromAge < 50 || a.SEPP[0].FromAge >= 60 {
		t.Fatalf("feasible %v, series %+v", a.Feasible, a.SEPP)
	}
	var res household.Result
	if err := household.Run(&a.Plan, new(household.Work), &res); err != nil {
		t.Fatal(err)
	}
	if res.Extra[0].SEPP+res.Extra[a.SEPP[0].FromAge-50].SEPP <= 0 {
		t.Fatalf("the chosen plan pays no series: %+v", a.Plan.SEPP)
	}
	without := p
	without.SEPPRules = nil
	b := optimize(t, &without, req)
	if !(a.Value > b.Value) || len(b.SEPP) != 0 {
		t.Fatalf("spending %.0f with a series, %.0f without (%+v)", a.Value, b.Value, b.SEPP)
	}
	if len(a.Worth) != 1 || a.Worth[0].Decision != Order || !(a.Worth[0].Amount > 0) {
		t.Fatalf("worth %+v", a.Worth)
	}
	t.Logf("series %+v: %.0f a year against %.0f", a.SEPP, a.Value, b.Value)
}

// The same couple with its money nearly all in the taxable account, for
// the estate: the search tries the series (more runs than without them)
// and none pays, so none is chosen and the answer is the one without.
func TestSEPPNotChosenWhenTaxableBridges(t *testing.T) {
	t.Parallel()
	p := earlyRetiree(t)
	p.Accounts[0].Balance, p.Accounts[1].Balance = 40000, 2000000
	req := &Request{Objective: Estate, Decisions: Set(0).With(Order)}
	a := optimize(t, &p, req)
	without := p
	without.SEPPRules = nil
	b := optimize(t, &without, req)
	if !a.Feasible || len(a.SEPP) != 0 || a.Value != b.Value || !(a.Runs > b.Runs) {
		t.Fatalf("series %+v, estate %.0f against %.0f without, %d runs against %d", a.SEPP, a.Value, b.Value, a.Runs, b.Runs)
	}
}

// The search evaluates its plans without checking each: every series it
// may try (each payer, each method of the rules, each first age of
// seriesAges, under every retirement age it may choose) replaces or adds
// to the plan's own series a plan household.Check accepts.
func TestSeriesTriedAreAccepted(t *testing.T) {
	t.Parallel()
	early := earlyRetiree(t)
	young := usCouple(t)
	young.People[0].Age, young.People[1].Age = 40, 38
	young.People[0].RetirementAge, young.People[1].RetirementAge = 45, 55
	young.SEPPRules = early.SEPPRules
	own := early
	own.SEPP = []household.Series{{Account: 0, Method: household.SEPPRMD, FromAge: 52}}
	tried := 0
	for name, p := range map[string]household.Plan{"early": early, "young": young, "own series": own} {
		if err := household.Check(&p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := newSearch(&p, &Request{Objective: Spending}, new(Work))
		if len(s.payers) == 0 {
			t.Fatalf("%s: no account may pay a series", name)
		}
		for retire := 0; retire < p.People[0].LifeExpectancy; retire++ {
			c := s.userChoice()
			c.retire = retire
			c.sepp, c.seppSet = append([]household.Series(nil), p.SEPP...), true
			for _, i := range s.payers {
				from, to := s.seriesAges(&c, i)
				for m := household.SEPPRMD; m <= household.SEPPAnnuitization; m++ {
					if !p.SEPPRules.Has(m) {
						continue
					}
					for age := from; age <= to; age++ {
						d := c.clone()
						q := household.Series{Account: i, Method: m, FromAge: age}
						if k := seriesAt(d.sepp, i); k >= 0 {
							d.sepp[k] = q
						} else {
							d.sepp = append(d.sepp, q)
						}
						if err := household.Check(s.build(&d)); err != nil {
							t.Fatalf("%s: retiring at %d, series %+v: %v", name, retire, q, err)
						}
						tried++
					}
				}
			}
		}
	}
	if tried == 0 {
		t.Fatal("no series tried")
	}
	t.Logf("%d plans with a series checked", tried)
}
