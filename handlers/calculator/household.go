package calculator

import (
	"fiplan/handlers/schema"
)

// The household fields of a request (see the method's household section):
// with any of them every plan of the request is a household run by
// compute/household.

type calcPartner struct {
	Age              int      `json:"age" schema:"required,min=18,max=100" doc:"The partner's age today."`
	LifeExpectancy   *int     `json:"lifeExpectancy" schema:"min=19,max=120,default=95" doc:"The partner's timeline ends at this age."`
	AnnualIncome     *float64 `json:"annualIncome" schema:"min=0,max=1e9,default=0" doc:"The partner's gross employment income, today's money."`
	IncomeGrowthRate *float64 `json:"incomeGrowthRate" schema:"min=-0.2,max=0.3,default=0" doc:"Real yearly growth of the partner's income."`
	RetirementAge    *int     `json:"retirementAge" schema:"min=18,max=120" doc:"Age the partner stops work. Default: with the first person."`
}

type calcAccount struct {
	ID                   string   `json:"id" schema:"required,minLen=1,maxLen=32" doc:"Your id for the account: lower-case letters, digits and hyphens (^[a-z0-9-]{1,32}$), unique in the plan."`
	Type                 string   `json:"type" schema:"required,minLen=1,maxLen=32" doc:"cash, taxable, or a wrapper id of the plan's tax country (GET /api/v1/tax/countries lists them: us-401k, us-roth-ira, gb-isa, gb-sipp, ca-rrsp, au-super, de-ruerup, nl-lijfrente, ch-3a, fr-pea, ...). Wrappers need tax."`
	Owner                string   `json:"owner" schema:"enum=self|partner,default=self" doc:"Whose account it is: its access ages, limits and taxes are theirs."`
	Balance              float64  `json:"balance" schema:"required,min=0,max=1e11" doc:"Balance today."`
	CostBasis            *float64 `json:"costBasis" schema:"min=0,max=1e11" doc:"taxable: the capital paid in (default: the balance, no gain yet); only the gain share of a withdrawal is a capital gain, followed year by year at average cost. A wrapper taxed on its gains (fr-pea, fr-assurance-vie, fr-per, de-aktienfonds): the same. A Roth IRA: its contributions, open before 59 1/2 (default: the balance). Refused for cash and for other wrappers."`
	AnnualContribution   *float64 `json:"annualContribution" schema:"min=0,max=1e9,default=0" doc:"Paid in each year while the owner works, today's money; above the wrapper's statutory limit for the year the rest goes to the taxable account (the row's overLimit says how much). Pre-tax wrappers take it off the owner's taxed pay."`
	EmployerContribution *float64 `json:"employerContribution" schema:"min=0,max=1e9,default=0" doc:"The employer's yearly payment while the owner works, today's money (wrappers that take one)."`
	OpenedYear           *int     `json:"openedYear" schema:"min=1900,max=2200" doc:"The calendar year the account was opened, not after the plan's first year (default: the plan's first year). Holding periods count from it: a PEA's five years, an assurance-vie's eight, a Roth IRA's five years for a qualified distribution."`
	StockShare           *float64 `json:"stockShare" schema:"min=0,max=1" doc:"Accepted for the account's own mix; the plan grows every account at expectedReturn (the notes say so)."`
	Yield                *float64 `json:"yield" schema:"min=0,max=0.5" doc:"taxable only: dividends and interest a year, as a fraction of the balance at the start of the year (part of expectedReturn, not beside it). They are paid out, taxed in the year (the row's income.yield), and what the year leaves of them is saved back at cost."`
	QualifiedShare       *float64 `json:"qualifiedShare" schema:"min=0,max=1,default=1" doc:"With yield: the share of it taxed as dividends (US: qualified dividends, at the capital gains rates); the rest is taxed as interest."`
}

type calcPhase struct {
	FromAge int     `json:"fromAge" schema:"required,min=18,max=120" doc:"Age of the first person from which it applies."`
	Amount  float64 `json:"amount" schema:"required,min=0,max=1e9" doc:"Yearly retirement spending from then on, today's money."`
}

type calcConversions struct {
	UpToRate float64 `json:"upToRate" schema:"required,min=0,max=0.6" doc:"Each year before required distributions start, move tax-deferred money (us-401k, us-ira) to a Roth IRA up to the top of the band taxed at this rate (0.12: the 12% band)."`
}

type calcMove struct {
	AtAge   int    `json:"atAge" schema:"required,min=18,max=120" doc:"Age of the first person at the move."`
	Country string `json:"country" schema:"required,maxLen=2,format=country" doc:"ISO 3166-1 alpha-2 code of a country of GET /api/v1/tax/countries: the plan is taxed there from then on."`
	Region  string `json:"region" schema:"maxLen=8" doc:"A region of country whose income tax is added. Default: where the country's income tax has a local part, the region its localTax names, refused when a year from the move on does not model it."`
	CityID  string `json:"cityId" schema:"maxLen=64" doc:"A city of GET /api/v1/geo/cities: retirement spending follows its budget for the household from then on."`
}

type calcCarePhase struct {
	FromAge   int      `json:"fromAge" schema:"required,min=0,max=120" doc:"Age of the first person from which it applies."`
	Amount    float64  `json:"amount" schema:"required,min=0,max=1e8" doc:"Yearly health-care spending from then on (premiums and what insurance leaves to pay), today's money."`
	Inflation *float64 `json:"inflation" schema:"min=-0.05,max=0.2" doc:"Its own yearly rise from today (medical inflation). Default: the plan's inflation."`
}

