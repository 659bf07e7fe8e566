package tax

import (
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// docs describes the /tax routes.
func (t *Handlers) docs() Docs {
	return Docs{
		Countries: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			List:    true,
			Summary: "Countries and tax years the calculator covers",
			Desc: "Every country with tax parameters, sorted by code: its currency, supported tax years (a year is the calendar year the tax year begins in), " +
				"regions with their own tax, what the calculation models (its assumptions and the rules it computes) and, honestly, what it leaves out, " +
				"and the ids of its special programs. The whole list in one page: meta.limit is the total. " +
				"It carries a strong ETag; If-None-Match naming it answers 304.",
			NotModified: true,
			Data:        t.countrySchema},
		Calculate: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			Summary: "One country's taxes on an income profile",
			Desc:    taxCalcDesc,
			Body:    t.calcSchema,
			Data:    t.calcResponseSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country, year, region or program is not one the tax tables know (the program must be of the same country and calculable); "+
				"filing joint where the year (in the region) has no joint rules; partnerIncome or partnerAge with filing single; "+
				"details name the field and say what is valid")}},
		Programs: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			List:    true,
			Summary: "Special tax programs",
			Desc: "Expat, retiree and new-resident regimes (flat pensioner regimes, lump-sum regimes, impatriate reliefs, non-dom and territorial rules), sorted by id, " +
				"each with its eligibility, status, dated changes, sources and the machine-readable rules POST /api/v1/tax/calculate applies. " +
				"`calculable` says whether the calculator can apply it (its country has tax parameters and its rules convert). " +
				"Without a query the page carries a strong ETag and If-None-Match naming it answers 304.",
			NotModified: true,
			Query: append([]rest.Param{
				rest.Q("country", "string", "Only this country's programs (ISO 3166-1 alpha-2, any case)."),
				rest.Q("status", "string", "Only programs with this status: open, closed or changed."),
			}, rest.PageQuery...),
			Data: t.programSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country is not a two-letter code, status is not open, closed or changed, or limit/offset is out of range")}},
		Program: &rest.Doc{
			Tag:         "tax",
			Status:      200,
			Summary:     "One special tax program",
			Desc:        "A program by id, such as it-pensioner-7. It carries a strong ETag; If-None-Match naming it answers 304.",
			Data:        t.programSchema,
			NotModified: true,
			Errs:        []rest.ErrDoc{rest.Err(errcode.NotFound, "no program with this id")}},
		Optimize: &rest.Doc{
			Tag:     "tax",
			Status:  200,
			Summary: "Rank countries and programs by after-tax income (pro)",
			Desc:    taxOptDesc,
			Body:    t.optSchema,
			Data:    t.optResponseSchema,
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "country or a candidate (details name candidates[i]) is not in the tax tables, a candidate names a region its country does not have, "+
				"a candidate repeats another, or the income is all 0"),
				rest.Err(errcode.Unavailable, "as many optimisations as the server runs at once are running; retryAfter and Retry-After say when to retry (nothing is queued)")}},
	}
}

// The /tax responses, declared for the OpenAPI document; the writers of
// the handlers above produce them, and tests validate real responses
// against these declarations.

type taxRegionDoc struct {
	Code       string `json:"code" schema:"required" doc:"The value for the region field of POST /api/v1/tax/calculate."`
	Name       string `json:"name" schema:"required"`
	Years      []int  `json:"years" schema:"required" doc:"The tax years that model the region; POST /api/v1/tax/calculate refuses the region in the others."`
	JointYears []int  `json:"jointYears" schema:"required" doc:"The years in which POST /api/v1/tax/calculate taxes a joint return (filing joint) in the region: its own rules model one, or it has none."`
}

type taxRuleInfoDoc struct {
	ID            string   `json:"id" schema:"required"`
	Label         string   `json:"label" schema:"required"`
	Category      string   `json:"category" schema:"required,enum=@taxCategory"`
	Filing        string   `json:"filing" schema:"required,enum=any|single|joint" doc:"The returns the rule applies to: any, single only or joint only (a rule may come in a single and a joint version under one id)."`
	Regions       []string `json:"regions" schema:"required" doc:"The rule applies only in these regions (empty: everywhere)."`
	ExceptRegions []string `json:"exceptRegions" schema:"required" doc:"The rule does not apply in these regions."`
}

