package household

import "fiplan/compute/tax"

// Honest measures and the hooks a search over a plan's decisions drives:
// the present value of the lifetime tax, the end wealth after the tax its
// pre-tax money still owes, conversions of given amounts and an order per
// year, and Evaluate, a run that reports these figures without rows.

// Outcome is what a run of a plan comes to, today's money.
type Outcome struct {
	// DepletionAge is the first person's age in the first year spending
	// went unmet; -1 when the money lasts.
	DepletionAge int
	// Short is the spending and tax left unmet, each year's in today's
	// money grown at the plan's real return to its end (0 when it lasts).
	Short       float64
	LifetimeTax float64
	// LifetimeTaxPV is every year's tax discounted to today at the plan's
	// return: paying a tax early costs what the money would have earned.
	LifetimeTaxPV float64
	EndReal       float64 // every account at the end
	// AfterTaxEnd is EndReal less the tax the pre-tax balances still owe
	// when drawn (see deferredTax).
	AfterTaxEnd float64
	// PreTaxEnd is the part of EndReal whose withdrawal is taxed as
	// income (the money deferredTax values), today's money.
	PreTaxEnd float64
	// Spending is the first retirement spending, before tax.
	Spending float64
	// RetirementAge is the first person's first year without work; -1
	// when they work to the end.
	RetirementAge int
	Converted     float64 // moved by conversions, today's money
}

// Evaluate runs p on its expected path and reports its outcome, without
// rows or the baseline: the unit of work of a search over its decisions.
// It reports a *FieldError for a plan Check refuses.
func Evaluate(p *Plan, w *Work) (Outcome, error) {
	if err := Check(p); err != nil {
		return Outcome{}, err
	}
	return EvaluateChecked(p, w), nil
}

// EvaluateChecked is Evaluate for a plan Check has accepted: a search
// checks its plan once and evaluates each variant of it through here.
// Check reads none of the decisions a search varies (retirement age,
// claiming ages, spending, Conversions, Orders, ConvertUpTo) except SEPP,
// whose series the search keeps within what checkSeries accepts.
func EvaluateChecked(p *Plan, w *Work) Outcome {
	e := &w.e
	e.init(p, false, w)
	e.numbers()
	o := e.run(nil, nil, nil, nil, 0)
	x := Outcome{DepletionAge: -1, RetirementAge: -1, Short: o.shortReal, LifetimeTax: o.lifeTax, LifetimeTaxPV: o.taxPV,
		EndReal: o.endReal, AfterTaxEnd: o.afterTax, PreTaxEnd: o.preTax, Spending: e.firstSpending(), Converted: o.converted}
	if o.depleteRow >= 0 {
		x.DepletionAge = p.People[0].Age + o.depleteRow
	}
	if o.retireRow >= 0 {
		x.RetirementAge = p.People[0].Age + o.retireRow
	}
	return x
}

// orderAt is the drawing order of year t.
func (e *engine) orderAt(t int) Order {
	if t < len(e.p.Orders) && e.p.Orders[t] != Explicit {
		return e.p.Orders[t]
	}
	return e.p.Order
}

// convertAmount converts the year's amount of Plan.Conversions from the
// accounts that convert, in account order; in a year of required minimums,
// from what is left once the year's minimum is taken (the minimum itself
// never converts: it has been drawn before the year's solve).
func (e *engine) convertAmount(ys *yearState) {
	want := 0.0
	if ys.t < len(e.p.Conversions) {
		want = e.p.Conversions[ys.t] * ys.cpi
	}
	for i := 0; i < e.na && want > 0.005; i++ {
		a := &e.acc[i]
		if a.convTo < 0 || a.seppOn || !ys.alive[a.owner] {
			continue
		}
		x := min(a.bal, want)
		if x <= 0.005 {
			continue
		}
		want -= x
		e.moveConverted(ys, i, x)
	}
}

// moveConverted moves x from account i to its conversion account: pension income
// of the owner, waiting for its seasoning there.
func (e *engine) moveConverted(ys *yearState, i int, x float64) {
	a := &e.acc[i]
	e.touch(i)
	e.touch(a.convTo)
	b := &e.acc[a.convTo]
	a.bal -= x
	a.y.Conversions -= x
	b.bal += x
	b.y.Conversions += x
	ys.f[a.owner].pension += x
	if s := b.w.Access.Seasoning; s > 0 {
		b.pend[ys.t%min(s, maxSeasoning)] += x
	} else {
		b.seasoned += x
	}
	ys.row.Converted += x
}

// deferredTaxSpread is the years over which deferredTax takes pre-tax money
// out: heirs who inherit it mostly must draw it within about ten years.
const deferredTaxSpread = 10

// deferredTax is the tax the pre-tax balances at the plan's end would
// cost when drawn, money of the last year: each account whose withdrawals
// are taxed as income (less a tax-free share still open to its owner)
// taken as a tenth of its balance on top of its owner's income of the
// last year, at the marginal rate that slice bears under the last year's
// rules (on a joint return, the couple's). Accounts taxed on gains or by a
// separate schedule, tax-free wrappers, cash and taxable accounts owe
// nothing here.
func (e *engine) deferredTax(ys *yearState) float64 {
	if e.ty == nil {
		return 0
	}
	owed := e.preTax()
	res := &e.p.Residences[ys.res]
	rate := rateOr1(res.Rate)
	cpi := ys.cpi / rate
	joint := e.joint(ys)
	due := 0.0
	for i := 0; i < e.np; i++ {
		if owed[i] <= 0 {
			continue
		}
		var in tax.Income
		if joint {
			in = e.jointIncome(ys, rate, cpi)
		} else {
			f := &ys.f[i]
			in = tax.Income{Employment: f.wages / cpi, Pension: (f.pension + f.benefit) / cpi, CapitalGains: f.gains / cpi, Age: ys.age[i]}
		}
		slice := owed[i] / deferredTaxSpread / cpi
		before := e.taxOf(&in, res.Region)
		in.Pension += slice
		after := e.taxOf(&in, res.Region)
		due += (after - before) / slice * owed[i]
	}
	return max(0, due)
}

// preTax is the money each owner holds whose withdrawals are taxed as
// income (less a tax-free share still open to its owner), money of the
// year: what deferredTax values.
func (e *engine) preTax() [2]float64 {
	var owed [2]float64
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		if a.w == nil || a.class != 2 || a.w.Withdrawal.Taxed != TaxedIncome || a.w.Withdrawal.Separate != nil || a.bal <= 0 {
			continue
		}
		free := a.w.Withdrawal.TaxFree(a.bal*a.rate, e.ppl[a.owner].capUsed*a.rate) / a.rate
		owed[a.owner] += a.bal - free
	}
	return owed
}

// taxOf is the year's tax on in, today's money of the tax system.
func (e *engine) taxOf(in *tax.Income, region string) float64 {
	c, err := e.ty.DueByCategory(in, region, e.sc())
	if err != nil {
		return 0
	}
	return c.Income + c.Regional + c.Social + c.Capital
}
