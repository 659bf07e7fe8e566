package decide

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"fiplan/compute/household"
)

func optimize(t *testing.T, p *household.Plan, req *Request) *Answer {
	t.Helper()
	var w Work
	a, err := Optimize(p, req, &w)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The US couple spends more with the decisions chosen than as asked, and
// leaves more after tax at the plan's spending; each decision's worth is
// what it adds alone.
func TestUSCoupleGains(t *testing.T) {
	t.Parallel()
	p := usCouple(t)
	for _, obj := range []Objective{Spending, Estate} {
		a := optimize(t, &p, &Request{Objective: obj})
		if !a.Feasible || !(a.Value > a.PlanValue) || a.Value < a.BaselineValue {
			t.Fatalf("objective %d: value %.0f, plan %.0f, baseline %.0f, feasible %v", obj, a.Value, a.PlanValue, a.BaselineValue, a.Feasible)
		}
		some := false
		for _, w := range a.Worth {
			some = some || w.Amount > 0
		}
		if !some || len(a.Claims) != 2 || a.Runs > MaxRuns {
			t.Fatalf("objective %d: worth %+v, claims %+v, runs %d", obj, a.Worth, a.Claims, a.Runs)
		}
		// the plan handed back is the one valued: run, it meets the spending
		o, err := household.Evaluate(&a.Plan, new(household.Work))
		if err != nil || o.DepletionAge >= 0 {
			t.Fatalf("objective %d: the chosen plan runs out at %d (%v)", obj, o.DepletionAge, err)
		}
	}
}

// Money that cannot last even with nothing spent in retirement is no
// error: the answer says it is not feasible, and why.
func TestInfeasible(t *testing.T) {
	t.Parallel()
	p := usCouple(t)
	p.People[0].RetirementAge, p.People[1].RetirementAge = 80, 80
	p.Events = append(p.Events, eventAt(62, -5e6))
	for _, obj := range []Objective{Spending, Estate} {
		a := optimize(t, &p, &Request{Objective: obj})
		if a.Feasible || a.Why == "" {
			t.Fatalf("objective %d: feasible %v, why %q", obj, a.Feasible, a.Why)
		}
	}
}

// Over generated households the optimum is never worse than the plan as
// asked or the baseline by the objective, and the same input gives the
// same answer.
func TestNeverWorseAndDeterministic(t *testing.T) {
	t.Parallel()
	r, s := rules(t, "us")
	rng := rand.New(rand.NewPCG(7, 11))
	n := 6
	if testing.Short() {
		n = 2
	}
	for i := 0; i < n; i++ {
		age := 50 + rng.IntN(15)
		p := couple(r, s, "US", age, age-rng.IntN(6), age+25+rng.IntN(10),
			account(r, "k1", "us-401k", 0, float64(100000+rng.IntN(900000))),
			account(r, "t", "taxable", 0, float64(rng.IntN(400000))),
			account(r, "r", "us-roth-ira", 1, float64(rng.IntN(200000))))
		p.Expenses = float64(30000 + rng.IntN(60000))
		p.People[0].RetirementAge = age + rng.IntN(5)
		p.Pensions = []household.Pension{benefit(r, "us-social-security", "US", 0, 62+rng.IntN(9), float64(15000+rng.IntN(25000)))}
		if rng.IntN(2) == 0 {
			p.Convert, p.ConvertUpTo = true, []float64{0.12, 0.22, 0.24}[rng.IntN(3)]
			p.Order = household.TaxSmart
		}
		obj := Objective(rng.IntN(2))
		a := optimize(t, &p, &Request{Objective: obj})
		b := optimize(t, &p, &Request{Objective: obj})
		if a.Feasible && (a.Value < a.PlanValue-0.01 || a.Value < a.BaselineValue-0.01) {
			t.Fatalf("household %d, objective %d: value %.2f below the plan's %.2f or the baseline's %.2f", i, obj, a.Value, a.PlanValue, a.BaselineValue)
		}
		a.Plan, b.Plan = household.Plan{}, household.Plan{}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("household %d: two answers for one input:\n%+v\n%+v", i, a, b)
		}
	}
}
