package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	"fiplan/handlers/rest"
)

// tool is one MCP tool, backed by one route of the API: the route's request
// declaration is the tool's input schema and its response data declaration
// the output schema, so the two interfaces cannot drift. Both are trimmed
// for a model's context (trim.go), and the answer is compact unless the
// call asks for every field (compact.go).
type tool struct {
	name, title string
	method      string // the route's method and path, as in the route table
	path        string
	read        bool    // annotations: changes nothing
	destructive bool    // removes or overwrites what the caller stored
	idempotent  bool    // the same call twice has the effect of one
	summary     summary // nil for the calculator tools, summarised from the typed Result
	// desc is the description a model reads: what the tool answers, its
	// units and ranges, and an example call.
	desc string
	// projections: the tool answers the calculator's plan (fi_calculate,
	// run_my_plan): milestone rows unless output is full.
	projections bool
	// page is the number of items a list tool answers when the call
	// names no limit: a model's context is small, so fewer than the API's
	// page (0: the API's).
	page int
	// compact says how the default answer is cut down; detail: full asks
	// for the API's whole answer. Nil: the answer is the API's.
	compact *compaction
	// calc: the answer is a calculation, which carries what reproduces it
	// (provenance.go).
	calc bool
	// stored names the saved plan whose input the calculation runs
	// (run_my_plan, checkin_my_plan): it enters the input hash.
	stored bool
	// filter is a tool-only argument naming the one item the list answers
	// (tax_countries' country), checked against its grammar.
	filter *filter

	route  *rest.Route
	input  json.RawMessage
	output json.RawMessage
}

// toolPage is a list tool's default page: ten compact rows fit a model's
// context where the API's 50 full records do not.
const toolPage = 10

// tools is every tool the server offers.
func tools() []*tool { return append(dataTools(), userTools()...) }

// dataTools are the tools that compute from what the call sends and the
// embedded datasets.
func dataTools() []*tool {
	return []*tool{
		{name: "fi_calculate", title: "FI timeline", method: "POST", path: "/api/v1/calculator", read: true, idempotent: true, projections: true, calc: true,
			compact: planCompaction, desc: descCalculate},
		{name: "portfolio_health", title: "Portfolio health score", method: "POST", path: "/api/v1/portfolio-health", read: true, idempotent: true, summary: healthSummary,
			desc: "Scores a portfolio 0-1000 (diversification, costs, risk for the age, cash buffer) with the changes that would raise it most. " +
				"Values in one currency; expenseRatio a fraction (0.002 = 0.2%). " +
				`Example: {"holdings":[{"name":"World","value":200000,"assetClass":"equity"},{"name":"Cash","value":15000,"assetClass":"cash"}],"age":40}.`},
		{name: "search_cities", title: "Search cities", method: "GET", path: "/api/v1/geo/cities", read: true, idempotent: true, summary: citiesSummary, page: toolPage,
			compact: &compaction{rows: []string{"id", "name", "country", "monthlyCostUSD", "costOfLivingIndex", "safetyIndex"}},
			desc: "Searches about 200 cities by name, country, region, climate and cost (USD a month, one person). " +
				"10 compact rows (id, name, country, monthly cost, cost and safety indexes 0-100); limit (1-200), offset, detail: full for more. " +
				`Example: {"region":"europe-south","maxMonthlyCost":2500,"sort":"cost"}.`},
		{name: "compare_cities", title: "Compare cities", method: "GET", path: "/api/v1/geo/compare", read: true, idempotent: true, summary: compareSummary,
			desc: "Compares 2-5 cities by id (from search_cities): monthly costs in USD, how far money goes against the first, the FI number each needs. " +
				`Example: {"ids":"lisbon-pt,porto-pt","style":"lean"}.`},
		{name: "recommend_cities", title: "Cities for a budget", method: "POST", path: "/api/v1/geo/recommendations", read: true, idempotent: true, summary: recommendSummary, page: toolPage,
			compact: &compaction{rows: []string{"rank", "id", "name", "country", "score", "monthlyCostUSD", "budgetShare"}},
			desc: "Ranks cities for a monthly budget in USD (or portfolioUSD x withdrawalRate / 12) and preferences. " +
				"The best 10 as compact rows (rank, id, name, country, score 0-100, monthly cost, budget share); limit, detail: full (reasons, indexes) for more. " +
				`Example: {"monthlyBudgetUSD":3000,"preferences":{"minSafety":60}}.`},
		{name: "tax_calculate", title: "Taxes on an income", method: "POST", path: "/api/v1/tax/calculate", read: true, idempotent: true, summary: taxSummary, calc: true,
			desc: "One country's taxes on a person's yearly income by kind, in the country's currency: income tax, social contributions, capital tax, total, effective and marginal rates (fractions). " +
				"country from tax_countries; year defaults to the latest; region adds a state's tax. " +
				`Example: {"country":"GB","income":{"employment":50000,"dividends":3000}}.`},
		{name: "tax_programs", title: "Special tax programs", method: "GET", path: "/api/v1/tax/programs", read: true, idempotent: true, summary: programsSummary, page: toolPage,
			compact: &compaction{rows: []string{"id", "name", "country", "kind", "status", "calculable"}},
			desc: "Special tax regimes for expats, retirees and new residents, with their status. " +
				"10 compact rows (id, name, country, kind, status); limit (1-200), offset, detail: full (eligibility, rules, sources) for more. " +
				`Example: {"country":"PT"}.`},
		{name: "tax_optimize", title: "Where taxes leave most (pro)", method: "POST", path: "/api/v1/tax/optimize", read: true, idempotent: true, summary: optimizeSummary, calc: true,
			compact: &compaction{list: "suggestions", max: toolPage, also: []string{"current"}, drop: []string{"skipped"},
				rows: []string{"rank", "country", "name", "program", "afterTaxIncomeUSD", "totalTaxUSD", "effectiveRate"}},
			desc: "Ranks countries and their special programs by the income (USD) left after tax on the same yearly income, against where the person lives now. " +
				"The best 10 as compact rows; detail: full for every country and those skipped. " +
				`Example: {"country":"US","income":{"pension":30000,"dividends":20000},"monthlyBudgetUSD":4000}.`},
		{name: "tax_countries", title: "Tax countries, regions, years and wrappers", method: "GET", path: "/api/v1/tax/countries", read: true, idempotent: true, summary: countriesSummary,
			compact: &compaction{rows: []string{"code", "name", "currency", "years", "regions.code", "wrappers.id"}, counts: true, listOnly: []string{"name"}}, filter: countryFilter,
			desc: "Countries the tax tools cover: ISO code, currency, tax years (the calendar year each begins in), how many regions and tax-advantaged accounts (wrappers) each has; " +
				"with country, its name, region codes and wrapper ids. detail: full adds what is modelled and the wrappers' rules. " +
				`Example: {"country":"US"}.`},
	}
}

