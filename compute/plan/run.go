package plan

import (
	"math"
	"strconv"

	"fiplan/compute/fi"
)

// Run computes every figure of p, a plan Check has accepted, that o asks
// for into r. It checks first what needs a dataset (the tax year and
// region, the cities, the currencies, the wrappers, a spending no income
// can leave after tax) and what the household engine cannot run, and
// reports the first failure as a *FieldError; then it calls o.Admit, and
// computes.
func Run(p *Plan, in *Inputs, o *Options, r *Result) error {
	n := len(p.Scenarios)
	if n > fi.MaxScenarios {
		return &FieldError{Field: "scenarios", Message: "at most " + strconv.Itoa(fi.MaxScenarios) + " scenarios"}
	}
	var t taxPlan
	r.Currency, r.Taxed, r.Step, r.Tax = p.Currency, p.Tax != nil, o.Step, TaxUse{}
	if err := t.resolve(p, in, r); err != nil {
		return err
	}
	r.Plans = r.plans[:n+1]
	r.Household, r.Optimized = false, nil
	if p.Household != nil {
		for k := range r.Plans {
			pr := &r.Plans[k]
			*pr = PlanResult{Rows: pr.Rows[:0], RowTax: pr.RowTax[:0], Milestones: pr.Milestones[:0]}
			pr.input = p.Base
			if k > 0 {
				sc := &p.Scenarios[k-1]
				pr.Name, pr.input = sc.Name, sc.Input
			}
			if err := resolveCity(p, in, k, r.Currency, pr); err != nil {
				return err
			}
			pr.basis = pr.input.CurrentSavings
			if p.CostBasis != nil {
				pr.basis = *p.CostBasis
			}
		}
		return runHousehold(p, in, o, &t, r)
	}
	for k := range r.Plans {
		if err := resolvePlan(p, in, k, &t, r); err != nil {
			return err
		}
	}
	var past fi.Sampled
	if o.Backtest || o.TargetRate != nil {
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
		project(&r.Plans[k], &t, o, r.Taxed)
	}
	base := &r.Plans[0].input
	r.MonteCarlo, r.NoSuccessRate = nil, false
	if o.MonteCarlo != nil {
		fi.Simulate(base, o.MonteCarlo, &r.work, &r.mc)
		r.MonteCarlo, r.NoSuccessRate = &r.mc, r.mc.Drawdowns == 0
	}
	r.Backtest = nil
	if o.Backtest {
		r.bt = Backtest{History: in.History, WindowYears: o.Window, Sample: resolved(in, o)}
		if r.Plans[0].Summary.RetirementAge == base.CurrentAge {
			// retired today: the drawdown itself over windows of Window years
			r.bt.BacktestResult = fi.Backtest(base, past, o.Window)
		} else {
			// the whole plan, saving and drawing down, over its horizon
			// (or Window years when the request bounds it)
			years := 0
			if o.WindowSet {
				years = o.Window
			}
			r.bt.WindowYears = fi.FitWindow(past, fi.PlanWindow(base, years))
			r.bt.BacktestResult = fi.PlanBacktest(base, past, r.bt.WindowYears)
		}
		r.bt.First, r.bt.Last, _ = fi.Span(past, r.bt.WindowYears)
		if o.Sequences {
			fi.Sequences(base, past, o.Window, &r.seq)
			if r.seq.Periods > 0 {
				r.bt.Sequences = &r.seq
			}
		}
		r.Backtest = &r.bt
	}
	r.Goals = seekGoals(base, past, o, &r.goals)
	return nil
}

