package plans

import (
	"fiplan/handlers/owned"
	"fiplan/handlers/schema"
)

// The request and response bodies of the plan routes, each declared once:
// the schema tags drive decoding and the OpenAPI document.

// planIn is a plan as a client writes it (POST, and the shape a PATCH
// merges into).
type planIn struct {
	Name  string           `json:"name" schema:"required,minLen=1,maxLen=120" doc:"Your name for the plan."`
	Input schema.RawObject `json:"input" schema:"required" doc:"A request body of POST /api/v1/calculator, validated as that route validates it when the plan is saved (errors name paths under input.) and kept as sent."`
	// CheckinDate is when the yearly check-in falls due.
	CheckinDate *string `json:"checkinDate,omitempty" schema:"nullable,maxLen=5,format=monthDay" doc:"Yearly check-in date, MM-DD, raising checkin.due (default: the plan's anniversary)."`
}

// savedPlan is a plan as stored and served.
type savedPlan struct {
	ID string `json:"id" schema:"required" doc:"Opaque and unguessable: pln_ and 26 characters of a-z and 2-7."`
	planIn
	owned.Times
}

// Parts are what the owned-document layer sets of a plan.
func (p *savedPlan) Parts() (*string, *planIn, *owned.Times) { return &p.ID, &p.planIn, &p.Times }

// planPut is a PUT body: a plan as a client writes it, or as GET answered
// it, whose server-owned fields may come back unchanged.
type planPut struct {
	planIn
	owned.Echo
}

// checkInRequest is a check-in: today's money, by account or as one sum.
type checkInRequest struct {
	Balances       schema.RawObject `json:"balances" doc:"Each account's balance today, {accountId: amount} in the plan's currency (at most 12, each 0 to 1e11). For a plan whose input has accounts, each id must be one of them, and accounts left out keep their saved balance; for a plan without accounts the amounts add up to currentSavings. Not with currentSavings."`
	CurrentSavings *float64         `json:"currentSavings" schema:"min=0,max=1e11" doc:"The invested portfolio today, in the plan's currency. Not with balances."`
}

// checkInData is the check-in's answer.
type checkInData struct {
	PlanID       string         `json:"planId" schema:"required"`
	Year         int            `json:"year" schema:"required" doc:"This year: the plan is run from it."`
	Age          int            `json:"age" schema:"required" doc:"Your age this year: the plan's currentAge advanced by the years since the plan's start (its startYear, else the year it was saved). A partner's age is advanced alike."`
	Currency     string         `json:"currency" schema:"required" doc:"The plan's currency; every amount is in it, in today's money."`
	Savings      float64        `json:"currentSavings" schema:"required" doc:"The portfolio the plan was run from: the check-in's currentSavings, or the sum of its accounts' balances."`
	Strategy     string         `json:"withdrawalStrategy" schema:"required" doc:"The plan's withdrawal strategy."`
	Retired      bool           `json:"retired" schema:"required" doc:"Drawdown has begun: spending is this year's."`
	DrawdownAge  *int           `json:"drawdownAge" schema:"required,nullable" doc:"The age of the first drawdown year (this year's when retired); null when drawdown never starts within the plan."`
	DrawdownYear *int           `json:"drawdownYear" schema:"required,nullable"`
	Spending     float64        `json:"spending" schema:"required" doc:"What the strategy lets you withdraw from the portfolio in the first drawdown year (this year when retired), today's money; 0 when drawdown never starts. Under the constant strategy it is net of pensions; with tax, the gross income drawn."`
	Portfolio    float64        `json:"portfolio" schema:"required" doc:"The portfolio at the start of that year, today's money."`
	Rate         float64        `json:"withdrawalRate" schema:"required" doc:"spending / portfolio; 0 when the portfolio is empty."`
	Guardrails   *guardrailsDoc `json:"guardrails" schema:"required,nullable" doc:"The guardrails' state, for guyton-klinger and guardrails-capped; null for the other strategies."`
	Success      successDoc     `json:"successRates" schema:"required" doc:"The plan's odds from today."`
	DepletionAge *int           `json:"depletionAge" schema:"required,nullable" doc:"The age the money runs out in the projection from today; null when it lasts."`
}

type guardrailsDoc struct {
	InitialRate         float64  `json:"initialRate" schema:"required" doc:"The rate drawdown starts at (withdrawalRate)."`
	CutAbove            float64  `json:"cutAbove" schema:"required" doc:"A later year whose withdrawal is above this share of the portfolio (initialRate x 1.2) is cut by adjustment."`
	RaiseBelow          float64  `json:"raiseBelow" schema:"required" doc:"One below this share (initialRate x 0.8) is raised by adjustment."`
	CutBelowPortfolio   float64  `json:"cutBelowPortfolio" schema:"required" doc:"The portfolio, today's money, under which this spending would be cut."`
	RaiseAbovePortfolio float64  `json:"raiseAbovePortfolio" schema:"required" doc:"The portfolio above which it would be raised."`
	Adjustment          float64  `json:"adjustment" schema:"required" doc:"The size of a cut or raise, as a fraction."`
	InflationCap        *float64 `json:"inflationCap" schema:"required,nullable" doc:"The cap on a year's inflation raise (guardrails-capped); null when uncapped."`
}

type successDoc struct {
	Historical        *float64 `json:"historical" schema:"required,nullable" doc:"Share of the historical windows in which the plan's spending from today was always met; null when no window could be tested."`
	HistoricalWindows int      `json:"historicalWindows" schema:"required" doc:"The windows tested."`
	WindowYears       int      `json:"windowYears" schema:"required" doc:"The length of each window: the input's historical.years, else 30."`
	MonteCarlo        *float64 `json:"monteCarlo" schema:"required,nullable" doc:"Share of the simulated paths that never run out; null unless the plan's input asks for monteCarlo."`
}
