// Package fiscore scores how far a person is on the way to financial
// independence (FI): 0-1000 from their profile, settings and holdings, in
// three parts.
//
//   - fiProgress (400): net worth against the FI number (annual expenses
//     divided by the withdrawal rate), linear, full at 100%;
//   - portfolioHealth (400): the compute/health score (0-1000) of the
//     holdings, scaled by 0.4;
//   - timeToFI (200): from compute/fi's years to FI with today's net worth
//     and saving: full when already FI, falling linearly to 0 at Horizon
//     years or more (or never).
//
// Scored with a saved plan (Input.Plan), the plan's own run gives the FI
// number (the after-tax one when the plan is taxed) and the FI age, and its
// savings stand for net worth when no holdings are stored: the score then
// agrees with what the planner shows for that plan.
//
// A part whose inputs are missing scores 0, and Result.Missing says what is
// missing. Amounts are converted to the base currency with the caller's
// rates, so the package reads no dataset. Every number it returns is
// finite whatever the input: amounts too large to represent are capped at
// the largest float64, and a withdrawal rate so small that the FI number
// would be infinite gives no FI number.
package fiscore

import (
	"math"
	"time"

	"fiplan/compute/fi"
	"fiplan/compute/health"
	"fiplan/compute/portfolio"
)

// Points of each part, and the years to FI at which timeToFI reaches 0.
const (
	ProgressMax = 400
	HealthMax   = 400
	TimeMax     = 200
	Horizon     = 40
)

// Input is what the score is computed from.
type Input struct {
	Year int // the calendar year now
	// Age today; HasAge is false when the person gave neither an age nor a
	// birth year.
	Age    int
	HasAge bool
	// Currency is that of AnnualIncome and AnnualExpenses.
	Currency          string
	AnnualIncome      float64 // take-home pay
	HasAnnualIncome   bool
	AnnualExpenses    float64
	HasAnnualExpenses bool

	TargetRetirementAge    int
	HasTargetRetirementAge bool
	RiskTolerance          string // low, medium or high; "" when not stated

	// Base is the currency of the score's amounts.
	Base                                          string
	ExpectedReturn, InflationRate, WithdrawalRate float64

	Holdings []portfolio.Holding

	// Plan, when set, is the saved plan scored; Age, Currency, the income,
	// the expenses and the target retirement age above are then its.
	Plan *Plan
}

// Plan is what the score reads of a saved plan's own run.
type Plan struct {
	ID, Name  string // which plan, for the answer
	UpdatedAt time.Time
	// FINumber is the run's FI number in Input.Currency, today's money:
	// the after-tax one when the plan is taxed.
	FINumber float64
	// FIAge is the age the run reaches FI at; -1 when it never does.
	FIAge int
	// Savings is the portfolio the plan starts from (its accounts'
	// balances, else its currentSavings), in Input.Currency.
	Savings float64
}

// Component is one part of a score.
type Component struct {
	Name       string
	Score, Max int
}

// Recommendation is one of the portfolio-health recommendations, rendered.
type Recommendation struct {
	Priority      int
	Title, Detail string
}

// Health is the portfolio-health score of the holdings.
type Health struct {
	Score           int
	Components      []Component
	Recommendations []Recommendation // the three most valuable, best first
}

// Used is what the score took of the profile, amounts in the base currency
// and rounded to the cent.
type Used struct {
	Age               int
	HasAge            bool
	AnnualIncome      float64
	HasAnnualIncome   bool
	AnnualExpenses    float64
	HasAnnualExpenses bool
}

// Missing is an input whose absence cost points or exactness.
type Missing struct {
	Field string // where to set it, such as profile.annualExpenses
	Why   string
}

