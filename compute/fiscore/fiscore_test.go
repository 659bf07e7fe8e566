package fiscore

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"fiplan/compute/portfolio"
)

// perUSD is a rate table for tests: units of each currency per US dollar.
type perUSD map[string]float64

func (r perUSD) Convert(x float64, from, to string) (float64, bool) {
	f, ok1 := r[from]
	t, ok2 := r[to]
	if !ok1 || !ok2 {
		return 0, false
	}
	return x / f * t, true
}

var rates = perUSD{"USD": 1, "EUR": 0.8, "GBP": 0.5}

func person() Input {
	return Input{Year: 2026, Age: 40, HasAge: true, Currency: "USD",
		AnnualIncome: 80000, HasAnnualIncome: true, AnnualExpenses: 40000, HasAnnualExpenses: true,
		RiskTolerance: "medium", Base: "USD", ExpectedReturn: 0.07, InflationRate: 0.03, WithdrawalRate: 0.04,
		Holdings: []portfolio.Holding{
			{Name: "World", Category: "equity", Value: 300000, Currency: "USD", ExpenseRatio: 0.002, HasExpenseRatio: true, Region: "global"},
			{Name: "Bonds", Category: "bond", Value: 150000, Currency: "USD", ExpenseRatio: 0.001, HasExpenseRatio: true, Region: "global"},
			{Name: "Cash", Category: "cash", Value: 50000, Currency: "USD"},
		}}
}

func fields(r *Result) []string {
	out := []string{}
	for _, m := range r.Missing {
		out = append(out, m.Field)
	}
	return out
}

func TestScore(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edit  func(in *Input)
		check func(t *testing.T, r *Result)
	}{
		{"halfway", nil, func(t *testing.T, r *Result) {
			// FI number 40,000 / 4% = 1,000,000; net worth 500,000: 200 points.
			if !r.HasFINumber || r.FINumber != 1e6 || r.NetWorth != 5e5 || r.Progress != 0.5 || r.Components[0].Score != 200 {
				t.Errorf("progress: %+v", r)
			}
			if r.Components[1].Score != int(math.Round(float64(r.Health.Score)*0.4)) || len(r.Health.Components) != 4 || len(r.Health.Recommendations) > 3 {
				t.Errorf("health: %+v", r.Health)
			}
			if !r.HasYearsToFI || r.YearsToFI <= 0 || r.YearsToFI > 20 || r.FIAge != 40+r.YearsToFI ||
				r.Components[2].Score != int(math.Round(200*(1-float64(r.YearsToFI)/40))) {
				t.Errorf("timeToFI: %+v", r)
			}
			if len(r.Missing) != 0 {
				t.Errorf("missing %v", fields(r))
			}
		}},
		{"nothing known", func(in *Input) { *in = Input{Year: 2026, Base: "USD", WithdrawalRate: 0.04} }, func(t *testing.T, r *Result) {
			want := []string{"profile.annualExpenses", "assets", "profile.currentAge", "profile.annualIncome"}
			if r.Score != 0 || r.HasFINumber || r.Health != nil || r.HasYearsToFI || !reflect.DeepEqual(fields(r), want) {
				t.Errorf("%+v, missing %v", r, fields(r))
			}
		}},
		{"already FI", func(in *Input) { in.Holdings[0].Value = 3e6 }, func(t *testing.T, r *Result) {
			if r.Components[0].Score != 400 || r.Components[2].Score != 200 || r.YearsToFI != 0 || r.FIAge != 40 {
				t.Errorf("%+v", r)
			}
		}},
		{"amounts converted to the base", func(in *Input) {
			in.Base, in.Currency = "GBP", "EUR"
			in.Holdings[2].Currency = "EUR"
		}, func(t *testing.T, r *Result) {
			// Expenses 40,000 EUR = 25,000 GBP; 450,000 USD + 50,000 EUR = 225,000 + 31,250 GBP.
			if r.Used.AnnualExpenses != 25000 || r.Used.AnnualIncome != 50000 || r.NetWorth != 256250 || r.FINumber != 625000 {
				t.Errorf("%+v", r)
			}
		}},
		{"an unknown currency counts 0", func(in *Input) { in.Holdings[0].Currency = "XXX" }, func(t *testing.T, r *Result) {
			if r.NetWorth != 200000 {
				t.Errorf("net worth %v", r.NetWorth)
			}
		}},
		{"no income: no saving, still a timeline", func(in *Input) { in.HasAnnualIncome = false }, func(t *testing.T, r *Result) {
			if !reflect.DeepEqual(fields(r), []string{"profile.annualIncome"}) || r.Used.HasAnnualIncome {
				t.Errorf("missing %v", fields(r))
			}
		}},
		{"no risk tolerance", func(in *Input) { in.RiskTolerance = "" }, func(t *testing.T, r *Result) {
			if !reflect.DeepEqual(fields(r), []string{"profile.riskTolerance"}) {
				t.Errorf("missing %v", fields(r))
			}
		}},
		{"zero expenses are no FI number", func(in *Input) { in.AnnualExpenses = 0 }, func(t *testing.T, r *Result) {
			if r.HasFINumber || r.HasYearsToFI || r.Components[0].Score != 0 || fields(r)[0] != "profile.annualExpenses" {
				t.Errorf("%+v", r)
			}
		}},
		{"a withdrawal rate near 0 gives no FI number", func(in *Input) { in.WithdrawalRate = 1e-320 }, func(t *testing.T, r *Result) {
			if r.HasFINumber || r.FINumber != 0 || r.HasYearsToFI || r.Components[0].Score+r.Components[2].Score != 0 ||
				!reflect.DeepEqual(fields(r), []string{"settings.withdrawalRate"}) {
				t.Errorf("%+v, missing %v", r, fields(r))
			}
			checkResult(t, r)
		}},
		{"the timeline starts at 18 at the earliest", func(in *Input) { in.Age = 10 }, func(t *testing.T, r *Result) {
			if r.Used.Age != 10 || !r.HasYearsToFI || r.FIAge != 18+r.YearsToFI {
				t.Errorf("%+v", r)
			}
		}},
		{"past the timeline's last age FI is never reached", func(in *Input) { in.Age = 130 }, func(t *testing.T, r *Result) {
			if r.Used.Age != 130 || r.HasYearsToFI || r.Components[2].Score != 0 {
				t.Errorf("%+v", r)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := person()
			if c.edit != nil {
				c.edit(&in)
			}
			r := Score(&in, rates)
			checkResult(t, r)
			c.check(t, r)
		})
	}
}

