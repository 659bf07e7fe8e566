package calculator

import (
	json "github.com/goccy/go-json"

	"fiplan/handlers/jsonw"
)

// The calculator's response, declared once: these types are the OpenAPI
// document's schema of the answer and what encode.go fills and encodes.
// The projection rows are written by append-style code generated from
// calcYearDoc's declaration (rows_gen.go): the one-pot row from its row
// tags, what a household adds from its household and csv tags; a
// differential test proves the whole answer equal to encoding/json's
// encoding of calcResponseDoc, the golden answers pin the household rows.

type calcSummaryDoc struct {
	FINumber         float64  `json:"fiNumber" schema:"required" doc:"retirementExpenses / withdrawalRate, today's money. With tax the timeline aims at afterTaxFINumber instead: yearsToFI, fiAge, fiProgress and the lean, fat, coast and barista figures use it."`
	YearsToFI        *int     `json:"yearsToFI" schema:"required,nullable" doc:"0 when already FI; null when FI is never reached within the horizon. Household plans: FI is the first year from which the savings, with the pensions, pay the spending to the plan's end: the real balance reaches afterTaxFINumber (fiNumber without tax), or the plan retires and its money lasts; Monte Carlo's fiAge counts each path the same way."`
	FIAge            *int     `json:"fiAge" schema:"required,nullable"`
	FIYear           *int     `json:"fiYear" schema:"required,nullable"`
	SavingsRate      float64  `json:"savingsRate" schema:"required" doc:"First-year saving / income."`
	LeanFINumber     float64  `json:"leanFINumber" doc:"The FI number of 0.7 x the retirement spending: a lean retirement. With tax, 0.7 x the spending is grossed up through the tax on its own, not the after-tax FI number scaled."`
	FatFINumber      float64  `json:"fatFINumber" doc:"The FI number of 1.5 x the retirement spending: a generous retirement. With tax, 1.5 x the spending is grossed up through the tax on its own."`
	CoastFINumber    float64  `json:"coastFINumber" doc:"Needed today to reach the FI number by coastAge with no further saving."`
	CoastAge         int      `json:"coastAge"`
	BaristaIncome    float64  `json:"baristaIncome" doc:"Yearly part-time income (today's money) that, with the current portfolio, covers retirement spending now."`
	RetirementAge    *int     `json:"retirementAge" schema:"nullable" doc:"Age of the first drawdown year; null when drawdown never starts."`
	RunsOut          bool     `json:"runsOut" doc:"Some year's spending could not be met in full."`
	DepletionAge     *int     `json:"depletionAge" schema:"nullable" doc:"Age the money runs out; null when it does not."`
	FinalBalance     float64  `json:"finalBalance"`
	FinalBalanceReal float64  `json:"finalBalanceReal" doc:"Final balance in today's money."`
	GuardrailCuts    int      `json:"guardrailCuts" doc:"Guyton-Klinger capital-preservation cuts."`
	GuardrailRaises  int      `json:"guardrailRaises" doc:"Guyton-Klinger prosperity raises."`
	AfterTaxFINumber float64  `json:"afterTaxFINumber,omitempty" doc:"With tax: grossRetirementIncome / withdrawalRate, the portfolio whose withdrawals, after the tax on them, pay retirementExpenses."`
	Tax              *taxDoc  `json:"tax,omitempty" doc:"With tax: how the plan was taxed, today's money in the plan's currency."`
	City             *cityDoc `json:"city,omitempty" doc:"With a cityId for the plan: the city budget behind retirementExpenses."`
	*householdSumDoc
}

// householdSumDoc is what a household plan adds to its summary.
type householdSumDoc struct {
	LifetimeTax       float64     `json:"lifetimeTax" doc:"Household plans: every year's taxes and charges, in today's money (each year's divided by its price level: a tax paid early counts the same as one paid late)."`
	LifetimeTaxPV     float64     `json:"lifetimeTaxPV" doc:"Household plans: every year's taxes and charges discounted to today at expectedReturn: what paying them costs, counting what the money would have earned."`
	AfterTaxEndWealth float64     `json:"afterTaxEndWealth" doc:"Household plans: the end balance in today's money less the tax its pre-tax money (tax-deferred and pension wrappers taxed as income) would cost when drawn: each such balance at the marginal rate of its owner's last year, drawn over ten years as heirs must."`
	Bridge            []bridgeDoc `json:"bridge" doc:"Household plans: the retired years before some tax-deferred or pension money opens, and the accounts that pay for them."`
	Baseline          baselineDoc `json:"baseline" doc:"Household plans: the same plan drawn in the conventional order without conversions, to show what the chosen order is worth."`
}

