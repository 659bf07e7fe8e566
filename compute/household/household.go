package household

import (
	"math"
	"strconv"
	"strings"

	"fiplan/compute/fi"
)

// Work is the reusable memory of a household run: keep one per goroutine
// (in a sync.Pool); its zero value is ready.
type Work struct {
	e, base engine
	mc      fi.Scratch
	bands   bandCache
	rules   rulesCache
	nums    numbersCache
	scales  scaleCache
	// uncached: every run finds its compiled rules, band tops and FI
	// numbers afresh (the tables' reference)
	uncached bool
}

// Run projects p into r: its rows, their accounts and taxes, the summary,
// the lifetime tax, the bridge years and the conventional baseline. It
// reports a *FieldError for a plan Check refuses.
func Run(p *Plan, w *Work, r *Result) error {
	if err := Check(p); err != nil {
		return err
	}
	RunChecked(p, w, r)
	return nil
}

// RunChecked is Run for a plan that Check has accepted and that has not
// changed since: a caller that checks its plans before running them (to
// refuse one before taking on its work) checks each once.
func RunChecked(p *Plan, w *Work, r *Result) {
	e := &w.e
	e.init(p, false, w)
	e.numbers()
	r.Rows, r.Extra, r.Cells = r.Rows[:0], r.Extra[:0], r.Cells[:0]
	o := e.run(nil, nil, r, nil, 0)
	r.IDs = r.IDs[:0]
	for i := 0; i < e.na; i++ {
		r.IDs = append(r.IDs, e.acc[i].id)
	}
	r.Summary = e.summary(&o)
	if len(r.Extra) > 0 {
		spent := e.p.Expenses
		if r.Rows[0].Retired {
			spent = e.spendingAt(r.Rows[0].Age)
		}
		r.Summary.SavingsRate = savingsRate(&r.Extra[0], spent)
	}
	r.LifetimeTax, r.LifetimeTaxPV, r.AfterTaxEnd = o.lifeTax, o.taxPV, o.afterTax
	r.Spending = e.firstSpending()
	r.Joint = o.joint
	r.DrewDown = o.drew
	e.bridges(r)
	bo := o
	if p.Convert || p.Order != Conventional || p.Orders != nil {
		b := &w.base
		b.init(p, true, w)
		b.fiNumber, b.lean, b.fat = e.fiNumber, e.lean, e.fat // the order does not change them
		bo = b.run(nil, nil, nil, nil, 0)
	}
	r.Baseline = Baseline{LifetimeTax: bo.lifeTax, LifetimeTaxPV: bo.taxPV, DepletionAge: -1, EndReal: bo.endReal, AfterTaxEnd: bo.afterTax}
	if bo.depleteRow >= 0 {
		r.Baseline.DepletionAge = p.People[0].Age + bo.depleteRow
	}
}

// summary is the headline of a run, in compute/fi's terms.
func (e *engine) summary(o *outcome) fi.Summary {
	age0 := e.ppl[0].age0
	s := fi.Summary{
		FINumber: e.fiNumber, LeanFINumber: e.lean, FatFINumber: e.fat,
		YearsToFI: -1, FIAge: -1, FIYear: -1, RetirementAge: -1, DepletionAge: -1, DepletionYear: -1,
		FinalBalance: o.endBal, FinalReal: o.endReal, Years: e.n, CoastAge: fi.DefaultCoastAge,
	}
	if o.fiRow >= 0 {
		s.Reached, s.YearsToFI, s.FIAge, s.FIYear = true, o.fiRow, age0+o.fiRow, e.year0+o.fiRow
	}
	if o.retireRow >= 0 {
		s.RetirementAge = age0 + o.retireRow
	}
	if o.depleteRow >= 0 {
		s.RunsOut, s.DepletionAge, s.DepletionYear = true, age0+o.depleteRow, e.year0+o.depleteRow
	}
	if q := e.ppl[0]; q.retireAt > 0 {
		s.CoastAge = q.retireAt
	}
	s.CoastFINumber = e.fiNumber
	if yrs := s.CoastAge - age0; yrs > 0 {
		s.CoastFINumber = e.fiNumber / math.Pow((1+e.p.Return)/(1+e.p.Inflation), float64(yrs))
	}
	return s
}

// savingsRate is compute/fi's savings rate for a household: the first
// year's saving over its pay, both after the income tax and social
// contributions on that year's wages (the take-home pay, as a plan with
// tax reads it), where the saving is that pay less the year's spending;
// pre-tax contributions are part of the saving. It is 0 in a first year
// without wages.
func savingsRate(x *Row, expenses float64) float64 {
	pay := x.Employment - x.Tax.Income - x.Tax.Social
	if x.Employment <= 0 || pay <= 0 {
		return 0
	}
	return (pay - expenses) / pay
}