// checkResult asserts what holds of every result: finite numbers, parts
// within their maxima summing to the score, the score within 0..1000.
func checkResult(t *testing.T, r *Result) {
	t.Helper()
	nums := []float64{r.NetWorth, r.FINumber, r.Progress, r.Used.AnnualIncome, r.Used.AnnualExpenses}
	for i, x := range nums {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("number %d is %v: %+v", i, x, r)
		}
	}
	sum := 0
	for _, c := range r.Components {
		if c.Score < 0 || c.Score > c.Max {
			t.Fatalf("component %+v", c)
		}
		sum += c.Score
	}
	if sum != r.Score || r.Score < 0 || r.Score > 1000 {
		t.Fatalf("score %d, components sum to %d", r.Score, sum)
	}
	if r.Health != nil && (r.Health.Score < 0 || r.Health.Score > 1000) {
		t.Fatalf("health %d", r.Health.Score)
	}
	if r.Progress < 0 && r.NetWorth >= 0 || r.HasYearsToFI && (r.YearsToFI < 0 || r.FIAge < r.YearsToFI) {
		t.Fatalf("progress %v years %d age %d", r.Progress, r.YearsToFI, r.FIAge)
	}
}

var extremes = []float64{0, 5e-324, 1e-320, 1e-9, 0.01, 1, 1e6, 1e12, 1e15, 1e300, math.MaxFloat64, math.Inf(1), math.NaN(), -1}

func pick(rng *rand.Rand, scale float64) float64 {
	if rng.IntN(4) == 0 {
		return extremes[rng.IntN(len(extremes))]
	}
	return rng.Float64() * scale
}

