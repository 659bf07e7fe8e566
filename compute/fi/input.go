package fi

import "math"

// Capacities and conventions. The HTTP layer validates requests against the
// Max* and Min* constants, so that nothing it accepts is changed here; the
// engine clamps anything beyond them (a guard for direct callers) instead of
// failing.
const (
	// MaxYears bounds the timeline length (rows per projection).
	MaxYears = 120
	// MaxPensions is the capacity of Input.Pensions.
	MaxPensions = 4
	// MaxEvents is the capacity of Input.Events.
	MaxEvents = 8
	// MaxScenarios is the number of scenarios one request may ask for.
	MaxScenarios = 10
	// MaxCells bounds a Monte Carlo run: simulations x years.
	MaxCells = 1_000_000

	// MinWithdrawalRate is the smallest withdrawal rate the engine works
	// with (one basis point); a smaller one is raised to it.
	MinWithdrawalRate = 0.0001

	// DefaultCoastAge is the target age for Coast FI when TargetRetirementAge is unset.
	DefaultCoastAge = 65
	// LeanMultiplier and FatMultiplier scale the FI number for Lean and Fat FI
	// (a fiplan convention; see the package documentation).
	LeanMultiplier = 0.7
	FatMultiplier  = 1.5

	// VPWStockReturn and VPWBondReturn are the real growth trends behind the
	// Bogleheads VPW table.
	VPWStockReturn = 0.050
	VPWBondReturn  = 0.019

	// Guyton-Klinger 2006 parameters.
	GKGuardrail     = 0.20 // trigger: current rate beyond initial rate by 20%
	GKAdjustment    = 0.10 // size of a cut or raise
	GKPreservationN = 15   // no capital-preservation cuts in the last 15 years
	// GuardrailInflationCap caps a year's inflation raise under
	// StrategyGuardrailsCapped (a fiplan parameter).
	GuardrailInflationCap = 0.06

	// NinetyFiveShare is the 95% rule's floor: a year's withdrawal is at
	// least this share of last year's.
	NinetyFiveShare = 0.95

	// FloorShare and CeilingShare bound floor-and-ceiling spending, as
	// shares of the first year's real withdrawal (fiplan parameters).
	FloorShare   = 0.90
	CeilingShare = 1.25

	// VanguardCeiling and VanguardFloor bound the real change of spending
	// from one year to the next under Vanguard's dynamic spending rule (its
	// baseline: up at most 5%, down at most 2.5%).
	VanguardCeiling = 0.05
	VanguardFloor   = 0.025

	// CAPEBase and CAPESlope set the CAPE rule's withdrawal rate,
	// CAPEBase + CAPESlope / CAPE (fiplan parameters within the ranges
	// Jeske examines).
	CAPEBase  = 0.015
	CAPESlope = 0.5
)

// Pension is a yearly income that starts at an age and lasts for life
// (a state pension, a defined-benefit pension, an annuity).
type Pension struct {
	FromAge int
	// Amount per year. Indexed: in today's money, rising with inflation from
	// now on. Not indexed: the fixed nominal amount paid every year.
	Amount  float64
	Indexed bool
}

// Event is a one-off cash flow into (positive, a windfall or inheritance) or
// out of (negative, a house deposit or a sabbatical) the portfolio at the start
// of the year of the given age.
type Event struct {
	Age int
	// Amount in today's money (rising with inflation until the event), or in
	// money of that year when Nominal is set.
	Amount  float64
	Nominal bool
}

// Input is one planning case. All rates are yearly decimal fractions
// (0.07 = 7%). It is a plain value: copy it to make a scenario.
type Input struct {
	CurrentAge     int
	LifeExpectancy int // the timeline ends at this age
	StartYear      int // calendar year of the first row (0 leaves calendar years relative)

	AnnualIncome       float64 // take-home, today's money
	AnnualExpenses     float64 // today's money
	RetirementExpenses float64 // spending in retirement, today's money; 0 means AnnualExpenses
	CurrentSavings     float64 // invested portfolio today

	ExpectedReturn   float64 // nominal
	InflationRate    float64
	WithdrawalRate   float64
	IncomeGrowthRate float64 // real, above inflation
	Fee              float64 // yearly expense ratio

	// FixedContribution replaces income minus expenses by Contribution
	// (today's money, rising with inflation) as the yearly saving.
	FixedContribution bool
	Contribution      float64

	// TargetRetirementAge, when > 0, is the age drawdown starts whether or
	// not FI has been reached; 0 retires as soon as FI is reached.
	TargetRetirementAge int

	Strategy Strategy
	// CAPE is the market's cyclically adjusted P/E today: the CAPE rule's
	// valuation in every year no historical record supplies one.
	CAPE float64

	StockShare float64 // share of stocks in the portfolio (VPW rate, backtests)
	CashShare  float64 // share of cash in backtests (at most 1 - StockShare); bonds hold the rest

	Pensions    [MaxPensions]Pension
	NumPensions int
	Events      [MaxEvents]Event
	NumEvents   int
}

// Defaults returns the API's documented defaults for the optional fields; the caller
// sets CurrentAge, AnnualIncome, AnnualExpenses and StartYear.
func Defaults() Input {
	return Input{
		LifeExpectancy:   95,
		ExpectedReturn:   0.07,
		InflationRate:    0.03,
		WithdrawalRate:   0.04,
		IncomeGrowthRate: 0,
		CurrentSavings:   0,
		Strategy:         StrategyConstant,
		StockShare:       0.6,
	}
}

// AddPension appends p if there is room and reports whether it did.
func (in *Input) AddPension(p Pension) bool {
	if in.NumPensions < 0 || in.NumPensions >= MaxPensions {
		return false
	}
	in.Pensions[in.NumPensions] = p
	in.NumPensions++
	return true
}

// AddEvent appends e if there is room and reports whether it did.
func (in *Input) AddEvent(e Event) bool {
	if in.NumEvents < 0 || in.NumEvents >= MaxEvents {
		return false
	}
	in.Events[in.NumEvents] = e
	in.NumEvents++
	return true
}

// finite returns x, or def when x is NaN or infinite, clamped to [lo, hi].
func finite(x, def, lo, hi float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		x = def
	}
	return min(max(x, lo), hi)
}

// money bounds any amount of money the engine accepts.
const money = 1e15

func clampInt(x, lo, hi int) int { return min(max(x, lo), hi) }
