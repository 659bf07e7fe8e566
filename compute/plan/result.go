package plan

import (
	"fiplan/compute/fi"
	place "fiplan/compute/geo"
	"fiplan/compute/tax"
)

// Result is every figure of a plan. Run reuses its buffers: copy what
// must outlive the next call.
type Result struct {
	Currency string
	// Step is the rows selected (Options.Step): Rows hold every row, and
	// KeepRow(i, len(Rows), Step) tells which are answered.
	Step  int
	Taxed bool   // the plans are after tax
	Tax   TaxUse // with Taxed: the rules applied
	// Plans are the base plan (0) and each scenario, in request order.
	Plans []PlanResult

	MonteCarlo *fi.MCResult // nil unless asked
	Backtest   *Backtest    // nil unless asked
	Goals      *Goals       // nil unless a goal was asked
	// Household: the plans are households (each PlanResult has its
	// Household); Monte Carlo and backtests replay the whole household
	// plan, and a plan that never draws down has no success rate
	// (NoSuccessRate for the simulation; the backtest's Drawdowns 0).
	Household     bool
	NoSuccessRate bool
	Notes         []string // what the answer leaves to simplifications
	// Optimized is the base plan's decisions searched, nil unless asked.
	Optimized *Optimized

	hw      *householdWork
	opt     Optimized
	optPlan PlanResult

	plans [fi.MaxScenarios + 1]PlanResult
	mc    fi.MCResult
	bt    Backtest
	seq   fi.SequenceView
	goals Goals
	work  fi.Scratch
}

// DepletionAge is the age the base plan's money runs out; ok is false
// when it lasts.
func (r *Result) DepletionAge() (age int, ok bool) {
	a := r.Plans[0].Summary.DepletionAge
	return a, a >= 0
}

// TaxUse is the tax rules a plan was taxed by.
type TaxUse struct {
	Country    string
	Region     string // "" for none
	Year       int
	Withdrawal tax.Part
}

// PlanResult is one plan's figures.
type PlanResult struct {
	Name    string // "" for the base plan
	Summary fi.Summary
	// FINumber is the plan's FI number before tax: the spending over the
	// withdrawal rate (Summary.FINumber without tax). With tax the
	// timeline aims at Summary.FINumber, the after-tax FI number.
	FINumber float64
	Taxes    PlanTax   // with Result.Taxed
	City     *City     // nil when the plan has no city
	Rows     []fi.Year // every row, when Options.Step > 0
	// RowTax is each row's tax in money of that year, with tax and rows.
	RowTax     []float64
	Milestones []Milestone // with Options.Milestones
	// Household is the household plan's figures; nil for a one-pot plan.
	Household *HouseholdResult

	city  City
	input fi.Input
	// leanGross and fatGross are, with tax, the retirement incomes that
	// leave LeanMultiplier and FatMultiplier x the spending after tax.
	leanGross, fatGross float64
	// basis is the cost basis of CurrentSavings; share, with tax on the
	// gain of withdrawals, the gain share the retirement income was
	// grossed up for.
	basis, share float64
}

// PlanTax is how one plan was taxed, today's money.
type PlanTax struct {
	GrossIncome   float64 // annual income before tax
	IncomeTax     float64 // its tax as employment income
	Spending      float64 // retirement spending after tax
	GrossSpending float64 // the retirement income that leaves Spending after tax
}

// City is the city budget behind a plan's retirement spending.
type City struct {
	City       *place.City
	Household  int
	MonthlyUSD int     // the household's monthly budget, USD
	Yearly     float64 // 12 x MonthlyUSD in the plan's currency
}

// Backtest is the historical backtest of the base plan.
type Backtest struct {
	History     History
	WindowYears int
	// Sample is the sample replayed, its From and To resolved to
	// calendar years; First and Last are the first and last windows'
	// starts (zero when none fits).
	Sample      fi.Sample
	First, Last fi.WindowStart
	fi.BacktestResult
	Sequences *fi.SequenceView // nil unless asked, or when no window fits
}

// Goals are the answers of the goal seeks asked.
type Goals struct {
	FIByAge int // 0 when not asked
	// Saving is the yearly saving that reaches FI by FIByAge; SavingOK is
	// false when none up to MaxContribution does.
	Saving   float64
	SavingOK bool

	RateAsked   bool
	TargetRate  float64
	MaxRate     float64 // 0 when even the lowest rate misses the target
	RateCapped  bool
	WindowYears int
}

// Milestone is a selected row worth showing on its own: its index in
// Rows and its labels.
type Milestone struct {
	Row   int
	Label string
}

// Typed asks, alongside a request answered by encoding a Result, for the
// Result itself and for the answer's form: a caller that runs the
// calculation through a chain of its own (the MCP tools) reads the figures
// typed, without decoding the answer. Where it travels is the caller's
// business: the calculator finds it among the request's values under the
// key (*plan.Typed)(nil).
type Typed struct {
	Result Result
	// Milestones: the answer carries each plan's milestone rows, each with
	// its label, instead of its projections.
	Milestones bool
}
