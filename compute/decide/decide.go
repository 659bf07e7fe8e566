// Package decide chooses a household plan's decisions: the conversions of
// each year, each statutory pension's claiming age, the drawing order of
// each year (with it, the series of substantially equal periodic payments
// that open a tax-deferred account early) and the first person's
// retirement age, for one of two
// objectives: the highest constant real spending the money lasts for (on
// the expected path, or at a historical or Monte Carlo success rate), or
// the highest after-tax end wealth at the plan's own spending.
//
// It searches over the exact engine (compute/household), through its
// public API only: every candidate is a whole plan run, so each decision's
// cost counts every effect the engine models (brackets, gains pushed into
// a higher band, the inclusion of benefits, recovery taxes, required
// minimums later, charges). The search is deterministic: bisection on the
// spending, coordinate search over claiming ages (by year, then by month
// where the statute counts months) and drawing orders (by blocks of
// years), and greedy conversion amounts in halving steps over spans of
// years down to single years, from none and from the best filling of the
// tax bands, then single years by the finest steps, each kept only when
// the objective improves.
// It starts from the better of the
// plan as asked and the conventional baseline, so its answer is never
// worse than either.
package decide

import (
	"errors"
	"math"

	"fiplan/compute/fi"
	"fiplan/compute/household"
)

// Objective is what the search maximises.
type Objective uint8

// Objectives.
const (
	// Spending: the highest constant real retirement spending (phases kept
	// in proportion) that meets the target.
	Spending Objective = iota
	// Estate: the highest after-tax end wealth at the plan's spending,
	// the money lasting on the expected path.
	Estate
)

// Method is how the spending objective's target is met.
type Method uint8

// Methods.
const (
	Expected   Method = iota // the money lasts on the expected path
	Historical               // the backtest's success rate reaches the target
	MonteCarlo               // the simulation's success rate reaches it
)

// Decision is one kind of decision the search may change.
type Decision uint8

// Decisions, in the order the answer lists them.
const (
	Conversions Decision = iota
	Claiming
	Order
	RetirementAge
	numDecisions
)

var decisionNames = [...]string{"conversions", "claiming", "order", "retirementAge"}

func (d Decision) String() string { return decisionNames[d] }

// ParseDecision reads a decision's name.
func ParseDecision(name string) (Decision, bool) {
	for i, n := range decisionNames {
		if n == name {
			return Decision(i), true
		}
	}
	return 0, false
}

// Set is a set of decisions.
type Set uint8

// Has reports whether d is in s.
func (s Set) Has(d Decision) bool { return s&(1<<d) != 0 }

// With adds d to s.
func (s Set) With(d Decision) Set { return s | 1<<d }

// Request says what to optimise.
type Request struct {
	Objective Objective
	Method    Method
	Target    float64 // the success rate Historical and MonteCarlo must reach, 0..1
	// Decisions the search may change; 0: every decision the plan has.
	Decisions Set
	// MonteCarlo is the simulation of the MonteCarlo method.
	MonteCarlo *fi.MonteCarlo
	// History, Years, Stock and Cash are the backtest of the Historical
	// method (Years 0: the plan's horizon).
	History     fi.History
	Years       int
	Stock, Cash float64
	// HeirsRate, when above 0, values the pre-tax money left at the end
	// at this flat rate (the heirs' rate on what they inherit) instead of
	// the owner's marginal rate of the last year: the Estate objective's
	// end wealth, and what every comparison weighs the money left by.
	HeirsRate float64
}

// Claim is a statutory pension's claiming age.
type Claim struct {
	Pension int // index in the plan's pensions
	Age     int
	Months  int // 0 to 11
	// AskedAge and AskedMonths are the plan's own claim.
	AskedAge, AskedMonths int
}

// Span is a run of years drawn in one order, from an age of the first
// person on.
type Span struct {
	FromAge int
	Order   household.Order
}

// Worth is what one decision, chosen alone, adds to the plan as asked, in
// the objective's money.
type Worth struct {
	Decision Decision
	Amount   float64
}

// Answer is the search's result. Money is today's.
type Answer struct {
	Feasible bool
	Why      string // with Feasible false: why the objective cannot be met
	// Value is the objective's: the first retirement spending a year
	// (Spending) or the after-tax end wealth (Estate).
	Value, PlanValue, BaselineValue float64
	Decisions                       Set
	Conversions                     []ConversionYear
	Claims                          []Claim
	Orders                          []Span
	// SEPP are the series of periodic payments chosen with the drawing
	// order (Order), when some account may pay one: the accounts that
	// open early this way (none: no series pays).
	SEPP          []household.Series
	RetirementAge int // 0 when not decided
	Worth         []Worth
	// Plan is the plan under the chosen decisions and spending.
	Plan household.Plan
	// Runs is the plan runs the search made: expected-path runs, and
	// each path or window of a target's simulations or backtests (a
	// backtest counted at its most windows).
	Runs int
}

// ConversionYear is the amount converted at an age of the first person.
type ConversionYear struct {
	Age    int
	Amount float64
}

// MaxRuns is the most expected-path runs a search makes.
const MaxRuns = 2000

// A success-rate target's checks run at most targetChecks backtests, or
// subChecks simulations on the first subPaths paths and fullChecks on
// every path.
const (
	targetChecks = 48
	subChecks    = 48
)

// targetRuns is the most paths or windows a search of req runs for its
// target.
func targetRuns(req *Request) int {
	switch req.Method {
	case MonteCarlo:
		if req.MonteCarlo == nil {
			return 0
		}
		return subChecks*min(subPaths, req.MonteCarlo.Simulations) + fullChecks*req.MonteCarlo.Simulations
	case Historical:
		return targetChecks * fi.MaxWindows
	}
	return 0
}

// Cost is the most plan runs a search of req on a plan of years years
// makes, counted in modelled years (one year of one run), for the rate
// limit: windows is the backtest's window count (Historical).
func Cost(req *Request, years, windows int) int {
	n := MaxRuns
	switch req.Method {
	case MonteCarlo:
		n += targetRuns(req)
	case Historical:
		n += targetChecks * windows
	}
	return n * years
}

// ErrBudget is a search that ran out of its runs; the answer holds the
// best found so far.
var errBudget = errors.New("decide: out of runs")

// Work is the reusable memory of a search.
type Work struct {
	hw   household.Work
	res  household.Result
	mc   fi.MCResult
	memo memo
}

// Optimize searches p's decisions for req. p is checked and its wrappers
// and benefits resolved; it is not changed.
func Optimize(p *household.Plan, req *Request, w *Work) (*Answer, error) {
	if err := household.Check(p); err != nil {
		return nil, err
	}
	return OptimizeChecked(p, req, w)
}

// OptimizeChecked is Optimize for a plan household.Check has accepted (as
// household.RunChecked is Run for one), so that a plan is checked once.
func OptimizeChecked(p *household.Plan, req *Request, w *Work) (*Answer, error) {
	s := newSearch(p, req, w)
	return s.run()
}

// endWealth is o's after-tax end wealth as req values it.
func (req *Request) endWealth(o *household.Outcome) float64 {
	if req.HeirsRate > 0 {
		return o.EndReal - req.HeirsRate*o.PreTaxEnd
	}
	return o.AfterTaxEnd
}

// finite reports whether x is a number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
