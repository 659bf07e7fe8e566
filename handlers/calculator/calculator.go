// Package calculator serves the FI timeline calculator: the year-by-year
// plan with scenarios, Monte Carlo, the historical backtest and goal
// seeking, computed by compute/fi.
package calculator

import (
	"bytes"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/valyala/fasthttp"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	place "fiplan/compute/geo"
	"fiplan/compute/household"
	"fiplan/compute/plan"
	"fiplan/data/fx"
	"fiplan/data/geo"
	"fiplan/data/history"
	"fiplan/data/taxtable"
	"fiplan/handlers/errcode"
	"fiplan/handlers/jsonw"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// calcParams are the optional planning inputs. The base request and every
// scenario share them; in a scenario each one present overrides the base.
type calcParams struct {
	CurrentSavings      *float64      `json:"currentSavings" schema:"min=0,max=1e11,default=0" doc:"Invested portfolio today."`
	CostBasis           *float64      `json:"costBasis" schema:"min=0,max=1e11" doc:"Capital paid into currentSavings (its cost basis): with tax.withdrawalIncome capitalGains, only the gain share of a withdrawal, 1 - cost basis / balance, is taxed, the basis followed year by year at average cost (contributions add to it, withdrawals take their share). Default: currentSavings, no gain yet. In a scenario without it, the base's."`
	ExpectedReturn      *float64      `json:"expectedReturn" schema:"min=-0.5,max=0.5,default=0.07" doc:"Nominal yearly return before fees, as a fraction."`
	InflationRate       *float64      `json:"inflationRate" schema:"min=-0.1,max=0.5,default=0.03" doc:"Yearly inflation, as a fraction."`
	WithdrawalRate      *float64      `json:"withdrawalRate" schema:"min=0.0001,max=0.2,default=0.04" doc:"Safe withdrawal rate, 0.0001 to 0.2: the FI number is retirementExpenses / withdrawalRate."`
	IncomeGrowthRate    *float64      `json:"incomeGrowthRate" schema:"min=-0.2,max=0.3,default=0" doc:"Real yearly growth of take-home income, above inflation."`
	RetirementExpenses  *float64      `json:"retirementExpenses" schema:"xmin=0,max=1e9" doc:"Yearly spending in retirement, today's money. Default: annualExpenses."`
	LifeExpectancy      *int          `json:"lifeExpectancy" schema:"min=19,max=120,default=95" doc:"The timeline ends at this age; it must be above currentAge."`
	TargetRetirementAge *int          `json:"targetRetirementAge" schema:"min=18,max=120" doc:"Age drawdown starts whether or not FI is reached. Default: retire when FI is reached."`
	AnnualContribution  *float64      `json:"annualContribution" schema:"min=0,max=1e9" doc:"Yearly saving in today's money, rising with inflation, instead of income minus expenses."`
	ExpenseRatio        *float64      `json:"expenseRatio" schema:"min=0,max=0.05,default=0" doc:"Yearly fund fees, deducted from the return."`
	StockShare          *float64      `json:"stockShare" schema:"min=0,max=1,default=0.6" doc:"Share of stocks in the portfolio (VPW rate and the historical backtest)."`
	CashShare           *float64      `json:"cashShare" schema:"min=0,max=1,default=0" doc:"Share of cash in the historical backtest, which keeps its real value (earns inflation); bonds hold the rest. stockShare + cashShare must not exceed 1."`
	WithdrawalStrategy  string        `json:"withdrawalStrategy" schema:"enum=@withdrawalStrategy" doc:"Drawdown rule (see the method for each): constant inflation-adjusted amount (the 4% rule), a fixed percentage of the portfolio, Guyton-Klinger guardrails, variable percentage withdrawal, the 95% rule, floor and ceiling, the CAPE rule (needs cape), Vanguard dynamic spending, or guardrails with inflation raises capped at 6%. Default constant."`
	CAPE                *float64      `json:"cape" schema:"min=1,max=100" doc:"The market's cyclically adjusted P/E today; required with withdrawalStrategy cape, which withdraws 1.5% + 0.5 / CAPE of the portfolio. Backtests over shiller-monthly use each year's historical CAPE where the series has one (from 1881)."`
	Pensions            []calcPension `json:"pensions" schema:"maxItems=4" doc:"Pensions and state benefits. In a scenario, a non-empty list replaces the base list."`
	Events              []calcEvent   `json:"events" schema:"maxItems=8" doc:"One-off events. In a scenario, a non-empty list replaces the base list."`
	CityID              string        `json:"cityId" schema:"maxLen=64" doc:"Id of a city of GET /api/v1/geo/cities (such as lisbon-pt): retirementExpenses become 12 x the city's monthly budget for householdSize, converted from USD into the plan's currency at the reference rates. Not with retirementExpenses. In a scenario it overrides the base's retirementExpenses or city; a scenario's retirementExpenses overrides the base's city."`
	HouseholdSize       *int          `json:"householdSize" schema:"min=1,max=8,default=1" doc:"People the city budget is for (1 to 8); only with a cityId in the plan or the base."`
}

type calcPension struct {
	FromAge         int     `json:"fromAge" schema:"required,min=18,max=120" doc:"Age from which it is paid (its owner's); for a statutory kind, the claiming age."`
	Amount          float64 `json:"amount" schema:"required,min=0,max=1e8" doc:"Yearly amount: in today's money when inflationLinked, else the fixed nominal amount. For a statutory kind, the yearly benefit at the full (normal) pension age in today's money: the statute's early reduction or delayed credit is applied for fromAge."`
	InflationLinked bool    `json:"inflationLinked" schema:"default=true" doc:"Rises with inflation from today (statutory kinds always do)."`
	Owner           string  `json:"owner" schema:"enum=self|partner,default=self" doc:"Whose pension it is."`
	Kind            string  `json:"kind" schema:"enum=generic|us-social-security|ca-cpp|ca-oas|gb-state-pension|de-statutory-pension,default=generic" doc:"generic, or a statutory benefit whose claiming rules and taxation the plan applies (US Social Security's inclusion of up to 85%, the OAS recovery tax, the German statutory pension's 0.3% a month less before the Regelaltersgrenze and 0.5% a month more after it)."`
}

type calcEvent struct {
	Age     int     `json:"age" schema:"required,min=18,max=120" doc:"Age in the year it happens."`
	Amount  float64 `json:"amount" schema:"required,min=-1e10,max=1e10" doc:"Positive: a windfall or inheritance; negative: a house, a sabbatical. Today's money unless nominal."`
	Nominal bool    `json:"nominal" doc:"The amount is in money of that year."`
	Label   string  `json:"label" schema:"maxLen=60" doc:"For your own reference."`
}

type calcMonteCarlo struct {
	Simulations     int     `json:"simulations" schema:"min=1,max=20000,default=1000" doc:"Paths to simulate; simulations x years may not exceed 1000000."`
	Seed            int64   `json:"seed" schema:"min=0,max=9007199254740991,default=1" doc:"The same seed gives the same answer."`
	ReturnStdDev    float64 `json:"returnStdDev" schema:"min=0,max=0.6,default=0.12" doc:"Standard deviation of yearly returns around expectedReturn; the default is the historical one (see the method)."`
	InflationStdDev float64 `json:"inflationStdDev" schema:"min=0,max=0.2,default=0.04" doc:"Standard deviation of yearly inflation around inflationRate; the default is the historical one (see the method)."`
}

type calcHistorical struct {
	Years            *int   `json:"years" schema:"min=5,max=60,default=30" doc:"Length of each rolling retirement window tested; it must fit in from-to. A household plan replays its whole horizon in each window unless years is sent, which bounds the window."`
	Sequences        bool   `json:"sequences" doc:"Add the sequence-of-returns view: the worst, median and best windows with their year-by-year paths, and the success rate by start decade."`
	Dataset          string `json:"dataset" schema:"maxLen=40,format=dataset,default=annual" doc:"annual: US 1928-2024 by calendar year (S&P 500 total return, 10-year Treasury total return, CPI-U), every start year. shiller-monthly: Robert Shiller's US series 1871-2023 by month (S&P Composite with dividends, a 10-year bond priced from the long interest rate, CPI), every start month, withdrawals and rebalancing once a year from the start month. user:<id>: one of your own series (POST /user/series; signed in, its owner only), yearly like annual or monthly like shiller-monthly, in its own currency. The goals' maxWithdrawalRate uses the same dataset."`
	From             *int   `json:"from" schema:"min=1800,max=2200" doc:"First calendar year of the sample: every window starts in it or later. Default: the dataset's first year (1928 annual, 1871 shiller-monthly); a year outside the dataset is refused. The goals' maxWithdrawalRate replays the same sample."`
	To               *int   `json:"to" schema:"min=1800,max=2200" doc:"Last calendar year of the sample: every window ends in it or earlier (a shiller-monthly window ends with the month before its start month, so a January start covers whole calendar years). Default: the dataset's last year (2024 annual; 2023 shiller-monthly, whose data end in June 2023, so its windows end by May 2023). It must not be before from, and the span from-to must hold a window of historical.years."`
	StartMonths      string `json:"startMonths" schema:"enum=all|january,default=all" doc:"all: every start month (shiller-monthly) or year (annual); january: shiller-monthly windows start in January only, one a year, as the Trinity study's. An annual window starts with the calendar year either way."`
	Currency         string `json:"currency" schema:"maxLen=3,format=fxCurrency" doc:"ISO 4217 code of the money the backtest is run in. Default: the plan's currency. The US record is restated in it: each year's (month's) returns at the Federal Reserve's H.10 monthly average rates against the US dollar, from 1971 where the currency (or, for the euro, the plan's euro country's former currency) has them, and spending indexed by the consumer prices (World Bank) of the tax country, or of the one country taxed in that currency (the euro area for the euro otherwise). A year without both keeps its US returns in real terms; the answer's historical.conversion says which years were restated."`
	WithdrawalTiming string `json:"withdrawalTiming" schema:"enum=start-of-year|monthly,default=start-of-year" doc:"start-of-year: the year's withdrawal is taken at its start; monthly: a twelfth at the start of each month, out of the portfolio as it then stands, the amount set once a year (a constant withdrawal rises with inflation once a year). monthly needs dataset shiller-monthly. With dataset shiller-monthly, from 1926, to 1995, startMonths january and withdrawalTiming monthly, the backtest runs under the Trinity study's conditions as far as the data allow (its bonds are long-term corporate bonds, these a 10-year government bond)."`
}

type calcGoals struct {
	FIByAge           *int     `json:"fiByAge" schema:"min=18,max=120" doc:"Answer the yearly saving (today's money, rounded up to the cent) that, sent as annualContribution, reaches FI by this age."`
	TargetSuccessRate *float64 `json:"targetSuccessRate" schema:"xmin=0,max=1" doc:"Answer the highest withdrawal rate, in whole basis points up to the largest accepted withdrawalRate (0.2), whose historical success rate (over historical.years, default 30) is at least this."`
}

type calcScenario struct {
	Name           string   `json:"name" schema:"required,minLen=1,maxLen=60" doc:"Your label for the scenario."`
	CurrentAge     *int     `json:"currentAge" schema:"min=18,max=100"`
	AnnualIncome   *float64 `json:"annualIncome" schema:"min=0,max=1e9"`
	AnnualExpenses *float64 `json:"annualExpenses" schema:"xmin=0,max=1e9"`
	calcParams
}

type calcRequest struct {
	CurrentAge     int     `json:"currentAge" schema:"required,min=18,max=100" doc:"Age today, in whole years."`
	AnnualIncome   float64 `json:"annualIncome" schema:"required,min=0,max=1e9" doc:"Yearly take-home income (after tax), today's money. With tax: the gross employment income, before tax."`
	AnnualExpenses float64 `json:"annualExpenses" schema:"required,xmin=0,max=1e9" doc:"Yearly spending today."`
	StartYear      *int    `json:"startYear" schema:"min=1900,max=2200" doc:"Calendar year of the first row. Default: this year."`
	Currency       string  `json:"currency" schema:"maxLen=3,format=fxCurrency" doc:"ISO 4217 code of every amount of the plan, for tax and cityId. Default: the currency of tax.country with tax, else USD."`
	calcParams
	calcHousehold
	Scenarios  []calcScenario  `json:"scenarios" schema:"maxItems=10" doc:"Variations answered side by side, in request order: each overrides any of the fields above."`
	MonteCarlo *calcMonteCarlo `json:"monteCarlo" doc:"Add a Monte Carlo simulation of the base plan."`
	Historical *calcHistorical `json:"historical" doc:"Add a backtest of the drawdown over every historical start year."`
	Goals      *calcGoals      `json:"goals" doc:"Goal seeking."`
	Tax        *calcTax        `json:"tax" doc:"Plan after tax, for every plan of the request: annualIncome is taxed as employment income, and retirement spending is grossed up by the tax on the retirement income (see the method)."`
	Output     string          `json:"output" schema:"enum=full|summary|yearly,default=full" doc:"full: every row of every projection; summary: no projection rows (projections are empty); yearly: every Nth row (see every) and the last."`
	Every      *int            `json:"every" schema:"min=1,max=50,default=5" doc:"With output yearly: keep the rows 0, N, 2N, ... and the last."`
}

type calcTax struct {
	Country          string `json:"country" schema:"required,maxLen=2,format=country" doc:"ISO 3166-1 alpha-2 code of a country of GET /api/v1/tax/countries."`
	Region           string `json:"region" schema:"maxLen=8" doc:"A region of country (a US state, a Canadian province, ...) whose income tax is added. Default: where the country's income tax has a local part, the region its localTax names (GET /api/v1/tax/countries; the answer's tax.region says which), refused when a year of the plan does not model it; a couple filing jointly where that region's rules file no couple is taxed without one."`
	Year             int    `json:"year" schema:"min=1900,max=2200" doc:"Tax year of the plan's first year (the calendar year it begins in); year t of the plan is taxed under tax year year+t, as published or, past the country's newest, that year's rules with each figure moved by its own indexation and each sunset applied. Default: the plan's startYear."`
	Filing           string `json:"filing" schema:"enum=single|joint" doc:"With a partner: joint (the default where the country's rules on file tax couples jointly: the US married filing jointly) or single (each person taxed alone). joint where the rules have no joint return (or with a US state that taxes income) is refused."`
	WithdrawalIncome string `json:"withdrawalIncome" schema:"enum=pension|interest|dividends|capitalGains" doc:"How the retirement income is taxed. Default: the country's treatment of a withdrawal from a taxable portfolio where its tax data states one (Germany: capitalGains, under the Abgeltungsteuer), else pension. pension (portfolio withdrawals and pensions together as pension income) suits withdrawals from a pension or retirement account; capitalGains, sales from a taxable account: only the gain share of each withdrawal is taxed, as a capital gain (see costBasis), and pensions as pensions; interest or dividends tax withdrawals and pensions together as that income."`
}

// MaxContribution is the largest annualContribution the request accepts (its
// declared max): a required saving above it could not be sent back.
const MaxContribution = 1e9

// MaxWithdrawalRate is the largest withdrawalRate the request accepts (its
// declared max): the highest safe rate is searched up to it, never beyond.
const MaxWithdrawalRate = 0.2

// calcWork is everything one calculation needs, pooled so that a warm
// request allocates only what its body's optional fields do.
type calcWork struct {
	req  calcRequest
	base fi.Input
	scen [fi.MaxScenarios]plan.Scenario
	plan plan.Plan
	tax  plan.Tax
	hh   plan.Household
	// asked is what the request asks beside the plan, optimize its
	// optimize as sent, dreq that optimize read
	asked    plan.Asked
	optimize plan.Optimize
	dreq     decide.Request
	// scenPens are the scenarios' household pensions
	scenPens [fi.MaxScenarios][]household.Pension
	mc       fi.MonteCarlo
	in       plan.Inputs
	opt      plan.Options
	res      plan.Result
	// user is the record of a user:<id> dataset, read by inputs; userRec
	// holds it
	user    *plan.History
	userRec plan.History

	extra   int          // the rate-limit units of the work beyond the request's one
	size    int          // about the most bytes the answer's rows take (see cellBytes)
	out     jsonw.Writer // the response body being built
	docs    *docs        // the declared values out is encoded from
	key     []byte
	raw     []byte
	c       *rest.Ctx // the request being computed, while Run admits it
	s       *Handlers
	csv     bool
	entered bool // the request holds a slot of the gate
}

var calcPool = sync.Pool{New: func() any {
	w := &calcWork{out: jsonw.Writer{B: make([]byte, 0, 64<<10)}, key: make([]byte, 0, 512), raw: make([]byte, 0, 1024)}
	w.opt.Admit = w.admit
	w.docs = newDocs(&w.out)
	return w
}}

// maxPooledBody is the largest body buffer a pooled calcWork keeps, so
// that one outsized answer does not pin its buffer in the pool. The
// largest answer (eleven household plans of 102 rows, fifteen accounts
// each: about 2.5 MB) fits, so that answers of that size, which a caller
// may ask for again and again, are written without allocating.
const maxPooledBody = 4 << 20

// reset empties the answer's buffer, grown once to the size the rows
// will take.
func (w *calcWork) reset() *jsonw.Writer {
	w.out.Reset()
	w.out.B = slices.Grow(w.out.B, w.size+4<<10)
	return &w.out
}

func release(w *calcWork) {
	if cap(w.out.B) > maxPooledBody {
		w.out.B = make([]byte, 0, 64<<10)
	}
	w.c, w.s, w.entered, w.opt.Milestones = nil, nil, false, false
	calcPool.Put(w)
}

// step is the rows the request asks for (see plan.KeepRow).
func step(r *calcRequest) int {
	switch r.Output {
	case "summary":
		return 0
	case "yearly":
		if r.Every != nil {
			return *r.Every
		}
		return 5
	}
	return 1
}

func (p *calcParams) apply(in *fi.Input) {
	setF(&in.CurrentSavings, p.CurrentSavings)
	setF(&in.ExpectedReturn, p.ExpectedReturn)
	setF(&in.InflationRate, p.InflationRate)
	setF(&in.WithdrawalRate, p.WithdrawalRate)
	setF(&in.IncomeGrowthRate, p.IncomeGrowthRate)
	setF(&in.RetirementExpenses, p.RetirementExpenses)
	setF(&in.Fee, p.ExpenseRatio)
	setF(&in.StockShare, p.StockShare)
	setF(&in.CashShare, p.CashShare)
	setF(&in.CAPE, p.CAPE)
	setI(&in.LifeExpectancy, p.LifeExpectancy)
	setI(&in.TargetRetirementAge, p.TargetRetirementAge)
	if p.AnnualContribution != nil {
		in.FixedContribution, in.Contribution = true, *p.AnnualContribution
	}
	if p.WithdrawalStrategy != "" {
		in.Strategy, _ = fi.ParseStrategy(p.WithdrawalStrategy)
	}
	if len(p.Pensions) > 0 {
		in.NumPensions = 0
		for _, x := range p.Pensions {
			in.AddPension(fi.Pension{FromAge: x.FromAge, Amount: x.Amount, Indexed: x.InflationLinked})
		}
	}
	if len(p.Events) > 0 {
		in.NumEvents = 0
		for _, x := range p.Events {
			in.AddEvent(fi.Event{Age: x.Age, Amount: x.Amount, Nominal: x.Nominal})
		}
	}
}

func setF(dst *float64, v *float64) {
	if v != nil {
		*dst = *v
	}
}

func setI(dst *int, v *int) {
	if v != nil {
		*dst = *v
	}
}

// Calculate answers the plan for the body.
func (s *Handlers) Calculate(c *rest.Ctx) {
	w := calcPool.Get().(*calcWork)
	defer release(w)
	c.RC.Response.Header.Set(fasthttp.HeaderVary, "Accept")
	csv := wantsCSV(c.RC.Request.Header.Peek(fasthttp.HeaderAccept))
	year := s.now().Year()
	// A caller asking for the typed figures is answered past the cache,
	// which holds bytes alone.
	typed, _ := c.RC.UserValue(typedKey).(*plan.Typed)
	raw := w.rawKey(c.RC.Request.Body(), year, csv)
	if a, ok := s.cache.Get(raw); ok && typed == nil && s.again(c, a, csv) {
		return
	}
	if !rest.Decode(c, s.schema, &w.req) || !s.inputs(c, w, year, csv) {
		return
	}
	if typed != nil {
		s.typed(c, w, typed)
		return
	}
	// An answer on a user's own series is the user's alone, and follows
	// the series: it is never cached.
	own := userDataset(&w.req)
	key := w.cacheKey(w.base.StartYear, csv)
	if a, ok := s.cache.Get(key); ok && !own {
		s.hits.Add(1)
		if !s.limiter.Charge(c, w.extra) {
			return
		}
		s.cache.Set(raw, a, int64(len(raw)))
		send(c, csv, a.body)
		return
	}
	s.misses.Add(1)
	if !s.compute(c, w, csv, &w.res) {
		return
	}
	if w.entered {
		defer s.gate.Leave(c)
	}
	out := w.reset()
	if csv {
		out.B = appendCSV(out.B, &w.res, step(&w.req))
	} else if err := w.docs.writeJSON(&w.res, false); err != nil {
		c.Internal(err)
		return
	}
	if own || !s.seen.admit(key) {
		c.SendCopy(fasthttp.StatusOK, contentType(csv), out.B)
		return
	}
	// A key asked for again is kept as an exact-size copy: one
	// allocation, which the cache and the response share.
	a := &answer{body: bytes.Clone(out.B), mc: w.req.MonteCarlo != nil, units: w.extra}
	s.cache.Set(key, a, int64(len(a.body)))
	send(c, csv, a.body)
}

// monteCarloFlag is the feature flag that switches Monte Carlo off, on
// (the default while undefined) or on for some callers.
const monteCarloFlag = "calculator-monte-carlo"

// again serves a, found by the request's exact bytes, and reports whether
// it answered: the checks that decoding the body made the first time hold
// for the same bytes in the same year, except the Monte Carlo kill switch
// and the rate limit's extra units, which are taken again here. With the
// switch off it does not answer, so the request takes the full path and
// its error.
func (s *Handlers) again(c *rest.Ctx, a *answer, csv bool) bool {
	if a.mc && !s.flags.Flag(c, monteCarloFlag, true) {
		return false
	}
	s.hits.Add(1)
	if a.units > 0 && !s.limiter.Charge(c, a.units) {
		return true // answered 429
	}
	send(c, csv, a.body)
	return true
}

func send(c *rest.Ctx, csv bool, body []byte) {
	c.SendBodyAs(fasthttp.StatusOK, contentType(csv), body)
}

// contentType is the answer's media type for rest's Send functions.
func contentType(csv bool) string {
	if csv {
		return contentCSV
	}
	return ""
}

// inputs translates the request into w.plan (translate) and checks the
// Monte Carlo kill switch, and reads a user's own series. It prices the
// work the answer, as csv or JSON, computes in w.extra: the rate-limit
// units beyond the request's one. On a failure it has answered.
func (s *Handlers) inputs(c *rest.Ctx, w *calcWork, year int, csv bool) bool {
	if err := s.translate(w, year); err != nil {
		fail(c, err)
		return false
	}
	// A kill switch for the costliest part of the busiest public route.
	if w.req.MonteCarlo != nil && !s.flags.Flag(c, monteCarloFlag, true) {
		c.Error(errcode.Unavailable, "Monte Carlo simulation is switched off for now: leave monteCarlo out, or retry later")
		return false
	}
	if !s.userRecord(c, w) {
		return false
	}
	work, err := s.work(w, csv)
	if err != nil {
		c.Internal(err)
		return false
	}
	w.extra = Units(work) - 1
	return true
}

// fail answers a plan's refusal, a *plan.FieldError, naming its field.
func fail(c *rest.Ctx, err error) {
	if fe, ok := err.(*plan.FieldError); ok {
		c.Fail(fe.Field, fe.Message)
		return
	}
	c.Internal(err)
}

// Handlers serve the calculator.
type Handlers struct {
	schema *schema.Schema[calcRequest]
	// optSchema is the optimize field's, a saved plan's optimize body
	optSchema *schema.Schema[calcOptimize]
	history   history.Series
	home      *history.Home
	series    SeriesSource
	records   sync.Map // restated records by dataset, currency and prices: *plan.History
	now       func() time.Time
	flags     Flags
	limiter   rest.Limiter
	taxes     *taxtable.Table
	fx        *fx.Table
	cities    map[string]*place.City // by id, prepared
	data      plan.Inputs            // the datasets every plan reads
	cache     *ristretto.Cache[string, *answer]
	seen      *doorkeeper
	hits      atomic.Uint64
	misses    atomic.Uint64
	gate      *rest.Gate
	// pathYears counts the simulated path-years (paths x years).
	pathYears atomic.Uint64
	// Doc describes the route for the OpenAPI document.
	Doc *rest.Doc
}

// PathYears is how many path-years (simulated paths x years each) the
// Monte Carlo simulations have run.
func (s *Handlers) PathYears() uint64 { return s.pathYears.Load() }

// Deps is what the calculator reads besides the request.
type Deps struct {
	History history.Series
	Now     func() time.Time
	// Flags answers whether a feature flag is on for the caller (the
	// Monte Carlo kill switch).
	Flags  Flags
	Taxes  *taxtable.Table
	Cities *geo.Table
	FX     *fx.Table
	// Gate bounds the simulations, backtests and goal seeks running at
	// once (nil: no bound); a request past it is refused with 503.
	Gate *rest.Gate
	// Limiter charges an expensive request's units to its caller.
	Limiter rest.Limiter
	// Series reads a user's own return series (nil: none can be named).
	Series SeriesSource
}

// SeriesSource reads the user's series id; ok is false when the user has
// none by that id.
type SeriesSource func(user, id string) (u *history.UserSeries, ok bool, err error)

// Flags reads the feature flags (handlers/features).
type Flags interface {
	Flag(c *rest.Ctx, key string, def bool) bool
}

// New compiles the request declaration against v and creates the answer
// cache; Close releases it.
func New(v *schema.Vocabulary, d Deps) (*Handlers, error) {
	s := &Handlers{history: d.History, series: d.Series, now: d.Now, flags: d.Flags, taxes: d.Taxes, fx: d.FX, gate: d.Gate, limiter: d.Limiter}
	var err error
	if s.home, err = history.EmbeddedHome(); err != nil {
		return nil, err
	}
	if s.schema, err = schema.Compile[calcRequest](v); err != nil {
		return nil, err
	}
	if s.optSchema, err = schema.Compile[calcOptimize](v); err != nil {
		return nil, err
	}
	data, err := schema.CompileDoc[calcResponseDoc](v)
	if err != nil {
		return nil, err
	}
	all := d.Cities.All()
	places := make([]place.City, len(all))
	s.cities = make(map[string]*place.City, len(all))
	for i := range all {
		c := &all[i]
		places[i] = place.City{ID: c.ID, Name: c.Name, Single: linesOf(&c.Breakdown.Single), Family: linesOf(&c.Breakdown.Family)}
	}
	place.Prepare(places)
	for i := range places {
		s.cities[places[i].ID] = &places[i]
	}
	s.data = plan.Inputs{Cities: s.cities, Convert: s.fx.Convert, Wrappers: s.taxes.Wrappers, Systems: s.taxes.System, Countries: s.taxes.Codes()}
	if s.cache, err = newCache(); err != nil {
		return nil, err
	}
	s.seen = &doorkeeper{seed: maphash.MakeSeed()}
	s.Doc = &rest.Doc{
		Tag:     "calculator",
		Status:  200,
		Summary: "FI timeline calculator",
		Desc: "Computes the year-by-year path to financial independence and through retirement, with scenarios side by side, " +
			"an optional Monte Carlo simulation, a historical backtest and goal seeking.\n\n" + fi.Method + "\n\n" + planDesc + "\n\n" + csvDesc + "\n\n" + cacheDesc,
		Body:  s.schema,
		Data:  data,
		Media: []rest.Media{{Type: "text/csv", Desc: csvDesc}},
		Errs: []rest.ErrDoc{rest.Err(errcode.Unavailable, "monteCarlo was asked while the feature flag calculator-monte-carlo is off for the caller, "+
			"or while as many expensive requests (monteCarlo, historical or goals, answered in JSON) as the server runs at once are running (retryAfter and Retry-After say when to retry; nothing is queued)")}}
	return s, nil
}

func linesOf(l *geo.Lines) place.Lines {
	return place.Lines{l.Rent, l.Groceries, l.EatingOut, l.Transport, l.Utilities, l.Internet, l.HealthInsurance}
}

const planDesc = "Taxes (with `tax`). Every plan is taxed by the rules of POST /api/v1/tax/calculate (a resident single person, the country's tax year and region): " +
	"annualIncome is gross employment income, and the timeline saves from the take-home pay, annualIncome - tax. Retirement spending S (retirementExpenses, " +
	"a city's budget or annualExpenses) is grossed up: the retirement income G, taxed as tax.withdrawalIncome (by default the country's treatment of a portfolio withdrawal where " +
	"its data states one, else pension: withdrawals from a pension or retirement account), solves G - tax(G) = S to the cent under the rules of the year retirement starts, and the drawdown takes G a year, so afterTaxFINumber = G / withdrawalRate is the number the " +
	"timeline aims at. Pensions are part of G and taxed alike. With capitalGains, tax(G) is the tax on the gain share of G as a capital gain, the share of the first " +
	"drawdown year's withdrawal (the cost basis followed from costBasis at average cost), and each drawdown row's tax is on the gain share of that year's withdrawal " +
	"and on its pensions as pensions. Each year is taxed under its own tax year (tax.year + row), as published or, past the country's newest, with each figure moved by its own rule (most with prices; frozen, fixed or ended ones as the law says); with incomeGrowthRate the tax " +
	"grows with the income (today's average rate kept); savingsRate is of the take-home pay. Each row's tax is in money of that year. Amounts are in `currency` (default: the tax country's); " +
	"in another currency they are converted for the tax at the reference exchange rates.\n\n" +
	"Places (with `cityId`). A plan's retirement spending is 12 x the city's monthly budget for householdSize people (as GET /api/v1/geo/recommendations " +
	"budgets households), in USD converted into `currency` (default USD) at the reference exchange rates; a scenario can name another city, so FI at home " +
	"and in another city are one request.\n\n" +
	"Households (with partner, accounts, spending, withdrawalOrder, conversions, relocations, tax.filing, or a pension with owner partner or a statutory kind). " +
	"Every plan then runs year by year as a household: wages, pensions and statutory benefits (claimed at fromAge with the statute's reduction or credit), " +
	"contributions within each wrapper's limits (the rest to the taxable account: overLimit), required minimums, spending by phase, withdrawals in withdrawalOrder " +
	"(money before its access age only when nothing else is left, its charge in tax.penalties), each year taxed on the income received, jointly where the rules allow, and where the residence taxes wealth " +
	"(the Dutch box 3, Zürich, Spain, Norway; 2026 rules) on the cash and investment accounts' opening balances (tax.wealthTax). " +
	"Rows add accounts, income, tax by kind and residence; the summary adds lifetimeTax, bridge and baseline; Monte Carlo and backtests replay the whole plan. " +
	"Method and simplifications: docs/HOUSEHOLD.md in the source repository.\n\n" +
	"Output. `output` summary leaves the projection rows out, yearly keeps every Nth (`every`, default 5) and the last; full (default) answers every row."

const cacheDesc = "Answers are cached: from the second time the same request (in any field order, spacing or number spelling) is asked for, it is answered with the same bytes from memory, and a body sent again byte for byte is answered without being decoded (the Monte Carlo kill switch and its rate-limit units still apply). " +
	"Monte Carlo answers too: a simulation is seeded by monteCarlo.seed (1 when absent), so it repeats."