type bridgeDoc struct {
	FromAge  int      `json:"fromAge" schema:"required"`
	ToAge    int      `json:"toAge" schema:"required" doc:"Both ages included."`
	Accounts []string `json:"accounts" schema:"required" doc:"The ids of the accounts drawn in those years."`
}

type baselineDoc struct {
	LifetimeTax       float64 `json:"lifetimeTax" schema:"required" doc:"Today's money."`
	LifetimeTaxPV     float64 `json:"lifetimeTaxPV" schema:"required" doc:"Discounted to today at expectedReturn, as the plan's lifetimeTaxPV."`
	DepletionAge      *int    `json:"depletionAge" schema:"required,nullable"`
	EndBalanceReal    float64 `json:"endBalanceReal" schema:"required" doc:"The end balance in today's money, pre-tax money counted in full."`
	AfterTaxEndWealth float64 `json:"afterTaxEndWealth" schema:"required" doc:"endBalanceReal less the tax its pre-tax money would cost, as the plan's afterTaxEndWealth: the figure to compare the plan's with."`
}

type taxDoc struct {
	Country               string  `json:"country" schema:"required"`
	Region                string  `json:"region,omitempty"`
	Year                  int     `json:"year" schema:"required" doc:"The tax year of the plan's first year: row t is taxed under tax year year+t (past the country's newest published year, its rules projected)."`
	Currency              string  `json:"currency" schema:"required" doc:"The plan's currency."`
	GrossIncome           float64 `json:"grossIncome" schema:"required" doc:"annualIncome as sent."`
	IncomeTax             float64 `json:"incomeTax" schema:"required" doc:"Its tax as employment income: totalTax of POST /api/v1/tax/calculate."`
	TakeHomeIncome        float64 `json:"takeHomeIncome" schema:"required" doc:"grossIncome - incomeTax: the income the timeline saves from."`
	RetirementSpending    float64 `json:"retirementSpending" schema:"required" doc:"Yearly spending in retirement after tax: retirementExpenses, the city's budget or annualExpenses."`
	GrossRetirementIncome float64 `json:"grossRetirementIncome" schema:"required" doc:"The yearly retirement income (withdrawals and pensions) that leaves retirementSpending after tax."`
	RetirementTax         float64 `json:"retirementTax" schema:"required" doc:"grossRetirementIncome - retirementSpending."`
	WithdrawalIncome      string  `json:"withdrawalIncome" schema:"required" doc:"The income part retirement income was taxed as."`
}

type cityDoc struct {
	ID                 string  `json:"id" schema:"required"`
	Name               string  `json:"name" schema:"required"`
	HouseholdSize      int     `json:"householdSize" schema:"required"`
	MonthlyCostUSD     int     `json:"monthlyCostUSD" schema:"required" doc:"The city's monthly budget for the household, USD (single budget for one, family of four for four; see GET /api/v1/geo/recommendations)."`
	Currency           string  `json:"currency" schema:"required" doc:"The plan's currency."`
	RetirementExpenses float64 `json:"retirementExpenses" schema:"required" doc:"12 x monthlyCostUSD in the plan's currency, at the reference exchange rates: the plan's retirement spending."`
}