// Result is a score.
type Result struct {
	Score      int // the sum of the components, 0..1000
	Components [3]Component
	NetWorth   float64 // the holdings' value in the base currency
	// FINumber is annual expenses / withdrawal rate; Progress is net worth
	// over it. HasFINumber is false without annual expenses or with a
	// withdrawal rate that gives no finite FI number.
	FINumber, Progress float64
	HasFINumber        bool
	// YearsToFI is 0 when already FI; HasYearsToFI is false when FI is not
	// reached within the projection or cannot be projected.
	YearsToFI, FIAge int
	HasYearsToFI     bool
	Health           *Health // nil without holdings
	Used             Used
	Missing          []Missing // empty when nothing is missing
}

// Score computes the FI score of in, converting amounts with fx.
func Score(in *Input, fx portfolio.Rates) *Result {
	out := &Result{Missing: []Missing{}}
	used := &out.Used
	used.Age, used.HasAge = in.Age, in.HasAge
	if in.HasAnnualIncome {
		used.AnnualIncome, used.HasAnnualIncome = money(convert(fx, in.AnnualIncome, in.Currency, in.Base)), true
	}
	if in.HasAnnualExpenses {
		used.AnnualExpenses, used.HasAnnualExpenses = money(convert(fx, in.AnnualExpenses, in.Currency, in.Base)), true
	}
	hasExpenses := used.HasAnnualExpenses && used.AnnualExpenses > 0
	miss := func(field, why string) { out.Missing = append(out.Missing, Missing{field, why}) }

	var worth float64
	values := make([]float64, len(in.Holdings)) // in the base currency
	for i := range in.Holdings {
		values[i] = in.Holdings[i].ValueIn(in.Base, fx)
		worth += values[i]
	}
	if pl := in.Plan; pl != nil && len(in.Holdings) == 0 {
		worth = convert(fx, pl.Savings, in.Currency, in.Base)
	}
	worth = portfolio.Capped(worth)
	out.NetWorth = money(worth)

	// fiProgress
	progress := 0
	fiNumber := 0.0
	switch {
	case in.Plan != nil:
		hasExpenses = false // the plan's run answers the years to FI
		fiNumber = money(convert(fx, in.Plan.FINumber, in.Currency, in.Base))
		out.FINumber, out.HasFINumber = fiNumber, true
		out.Progress = 1.0
		if fiNumber > 0 {
			out.Progress = fraction(portfolio.Capped(worth / fiNumber))
		}
		progress = int(math.Round(ProgressMax * min(1, max(0, out.Progress))))
	case !hasExpenses:
		miss("profile.annualExpenses", "needed for the FI number: fiProgress and timeToFI score 0 without it")
	case !(in.WithdrawalRate > 0) || !finite(used.AnnualExpenses/in.WithdrawalRate):
		hasExpenses = false
		miss("settings.withdrawalRate", "too small for a finite FI number: fiProgress and timeToFI score 0")
	default:
		fiNumber = money(used.AnnualExpenses / in.WithdrawalRate)
		ratio := 1.0 // spending that rounds to no FI number at all is FI
		if fiNumber > 0 {
			ratio = fraction(portfolio.Capped(worth / fiNumber))
		}
		out.FINumber, out.Progress, out.HasFINumber = fiNumber, ratio, true
		progress = int(math.Round(ProgressMax * min(1, max(0, ratio))))
	}

	// portfolioHealth
	healthPts := 0
	if len(in.Holdings) == 0 {
		miss("assets", "add your assets (POST /api/v1/assets): portfolioHealth scores 0 without them")
	} else {
		out.Health = scoreHealth(in, used, values)
		healthPts = int(math.Round(float64(out.Health.Score) * HealthMax / 1000))
	}

	// timeToFI
	timePts := 0
	if pl := in.Plan; pl != nil {
		if pl.FIAge >= 0 {
			out.YearsToFI, out.FIAge, out.HasYearsToFI = max(0, pl.FIAge-in.Age), max(pl.FIAge, in.Age), true
			timePts = int(math.Round(TimeMax * max(0, 1-float64(out.YearsToFI)/Horizon)))
		}
	} else {
		if !in.HasAge {
			miss("profile.currentAge", "or profile.birthYear: needed for the years to FI; timeToFI scores 0 without it")
		}
		if !in.HasAnnualIncome {
			miss("profile.annualIncome", "take-home pay: without it no saving is assumed")
		}
	}
	if in.HasAge && hasExpenses {
		x := fi.Defaults()
		x.CurrentAge = min(max(in.Age, 18), 100)
		x.StartYear = in.Year
		x.AnnualExpenses = used.AnnualExpenses
		x.AnnualIncome = used.AnnualIncome
		x.CurrentSavings = worth
		x.ExpectedReturn, x.InflationRate, x.WithdrawalRate = in.ExpectedReturn, in.InflationRate, in.WithdrawalRate
		var rows [fi.MaxYears + 1]fi.Year
		sum, _ := fi.Project(&x, rows[:0])
		if sum.YearsToFI >= 0 {
			out.YearsToFI, out.FIAge, out.HasYearsToFI = sum.YearsToFI, sum.FIAge, true
			timePts = int(math.Round(TimeMax * max(0, 1-float64(sum.YearsToFI)/Horizon)))
		}
	}
	if in.RiskTolerance == "" && len(in.Holdings) > 0 {
		miss("profile.riskTolerance", "makes the risk-alignment part of portfolioHealth exact")
	}

	out.Components = [3]Component{
		{"fiProgress", progress, ProgressMax},
		{"portfolioHealth", healthPts, HealthMax},
		{"timeToFI", timePts, TimeMax},
	}
	out.Score = progress + healthPts + timePts
	return out
}

