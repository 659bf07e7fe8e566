package calculator

import (
	"fiplan/compute/fi"
	"fiplan/compute/household"
	"fiplan/compute/plan"
)

// translate turns the decoded request w.req into the plan w.plan (its
// inputs in w.base and w.scen, its household in w.hh, its tax in w.tax)
// and what it asked besides (w.asked), field by field, then checks it
// with plan.Check, which owns every rule that reads more than one field
// and reads the optimize into w.dreq. year is the calendar year of a plan
// without startYear. The error is a *plan.FieldError.
func (s *Handlers) translate(w *calcWork, year int) error {
	req, in := &w.req, &w.base
	*in = fi.Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = req.CurrentAge, req.AnnualIncome, req.AnnualExpenses
	in.StartYear = year
	setI(&in.StartYear, req.StartYear)
	req.calcParams.apply(in)
	p := &w.plan
	*p = plan.Plan{Base: w.base, Place: placeOf(&req.calcParams), Currency: req.Currency, Scenarios: w.scen[:len(req.Scenarios)],
		CostBasis: req.CostBasis}
	for i := range req.Scenarios {
		w.scenario(i)
		sc := &w.scen[i]
		sc.Name, sc.Place, sc.CostBasis, sc.Pensions = req.Scenarios[i].Name, placeOf(&req.Scenarios[i].calcParams), req.Scenarios[i].CostBasis, nil
	}
	w.asked = plan.Asked{Savings: req.CurrentSavings != nil, Every: req.Every != nil, Yearly: req.Output == "yearly"}
	if mc := req.MonteCarlo; mc != nil {
		w.asked.Simulations = mc.Simulations
	}
	if req.isHousehold() {
		householdOf(req, &w.hh)
		p.Household = &w.hh
		if o := req.Optimize; o != nil {
			w.asked.Optimize = optimizeOf(o, &w.optimize)
		}
		for i := range req.Scenarios {
			w.scenPens[i] = pensionsOf(req.Scenarios[i].Pensions, w.scenPens[i][:0])
			w.scen[i].Pensions = w.scenPens[i]
		}
	}
	if rt := req.Tax; rt != nil {
		w.tax = plan.Tax{Country: rt.Country, Year: rt.Year, Region: rt.Region, Part: rt.WithdrawalIncome}
		p.Tax = &w.tax
	}
	return plan.Check(p, &w.asked, &s.data, &w.dreq)
}

// scenario sets scenario i's input, the base plan's with the scenario's
// own values, and returns it.
func (w *calcWork) scenario(i int) *fi.Input {
	sc := &w.req.Scenarios[i]
	x := &w.scen[i].Input
	*x = w.base
	setI(&x.CurrentAge, sc.CurrentAge)
	setF(&x.AnnualIncome, sc.AnnualIncome)
	setF(&x.AnnualExpenses, sc.AnnualExpenses)
	sc.calcParams.apply(x)
	return x
}

func placeOf(p *calcParams) plan.Place {
	pl := plan.Place{CityID: p.CityID, OwnExpenses: p.RetirementExpenses != nil}
	if p.HouseholdSize != nil {
		pl.Household = *p.HouseholdSize
	}
	return pl
}

// householdOf fills hh from the request's household fields.
func householdOf(req *calcRequest, hh *plan.Household) {
	h := &req.calcHousehold
	*hh = plan.Household{Accounts: hh.Accounts[:0], Pensions: hh.Pensions[:0], Phases: hh.Phases[:0], Moves: hh.Moves[:0], Explicit: hh.Explicit[:0],
		SEPP: hh.SEPP[:0], SEPPAccounts: hh.SEPPAccounts[:0]}
	if p := h.Partner; p != nil {
		q := household.Person{Age: p.Age, LifeExpectancy: 95}
		setI(&q.LifeExpectancy, p.LifeExpectancy)
		setF(&q.Income, p.AnnualIncome)
		setF(&q.IncomeGrowth, p.IncomeGrowthRate)
		setI(&q.RetirementAge, p.RetirementAge)
		hh.Partner = &q
	}
	for _, a := range h.Accounts {
		x := household.Account{ID: a.ID, Type: a.Type, Balance: a.Balance, CostBasis: -1}
		if a.Owner == "partner" {
			x.Owner = 1
		}
		if a.Yield != nil && *a.Yield > 0 {
			x.Yield, x.QualifiedShare = *a.Yield, 1
			setF(&x.QualifiedShare, a.QualifiedShare)
		}
		setF(&x.CostBasis, a.CostBasis)
		hh.OwnMix = hh.OwnMix || a.StockShare != nil
		setF(&x.Contribution, a.AnnualContribution)
		setF(&x.Employer, a.EmployerContribution)
		setI(&x.OpenedYear, a.OpenedYear)
		hh.Accounts = append(hh.Accounts, x)
	}
	hh.Pensions = pensionsOf(req.Pensions, hh.Pensions)
	for _, s := range h.Spending {
		hh.Phases = append(hh.Phases, household.Phase{FromAge: s.FromAge, Amount: s.Amount})
	}
	switch o := h.WithdrawalOrder; {
	case o.List != nil:
		hh.Order = household.Explicit
		hh.Explicit = append(hh.Explicit, o.List...)
	case o.Name != "":
		hh.Order, _ = household.ParseOrder(o.Name)
	}
	if c := h.Conversions; c != nil {
		hh.Convert, hh.ConvertUpTo = true, c.UpToRate
	}
	for _, m := range h.Relocations {
		hh.Moves = append(hh.Moves, plan.Move{AtAge: m.AtAge, Country: m.Country, Region: m.Region, CityID: m.CityID})
	}
	if req.Tax != nil {
		hh.Filing = req.Tax.Filing
	}
	hh.Care = careOf(h.Healthcare)
	hh.NoHome = h.Homeowner != nil && !*h.Homeowner
	if b := h.Bridge; b != nil {
		for _, q := range b.SEPP {
			m, _ := household.ParseSEPPMethod(q.Method)
			hh.SEPP = append(hh.SEPP, household.Series{Account: -1, FromAge: q.FromAge, Method: m})
			hh.SEPPAccounts = append(hh.SEPPAccounts, q.Account)
		}
	}
}

// pensionsOf appends the request's pensions to dst in the household's
// terms.
func pensionsOf(list []calcPension, dst []household.Pension) []household.Pension {
	for _, p := range list {
		owner := 0
		if p.Owner == "partner" {
			owner = 1
		}
		dst = append(dst, household.Pension{Owner: owner, FromAge: p.FromAge, Amount: p.Amount, Indexed: p.InflationLinked, Kind: p.Kind})
	}
	return dst
}

// careOf is the request's health care (nil: none).
func careOf(c *calcHealthcare) *household.Care {
	if c == nil {
		return nil
	}
	care := &household.Care{}
	for _, p := range c.Phases {
		ph := household.CarePhase{FromAge: p.FromAge, Amount: p.Amount}
		if p.Inflation != nil {
			ph.Inflation, ph.HasInflation = *p.Inflation, true
		}
		care.Phases = append(care.Phases, ph)
	}
	setF(&care.Benchmark, c.BenchmarkPremium)
	return care
}

// optimizeOf is the request's optimize as plan.Check reads it, in dst.
func optimizeOf(o *calcOptimize, dst *plan.Optimize) *plan.Optimize {
	*dst = plan.Optimize{Objective: o.Objective, Decisions: o.Decisions}
	if t := o.Target; t != nil {
		dst.Method, dst.SuccessRate = t.Method, t.SuccessRate
	}
	return dst
}