// calcYearDoc is one projection row. The fields with a row tag are the
// one-pot row, written from the fi.Year field of the same name by the
// generated appendRow and appendCSVRow (rows_gen.go; the tag says how:
// int, cents, rate or bool). The fields with a household tag are what a
// household plan adds, written from compute/household's Row by the
// generated appendHouseholdRow, their members' csv tags the household CSV
// columns (appendHouseholdCSVRow, appendCSVAccount); package rowgen says
// what the tags mean. A new row field is its line here, then go generate.
//
//go:generate go run ./internal/rowgen/gen
type calcYearDoc struct {
	Year           int          `json:"year" row:"int" schema:"required"`
	Age            int          `json:"age" row:"int" schema:"required"`
	StartBalance   float64      `json:"startBalance" row:"cents" schema:"required"`
	Contributions  float64      `json:"contributions" row:"cents" schema:"required"`
	Growth         float64      `json:"growth" row:"cents" schema:"required"`
	Withdrawals    float64      `json:"withdrawals" row:"cents" schema:"required"`
	Events         float64      `json:"events" row:"cents"`
	Pension        float64      `json:"pension" row:"cents"`
	EndBalance     float64      `json:"endBalance" row:"cents" schema:"required"`
	RealEndBalance float64      `json:"realEndBalance" row:"cents" doc:"endBalance in today's money."`
	FIProgress     float64      `json:"fiProgress" row:"rate" schema:"required" doc:"realEndBalance / fiNumber (afterTaxFINumber with tax)."`
	Retired        bool         `json:"retired" row:"bool" doc:"A drawdown year."`
	Tax            *rowTaxDoc   `json:"tax,omitempty" household:"Tax,if=taxed" schema:"orNumber" doc:"With tax: the year's tax, in money of that year. One-pot plans: a number, the tax on the employment income in working years, on the retirement income (withdrawals and pensions) in drawdown years. Household plans: an object, the taxes on the income really received, by kind."`
	PartnerAge     *int         `json:"partnerAge,omitempty" household:"PartnerAge,nonneg" csv:"1" doc:"Household plans with a partner."`
	Income         *incomeDoc   `json:"income,omitempty" household:"." doc:"Household plans: the year's income, money of that year."`
	Accounts       []accountDoc `json:"accounts,omitempty" household:"h.Accounts(i),of=household.AccountYear" doc:"Household plans: each account's year, in the order of the request (then any account the plan added: the taxable account savings go to, a Roth IRA conversions go to)."`
	Residence      string       `json:"residence,omitempty" household:"Residence" csv:"9" doc:"Household plans with tax: the country the year is taxed in."`
	OverLimit      float64      `json:"overLimit,omitempty" household:"OverLimit" csv:"10" doc:"Household plans: contributions above a wrapper's limit, paid into the taxable account instead."`
	Required       float64      `json:"requiredWithdrawals,omitempty" household:"Required" csv:"11" doc:"Household plans: required minimum withdrawals taken (US RMDs, RRIF minimums)."`
	Converted      float64      `json:"conversions,omitempty" household:"Converted" csv:"12" doc:"Household plans: money moved by conversions."`
	Shortfall      float64      `json:"shortfall,omitempty" household:"Short" csv:"13" doc:"Household plans: spending and tax left unmet (the money ran out)."`
	PensionSplit   float64      `json:"pensionSplit,omitempty" household:"Split" csv:"14" doc:"Household plans of a couple each taxed alone where the residence lets pension income be split (Canada): the pension income moved from the partner with the larger income to the other's return, as much as levels their incomes within the rule's share."`
	Vorabpauschale float64      `json:"vorabpauschale,omitempty" household:"Advance" csv:"15" doc:"Household plans with German equity funds (de-aktienfonds): last year's Vorabpauschale taxed this year as a gain (30% of it free), before the exemption."`
	SEPP           float64      `json:"sepp,omitempty" household:"SEPP" csv:"22" doc:"72(t) payments of the year (bridge.sepp)."`
	SEPPRecapture  float64      `json:"seppRecapture,omitempty" household:"Recapture" csv:"23" doc:"The 10% a modified 72(t) series escaped, with interest (in tax.penalties)."`
	Health         *healthDoc   `json:"health,omitempty" household:"Health,nonzero" doc:"Household plans with healthcare, in years with health spending, a credit or a surcharge; money of the year."`
}