type taxLocalTaxDoc struct {
	Region *string `json:"region" schema:"required,nullable" doc:"The region (see regions) whose sub-national tax POST /api/v1/tax/optimize counts for the country; null: none is counted."`
	Note   string  `json:"note" schema:"required" doc:"What comparisons count and leave out of the country's sub-national income tax."`
}

type taxModelledDoc struct {
	Notes []string         `json:"notes" schema:"required" doc:"What the calculation assumes (household, schemes, treatment of each income part); year-specific notes start with the year."`
	Rules []taxRuleInfoDoc `json:"rules" schema:"required" doc:"The taxes, contributions and levies computed for the latest year, in order."`
}

type taxCountryDoc struct {
	Code        string          `json:"code" schema:"required" doc:"ISO 3166-1 alpha-2."`
	Name        string          `json:"name" schema:"required"`
	Currency    string          `json:"currency" schema:"required" doc:"ISO 4217: every amount of the country's calculations."`
	Years       []int           `json:"years" schema:"required" doc:"Supported tax years, ascending; a year is the calendar year the tax year begins in."`
	LatestYear  int             `json:"latestYear" schema:"required" doc:"The default year of POST /api/v1/tax/calculate."`
	JointYears  []int           `json:"jointYears" schema:"required" doc:"The years whose rules model a couple's joint return (filing joint in POST /api/v1/tax/calculate); in the others, and where this is empty, each person is taxed alone."`
	Regions     []taxRegionDoc  `json:"regions" schema:"required" doc:"Regions with their own sub-national tax; empty when none is modelled."`
	LocalTax    *taxLocalTaxDoc `json:"localTax" schema:"required,nullable" doc:"How POST /api/v1/tax/optimize treats sub-national income tax; null where the country has none or it needs no comment."`
	Modelled    taxModelledDoc  `json:"modelled" schema:"required"`
	NotModelled []string        `json:"notModelled" schema:"required" doc:"What the calculation leaves out."`
	Programs    []string        `json:"programs" schema:"required" doc:"Ids of the country's special programs (GET /api/v1/tax/programs/{id})."`
	Wrappers    []taxWrapperDoc `json:"wrappers" schema:"required" doc:"The country's accounts with their own tax rules (401(k), ISA, RRSP, super, ...): the types a household plan's accounts may take besides cash and taxable. Empty where none is on file."`
}

type taxWrapperDoc struct {
	ID        string         `json:"id" schema:"required" doc:"The account type to send in POST /api/v1/calculator accounts[].type."`
	Name      string         `json:"name" schema:"required"`
	Kind      string         `json:"kind" schema:"required,enum=taxable|tax-deferred|tax-free|pension" doc:"When its money is taxed: taxable as it grows; tax-deferred on the way out; tax-free on the way in; pension: a pot locked to an age, part tax-free."`
	AccessAge *float64       `json:"accessAge" schema:"required,nullable" doc:"The age its money opens without a charge; null when at any age or when it depends on the year of birth (see notes)."`
	Notes     string         `json:"notes" schema:"required"`
	Sources   []taxSourceDoc `json:"sources" schema:"required"`
}

type taxSourceDoc struct {
	Title   string `json:"title" schema:"required" doc:"Publisher and title of the authority's document."`
	URL     string `json:"url" schema:"required"`
	Section string `json:"section" schema:"required"`
	AsOf    string `json:"asOf" schema:"required" doc:"The date of the version read (YYYY-MM-DD)."`
}

type taxLineDoc struct {
	Rule     string  `json:"rule" schema:"required" doc:"Id of the rule (see GET /api/v1/tax/countries) or of the program the line belongs to."`
	Kind     string  `json:"kind" schema:"required,enum=@taxLineKind" doc:"band: tax on one bracket (amount is the tax); deduction, nilRate: an allowance taken from the base or charged at 0% (amount is the amount allowed); relief, credit: a reduction of the tax (amount is negative); program: an effect of the special program (base is the income it takes out of the normal rules, amount its own tax on it)."`
	Category string  `json:"category" schema:"required,enum=@taxCategory" doc:"The result field the rule feeds: income (incomeTax), social (socialContributions), capital (capitalTax), regional (regionalTax)."`
	Label    string  `json:"label" schema:"required"`
	Layer    string  `json:"layer,omitempty" doc:"The slice of income a band works on, where income is stacked (savings or dividends on top of other income)."`
	Base     float64 `json:"base" schema:"required"`
	Rate     float64 `json:"rate" schema:"required" doc:"A fraction; the average rate for a band given by a statutory formula; the exempt fraction for a partly exempt program line."`
	Amount   float64 `json:"amount" schema:"required"`
}