func randomInput(rng *rand.Rand) Input {
	curs := []string{"USD", "EUR", "GBP", "XXX"}
	in := Input{Year: 2026, Age: rng.IntN(140) - 10, HasAge: rng.IntN(5) > 0, Currency: curs[rng.IntN(4)],
		AnnualIncome: pick(rng, 2e5), HasAnnualIncome: rng.IntN(5) > 0,
		AnnualExpenses: pick(rng, 1e5), HasAnnualExpenses: rng.IntN(5) > 0,
		TargetRetirementAge: rng.IntN(120), HasTargetRetirementAge: rng.IntN(2) == 0,
		RiskTolerance: []string{"", "low", "medium", "high"}[rng.IntN(4)], Base: curs[rng.IntN(3)],
		ExpectedReturn: pick(rng, 0.15) - 0.05, InflationRate: pick(rng, 0.1), WithdrawalRate: pick(rng, 0.2)}
	for range rng.IntN(12) {
		in.Holdings = append(in.Holdings, portfolio.Holding{Name: "h",
			Category: []string{"equity", "bond", "cash", "crypto", "real_estate"}[rng.IntN(5)],
			Value:    pick(rng, 1e6), Currency: curs[rng.IntN(4)],
			ExpenseRatio: pick(rng, 0.02), HasExpenseRatio: rng.IntN(2) == 0,
			Region: []string{"", "global", "europe"}[rng.IntN(3)]})
	}
	return in
}

// Over random and extreme inputs (0, subnormal and huge amounts and rates,
// infinities and NaN), every number is finite and the score is 0..1000;
// and more net worth never lowers fiProgress or timeToFI.
func TestScoreProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 8))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := range n {
		in := randomInput(rng)
		r := Score(&in, rates)
		checkResult(t, r)

		richer := in
		richer.Holdings = append(append([]portfolio.Holding(nil), in.Holdings...),
			portfolio.Holding{Name: "more", Category: "cash", Value: rng.Float64() * 1e6, Currency: in.Base})
		r2 := Score(&richer, rates)
		checkResult(t, r2)
		if r.NetWorth < 1e15 && (r2.Components[0].Score < r.Components[0].Score || r2.Components[2].Score < r.Components[2].Score) {
			t.Fatalf("case %d: more net worth lowered a part: %v -> %v (input %+v)", i, r.Components, r2.Components, in)
		}
	}
}

// A saved plan's run answers the FI number and the FI age; its savings
// stand for net worth only when no holdings are stored.
func TestScoreOfPlan(t *testing.T) {
	t.Parallel()
	in := person()
	in.Currency = "GBP"
	in.Plan = &Plan{ID: "pln_x", FINumber: 400000, FIAge: 52, Savings: 100000}
	r := Score(&in, rates)
	// £400,000 is $800,000; the holdings ($500,000) are the net worth: 250 points.
	if !r.HasFINumber || r.FINumber != 8e5 || r.NetWorth != 5e5 || r.Progress != 0.625 || r.Components[0].Score != 250 {
		t.Errorf("progress: %+v", r)
	}
	// FI at 52 from 40: 12 years, 200 x (1 - 12/40) = 140 points.
	if !r.HasYearsToFI || r.YearsToFI != 12 || r.FIAge != 52 || r.Components[2].Score != 140 {
		t.Errorf("time: %+v", r)
	}
	for _, f := range fields(r) {
		if f == "profile.annualExpenses" || f == "profile.annualIncome" || f == "profile.currentAge" {
			t.Errorf("missing %s with a plan scored", f)
		}
	}

	in.Holdings = nil
	r = Score(&in, rates)
	// Without holdings, the plan's £100,000 ($200,000) of savings: 100 points.
	if r.NetWorth != 2e5 || r.Progress != 0.25 || r.Components[0].Score != 100 || r.Components[1].Score != 0 {
		t.Errorf("plan savings: %+v", r)
	}

	in.Plan.FIAge = -1 // never FI within the plan
	r = Score(&in, rates)
	if r.HasYearsToFI || r.Components[2].Score != 0 {
		t.Errorf("never FI: %+v", r)
	}
	in.Plan.FIAge = 35 // FI already, at an age passed
	r = Score(&in, rates)
	if !r.HasYearsToFI || r.YearsToFI != 0 || r.FIAge != 40 || r.Components[2].Score != 200 {
		t.Errorf("already FI: %+v", r)
	}
	in.Plan.FINumber = 0 // no spending to pay for: FI
	r = Score(&in, rates)
	if r.Progress != 1 || r.Components[0].Score != 400 {
		t.Errorf("no FI number: %+v", r)
	}
}