type healthDoc struct {
	Premiums  float64 `json:"premiums" household:"Premiums" csv:"19,healthPremiums" schema:"required" doc:"The plan's health-care spending of the year (healthcare.phases), part of the year's spending."`
	Credit    float64 `json:"credit" household:"Credit" csv:"20,healthCredit" schema:"required" doc:"US premium tax credit received (retired years with someone under 65 and a benchmarkPremium): the benchmark premium less the household's contribution, 0 above 400% of the poverty line."`
	Surcharge float64 `json:"surcharge" household:"Surcharge" csv:"21,healthSurcharge" schema:"required" doc:"US Medicare Part B and D income-related surcharges (IRMAA) paid for each person from 65, by the modified adjusted gross income of two years earlier."`
}

// rowTaxDoc is a row's tax: a number for a one-pot plan (Number), the
// object for a household.
type rowTaxDoc struct {
	IncomeTax           float64  `json:"incomeTax" household:"Income" csv:"4" schema:"required" doc:"Income tax, national and regional, with entry and recovery taxes."`
	SocialContributions float64  `json:"socialContributions" household:"Social" csv:"5" schema:"required"`
	CapitalTax          float64  `json:"capitalTax" household:"Capital" csv:"6" schema:"required" doc:"Taxes on capital income levied apart from income tax."`
	Penalties           float64  `json:"penalties" household:"Penalties" csv:"7" schema:"required" doc:"Charges on money taken before its access age (the US 10% additional tax, the LISA's 25%)."`
	WealthTax           *float64 `json:"wealthTax,omitempty" household:"Wealth,if=WealthOn" csv:"8" doc:"Only where the residence taxes wealth (the Dutch box 3, the canton of Zürich, Spain, Norway; 2026 rules): the wealth tax on the cash and investment accounts' balances at the start of the year, pension wrappers left out; 0 below its allowance."`
	Total               float64  `json:"total" household:"Total" schema:"required"`
	number              bool
}

// MarshalJSON writes a one-pot row's tax as its number.
func (t rowTaxDoc) MarshalJSON() ([]byte, error) {
	if t.number {
		return jsonw.AppendFixed(nil, t.Total, 2), nil
	}
	type plain rowTaxDoc
	return json.Marshal(plain(t))
}

type incomeDoc struct {
	Employment  float64 `json:"employment" household:"Employment" csv:"2" schema:"required" doc:"Gross wages."`
	Pensions    float64 `json:"pensions" household:"Pensions" csv:"3" schema:"required" doc:"Pensions and statutory benefits paid."`
	Yield       float64 `json:"yield,omitempty" household:"Yield" csv:"16" doc:"Dividends and interest taxable accounts paid out (accounts[].yield), taxed in the year."`
	Spousal     float64 `json:"spousal,omitempty" household:"Spousal" csv:"17" doc:"Within pensions: US Social Security paid on the living partner's record (the spouse's benefit above the person's own)."`
	Survivor    float64 `json:"survivor,omitempty" household:"Survivor" csv:"18" doc:"Within pensions: US Social Security paid on the dead partner's record (the widow(er)'s benefit above the survivor's own)."`
	MeansTested float64 `json:"meansTested,omitempty" household:"MeansTested" csv:"24" doc:"Within pensions: means-tested pensions paid (Canada's GIS, Australia's Age Pension)."`
}

type accountDoc struct {
	ID            string  `json:"id" household:"h.IDs[k]" schema:"required"`
	StartBalance  float64 `json:"startBalance" household:"Start" csv:"1" schema:"required"`
	Contributions float64 `json:"contributions" household:"Contributions" csv:"2" schema:"required" doc:"Paid in: own, employer, bonus and savings moved in."`
	Growth        float64 `json:"growth" household:"Growth" csv:"3" schema:"required"`
	Withdrawals   float64 `json:"withdrawals" household:"Withdrawals" csv:"4" schema:"required"`
	Conversions   float64 `json:"conversions" household:"Conversions" csv:"5" schema:"required" doc:"Moved in (positive) or out (negative)."`
	EndBalance    float64 `json:"endBalance" household:"End" csv:"6" schema:"required"`
	SEPP          float64 `json:"sepp,omitempty" household:"SEPP" doc:"The part of withdrawals paid as a 72(t) series."`
}