// resolvePlan sets plan k's input from the request, its retirement
// spending from its city and its taxes.
func resolvePlan(p *Plan, in *Inputs, k int, t *taxPlan, r *Result) error {
	pr := &r.Plans[k]
	*pr = PlanResult{Rows: pr.Rows[:0], RowTax: pr.RowTax[:0], Milestones: pr.Milestones[:0]}
	if k == 0 {
		pr.input = p.Base
	} else {
		sc := &p.Scenarios[k-1]
		pr.Name, pr.input = sc.Name, sc.Input
	}
	if err := resolveCity(p, in, k, r.Currency, pr); err != nil {
		return err
	}
	pr.basis = pr.input.CurrentSavings
	if p.CostBasis != nil {
		pr.basis = *p.CostBasis
	}
	if k > 0 && p.Scenarios[k-1].CostBasis != nil {
		pr.basis = *p.Scenarios[k-1].CostBasis
	}
	pr.Taxes.Spending = pr.input.RetirementExpenses
	if pr.Taxes.Spending == 0 {
		pr.Taxes.Spending = pr.input.AnnualExpenses
	}
	if r.Taxed {
		return t.apply(k, pr)
	}
	return nil
}

// gainPasses bounds the projections that look for the gain share of the
// first drawdown year's withdrawal.
const gainPasses = 4

// project runs plan pr's timeline and derives what o asks of its rows.
// When withdrawals are taxed on their gain, the retirement income is
// grossed up again for the gain share of the first drawdown year's
// withdrawal and the timeline run again, until that share stays put.
func project(pr *PlanResult, t *taxPlan, o *Options, taxed bool) {
	t.age = retirementAge(&pr.input)
	for pass, moved := 1, 0; ; pass++ {
		pr.Summary, pr.Rows = fi.Project(&pr.input, pr.Rows[:0])
		if ra := pr.Summary.RetirementAge; taxed && moved < gainPasses && ra > t.age && t.rulesDiffer(ra) {
			// retired at FI: the retirement income is taxed at the age
			// the projection finds, under the rules of that year (which
			// may also depend on age)
			moved++
			if t.age = ra; t.grossUp(pr) {
				pass--
				continue
			}
		}
		if !taxed || !t.gains() || pass == gainPasses {
			break
		}
		s, ok := drawdownShare(pr.Rows, pr.basis)
		if !ok || math.Abs(s-pr.share) < 1e-6 {
			break
		}
		was := pr.share
		if pr.share = s; !t.grossUp(pr) {
			pr.share = was
			break
		}
	}
	pr.FINumber = pr.Summary.FINumber
	if taxed {
		pr.FINumber = pr.Taxes.Spending / pr.input.WithdrawalRate
		if g := pr.Taxes.GrossSpending; g > 0 {
			// The FI number over the gross income is 1 / withdrawal rate.
			perUnit := pr.Summary.FINumber / g
			pr.Summary.LeanFINumber = pr.leanGross * perUnit
			pr.Summary.FatFINumber = pr.fatGross * perUnit
		}
	}
	if o.Step == 0 {
		pr.Rows = pr.Rows[:0]
		return
	}
	if taxed {
		pr.RowTax = t.rowTaxes(pr.RowTax[:0], pr.Rows, &pr.input, pr.Taxes.IncomeTax, pr.basis)
	}
	if o.Milestones {
		pr.Milestones = Milestones(pr.Milestones[:0], pr.Rows, &pr.Summary, o.Step)
	}
}

// seekGoals runs the goal seeks o asks for into g; nil when none.
func seekGoals(base *fi.Input, past fi.Sampled, o *Options, g *Goals) *Goals {
	if o.FIByAge <= 0 && o.TargetRate == nil {
		return nil
	}
	*g = Goals{FIByAge: max(o.FIByAge, 0)}
	if o.FIByAge > 0 {
		g.Saving, g.SavingOK = fi.SavingFor(base, o.FIByAge, o.MaxContribution)
	}
	if o.TargetRate != nil {
		g.RateAsked, g.TargetRate, g.WindowYears = true, *o.TargetRate, o.Window
		g.MaxRate, g.RateCapped = fi.MaxWithdrawalRate(base, past, o.Window, *o.TargetRate, o.MaxWithdrawalRate)
	}
	return g
}

// Input is plan k's engine input as Run resolved it: its retirement
// spending from its city and, with tax, its income after tax and its
// spending grossed up.
func (pr *PlanResult) Input() *fi.Input { return &pr.input }
