package geo

import (
	geodata "fiplan/data/geo"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

type ratioLines struct {
	Rent            float64 `json:"rent" schema:"required"`
	Groceries       float64 `json:"groceries" schema:"required"`
	EatingOut       float64 `json:"eatingOut" schema:"required"`
	Transport       float64 `json:"transport" schema:"required"`
	Utilities       float64 `json:"utilities" schema:"required"`
	Internet        float64 `json:"internet" schema:"required"`
	HealthInsurance float64 `json:"healthInsurance" schema:"required"`
	Total           float64 `json:"total" schema:"required"`
}

type compareEntry struct {
	City           cityItem      `json:"city" schema:"required"`
	MonthlyCostUSD int           `json:"monthlyCostUSD" schema:"required" doc:"The month's cost in the requested style (costs.total)."`
	AnnualCostUSD  int           `json:"annualCostUSD" schema:"required" doc:"12 x monthlyCostUSD."`
	FINumberUSD    float64       `json:"fiNumberUSD" schema:"required" doc:"Portfolio that sustains the spending: 12 x monthlyCostUSD / withdrawalRate."`
	Costs          geodata.Lines `json:"costs" schema:"required" doc:"The monthly budget in the requested style, line by line."`
	RatioToFirst   ratioLines    `json:"ratioToFirst" schema:"required" doc:"Each cost line divided by the same line of the first city (3 decimals); 1 for the first city."`
	GoesFurther    float64       `json:"goesFurther" schema:"required" doc:"The first city's total divided by this city's: money goes this many times further here than there (3 decimals)."`
	Summary        string        `json:"summary" schema:"required" doc:"goesFurther in words."`
}

type compareData struct {
	Style          string         `json:"style" schema:"required,enum=lean|normal|fat|family"`
	WithdrawalRate float64        `json:"withdrawalRate" schema:"required"`
	Reference      string         `json:"reference" schema:"required" doc:"Id of the first city, which every ratio compares with."`
	Cities         []compareEntry `json:"cities" schema:"required" doc:"In the order asked for."`
}

type scorePart struct {
	Name  string `json:"name" schema:"required,enum=affordability|safety|healthcare|climate|internet|english|visa"`
	Score int    `json:"score" schema:"required"`
	Max   int    `json:"max" schema:"required"`
}

type recommendation struct {
	Rank               int         `json:"rank" schema:"required" doc:"1 for the best."`
	ID                 string      `json:"id" schema:"required"`
	Name               string      `json:"name" schema:"required"`
	Country            string      `json:"country" schema:"required"`
	CountryName        string      `json:"countryName" schema:"required"`
	Region             string      `json:"region" schema:"required"`
	ClimateBand        string      `json:"climateBand" schema:"required,enum=cold|temperate|warm|hot"`
	MonthlyCostUSD     int         `json:"monthlyCostUSD" schema:"required" doc:"The household's monthly cost here (see householdSize)."`
	RentUSD            int         `json:"rentUSD" schema:"required" doc:"The rent line of that cost."`
	BudgetShare        float64     `json:"budgetShare" schema:"required" doc:"monthlyCostUSD / budget, at most 1."`
	Tight              bool        `json:"tight" schema:"required" doc:"Fits the budget only just: the cost is 90% of it or more."`
	Score              int         `json:"score" schema:"required" doc:"0-100; the sum of scoreBreakdown."`
	ScoreBreakdown     []scorePart `json:"scoreBreakdown" schema:"required"`
	CostOfLivingIndex  float64     `json:"costOfLivingIndex" schema:"required"`
	SafetyIndex        int         `json:"safetyIndex" schema:"required"`
	HealthcareIndex    int         `json:"healthcareIndex" schema:"required"`
	InternetMbps       int         `json:"internetMbps" schema:"required"`
	EnglishProficiency string      `json:"englishProficiency" schema:"required"`
	Reasons            []string    `json:"reasons" schema:"required" doc:"Why the city is listed: cost against the budget first, then its strengths."`
}

// Docs describes the routes for the OpenAPI document.
type Docs struct {
	List, Get, Compare, Recommend *rest.Doc
}

func (g *Handlers) docs(cityItemDoc, compareDoc, recommendationDoc rest.Schema) Docs {
	notFound := rest.Err(errcode.NotFound, "no city has this id")
	return Docs{
		List: &rest.Doc{
			Tag:     "geo",
			Status:  200,
			List:    true,
			Summary: "Cities with their cost of living",
			Desc: "The embedded city dataset (fiplan's own estimates from public statistics; see the dataset's method and sources), filtered, sorted and paged. " +
				"Every amount is USD per month. Filters combine with AND. Unknown or repeated query parameters answer 400. " +
				"Without a query the page carries a strong ETag and If-None-Match naming it answers 304.",
			NotModified: true,
			Data:        cityItemDoc,
			Query: append([]rest.Param{
				rest.Q("country", "string", "ISO 3166-1 alpha-2 code, any case: only cities in this country."),
				rest.Q("region", "string", "Only cities in this region: one of "+regionList+"."),
				rest.Q("q", "string", "Name search, case- and accent-insensitive, over the name and the city's aliases (local and other common names): 'sao paulo' finds São Paulo, 'lisboa' Lisbon, 'munchen' Munich. Up to 100 bytes."),
				rest.Q("maxMonthlyCost", "number", "Only cities whose monthlyCostUSD is at most this."),
				rest.Q("minSafety", "integer", "Only cities whose safetyIndex is at least this, 0-100."),
				rest.Q("climate", "string", "Only cities in these climate bands, comma separated: "+climateList+". cold: coldest-month average high below 5 °C; hot: coldest-month high 24 °C or more, or warmest-month high 38 °C or more; warm: coldest-month high 12 °C or more and warmest-month high 25 °C or more; temperate: the rest."),
				rest.Q("sort", "string", "name (default; accent-folded, as the ids), cost or index (the same order: the index is the cost relative to New York); a leading - sorts descending. Ties go by id."),
			}, rest.PageQuery...),
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "a query parameter is malformed, out of range, unknown or repeated; details name it")}},
		Get: &rest.Doc{
			Tag:         "geo",
			Status:      200,
			Summary:     "One city",
			Desc:        "One city by its id, a slug such as lisbon-pt. It carries a strong ETag; If-None-Match naming it answers 304.",
			Data:        cityItemDoc,
			NotModified: true,
			Errs:        []rest.ErrDoc{notFound}},
		Compare: &rest.Doc{
			Tag:     "geo",
			Status:  200,
			Summary: "Compare 2 to 5 cities",
			Desc: "The cities side by side, in the order asked for, with each cost line's ratio to the first city, how many times further money goes in each than in the first, " +
				"and the FI number each needs (12 x monthly cost / withdrawalRate). Spending styles: " + styleDoc,
			Data: compareDoc,
			Query: []rest.Param{
				rest.Q("ids", "string", "2 to 5 city ids, comma separated, no repeats; the first is the reference."),
				rest.Q("style", "string", "lean, normal (default), fat or family; see the description."),
				rest.Q("withdrawalRate", "number", "Above 0, at most 0.2; default 0.04."),
			},
			Errs: []rest.ErrDoc{rest.Err(errcode.Validation, "ids lists fewer than 2 or more than 5 ids, repeats one or holds a malformed one; or style, withdrawalRate or another parameter is bad"), rest.Err(errcode.NotFound, "an id names no city; the message names it")}},
		Recommend: &rest.Doc{
			Tag:     "geo",
			Status:  200,
			List:    true,
			Summary: "Cities ranked for a budget and preferences",
			Desc: "Every city whose household cost fits the budget and that meets every preference, best first, with its score, a score breakdown and the reasons. " +
				"The budget is monthlyBudgetUSD, or portfolioUSD x withdrawalRate / 12: give exactly one of the two. " + scoreDoc +
				" meta.total counts every city that fits; data holds the first limit of them. Answers are cached: the same request (in any field order or spacing) answers the same bytes.",
			Body: g.recoSchema,
			Data: recommendationDoc,
			Errs: []rest.ErrDoc{rest.Err(errcode.Missing, "neither monthlyBudgetUSD nor portfolioUSD is given; VALIDATION_ERROR: both are, or withdrawalRate comes without portfolioUSD")}},
	}
}