type calcScenarioDoc struct {
	Name string `json:"name" schema:"required"`
	calcSummaryDoc
	Projections []calcYearDoc `json:"projections" schema:"required"`
}

type percentilesDoc struct {
	P10 float64 `json:"p10"`
	P25 float64 `json:"p25"`
	P50 float64 `json:"p50"`
	P75 float64 `json:"p75"`
	P90 float64 `json:"p90"`
}

type mcBandDoc struct {
	Year int `json:"year"`
	Age  int `json:"age"`
	percentilesDoc
}

type mcDoc struct {
	Simulations   int             `json:"simulations"`
	SuccessRate   *float64        `json:"successRate" schema:"nullable" doc:"Share of paths that never run out before lifeExpectancy; for a household plan, of the paths that draw down (null when none does)."`
	ReachedFIRate float64         `json:"reachedFIRate" doc:"Share of paths reaching FI within the horizon."`
	FIAge         *percentilesDoc `json:"fiAge" schema:"nullable" doc:"Percentiles of the FI age over the paths that reach FI."`
	Balances      []mcBandDoc     `json:"balances" doc:"Percentiles per year of the real end balance: today's money, each path deflated by its own simulated inflation."`
}

type backtestDoc struct {
	Dataset              string        `json:"dataset" doc:"annual, shiller-monthly or user:<id>, as asked."`
	Currency             string        `json:"currency" doc:"The money the backtest ran in: historical.currency, else the plan's currency."`
	Conversion           *restatedDoc  `json:"conversion,omitempty" doc:"When currency is not the US dollar: how the US record was restated in it."`
	WindowYears          int           `json:"windowYears"`
	DataFrom             int           `json:"dataFrom" doc:"First calendar year of the dataset."`
	DataTo               int           `json:"dataTo" doc:"Last calendar year of the dataset (the monthly series ends in June 2023)."`
	From                 int           `json:"from" doc:"First calendar year of the sample: historical.from, else dataFrom."`
	To                   int           `json:"to" doc:"Last calendar year of the sample: historical.to, else dataTo."`
	StartMonths          string        `json:"startMonths" doc:"all or january, as asked."`
	WithdrawalTiming     string        `json:"withdrawalTiming" doc:"start-of-year or monthly, as asked."`
	Periods              int           `json:"periods" doc:"Rolling windows tested: every start year (annual) or start month (shiller-monthly; with startMonths january, every January) whose window lies inside from-to."`
	FirstStartYear       *int          `json:"firstStartYear" schema:"nullable" doc:"Start of the first window tested; null when none fits."`
	FirstStartMonth      *int          `json:"firstStartMonth" schema:"nullable" doc:"1-12 with shiller-monthly; null with annual."`
	LastStartYear        *int          `json:"lastStartYear" schema:"nullable" doc:"Start of the last window tested; null when none fits."`
	LastStartMonth       *int          `json:"lastStartMonth" schema:"nullable" doc:"1-12 with shiller-monthly; null with annual."`
	SuccessRate          *float64      `json:"successRate" schema:"nullable" doc:"Share of the windows spending was always met in; for a household plan, of the windows that draw down (null when none does)."`
	DrawdownWindows      *int          `json:"drawdownWindows,omitempty" doc:"Household plans: the windows in which the plan draws down."`
	WorstStartYear       *int          `json:"worstStartYear" schema:"nullable"`
	WorstStartMonth      *int          `json:"worstStartMonth" schema:"nullable" doc:"1-12 with shiller-monthly; null with annual."`
	WorstFailed          bool          `json:"worstFailed"`
	WorstFailYear        *int          `json:"worstFailYear" schema:"nullable"`
	WorstYearsLasted     int           `json:"worstYearsLasted"`
	MedianEndBalanceReal float64       `json:"medianEndBalanceReal"`
	Sequences            *sequencesDoc `json:"sequences,omitempty" doc:"With historical.sequences: the sequence-of-returns view."`
}