// bridges finds the retired years in which some tax-deferred or pension
// money is not yet open, grouped by the accounts that paid for them.
func (e *engine) bridges(r *Result) {
	r.Bridges = r.Bridges[:0]
	r.bridgeIDs = r.bridgeIDs[:0]
	var ys yearState
	cur := -1
	for t := range r.Rows {
		if !r.Rows[t].Retired {
			continue
		}
		ys.t = t
		for i := 0; i < e.np; i++ {
			ys.age[i] = e.ppl[i].age0 + t
		}
		if !e.closedAt(&ys, r.Accounts(t)) {
			cur = -1
			continue
		}
		start := len(r.bridgeIDs)
		for i, c := range r.Accounts(t) {
			if c.Withdrawals > 0 {
				r.bridgeIDs = append(r.bridgeIDs, i)
			}
		}
		ids := r.bridgeIDs[start:]
		if cur >= 0 && r.Bridges[cur].ToAge == r.Rows[t].Age-1 && sameInts(r.Bridges[cur].Accounts, ids) {
			r.Bridges[cur].ToAge = r.Rows[t].Age
			r.bridgeIDs = r.bridgeIDs[:start]
			continue
		}
		r.Bridges = append(r.Bridges, Bridge{FromAge: r.Rows[t].Age, ToAge: r.Rows[t].Age, Accounts: ids})
		cur = len(r.Bridges) - 1
	}
}

// closedAt reports whether some tax-deferred or pension account with
// money is not open without a charge in the year of ys.
func (e *engine) closedAt(ys *yearState, cells []AccountYear) bool {
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		if a.class == 2 && cells[i].Start > 0 && a.access > 0 && float64(ys.age[a.owner]) < a.access && !e.open(i, ys) {
			return true
		}
	}
	return false
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// notes says what the plan leaves to simplifications.
// Notes appends to dst what the plan's accounts leave to the statute's
// exceptions the engine does not apply by itself (72(t) payments, ...).
// It is apart from Run, which allocates nothing in steady state.
func Notes(dst []string, p *Plan) []string {
	if len(p.People) == 2 {
		for k := range p.Pensions {
			q := &p.Pensions[k]
			if q.Benefit == nil || q.Benefit.Survivor == nil {
				continue
			}
			dead, widow := &p.People[q.Owner], &p.People[1-q.Owner]
			if at := dead.LifeExpectancy + widow.Age - dead.Age; at < widow.LifeExpectancy && float64(at) < q.Benefit.Survivor.Earliest {
				dst = append(dst, "pensions["+strconv.Itoa(k)+"]: the survivor's benefit on this record cannot be paid before the survivor is "+
					strconv.FormatFloat(q.Benefit.Survivor.Earliest, 'f', -1, 64)+": it starts then, not at the death")
			}
		}
	}
	for i := range p.Accounts {
		a := &p.Accounts[i]
		if a.Wrapper != nil {
			for _, x := range a.Wrapper.Access.Exceptions {
				if paysSeries(p, i) && strings.HasPrefix(x, "substantially equal periodic payments") {
					dst = append(dst, a.ID+": pays substantially equal periodic payments (bridge.sepp); the separation from service a 401(k) series needs is not checked")
					continue
				}
				dst = append(dst, a.ID+": not applied by the plan: "+x)
			}
		}
	}
	return dst
}

// paysSeries reports whether account i pays a series of periodic payments.
func paysSeries(p *Plan, i int) bool {
	for k := range p.SEPP {
		if p.SEPP[k].Account == i {
			return true
		}
	}
	return false
}

// path runs a prepared engine over given returns for compute/fi's path
// drivers.
type path struct{ e *engine }

func (p path) RunPath(rets, infl, sink []float64, stride int) fi.PathOutcome {
	e := p.e
	e.reset()
	o := e.run(rets, infl, nil, sink, stride)
	return fi.PathOutcome{FIRow: o.fiRow, DepleteRow: o.depleteRow, DrewDown: o.drew, EndReal: o.endReal}
}

// Simulate runs mc's paths of the household plan p (checked by Run) into
// out: each path the whole plan with its returns and inflation drawn.
func Simulate(p *Plan, mc *fi.MonteCarlo, w *Work, out *fi.MCResult) {
	e := &w.e
	e.init(p, false, w)
	e.numbers()
	e.onPaths = true
	e.save()
	fi.SimulatePaths(path{e}, e.n, p.People[0].Age, p.StartYear, p.Return, p.Inflation, mc, &w.mc, out)
}

// Backtest replays the household plan p over every window of h, each
// years long (0: the plan's horizon, or the longest window h holds when
// shorter), the accounts mixed stock / cash / bonds for the rest; the
// window used is returned with the result.
func Backtest(p *Plan, h fi.History, years int, stock, cash float64, w *Work) (fi.BacktestResult, int) {
	e := &w.e
	e.init(p, false, w)
	e.numbers()
	e.onPaths = true
	e.save()
	if years <= 0 {
		years = fi.FitWindow(h, e.n)
	}
	years = min(years, e.n)
	e.n = years
	return fi.BacktestPaths(path{e}, years, stock, cash, h), years
}
