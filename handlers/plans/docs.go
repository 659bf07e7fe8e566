package plans

import (
	"strconv"

	"fiplan/handlers/errcode"
	"fiplan/handlers/owned"
	"fiplan/handlers/rest"
)

func (s *Handlers) docs(planDoc, checkInDoc rest.Schema, answer *rest.Doc) {
	max := strconv.Itoa(MaxPlans)
	d := &s.Docs
	d.List = Plans.Doc(owned.List, "List your saved plans",
		"Your saved plans, oldest first, each with its id, name, calculator input and times, paged with `limit` and `offset`; "+
			"`meta.total` counts them all (at most "+max+"). Example: limit 10, offset 0 gives the first ten.",
		nil, planDoc)
	d.Create = Plans.Doc(owned.Create, "Save a plan",
		"Stores a plan under a new id: `name` (1 to 120 characters) and `input`, a calculator request (the arguments of POST /calculator: "+
			"amounts yearly in the plan's currency, rates as fractions, 0.04 = 4%), checked as the calculator checks it, with errors under `input.`. "+
			"At most "+max+" plans per user. Example: {\"name\":\"Lean at 50\",\"input\":{\"currentAge\":35,\"annualIncome\":90000,\"annualExpenses\":40000,\"currentSavings\":150000}}.",
		s.inSchema, planDoc)
	d.Get = Plans.Doc(owned.Get, "Get one saved plan",
		"The plan with its name and calculator input, and its ETag for a later conditional PUT, PATCH or DELETE.", nil, planDoc)
	d.Put = Plans.Doc(owned.Put, "Replace a saved plan",
		"Replaces the plan's name and input with the body, checked as a new plan is; the id and createdAt stay. The body may be the plan as GET "+
			"answered it: id and createdAt, when sent, must be the stored ones, and updatedAt is ignored.",
		s.putSchema, planDoc)
	d.Patch = Plans.Doc(owned.Patch, "Change a saved plan",
		"The body is a JSON merge patch (RFC 7396) of {name, input}: members set fields, nested members of input merge into the stored input, "+
			"null removes an input field. The merged plan is checked as a new plan is. Example: {\"input\":{\"currentSavings\":180000}} changes the savings alone.",
		s.inSchema, planDoc)
	d.Delete = Plans.Doc(owned.Delete, "Delete a saved plan", "", nil, nil)
	s.runDocs(checkInDoc, answer, Plans.NotFoundDoc())
}

// runDocs declares the routes that compute: run and check-in.
func (s *Handlers) runDocs(checkInDoc rest.Schema, answer *rest.Doc, notFound rest.ErrDoc) {
	d := &s.Docs
	d.Run = &rest.Doc{
		Tag:     "plans",
		Status:  200,
		Summary: "Run a saved plan",
		Desc: "The calculator's answer for the plan's stored input, exactly as the calculator (POST /calculator) answers that body: the year-by-year " +
			"projections, FI age and number, and the Monte Carlo, backtest and goals the input asks for, charged and limited as a calculation is. " +
			"Amounts are in the plan's currency, yearly; rates are fractions. It takes no body: an empty object passes, a field answers 400 naming it.",
		Data:  answer.Data,
		Media: answer.Media,
		Errs:  append([]rest.ErrDoc{notFound}, answer.Errs...)}
	d.CheckIn = &rest.Doc{
		Tag:     "plans",
		Status:  200,
		Summary: "Yearly check-in of a saved plan",
		Desc: "What the plan lets you spend this year, and its odds from today. The plan is run from this year: its currentAge advanced by the years " +
			"since its start (its startYear, else the year it was saved), its savings replaced by today's (`currentSavings`, or `balances` by " +
			"account), its scenarios and goals left out. The answer gives the first drawdown year's withdrawal in today's money (this year's when " +
			"retired) with its rate, the guardrails' state for a guardrail strategy, and the success rates of a historical backtest (the input's, " +
			"else 30-year windows) and, when the input asks for one, of its Monte Carlo simulation. Charged and limited as a calculation with a " +
			"backtest is. A withdrawal rate outside the band of the plan's own withdrawalRate (for a guardrail strategy) raises the event guardrail.crossed, " +
			"once a year; a total more than 10% away from the portfolio the saved plan expects for the year raises plan.offtrack (once a year for each " +
			"side, below and above, with expected, actual and share), and a total that reaches the FI number (after tax for a taxed plan) raises " +
			"fi.reached, once for the plan (GET /user/events, webhooks). Example: {\"currentSavings\":1050000}.",
		Body: s.checkInSchema,
		Data: checkInDoc,
		Errs: []rest.ErrDoc{notFound,
			rest.Err(errcode.Conflict, "the saved plan cannot be run from this year (for instance today's age is past its lifeExpectancy); the message names the field"),
			rest.Err(errcode.Unavailable, "the plan asks for monteCarlo while it is switched off, or as many expensive requests as the server runs at once are running")}}
}
