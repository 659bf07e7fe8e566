package plan

import (
	"errors"
	"strconv"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/compute/household"
)

// runHousehold is Run for a plan with a Household: every plan is resolved
// into a household, checked, admitted, and run by compute/household, as
// are the Monte Carlo and the backtest of the base plan.
func runHousehold(p *Plan, in *Inputs, o *Options, t *taxPlan, r *Result) error {
	if o.FIByAge > 0 || o.TargetRate != nil {
		return &FieldError{"goals", "goal seeking works on the one-pot plan: send it without partner, accounts, spending, withdrawalOrder, conversions and relocations"}
	}
	if r.hw == nil {
		r.hw = new(householdWork)
	}
	hw := r.hw
	r.Household = true
	r.Notes = r.Notes[:0]
	for k := range r.Plans {
		pr := &r.Plans[k]
		if err := t.resolveHousehold(p, in, k, pr, hw, r.Currency); err != nil {
			return scenarioField(err, k)
		}
		if err := household.Check(&hw.plans[k]); err != nil {
			return scenarioField(engineField(err), k)
		}
	}
	var past fi.Sampled
	if o.Backtest || (o.Optimize != nil && o.Optimize.Method == decide.Historical) {
		var err error
		if past, err = sampled(in, o); err != nil {
			return err
		}
	}
	if o.Admit != nil {
		if err := o.Admit(); err != nil {
			return err
		}
	}
	for k := range r.Plans {
		runOneHousehold(hw, k, &r.Plans[k], o)
	}
	r.notes(p, o)
	if err := r.optimize(o, past, hw); err != nil {
		return err
	}
	base := &hw.plans[0]
	r.MonteCarlo, r.NoSuccessRate = nil, false
	if o.MonteCarlo != nil {
		household.Simulate(base, o.MonteCarlo, &hw.work, &hw.mc)
		r.mc = hw.mc
		r.MonteCarlo, r.NoSuccessRate = &r.mc, hw.mc.Drawdowns == 0
	}
	r.Backtest = nil
	if o.Backtest {
		years := 0
		if o.WindowSet {
			years = o.Window
		}
		in0 := &r.Plans[0].input
		res, window := household.Backtest(base, past, years, in0.StockShare, in0.CashShare, &hw.work)
		r.bt = Backtest{History: in.History, WindowYears: window, Sample: resolved(in, o), BacktestResult: res}
		r.bt.First, r.bt.Last, _ = fi.Span(past, window)
		r.Backtest = &r.bt
	}
	r.Goals = nil
	return nil
}

// runOneHousehold runs plan k, which household.Check has accepted, into
// pr.
func runOneHousehold(hw *householdWork, k int, pr *PlanResult, o *Options) {
	hr := &hw.res[k]
	household.RunChecked(&hw.plans[k], &hw.work, &hr.Result)
	pr.Household = hr
	pr.Summary = hr.Summary
	hp := &hw.plans[k]
	pr.FINumber = hr.Summary.FINumber
	if hp.Residences[0].System != nil && hp.WithdrawalRate > 0 {
		// before tax: the spending over the rate; the summary's is after tax
		pr.FINumber = hr.Spending / hp.WithdrawalRate
	}
	if o.Step == 0 {
		pr.Rows = pr.Rows[:0]
		return
	}
	pr.Rows = append(pr.Rows[:0], hr.Rows...)
	pr.RowTax = pr.RowTax[:0]
	for i := range hr.Extra {
		pr.RowTax = append(pr.RowTax, hr.Extra[i].Tax.Total)
	}
	if o.Milestones {
		pr.Milestones = Milestones(pr.Milestones[:0], pr.Rows, &pr.Summary, o.Step)
	}
}

// engineField is err, an error of the household engine, as Run reports
// it: a *household.FieldError, an invariant of the engine that a plan
// breaks, becomes the *FieldError of the same field. The engine's fields
// are a request's: its accounts and pensions are the request's, in order.
func engineField(err error) error {
	var fe *household.FieldError
	if errors.As(err, &fe) {
		return &FieldError{fe.Field, fe.Message}
	}
	return err
}

// scenarioField names a scenario's field in the request.
func scenarioField(err error, k int) error {
	var fe *FieldError
	if k == 0 || !errors.As(err, &fe) {
		return err
	}
	return &FieldError{"scenarios[" + strconv.Itoa(k-1) + "]." + fe.Field, fe.Message}
}

// notes says what a household answer simplifies.
func (r *Result) notes(p *Plan, o *Options) {
	in := &r.Plans[0].input
	if in.Strategy != fi.StrategyConstant {
		r.Notes = append(r.Notes, "withdrawalStrategy: a household plan spends its phases' amounts, constant in real terms; the strategy applies to the one-pot plan only")
	}
	if o.Sequences {
		r.Notes = append(r.Notes, "historical.sequences: the sequence-of-returns view is computed for the one-pot plan only")
	}
	if o.Backtest && o.Sample.MonthlyWithdrawals {
		r.Notes = append(r.Notes, "historical.withdrawalTiming monthly: a household plan draws its year's money at the start of the year")
	}
	h := p.Household
	if h.Partner != nil && h.Filing == "" && r.Tax.Country != "" && !r.hw.res[0].Joint {
		r.Notes = append(r.Notes, "tax.filing: each person is taxed alone (the country's rules on file do not file couples jointly)")
	}
	if h.OwnMix {
		r.Notes = append(r.Notes, "accounts[].stockShare: every account grows at expectedReturn; the mix of each account is not modelled yet")
	}
	if len(h.Moves) > 0 {
		r.Notes = append(r.Notes, "relocations: accounts keep their wrapper's access rules and withdrawal treatment after a move; the new country taxes the income they pay as its residents' income of that kind")
	}
	r.Notes = household.Notes(r.Notes, &r.hw.plans[0])
}