// scoreHealth is the portfolio-health score of the holdings, valued at
// values (in the base currency).
func scoreHealth(in *Input, used *Used, values []float64) *Health {
	port := health.Portfolio{Holdings: make([]health.Holding, 0, len(in.Holdings)), Currency: in.Base}
	for i := range in.Holdings {
		h := &in.Holdings[i]
		class, _ := health.ParseAssetClass(h.Category)
		x := health.Holding{Name: h.Name, Value: values[i], AssetClass: class, Currency: in.Base, ISIN: h.ISIN}
		x.Region, _ = health.ParseRegion(h.Region)
		x.ExpenseRatio, x.HasExpenseRatio = h.ExpenseRatio, h.HasExpenseRatio
		port.Holdings = append(port.Holdings, x)
	}
	ctx := &port.Context
	if used.HasAge {
		ctx.Age, ctx.HasAge = float64(used.Age), true
	}
	if used.HasAnnualExpenses && used.AnnualExpenses > 0 {
		ctx.AnnualExpenses, ctx.HasAnnualExpenses = used.AnnualExpenses, true
	}
	if in.HasTargetRetirementAge {
		ctx.TargetRetirementAge, ctx.HasTargetRetirementAge = float64(in.TargetRetirementAge), true
	}
	ctx.RiskTolerance, _ = health.ParseRiskTolerance(in.RiskTolerance)
	var r health.Result
	health.Score(&port, &r)
	out := &Health{Score: r.Score, Components: make([]Component, len(r.Components)), Recommendations: []Recommendation{}}
	for i, cp := range r.Components {
		out.Components[i] = Component{cp.Name, cp.Score, cp.Max}
	}
	var text []byte
	for i, rec := range r.Recommendations() {
		if i == 3 {
			break
		}
		text = health.AppendTitle(text[:0], &rec)
		title := string(text)
		text = health.AppendDetail(text[:0], &rec)
		out.Recommendations = append(out.Recommendations, Recommendation{rec.Priority, title, string(text)})
	}
	return out
}

// convert is x in base; 0 when fx has no rate (see portfolio.Holding.ValueIn).
func convert(fx portfolio.Rates, x float64, cur, base string) float64 {
	h := portfolio.Holding{Value: x, Currency: cur}
	return h.ValueIn(base, fx)
}

func money(x float64) float64    { return portfolio.Money(portfolio.Capped(x)) }
func fraction(x float64) float64 { return portfolio.Fraction(portfolio.Capped(x)) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