type restatedDoc struct {
	From   *int   `json:"from" schema:"nullable" doc:"First calendar year restated from both the exchange rates and the consumer prices; null when none is."`
	To     *int   `json:"to" schema:"nullable" doc:"Last calendar year so restated; null when none is. Years of the dataset outside from-to keep their US returns in real terms."`
	Prices string `json:"prices" doc:"The country whose consumer prices index spending (EA: the euro area); empty when none is on record for the currency and US inflation stands in."`
	Note   string `json:"note" doc:"How the record was restated, and what the other years keep."`
}

type pathYearDoc struct {
	Year           int     `json:"year" doc:"Calendar year the window's year starts in."`
	WithdrawalReal float64 `json:"withdrawalReal" doc:"Withdrawal in money of the window's start."`
	EndBalanceReal float64 `json:"endBalanceReal" doc:"Balance at the year's end, in money of the window's start."`
}

type sequencePathDoc struct {
	StartYear      int           `json:"startYear" schema:"required"`
	StartMonth     *int          `json:"startMonth" schema:"required,nullable" doc:"1-12 with shiller-monthly; null with annual."`
	Failed         bool          `json:"failed" schema:"required"`
	YearsLasted    int           `json:"yearsLasted" schema:"required"`
	EndBalanceReal float64       `json:"endBalanceReal" schema:"required"`
	Path           []pathYearDoc `json:"path" schema:"required"`
}

type decadeDoc struct {
	Decade      int     `json:"decade" doc:"First year of the start decade, such as 1960."`
	Periods     int     `json:"periods"`
	SuccessRate float64 `json:"successRate"`
}

type sequencesDoc struct {
	Worst    sequencePathDoc `json:"worst" schema:"required" doc:"The window that ran out soonest, else the one ending lowest."`
	Median   sequencePathDoc `json:"median" schema:"required" doc:"The middle window in that order (the lower middle for an even count)."`
	Best     sequencePathDoc `json:"best" schema:"required" doc:"The window ending highest."`
	ByDecade []decadeDoc     `json:"byDecade" schema:"required" doc:"Success rate of the windows starting in each decade."`
}

type goalsDoc struct {
	FIByAge              int      `json:"fiByAge,omitempty"`
	RequiredAnnualSaving *float64 `json:"requiredAnnualSaving,omitempty" schema:"nullable" doc:"Today's money, rounded up to the cent so that as annualContribution it reaches FI by fiByAge; null when no saving up to 1e9 a year (the largest annualContribution) does."`
	TargetSuccessRate    float64  `json:"targetSuccessRate,omitempty"`
	MaxWithdrawalRate    *float64 `json:"maxWithdrawalRate,omitempty" schema:"nullable" doc:"Rounded down to the basis point: sent back as withdrawalRate it meets the target. Null when even 0.0001 misses it."`
	MaxRateCapped        bool     `json:"maxWithdrawalRateCapped,omitempty" doc:"The largest accepted withdrawalRate (0.2) meets the target, so the true maximum is at least that."`
	WindowYears          int      `json:"windowYears,omitempty"`
}

type calcResponseDoc struct {
	Currency string `json:"currency" schema:"required" doc:"ISO 4217 code of every amount in the answer: the request's currency, else the tax country's, else USD."`
	calcSummaryDoc
	Projections []calcYearDoc     `json:"projections" schema:"required" doc:"One row per year from currentAge to lifeExpectancy - 1 (as output selects: none with summary)."`
	Scenarios   []calcScenarioDoc `json:"scenarios" schema:"required"`
	calcAnalysesDoc
	Goals     *goalsDoc     `json:"goals,omitempty"`
	Optimized *optimizedDoc `json:"optimized,omitempty" doc:"With optimize: the decisions chosen for the base plan."`
}

// calcAnalysesDoc is what the answer adds to the plans when asked.
type calcAnalysesDoc struct {
	MonteCarlo *mcDoc       `json:"monteCarlo,omitempty"`
	Historical *backtestDoc `json:"historical,omitempty" doc:"annual: US stocks (S&P 500 total return), 10-year Treasuries and CPI-U, 1928-2024 (Damodaran, NYU Stern; BLS). shiller-monthly: Robert Shiller's monthly US series, 1871-2023."`
	Notes      []string     `json:"notes,omitempty" doc:"Household plans: what the answer simplifies or could not apply."`
}