type taxRuleTotalDoc struct {
	Rule     string  `json:"rule" schema:"required"`
	Label    string  `json:"label" schema:"required"`
	Category string  `json:"category" schema:"required,enum=@taxCategory"`
	Taxable  float64 `json:"taxable" schema:"required" doc:"The rule's base after deductions (for a program: the income it takes out of the normal rules)."`
	Amount   float64 `json:"amount" schema:"required"`
}

type taxProgramEffectDoc struct {
	ID              string   `json:"id" schema:"required"`
	Name            string   `json:"name" schema:"required"`
	Status          string   `json:"status" schema:"required,enum=open|closed|changed"`
	TotalTaxWithout float64  `json:"totalTaxWithout" schema:"required" doc:"totalTax under the normal rules alone."`
	Saving          float64  `json:"saving" schema:"required" doc:"totalTaxWithout - totalTax; negative when the program costs more (a lump sum above the normal tax)."`
	RelievedIncome  float64  `json:"relievedIncome" schema:"required" doc:"Income the program takes out of the normal rules."`
	ProgramTax      float64  `json:"programTax" schema:"required" doc:"The program's own tax (flat rates, lump sum, minimum top-up), included in incomeTax."`
	Eligibility     []string `json:"eligibility" schema:"required" doc:"Who qualifies: the calculation assumes the person does."`
	Conditions      []string `json:"conditions" schema:"required" doc:"Conditions of the program's rules that the calculation cannot check."`
}

type taxCalcDoc struct {
	Country             string               `json:"country" schema:"required"`
	Year                int                  `json:"year" schema:"required"`
	Currency            string               `json:"currency" schema:"required" doc:"ISO 4217 currency of every amount."`
	Region              *string              `json:"region" schema:"required,nullable"`
	GrossIncome         float64              `json:"grossIncome" schema:"required"`
	IncomeTax           float64              `json:"incomeTax" schema:"required" doc:"National (US: federal) income tax after the credits every resident single person gets, plus a program's own tax."`
	SocialContributions float64              `json:"socialContributions" schema:"required" doc:"Employee social insurance and earner levies."`
	CapitalTax          float64              `json:"capitalTax" schema:"required" doc:"Tax on capital income taxed apart from other income."`
	RegionalTax         float64              `json:"regionalTax,omitempty" doc:"Sub-national tax; present when a region was given."`
	TotalTax            float64              `json:"totalTax" schema:"required" doc:"The sum of the four."`
	AfterTaxIncome      float64              `json:"afterTaxIncome" schema:"required" doc:"grossIncome - totalTax."`
	EffectiveRate       float64              `json:"effectiveRate" schema:"required" doc:"totalTax / grossIncome (0 without income)."`
	MarginalRate        float64              `json:"marginalRate" schema:"required" doc:"Extra total tax per unit of extra income in marginalPart."`
	MarginalPart        string               `json:"marginalPart" schema:"required,enum=@taxIncomePart" doc:"The largest income part."`
	Breakdown           []taxLineDoc         `json:"breakdown" schema:"required" doc:"Line by line: a program's lines first, then each rule's deductions, bands, reliefs and credits."`
	Truncated           bool                 `json:"truncated" schema:"required" doc:"The breakdown was cut at its line limit; the totals are complete."`
	Rules               []taxRuleTotalDoc    `json:"rules" schema:"required" doc:"Each rule's total, in order."`
	Program             *taxProgramEffectDoc `json:"program" schema:"required,nullable" doc:"What the program changed; null without one."`
	Trace               []TraceDoc           `json:"trace,omitempty" doc:"With explain: each rule that fired, in order."`
}

