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

// A retired couple whose IRA outlasts them, with heirs taxed at 32%: the
// search keeps converting after required minimums start (each year's
// minimum taken first), because every dollar left to the heirs costs
// them more than the couple's bracket; valued at a flat heirs' rate, the
// estate comes out higher than with no conversions past that age.
func TestConversionsAfterRequiredMinimums(t *testing.T) {
	t.Parallel()
	r, s := rules(t, "us")
	p := couple(r, s, "US", 70, 70, 92,
		account(r, "i", "us-ira", 0, 2500000),
		account(r, "t", "taxable", 0, 100000))
	p.People[0].RetirementAge, p.People[1].RetirementAge = 70, 70
	p.Expenses, p.Retirement = 90000, 90000
	p.Pensions = []household.Pension{benefit(r, "us-social-security", "US", 0, 70, 40000), benefit(r, "us-social-security", "US", 1, 70, 20000)}
	req := &Request{Objective: Estate, Decisions: Set(0).With(Conversions), HeirsRate: 0.32}
	a := optimize(t, &p, req)
	rmdAge := int(household.ByBirth(r.Wrapper("us-ira").RMD.ByBirth, p.StartYear-70))
	late := 0.0
	for _, c := range a.Conversions {
		if c.Age >= rmdAge {
			late += c.Amount
		}
	}
	if !a.Feasible || late <= 0 {
		t.Fatalf("no conversion at or after %d: %+v", rmdAge, a.Conversions)
	}
	// the same conversions stopped at the minimums' age leave less
	early := a.Plan
	early.Conversions = append([]float64(nil), a.Plan.Conversions...)
	for t := rmdAge - 70; t < len(early.Conversions); t++ {
		early.Conversions[t] = 0
	}
	o, err := household.Evaluate(&early, new(household.Work))
	if err != nil {
		t.Fatal(err)
	}
	if cut := req.endWealth(&o); !(a.Value > cut+1000) {
		t.Fatalf("converting on after %d is worth %.0f, stopping there %.0f", rmdAge, a.Value, cut)
	}
}

// A flat heirs' rate values the pre-tax money left at the end: the
// higher it is, the less of it the estate's optimum leaves, and the
// value is the end wealth less that rate on it.
func TestHeirsRate(t *testing.T) {
	t.Parallel()
	r, s := rules(t, "us")
	p := couple(r, s, "US", 66, 66, 90,
		account(r, "i", "us-ira", 0, 1500000),
		account(r, "t", "taxable", 0, 200000))
	p.People[0].RetirementAge, p.People[1].RetirementAge = 66, 66
	p.Expenses = 80000
	p.Pensions = []household.Pension{benefit(r, "us-social-security", "US", 0, 67, 30000)}
	left := func(rate float64) (float64, float64) {
		a := optimize(t, &p, &Request{Objective: Estate, Decisions: Set(0).With(Conversions), HeirsRate: rate})
		o, err := household.Evaluate(&a.Plan, new(household.Work))
		if err != nil {
			t.Fatal(err)
		}
		if got := o.EndReal - rate*o.PreTaxEnd; rate > 0 && abs(got-a.Value) > 1 {
			t.Fatalf("rate %v: value %.0f, the plan's end wealth at that rate %.0f", rate, a.Value, got)
		}
		return o.PreTaxEnd, a.Value
	}
	lowLeft, _ := left(0.10)
	highLeft, _ := left(0.40)
	if !(highLeft < lowLeft) {
		t.Fatalf("pre-tax money left: %.0f at a 40%% heirs' rate, %.0f at 10%%", highLeft, lowLeft)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