// optimizedDoc is the answer of optimize: the decisions, the objective's
// value and gains, in today's money of the plan's currency.
type optimizedDoc struct {
	Feasible          bool          `json:"feasible" schema:"required" doc:"false: no decision meets the objective (why says so); nothing else is answered."`
	Why               string        `json:"why,omitempty" doc:"With feasible false: why."`
	Objective         string        `json:"objective" schema:"required" doc:"spending or estate, as asked."`
	Method            string        `json:"method" schema:"required" doc:"expected, historical or monteCarlo: what the spending had to meet."`
	Value             *float64      `json:"value" schema:"required,nullable" doc:"spending: the first retirement spending a year that meets the target, today's money (every other year's spending in proportion); estate: the after-tax end wealth at the plan's spending, today's money. Null when not feasible."`
	Decisions         *decisionsDoc `json:"decisions,omitempty" doc:"The decisions chosen, those the search could change."`
	Gain              *gainDoc      `json:"gain,omitempty" doc:"What the decisions add, in the objective's money."`
	Worth             []worthDoc    `json:"worth,omitempty" doc:"Each decision chosen alone, the rest as asked: what it adds to the plan as asked, in the objective's money (with a success-rate target, on the expected path)."`
	LifetimeTaxPV     float64       `json:"lifetimeTaxPV,omitempty" doc:"Under the decisions: the lifetime tax discounted at expectedReturn."`
	AfterTaxEndWealth float64       `json:"afterTaxEndWealth,omitempty" doc:"Under the decisions: the end wealth after the tax its pre-tax money owes."`
	Notes             []string      `json:"notes" schema:"required" doc:"One line on each decision and on how the answer was found."`
	Projections       []calcYearDoc `json:"projections,omitempty" doc:"The plan's rows under the decisions (as output selects), shaped as a household plan's projections."`
}

type decisionsDoc struct {
	Conversions   []conversionDoc `json:"conversions,omitempty" doc:"The amount converted each year (ages of the first person with none are left out), today's money."`
	Claiming      []claimDoc      `json:"claiming,omitempty" doc:"The claiming age of each statutory pension not yet claimed."`
	Order         []orderSpanDoc  `json:"order,omitempty" doc:"The drawing order from each age of the first person on."`
	SEPP          []seppDoc       `json:"sepp,omitempty" doc:"Part of the order decision, where an account may pay them: the series of substantially equal periodic payments (US 72(t)) chosen, shaped as bridge.sepp; empty when none pays."`
	RetirementAge *int            `json:"retirementAge,omitempty" doc:"The first person's earliest retirement age that keeps the plan's spending on target."`
}

type conversionDoc struct {
	Age    int     `json:"age" schema:"required" doc:"The first person's age."`
	Amount float64 `json:"amount" schema:"required" doc:"Today's money."`
}

type claimDoc struct {
	Pension int    `json:"pension" schema:"required" doc:"Its index in pensions."`
	Kind    string `json:"kind" schema:"required"`
	Age     int    `json:"age" schema:"required" doc:"The claiming age, years (its owner's)."`
	Month   int    `json:"month,omitempty" doc:"Months past age, 1 to 11, where the statute counts months."`
}

type orderSpanDoc struct {
	FromAge int    `json:"fromAge" schema:"required"`
	Order   string `json:"order" schema:"required" doc:"conventional, proportional or tax-smart (or explicit: the request's list)."`
}

type seppDoc struct {
	Account string `json:"account" schema:"required" doc:"Id of the account that pays."`
	Method  string `json:"method" schema:"required" doc:"rmd, amortization or annuitization."`
	FromAge int    `json:"fromAge" schema:"required" doc:"Its owner's age at the first payment."`
}

type gainDoc struct {
	OverPlan     float64 `json:"overPlan" schema:"required" doc:"Over the plan as asked."`
	OverBaseline float64 `json:"overBaseline" schema:"required" doc:"Over the conventional baseline (conventional order, no conversions)."`
}

type worthDoc struct {
	Decision string  `json:"decision" schema:"required"`
	Amount   float64 `json:"amount" schema:"required"`
}