// TraceDoc is one rule that fired, as a trace (explain) shows it; the
// household calculator's explained year declares its returns' traces with
// it too.
type TraceDoc struct {
	Rule     string         `json:"rule" schema:"required" doc:"Id of the rule (GET /api/v1/tax/countries) or of the program."`
	Label    string         `json:"label" schema:"required"`
	Category string         `json:"category" schema:"required,enum=@taxCategory"`
	Base     float64        `json:"base" schema:"required" doc:"The rule's taxable base: its income after deductions (for a program: the income it takes out of the normal rules)."`
	Rate     float64        `json:"rate" schema:"required" doc:"amount / base, the rule's average rate on its base (0 when the base is 0)."`
	Amount   float64        `json:"amount" schema:"required" doc:"What the rule charges, after its reliefs and credits."`
	Source   []taxSourceDoc `json:"source" schema:"required" doc:"Where the rule's figures come from: the authority's document, its section and the date of the version read (empty for a program: GET /api/v1/tax/programs/{id} cites its sources)."`
	Steps    []traceStepDoc `json:"steps" schema:"required" doc:"The rule's lines of the breakdown, in order."`
}

type traceStepDoc struct {
	Kind   string         `json:"kind" schema:"required,enum=@taxLineKind"`
	Label  string         `json:"label" schema:"required"`
	Layer  string         `json:"layer,omitempty"`
	Base   float64        `json:"base" schema:"required"`
	Rate   float64        `json:"rate" schema:"required"`
	Amount float64        `json:"amount" schema:"required"`
	Source []taxSourceDoc `json:"source,omitempty" doc:"A deduction's or credit's own sources, where the data cites them apart from its rule's."`
}

// Programs, as data/program declares them.

type programMoneyDoc struct {
	Amount   float64 `json:"amount" schema:"required"`
	Currency string  `json:"currency" schema:"required"`
}

type programAppliesToDoc struct {
	Incomes []string `json:"incomes" schema:"required,enum=@taxIncomePart"`
	Scope   string   `json:"scope" schema:"required,enum=@programScope"`
}

type programChangeDoc struct {
	Date        string `json:"date" schema:"required" doc:"YYYY, YYYY-MM or YYYY-MM-DD."`
	Description string `json:"description" schema:"required"`
}

type programSourceDoc struct {
	Publisher string `json:"publisher" schema:"required"`
	Title     string `json:"title" schema:"required"`
	Reference string `json:"reference,omitempty" doc:"The legal text or section."`
	Year      int    `json:"year" schema:"required"`
	URL       string `json:"url,omitempty"`
}

type programRuleDoc struct {
	Type        string   `json:"type" schema:"required,enum=@programRuleType" doc:"flat: the covered income is taxed at rate instead of the normal rules (up to incomeCap); exempt: not taxed; partialExempt: fraction of the covered income between incomeFloor and incomeCap is exempt, at most reliefCap; lumpSum: amount a year replaces the tax on the covered income; minimumTax: the program's tax is at least amount."`
	Rate        float64  `json:"rate,omitempty"`
	Fraction    float64  `json:"fraction,omitempty"`
	Amount      float64  `json:"amount,omitempty"`
	Currency    string   `json:"currency,omitempty" doc:"Of amount, incomeFloor, incomeCap and reliefCap."`
	IncomeFloor float64  `json:"incomeFloor,omitempty"`
	IncomeCap   float64  `json:"incomeCap,omitempty"`
	ReliefCap   float64  `json:"reliefCap,omitempty"`
	Incomes     []string `json:"incomes" schema:"required,enum=@taxIncomePart"`
	Scope       string   `json:"scope" schema:"required,enum=@programScope" doc:"Income from abroad (foreign), from the country itself (domestic) or both (all)."`
	Condition   string   `json:"condition,omitempty" doc:"A qualification the calculator cannot check."`
}

type programDoc struct {
	ID             string              `json:"id" schema:"required"`
	Country        string              `json:"country" schema:"required" doc:"ISO 3166-1 alpha-2."`
	Name           string              `json:"name" schema:"required"`
	Summary        string              `json:"summary" schema:"required"`
	Kind           string              `json:"kind" schema:"required,enum=@programKind"`
	Rate           *float64            `json:"rate" schema:"required,nullable" doc:"The single rate of the regime where one applies (a fraction), else null."`
	LumpSum        *programMoneyDoc    `json:"lumpSum" schema:"required,nullable" doc:"The yearly amount of a lump-sum regime, else null."`
	DurationYears  *int                `json:"durationYears" schema:"required,nullable" doc:"Years the regime lasts for a person; null when it has no fixed length."`
	Eligibility    []string            `json:"eligibility" schema:"required"`
	AppliesTo      programAppliesToDoc `json:"appliesTo" schema:"required"`
	Status         string              `json:"status" schema:"required,enum=open|closed|changed" doc:"open: admits new entrants; changed: admits them, on recently changed rules (see changes); closed: only people already in it keep it."`
	StatusAsOf     string              `json:"statusAsOf" schema:"required" doc:"The date (YYYY-MM-DD) the status was last checked against the authority's rules."`
	Changes        []programChangeDoc  `json:"changes" schema:"required"`
	Sources        []programSourceDoc  `json:"sources" schema:"required"`
	Rules          []programRuleDoc    `json:"rules" schema:"required" doc:"The machine-readable effects POST /api/v1/tax/calculate applies with program."`
	Notes          string              `json:"notes,omitempty" doc:"What could not be verified."`
	Calculable     bool                `json:"calculable" schema:"required" doc:"POST /api/v1/tax/calculate can apply it: its country has tax parameters and its rules convert."`
	CalculableNote string              `json:"calculableNote,omitempty" doc:"Why it cannot be calculated."`
}

