// Package plan computes a whole FI plan in one call: the base plan and its
// scenarios with their cities and taxes, the year-by-year projections and
// each row's tax, the FI numbers, the Monte Carlo simulation, the
// historical backtest with its sequences, the goal seeks, the milestone
// rows and the age the money runs out.
//
// Run takes the plan as asked (Plan), the datasets it reads as typed
// values (Inputs: a tax system, the cities, the exchange rates, a
// historical record; the caller loads them) and what to compute
// (Options), and fills a Result, whose buffers it reuses from call to
// call. Check, before it, applies every rule between a request's fields
// (check.go). A request either cannot answer is reported as a *FieldError
// naming the request field at fault; nothing else fails.
//
// Money is in the plan's currency; amounts of today are today's money,
// those of a row are money of that row's year.
package plan

import (
	"fiplan/compute/decide"
	"fiplan/compute/fi"
	place "fiplan/compute/geo"
	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// Plan is one calculation as asked: the base plan and its scenarios.
type Plan struct {
	Base      fi.Input
	Place     Place // the base plan's city
	Scenarios []Scenario
	// Currency is the plan's currency; "" is the tax country's, else USD.
	Currency string
	Tax      *Tax // nil: the plan before tax
	// CostBasis is the capital paid into Base.CurrentSavings, what the
	// gain of a withdrawal taxed as a capital gain is measured from; nil:
	// all of CurrentSavings (no gain yet).
	CostBasis *float64
	// Household, when set, runs every plan as a household (see
	// Household); nil: the one-pot plan.
	Household *Household
}

// Scenario is a named variant of the base plan, its input complete.
type Scenario struct {
	Name  string
	Input fi.Input
	Place Place
	// CostBasis is as Plan's for the scenario's CurrentSavings; nil: the
	// base plan's, or with none all of the scenario's CurrentSavings.
	CostBasis *float64
	// Pensions, in a household plan, replace the base's when not empty.
	Pensions []household.Pension
}

// Place is what a plan says of its city.
type Place struct {
	CityID string // "" when the plan names none
	// OwnExpenses: the plan sets its retirement spending itself, so a
	// scenario does not take the base's city.
	OwnExpenses bool
	Household   int // people the budget is for; 0 when not given
}

// Tax is the plan's tax settings as asked.
type Tax struct {
	// Country is the tax country's code as asked and Part the name of
	// the income part retirement income is taxed as ("": the country's
	// default); Check resolves them into System and Withdrawal, which a
	// caller holding a System may set itself instead.
	Country, Part string
	System        *tax.System
	Year          int    // 0: the system's latest
	Region        string // "" for none; matched without regard to case
	// Withdrawal is the income part retirement income is taxed as; with
	// tax.CapitalGains, only the gain share of each withdrawal (see
	// CostBasis) is a capital gain, and pensions are taxed as pensions.
	Withdrawal tax.Part
}

// Inputs are the datasets a plan reads.
type Inputs struct {
	Cities map[string]*place.City // by id, prepared
	// Convert converts amount between currencies at the reference rates.
	Convert func(amount float64, from, to string) (float64, bool)
	History History // the record the backtest and the rate goal replay
	// Wrappers are a country's wrappers and benefits (upper-case code; nil
	// when it has none on file); Systems its tax rules (nil: none). Both
	// are needed by household plans only.
	Wrappers func(cc string) *household.Rules
	Systems  func(cc string) *tax.System
	// Countries are the codes Systems knows, as a refusal lists them.
	Countries []string
}

// History is a historical record with its name and span.
type History struct {
	Series      fi.History
	Dataset     string // as answered: annual or shiller-monthly
	First, Last int    // its first and last calendar years
	// Currency is the currency the record is in; Prices the country whose
	// consumer prices index its spending (empty: the record's own).
	Currency, Prices string
	// Converted: the record was restated from US dollars into Currency,
	// from the exchange rates and Prices over Coverage; Note says how and
	// what the years outside it keep.
	Converted bool
	Coverage  fi.Coverage
	Note      string
}

// Options say what to compute besides the projections' summaries.
type Options struct {
	// Step selects the rows computed and answered: 0 none, 1 every row,
	// N rows 0, N, 2N, ... and the last (see KeepRow).
	Step int
	// Milestones picks the milestone rows among the selected ones.
	Milestones bool
	MonteCarlo *fi.MonteCarlo // nil: no simulation
	// Window is the years of each backtest window, for the backtest and
	// the withdrawal-rate goal.
	Window int
	// WindowSet: the request sent the window; a household backtest then
	// replays windows of Window years, else the whole horizon.
	WindowSet bool
	Backtest  bool
	Sequences bool // with Backtest: the sequence-of-returns view
	// Sample bounds the windows the backtest and the withdrawal-rate
	// goal replay and says how each year's spending is paid (the zero
	// Sample: the whole record, every start, at the start of the year).
	// Run checks it against the record, answering a *FieldError named
	// after the request's historical fields.
	Sample     fi.Sample
	FIByAge    int      // > 0: seek the saving that reaches FI by this age
	TargetRate *float64 // non-nil: seek the highest rate meeting this success rate
	// MaxContribution and MaxWithdrawalRate bound the two goal seeks.
	MaxContribution, MaxWithdrawalRate float64
	// Admit is called once the plan is checked and before anything is
	// projected; its error ends the call and is returned as it is. It
	// lets the caller take a slot or charge for the work only for a plan
	// that can be answered.
	Admit func() error
	// Optimize, for a household plan, searches the base plan's decisions
	// (compute/decide); its target's backtest replays Sample.
	Optimize *decide.Request
}

// KeepRow reports whether row i of n is selected by step: 0 none, 1 all,
// N rows 0, N, 2N, ... and the last.
func KeepRow(i, n, step int) bool {
	return step > 0 && (i%step == 0 || i == n-1)
}

// FieldError is a plan that cannot be answered, with the request field at
// fault.
type FieldError struct {
	Field, Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }
