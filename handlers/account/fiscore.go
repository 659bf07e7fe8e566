package account

import (
	"strconv"

	"github.com/valyala/fasthttp"

	"fiplan/compute/fiscore"
	"fiplan/compute/portfolio"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

func fiScoreDoc(data rest.Schema) *rest.Doc {
	return &rest.Doc{
		Tag:     "fi",
		Status:  200,
		Summary: "Your FI score from your stored profile and assets",
		Desc: "A 0-1000 score in three parts: `fiProgress` (400 points: net worth against the FI number, annual expenses / withdrawal rate), `portfolioHealth` (400 points: the POST /portfolio-health score of your stored assets × 0.4) and `timeToFI` (200 points: full when already FI, falling linearly to 0 at " +
			strconv.Itoa(fiscore.Horizon) + " or more years to FI, from the calculator's timeline with your net worth, income, expenses and settings). " +
			"Amounts are converted to your settings' base currency with the embedded reference exchange rates. A part whose inputs are missing scores 0; `missing` says what to add. Works with an API key.\n\n" +
			"With saved plans the score is of one of them (`plan` says which): the one `?plan=` names, else the one updated last. Its own run, from its start and without backtest or Monte Carlo, " +
			"gives the FI number (after tax when it is taxed) and the FI age; your age, income and expenses are the plan's; net worth is your assets' value, or the plan's savings when you have stored no assets. " +
			"A last plan whose input no longer runs is passed over for the profile; `?plan=none` scores the profile alone.",
		Query: []rest.Param{rest.Q("plan", "string", "The saved plan to score (its id), or none for the profile alone; default: the plan updated last.")},
		Errs: []rest.ErrDoc{rest.Err(errcode.NotFound, "?plan= names no plan of the caller"),
			rest.Err(errcode.Validation, "?plan= names a plan whose input no longer runs (details[0].path is plan)")},
		Data: data}
}

func (s *Handlers) FIScore(c *rest.Ctx) {
	user := c.Principal.User
	var p profile
	if err := s.profile.read(s.db, user, &p); err != nil {
		c.Storage(err)
		return
	}
	st, err := s.settings(user)
	if err != nil {
		c.Storage(err)
		return
	}
	hs, err := s.holdings(user)
	if err != nil {
		c.Storage(err)
		return
	}
	in := scoreInput(&p, &st, hs, s.now().UTC().Year())
	if id := string(c.RC.QueryArgs().Peek("plan")); id != "none" && s.scorePlan != nil && !s.scorePlan(c, id, &in) {
		return
	}
	c.JSON(fasthttp.StatusOK, newFIScoreData(fiscore.Score(&in, s.fx), &in, &p, s.fx.AsOf()))
}

// scoreInput is what the engine needs of the stored documents.
func scoreInput(p *profile, st *settingsDoc, hs []portfolio.Holding, year int) fiscore.Input {
	base := baseOf(st, p)
	cur := base
	if p.Currency != nil {
		cur = *p.Currency
	}
	in := fiscore.Input{Year: year, Currency: cur, Base: base, Holdings: hs,
		ExpectedReturn: st.ExpectedReturn, InflationRate: st.InflationRate, WithdrawalRate: st.WithdrawalRate}
	in.Age, in.HasAge = p.age(year)
	if p.AnnualIncome != nil {
		in.AnnualIncome, in.HasAnnualIncome = *p.AnnualIncome, true
	}
	if p.AnnualExpenses != nil {
		in.AnnualExpenses, in.HasAnnualExpenses = *p.AnnualExpenses, true
	}
	if p.TargetRetirementAge != nil {
		in.TargetRetirementAge, in.HasTargetRetirementAge = *p.TargetRetirementAge, true
	}
	if p.RiskTolerance != nil {
		in.RiskTolerance = *p.RiskTolerance
	}
	return in
}

// newFIScoreData is the response data of a score.
func newFIScoreData(r *fiscore.Result, in *fiscore.Input, p *profile, ratesAsOf string) *fiScoreData {
	out := &fiScoreData{Score: r.Score, Currency: in.Base, NetWorth: r.NetWorth, Missing: make([]missingInput, len(r.Missing))}
	if pl := in.Plan; pl != nil {
		out.Plan = &scoredPlan{ID: pl.ID, Name: pl.Name, UpdatedAt: pl.UpdatedAt}
	}
	for _, cp := range r.Components {
		out.Components = append(out.Components, scoreComponent(cp))
	}
	if r.HasFINumber {
		out.FINumber, out.Progress = &r.FINumber, &r.Progress
	}
	if r.HasYearsToFI {
		out.YearsToFI, out.FIAge = &r.YearsToFI, &r.FIAge
	}
	if h := r.Health; h != nil {
		out.PortfolioHealth = &scoreHealth{Score: h.Score, Recommendations: make([]scoreRecommendation, len(h.Recommendations))}
		for _, cp := range h.Components {
			out.PortfolioHealth.Components = append(out.PortfolioHealth.Components, scoreComponent(cp))
		}
		for i, rec := range h.Recommendations {
			out.PortfolioHealth.Recommendations[i] = scoreRecommendation(rec)
		}
	}
	u := &r.Used
	target := p.TargetRetirementAge
	if in.Plan != nil { // the plan's own, or none
		target = nil
		if in.HasTargetRetirementAge {
			target = &in.TargetRetirementAge
		}
	}
	out.Inputs = scoreInputs{TargetRetirementAge: target, RiskTolerance: p.RiskTolerance,
		ExpectedReturn: in.ExpectedReturn, InflationRate: in.InflationRate, WithdrawalRate: in.WithdrawalRate,
		Assets: len(in.Holdings), ExchangeRatesAsOf: ratesAsOf}
	if u.HasAge {
		out.Inputs.Age = &u.Age
	}
	if u.HasAnnualIncome {
		out.Inputs.AnnualIncome = &u.AnnualIncome
	}
	if u.HasAnnualExpenses {
		out.Inputs.AnnualExpenses = &u.AnnualExpenses
	}
	for i, m := range r.Missing {
		out.Missing[i] = missingInput(m)
	}
	return out
}