// Optimize.

type taxOptProgramDoc struct {
	ID            string `json:"id" schema:"required"`
	Name          string `json:"name" schema:"required"`
	Kind          string `json:"kind" schema:"required,enum=@programKind"`
	Status        string `json:"status" schema:"required,enum=open|changed" doc:"Closed programs are not suggested."`
	DurationYears *int   `json:"durationYears" schema:"required,nullable" doc:"How long the regime lasts; null when it has no fixed length."`
}

type taxOptionDoc struct {
	Rank              int               `json:"rank,omitempty" doc:"1 is the best; absent on current."`
	Country           string            `json:"country" schema:"required"`
	Name              string            `json:"name" schema:"required"`
	Currency          string            `json:"currency" schema:"required" doc:"Of grossIncome, totalTax, afterTaxIncome, fiNumber and fiWithdrawal."`
	Year              int               `json:"year" schema:"required" doc:"The tax year compared."`
	LocalTax          *taxLocalTaxDoc   `json:"localTax" schema:"required,nullable" doc:"Which region's sub-national income tax totalTax counts, and what it leaves out (as in GET /api/v1/tax/countries)."`
	Program           *taxOptProgramDoc `json:"program" schema:"required,nullable" doc:"The special program; null for the country's normal rules."`
	GrossIncome       float64           `json:"grossIncome" schema:"required" doc:"The income converted to the country's currency."`
	TotalTax          float64           `json:"totalTax" schema:"required"`
	AfterTaxIncome    float64           `json:"afterTaxIncome" schema:"required"`
	EffectiveRate     float64           `json:"effectiveRate" schema:"required"`
	GrossIncomeUSD    float64           `json:"grossIncomeUSD" schema:"required"`
	TotalTaxUSD       float64           `json:"totalTaxUSD" schema:"required"`
	AfterTaxIncomeUSD float64           `json:"afterTaxIncomeUSD" schema:"required" doc:"What the ranking sorts on."`
	GainUSD           float64           `json:"gainUSD,omitempty" doc:"afterTaxIncomeUSD - current.afterTaxIncomeUSD: the yearly gain of the move (negative: a loss). Absent on current."`
	FINumber          *float64          `json:"fiNumber" schema:"required,nullable" doc:"With monthlyBudgetUSD: the portfolio whose withdrawals, after this country's tax, cover the budget (fiWithdrawal / withdrawalRate); else null."`
	FINumberUSD       *float64          `json:"fiNumberUSD" schema:"required,nullable"`
	FIWithdrawal      *float64          `json:"fiWithdrawal" schema:"required,nullable" doc:"The gross yearly withdrawal, in the stated income's mix, that leaves 12 x monthlyBudgetUSD after tax."`
	Eligibility       []string          `json:"eligibility" schema:"required" doc:"What the person must still check: the program's eligibility, or tax residence and the right to live there for a move under the normal rules; empty for the current country."`
	Conditions        []string          `json:"conditions" schema:"required" doc:"Conditions of the program's rules the calculation cannot check."`
}

type taxSkipDoc struct {
	Country string  `json:"country" schema:"required"`
	Program *string `json:"program" schema:"required,nullable" doc:"null: the whole country was skipped."`
	Reason  string  `json:"reason" schema:"required"`
}