// userTools are the tools that read or change the signed-in user's
// stored data.
func userTools() []*tool {
	return []*tool{
		{name: "my_fi_score", title: "My FI score", method: "GET", path: "/api/v1/fi-score", read: true, idempotent: true, summary: fiScoreSummary,
			desc: "The user's FI score 0-1000 from the stored profile and assets, and what is missing for a fuller score."},
		{name: "list_my_assets", title: "My assets", method: "GET", path: "/api/v1/assets", read: true, idempotent: true, summary: assetsSummary, page: toolPage,
			compact: &compaction{rows: []string{"id", "name", "value", "currency", "category"}},
			desc: "The user's stored assets, oldest first: 10 compact rows (id, name, value, currency, category); limit (1-200), offset, detail: full for more. " +
				`Example: {"category":"equity"}.`},
		{name: "add_asset", title: "Add an asset", method: "POST", path: "/api/v1/assets", summary: assetSummary,
			desc: "Stores a new asset of the user: name, value in currency, category (guessed from the name or ISIN when left out). " +
				`Example: {"name":"Bond fund","value":8000,"currency":"EUR","category":"bond"}.`},
		{name: "update_asset", title: "Change an asset", method: "PATCH", path: "/api/v1/assets/{id}", destructive: true, idempotent: true, summary: assetSummary,
			desc: "Changes the fields named of one stored asset (id from list_my_assets); null clears one. " +
				`Example: {"id":"ast_...","value":12500,"notes":null}.`},
		{name: "delete_asset", title: "Delete an asset", method: "DELETE", path: "/api/v1/assets/{id}", destructive: true, idempotent: true, summary: deletedSummary,
			desc: `Deletes one stored asset for good. Example: {"id":"ast_..."}.`},
		{name: "list_my_plans", title: "My saved plans", method: "GET", path: "/api/v1/plans", read: true, idempotent: true, summary: plansSummary, page: toolPage,
			compact: &compaction{rows: []string{"id", "name", "updatedAt"}},
			desc:    "The user's saved plans, oldest first: 10 compact rows (id, name, updatedAt); limit (1-200), offset, detail: full (inputs) for more."},
		{name: "get_my_plan", title: "One saved plan", method: "GET", path: "/api/v1/plans/{id}", read: true, idempotent: true, summary: planSummary1,
			desc: `One saved plan: its name and input (fi_calculate's arguments). Example: {"id":"pln_..."}.`},
		{name: "save_my_plan", title: "Save a plan", method: "POST", path: "/api/v1/plans", summary: savedPlanSummary,
			desc: "Stores a plan: name (1-120 characters) and input, fi_calculate's arguments; at most 100 plans. " +
				`Example: {"name":"Lean","input":{"currentAge":40,"annualIncome":90000,"annualExpenses":40000}}.`},
		{name: "run_my_plan", title: "Run a saved plan", method: "POST", path: "/api/v1/plans/{id}/run", read: true, idempotent: true, projections: true, calc: true, stored: true,
			compact: planCompaction,
			desc: "Runs a saved plan's input and answers as fi_calculate does (summary and milestones; output: full for every row). " +
				`Example: {"id":"pln_..."}.`},
		{name: "checkin_my_plan", title: "Yearly check-in of a saved plan", method: "POST", path: "/api/v1/plans/{id}/checkin", read: true, idempotent: true, summary: checkInSummary, calc: true, stored: true,
			desc: "What a saved plan lets the user spend this year from today's savings (currentSavings, or balances by account id): the withdrawal and its rate, guardrails, success rates from today. " + `Example: {"id":"pln_...","currentSavings":1050000}.`},
		{name: "list_my_events", title: "My plan events", method: "GET", path: "/api/v1/user/events", read: true, idempotent: true, summary: eventsSummary, page: toolPage,
			desc: "Events about the user's saved plans, newest first (checkin.due, guardrail.crossed, plan.offtrack, fi.reached, test); limit, offset."},
		{name: "optimize_plan", title: "Choose a saved plan's decisions", method: "POST", path: "/api/v1/plans/{id}/optimize", read: true, idempotent: true, summary: optimizedSummary, calc: true, stored: true,
			compact: &compaction{keep: []string{"optimized", "lifetimeTaxPV", "afterTaxEndWealth"}, drop: []string{"optimized.projections"}},
			desc: "Chooses a saved plan's conversions, pension claiming ages, drawing order and retirement age for the highest spending or after-tax estate: " +
				`the decisions, the gain, each one's worth, a line on each. Example: {"id":"pln_...","objective":"spending"}.`},
		{name: "get_my_profile", title: "My profile", method: "GET", path: "/api/v1/user/profile", read: true, idempotent: true, summary: documentSummary("Profile", "currency"),
			desc: "The user's profile (age, country, currency, yearly income and spending, target retirement age, ...); null where never set."},
		{name: "update_my_profile", title: "Change my profile", method: "PATCH", path: "/api/v1/user/profile", idempotent: true, summary: documentSummary("Profile", "currency"),
			desc: "Changes the fields named of the user's profile; null clears one. Amounts yearly, in the profile's currency. " +
				`Example: {"currentAge":41,"annualExpenses":42000}.`},
		{name: "get_my_settings", title: "My settings", method: "GET", path: "/api/v1/user/settings", read: true, idempotent: true, summary: documentSummary("Settings", "baseCurrency"),
			desc: "The user's settings: base currency, locale, expected return, inflation and withdrawal rates (fractions), units."},
		{name: "update_my_settings", title: "Change my settings", method: "PATCH", path: "/api/v1/user/settings", idempotent: true, summary: documentSummary("Settings", "baseCurrency"),
			desc: "Changes the fields named of the user's settings; null restores a default. Rates are fractions (0.035 = 3.5%). " +
				`Example: {"withdrawalRate":0.035,"baseCurrency":"EUR"}.`},
	}
}