type calcHealthcare struct {
	Phases           []calcCarePhase `json:"phases" schema:"maxItems=8" doc:"Health-care spending by age of the first person, in ascending fromAge; added to the year's spending (the row's health.premiums)."`
	BenchmarkPremium *float64        `json:"benchmarkPremium" schema:"min=0,max=1e6" doc:"US only: the household's yearly premium for the benchmark plan (second-lowest-cost silver, healthcare.gov), today's money. Retired years with someone under 65 then receive the premium tax credit on the household's income (2026 rules: 100% to 400% of the poverty line), at most the year's health spending (the row's health.credit)."`
}

type calcSeries struct {
	Account string `json:"account" schema:"required,minLen=1,maxLen=32" doc:"Id of the us-ira or us-401k account that pays."`
	Method  string `json:"method" schema:"required,enum=rmd|amortization|annuitization" doc:"IRS Notice 2022-6 method; annuitization divides the first balance by the annuity factor of the mortality rates of 26 CFR 1.401(a)(9)-9(e)."`
	FromAge int    `json:"fromAge" schema:"required,min=18,max=120" doc:"Owner's age at the first payment, before 59 1/2. Payments run 5 years or to 59 1/2, whichever is later; drawing more before then brings back the 10% with interest."`
}

type calcBridge struct {
	SEPP []calcSeries `json:"sepp" schema:"maxItems=12" doc:"US 72(t) payments before 59 1/2 without the 10%."`
}

// calcHousehold are the household fields of the base request.
type calcHousehold struct {
	Partner         *calcPartner      `json:"partner" doc:"A second person: the flat fields describe the first. Every row adds partnerAge."`
	Accounts        []calcAccount     `json:"accounts" schema:"maxItems=12" doc:"The household's accounts, instead of currentSavings (not both)."`
	Spending        []calcPhase       `json:"spending" schema:"maxItems=8" doc:"Retirement spending by age of the first person (go-go, slow-go), in ascending fromAge; annualExpenses stays the spending while working."`
	WithdrawalOrder schema.NameOrList `json:"withdrawalOrder" schema:"enum=conventional|proportional|tax-smart,maxLen=32,maxItems=12" doc:"conventional (default: cash, taxable, tax-deferred and pensions, tax-free), proportional (every open account by its balance), tax-smart (tax-deferred money up to the top of the lowest taxed band first, then conventional), or account ids in the order to draw them (the rest after, conventionally). Access ages always hold: money is taken before its access age only when nothing else is left, with the statute's charge on the row."`
	Conversions     *calcConversions  `json:"conversions" doc:"US Roth conversions."`
	Relocations     []calcMove        `json:"relocations" schema:"maxItems=4" doc:"Moves to another country (ascending atAge): from then on the plan is taxed there."`
	Homeowner       *bool             `json:"homeowner" doc:"Owns its home (default true); for the AU Age Pension assets test."`
	Bridge          *calcBridge       `json:"bridge" doc:"Early access to tax-deferred money."`
	Healthcare      *calcHealthcare   `json:"healthcare" doc:"Health-care spending by age, and for the US the premium tax credit before 65 and Medicare's income-related surcharges (IRMAA, from the income of two years earlier) from 65."`
	Optimize        *calcOptimize     `json:"optimize" doc:"Choose the plan's decisions instead of only simulating them: the answer adds optimized (the decisions, the objective's value, the gains, each decision's worth alone, and the rows under them). The plan is run as a household."`
}

type calcOptimize struct {
	Objective string      `json:"objective" schema:"required,enum=spending|estate" doc:"spending: the highest constant real spending (working and retired, phases in proportion) that meets the target; estate: the highest after-tax end wealth (afterTaxEndWealth) at the plan's own spending, the money lasting on the expected path."`
	Target    *calcTarget `json:"target" doc:"What spending must meet. Default: the money lasts to the plan's end on the expected path."`
	Decisions []string    `json:"decisions" schema:"maxItems=4,maxLen=16" doc:"The decisions the search may change, each once: conversions (an amount each year, from tax-deferred wrappers that convert), claiming (each statutory pension's claiming age, by year and by month where the statute counts months), order (the drawing order of each span of years), retirementAge (the first person's earliest retirement age that keeps the plan's spending on target). Default: every one the plan has."`
}

type calcTarget struct {
	Method      string   `json:"method" schema:"required,enum=expected|historical|monteCarlo" doc:"expected: the money lasts on the expected path; historical: the backtest's success rate (historical's dataset, sample and windows) reaches successRate; monteCarlo: the simulation's (monteCarlo's settings, else 1000 seeded paths) does."`
	SuccessRate *float64 `json:"successRate" schema:"min=0,max=1" doc:"The success rate to reach, 0 to 1; required with historical and monteCarlo."`
}

// isHousehold reports whether the request uses any household field.
func (r *calcRequest) isHousehold() bool {
	h := &r.calcHousehold
	if h.Partner != nil || len(h.Accounts) > 0 || len(h.Spending) > 0 || h.WithdrawalOrder.Name != "" || h.WithdrawalOrder.List != nil ||
		h.Conversions != nil || len(h.Relocations) > 0 || (r.Tax != nil && r.Tax.Filing != "") || h.Healthcare != nil || h.Optimize != nil || h.Bridge != nil || h.Homeowner != nil {
		return true
	}
	for _, p := range r.Pensions {
		if p.Owner == "partner" || (p.Kind != "" && p.Kind != "generic") {
			return true
		}
	}
	return false
}