type taxOptDoc struct {
	Country          string         `json:"country" schema:"required"`
	Currency         string         `json:"currency" schema:"required" doc:"Of the income sent."`
	Year             *int           `json:"year" schema:"required,nullable" doc:"The year asked for; each suggestion says the year it used."`
	FXAsOf           string         `json:"fxAsOf" schema:"required" doc:"Date (YYYY-MM-DD) of the exchange rates used for every conversion."`
	MonthlyBudgetUSD *float64       `json:"monthlyBudgetUSD" schema:"required,nullable"`
	WithdrawalRate   float64        `json:"withdrawalRate" schema:"required"`
	Current          taxOptionDoc   `json:"current" schema:"required" doc:"Staying: the current country under its normal rules."`
	Suggestions      []taxOptionDoc `json:"suggestions" schema:"required" doc:"Every candidate under its normal rules and under each program a newcomer can join, best first."`
	Skipped          []taxSkipDoc   `json:"skipped" schema:"required" doc:"Candidates and programs left out of the ranking, and why."`
}

const taxCalcDesc = "One country's taxes on a yearly income profile, with a line-by-line breakdown. " +
	"The calculation is for a resident single person with no dependants and applies what every such person gets " +
	"(personal allowance, standard deduction or basic credits); GET /api/v1/tax/countries lists, per country, what is modelled and what is not. " +
	"`age` applies the rules that depend on it (the US additional standard deduction and the 2025-2028 deduction for seniors at 65). " +
	"`filing` `joint` taxes a couple's joint return on `income` plus `partnerIncome` with both ages, where the country's year (and region) has joint rules " +
	"(`jointYears` in GET /api/v1/tax/countries; the US files jointly, a US state only where it levies no income tax); elsewhere it is a VALIDATION_ERROR " +
	"and each person is taxed alone, with a request each.\n\n" +
	"`program` applies a special regime of the same country, assuming the person qualifies: the response repeats its eligibility and the conditions of its rules. " +
	"Each program rule covers income parts from a source (foreign, domestic or all); the income here has no source, so `domesticIncome` names the parts that arise in the country itself " +
	"and all others count as foreign-source (the default, as for someone who moves with their pension, investments or remote work). " +
	"Each covered part belongs to the first rule that covers it and leaves the normal rules as the rule says: all of it (exempt, lumpSum), up to the cap (flat), " +
	"or the exempt fraction (partialExempt); the program adds its own tax (flat rate, lump sum, minimum top-up) to incomeTax. " +
	"Income tax, capital and regional rules then run on the income left to them; social contributions stay those of the whole income (programs relieve tax, not social insurance). " +
	"The breakdown opens with lines of kind `program`, and `data.program` reports the tax without the program and the saving."

const taxOptDesc = "Ranks where the stated income is taxed least: every candidate country under its normal rules, and under each of its special programs " +
	"that admits newcomers (status open or changed) and that the calculator can apply, best first by after-tax income in US dollars " +
	"(ties: by country code, the normal rules first). `current` is staying where you live now; each suggestion's gainUSD is its after-tax income less current's.\n\n" +
	"Method. The income (in the currency of `country`) is converted into each candidate's currency at the reference rates of `fxAsOf`, " +
	"taxed there as POST /api/v1/tax/calculate does (resident single person, the requested year where the country has it, else its latest), " +
	"in the region named by the country's localTax (none when it names none: then only national tax is counted, and localTax.note says what is left out), " +
	"and the results are converted to US dollars at the same rates. A program is applied as in calculate, with every income part foreign-source " +
	"except those named in `domesticIncome` (as for someone who moves with their pension, investments or remote work); programs of the current country are not suggested, " +
	"since they are for people who move there. The calculation assumes the person qualifies: each suggestion lists the eligibility and conditions to check.\n\n" +
	"After-tax FI number (with monthlyBudgetUSD): the budget is converted to the candidate's currency, B = 12 x budget. Withdrawals are taxed as income with the stated income's mix " +
	"(its parts scaled together): the gross yearly withdrawal G solves G - tax(G x mix) = B, found by bracketed regula falsi to the cent, " +
	"and fiNumber = G / withdrawalRate. State the mix your withdrawals will have (pension, interest, dividends, capital gains); " +
	"taxing a whole withdrawal as gains or dividends overstates the tax on the part that returns capital.\n\n" +
	"Not modelled: cost of living (see /api/v1/geo), the current country's continued taxing rights (US citizens are taxed on worldwide income wherever they live; " +
	"treaties often leave government pensions and some other income taxable at source), exit taxes, wealth and property taxes, and withholding at source."