// descCalculate is fi_calculate's description.
const descCalculate = "Projects savings year by year to financial independence (FI) and through retirement. " +
	"Amounts yearly in today's money (default USD); rates fractions (0.04 = 4%); ages 18-100. " +
	"Answers the FI number (spending / withdrawalRate), FI age and year, milestone rows and, when asked, scenarios, a seeded Monte Carlo (monteCarlo) and a backtest (historical) as summaries; " +
	"output: full adds every row. tax: after a country's tax. " +
	`Example: {"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,"monteCarlo":{},"historical":{}}.`

// bind finds each tool's route and derives its schemas from the route's
// declarations.
func bind(list []*tool, routes []*rest.Route) error {
	for _, t := range list {
		for _, r := range routes {
			if r.Method == t.method && r.Path == t.path {
				t.route = r
				break
			}
		}
		if t.route == nil {
			return fmt.Errorf("cannot bind tool %s: no route %s %s", t.name, t.method, t.path)
		}
		var err error
		if t.input, err = inputSchema(t); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
		if t.output, err = outputSchema(t); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
		if t.input, err = portable(t.input); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
		if t.output, err = portable(t.output); err != nil {
			return fmt.Errorf("cannot bind tool %s: %w", t.name, err)
		}
	}
	return nil
}

// pathParam is the name of the route's path parameter, "" when it has none.
func (t *tool) pathParam() string {
	i := strings.IndexByte(t.path, '{')
	if i < 0 {
		return ""
	}
	name, _, _ := strings.Cut(t.path[i+1:], "}")
	return name
}
