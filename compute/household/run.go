package household

import (
	"math/bits"

	"fiplan/compute/fi"
)

// yearState is one year's working state.
type yearState struct {
	t          int
	age        [2]int
	alive      [2]bool
	work       [2]bool
	res        int
	joint      bool // taxed as a couple's joint return (files)
	cpi        float64
	f          [2]flows
	inflow     float64 // wages, pensions, required minimums, windfalls
	outflow    float64 // spending, own contributions, outlays
	drawn      float64 // withdrawals beyond the required minimums
	due        float64 // taxes and charges
	wealth     float64 // the year's wealth tax, in due
	wealthOn   bool    // the residence taxes wealth
	events     float64
	contribOut float64 // own contributions paid from pay, limits included
	fundTax    float64 // taxes withheld inside wrappers on their earnings (settle)
	row        Row
	// health: the benchmark premium of the year when the premium credit
	// applies (0: it does not), the credit the last taxes found, and the
	// household's modified adjusted gross income
	bench, credit, magi float64
}

// maxSolve bounds the rounds that draw the tax a withdrawal itself costs.
const maxSolve = 16

// run projects the plan over rets and infls (nominal returns before fees
// and inflation by year; beyond them the plan's expected values). With res
// it appends rows; with sink it stores each year's real end balance at
// sink[t*stride].
func (e *engine) run(rets, infls []float64, res *Result, sink []float64, stride int) outcome {
	o := outcome{fiRow: -1, retireRow: -1, depleteRow: -1}
	cpi := 1.0
	atFI := e.total() >= e.fiNumber-fi.FITolerance
	if atFI {
		o.fiRow = 0
	}
	var ys yearState
	e.expected = infls == nil
	disc, grow := 1.0, 1.0 // the plan's return compounded; the real return
	for t := 0; t < e.n; t++ {
		ret, pi := e.p.Return, e.p.Inflation
		if t < len(rets) {
			ret = rets[t]
		}
		if t < len(infls) {
			pi = infls[t]
		}
		ret = (1+ret)*(1-e.fee) - 1
		ys = yearState{t: t, cpi: cpi}
		e.levels[t] = cpi
		e.begin(&ys, atFI, &o)
		e.yearRules(&ys)
		ys.wealth, ys.wealthOn = e.wealthTax(&ys)
		e.income(&ys)
		e.contribute(&ys)
		e.required(&ys)
		if len(e.p.SEPP) > 0 {
			e.series(&ys)
		}
		if len(e.p.Supplements) > 0 {
			e.means(&ys)
		}
		e.spend(&ys)
		short := e.solve(&ys, e.lastDraw*cpi, e.p.Convert && !e.baseline)
		e.lastDraw = ys.drawn / cpi
		if len(e.p.Supplements) > 0 {
			e.keepMeans(&ys)
		}
		if short > 0 && o.depleteRow < 0 {
			o.depleteRow = t
		}
		if ys.drawn > 0 || short > 0 {
			o.drew = true
		}
		o.joint = o.joint || e.joint(&ys)
		cpiEnd := cpi * (1 + pi)
		e.settle(&ys, ret, pi)
		real := e.total() / cpiEnd
		o.lifeTax += (ys.due + ys.fundTax + ys.credit) / cpi
		o.taxPV += (ys.due + ys.fundTax + ys.credit) / disc
		o.converted += ys.row.Converted / cpi
		o.shortReal += short / cpi / grow
		disc *= 1 + e.p.Return
		grow *= (1 + ret) / (1 + pi)
		e.magi[t], e.magiJoint[t] = ys.magi, e.joint(&ys)
		if res != nil {
			ys.row.Short = short
			e.emit(&ys, res, real)
		}
		if sink != nil {
			sink[t*stride] = real
		}
		if o.fiRow < 0 && real >= e.fiNumber-fi.FITolerance {
			o.fiRow = t + 1
			atFI = true
		}
		cpi = cpiEnd
	}
	// FI is one thing on every figure: the first year from which the
	// savings, with the pensions, pay the spending to the plan's end. The
	// real balance reaching the FI number says so; so does a retirement
	// from which the money lasts, though the balance never reaches it.
	if o.depleteRow < 0 && o.retireRow >= 0 && (o.fiRow < 0 || o.retireRow < o.fiRow) {
		o.fiRow = o.retireRow
	}
	o.endBal = e.total()
	o.endReal = o.endBal / cpi
	o.shortReal *= grow
	if !e.onPaths {
		o.afterTax = o.endReal - e.deferredTax(&ys)/cpi
		owed := e.preTax()
		o.preTax = (owed[0] + owed[1]) / cpi
	}
	return o
}

// total is the balance of every account.
func (e *engine) total() float64 {
	s := 0.0
	for i := 0; i < e.na; i++ {
		s += e.acc[i].bal
	}
	return s
}

// begin sets the year's ages, who is alive and who works, the residence,
// and starts each account's year.
func (e *engine) begin(ys *yearState, atFI bool, o *outcome) {
	t := ys.t
	for i := 0; i < e.np; i++ {
		q := &e.ppl[i]
		age := q.age0 + t
		ys.age[i], ys.alive[i] = age, age < q.end
		working := !atFI
		if q.retireAt >= 0 {
			working = age < q.retireAt
		} else if i == 1 && e.ppl[0].retireAt >= 0 {
			working = e.ppl[0].age0+t < e.ppl[0].retireAt
		}
		ys.work[i] = ys.alive[i] && working
		if !ys.work[i] && q.retiredAge < 0 && ys.alive[i] {
			q.retiredAge = age
			if q.retireAt >= 0 && q.retireAt < age {
				q.retiredAge = q.retireAt // stopped before today
			}
		}
	}
	if !ys.alive[0] && e.np == 2 && ys.alive[1] {
		e.inherit(0, 1)
	}
	if e.np == 2 && !ys.alive[1] && ys.alive[0] {
		e.inherit(1, 0)
	}
	if !ys.work[0] && o.retireRow < 0 {
		o.retireRow = t
	}
	ys.res = e.residence(ys.age[0])
	ys.joint = e.files(ys)
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		a.y = AccountYear{Start: a.bal}
		if a.phased && !a.phaseOn {
			e.startPhase(a, ys)
		}
		if a.season > 0 {
			k := t % a.season
			a.seasoned += a.pend[k]
			a.pend[k] = 0
		}
	}
}

// startPhase moves account a's balance up to the year's cap into its
// wrapper's retirement phase once its owner, alive and at least the
// phase's age, does not work.
func (e *engine) startPhase(a *held, ys *yearState) {
	ph := a.w.Phase
	o := a.owner
	if !ys.alive[o] || ys.work[o] || ys.age[o] < ph.FromAge {
		return
	}
	year := e.year0 + ys.t
	infl := 1.0
	if last := ph.Cap[len(ph.Cap)-1].Year; year > last {
		infl = pow(1+e.p.Inflation, year-max(last, e.year0))
	}
	a.phaseOn = true
	a.phase = min(a.bal, ph.CapFor(year, infl)/a.rate)
}

// inherit gives the accounts of a person who has died to the survivor (a
// spouse's rollover): they are the survivor's from then on.
func (e *engine) inherit(from, to int) {
	for i := 0; i < e.na; i++ {
		if a := &e.acc[i]; a.owner == from {
			a.owner = to
			a.contrib, a.employer = 0, 0
			if a.w != nil {
				a.ownAges(e.ppl[to].birth)
			}
		}
	}
	e.masks()
}

// income adds the year's wages and pensions.
func (e *engine) income(ys *yearState) {
	for i := 0; i < e.np; i++ {
		if ys.work[i] {
			q := &e.ppl[i]
			w := q.income * ys.cpi * pow(1+q.g, ys.t)
			ys.f[i].wages += w
			ys.row.Employment += w
			ys.inflow += w
		}
	}
	for m := e.advancing; m != 0; m &= m - 1 {
		if a := &e.acc[bits.TrailingZeros32(m)]; a.advance > 0 {
			ys.f[a.owner].gains += a.advance * (1 - a.w.Withdrawal.GainsExempt)
			ys.row.Advance += a.advance
			a.advance = 0
		}
	}
	for k := range e.p.Pensions {
		q := &e.p.Pensions[k]
		if !ys.alive[q.Owner] || ys.age[q.Owner] < e.pensionFrom[k] {
			continue
		}
		a := q.Amount * e.benefitFactor[k]
		if q.Indexed || q.Benefit != nil {
			a *= ys.cpi
		}
		if rs := q.Benefit.raise(); rs != nil && ys.age[q.Owner] >= rs.FromAge {
			a *= 1 + rs.Share
		}
		if e.firstShare[k] > 0 && ys.age[q.Owner] == e.pensionFrom[k] {
			a *= e.firstShare[k]
		}
		e.benefitIncome(ys, q, q.Owner, a)
	}
	e.partnerBenefits(ys)
	e.yields(ys)
}

// benefitIncome pays a of pension q to person i and taxes it as q is
// taxed.
func (e *engine) benefitIncome(ys *yearState, q *Pension, i int, a float64) {
	res := &e.p.Residences[ys.res]
	ys.row.Pensions += a
	ys.inflow += a
	f := &ys.f[i]
	b := q.Benefit
	switch {
	case b != nil && b.TaxedName == "none":
	case b != nil && b.Inclusion != nil && q.Country == res.Country:
		f.benefit += a
		f.incl = b.Inclusion
	default:
		f.pension += a
		if b != nil {
			f.statutory += a
		}
	}
	if b != nil && b.Recovery != nil && q.Country == res.Country {
		f.recovery, f.recBenefit = b.Recovery, f.recBenefit+a
	}
}

// yields pays each taxable account's dividends and interest of the year on
// its balance at the start: money of the year's income, taxed, the rest
// of the account's return its price growth (settle).
func (e *engine) yields(ys *yearState) {
	for m := e.yielding; m != 0; m &= m - 1 {
		a := &e.acc[bits.TrailingZeros32(m)]
		if a.paid = 0; a.bal <= 0 {
			continue
		}
		a.paid = a.yield * a.bal
		f := &ys.f[a.owner]
		f.dividends += a.qualified * a.paid
		f.interest += (1 - a.qualified) * a.paid
		ys.inflow += a.paid
		ys.row.Yield += a.paid
	}
}

// pow is x to the integer power n >= 0.
func pow(x float64, n int) float64 {
	r := 1.0
	for ; n > 0; n-- {
		r *= x
	}
	return r
}

// contribute pays each working owner's contributions within their limits;
// the rest of what they meant to save goes to the taxable account. The
// money is paid in at the end of the year (settle).
func (e *engine) contribute(ys *yearState) {
	if !ys.work[0] && !ys.work[1] {
		return // only a working owner's accounts are paid into
	}
	var used [2][maxHeld]float64 // by person, by the account that holds the group
	var shared [2]float64        // by person: paid within a family limit, beyond their catch-up
	family := e.np == 2 && ys.alive[0] && ys.alive[1]
	year := e.year0 + ys.t
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		o := a.owner
		if !ys.work[o] || (a.contrib == 0 && a.employer == 0) {
			continue
		}
		want := a.contrib * ys.cpi
		emp := a.employer * ys.cpi
		allowed := want
		if w := a.w; w != nil {
			c := &w.Contrib
			g := e.group(i)
			infl := e.indexFrom(c, year, ys)
			catchUp := -1.0 // within a family limit: the owner's catch-up
			if lim, ok := c.LimitFor(year, ys.age[o], infl); ok {
				q := &e.ppl[o]
				gross := q.income * ys.cpi * pow(1+q.g, ys.t)
				lim = c.tapered(year, lim, gross*a.rate, emp*a.rate, infl, q.flexed)
				lim -= c.wageOffset(year, ys.f[o].wages*a.rate, infl)
				room := lim/a.rate - used[o][g]
				if fam, cu, ok := c.FamilyFor(year, ys.age[o], infl); ok && family {
					// the spouses share the family limit, each with their own catch-up
					catchUp = cu / a.rate
					room = (fam+cu)/a.rate - used[o][g] - shared[1-o]
				}
				if c.EmployerInLimit {
					room -= emp
				}
				allowed = max(0, min(allowed, room))
			}
			if c.EarnedShare > 0 {
				earned := c.earnedBase(year, ys.f[o].wages*a.rate, infl) / a.rate
				allowed = min(allowed, max(0, c.EarnedShare*earned-used[o][g]))
			}
			if c.Lifetime > 0 {
				allowed = min(allowed, max(0, c.Lifetime/a.rate-a.basis))
			}
			if (c.FromAge > 0 && ys.age[o] < c.FromAge) || (c.ToAge > 0 && ys.age[o] >= c.ToAge) {
				allowed = 0
			}
			used[o][g] += allowed
			if catchUp >= 0 {
				in := allowed
				if c.EmployerInLimit {
					in += emp
				}
				shared[o] += max(0, in-catchUp)
			}
			if c.PreTax {
				ys.f[o].wages -= allowed
				if c.SocialWages {
					ys.f[o].deferred += allowed
				}
			}
			paid := allowed*(1+c.Bonus) + emp
			// the entry tax is withheld inside the fund: it counts as tax,
			// and the fund, not the household's cash, pays it
			ys.f[o].entryTax += c.Tax * paid
			ys.inflow += c.Tax * paid
			a.y.Contributions += paid * (1 - c.Tax)
			if w.Access.BasisFirst {
				a.basis += allowed // a Roth's contributions open before its access age
			} else if w.tracksCost() {
				a.basis += paid * (1 - c.Tax)
			}
		} else {
			a.y.Contributions += allowed + emp
			if a.w == nil && !a.cash {
				a.basis += allowed + emp
			}
		}
		over := want - allowed
		ys.row.OverLimit += over
		ys.contribOut += want
		if over > 0 {
			t := &e.acc[e.taxIx]
			t.y.Contributions += over
			t.basis += over
		}
	}
	ys.outflow += ys.contribOut
}

// group is the account whose index keys the limit account i shares.
func (e *engine) group(i int) int {
	a := &e.acc[i]
	for j := 0; j < i; j++ {
		b := &e.acc[j]
		if b.w == nil || b.owner != a.owner {
			continue
		}
		if (a.w.Contrib.Group != "" && b.w.Contrib.Group == a.w.Contrib.Group) || b.w == a.w {
			return j
		}
	}
	return i
}

// indexFrom is the growth of prices from the last year a limit is given
// for to year, at the plan's inflation (limits past the data are indexed
// at the plan's expected inflation).
func (e *engine) indexFrom(c *Contrib, year int, ys *yearState) float64 {
	if len(c.Limits) == 0 {
		return 1
	}
	last := c.Limits[len(c.Limits)-1].Year
	if year <= last {
		return 1
	}
	return pow(1+e.p.Inflation, year-max(last, e.year0))
}

// required takes the required minimum withdrawals.
func (e *engine) required(ys *yearState) {
	for m := e.minimums; m != 0; m &= m - 1 {
		a := &e.acc[bits.TrailingZeros32(m)]
		if !ys.alive[a.owner] || float64(ys.age[a.owner]) < a.rmdAge {
			continue
		}
		m := min(a.w.RMD.Divisors().Minimum(ys.age[a.owner], a.y.Start), a.bal)
		if m <= 0 {
			continue
		}
		e.taxOut(a, m, &ys.f[a.owner], ys.t)
		a.bal -= m
		a.y.Withdrawals += m
		ys.row.Required += m
		ys.inflow += m
	}
}

// spend sets the year's spending and one-off events.
func (e *engine) spend(ys *yearState) {
	amount := e.p.Expenses
	if !ys.work[0] {
		amount = e.spendingAt(ys.age[0])
	}
	ys.outflow += amount * ys.cpi
	if e.p.Care != nil {
		e.care(ys)
	}
	if !e.evYear[ys.t] {
		return
	}
	for _, ev := range e.p.Events {
		if ev.Age == ys.age[0] {
			a := ev.Amount
			if !ev.Nominal {
				a *= ys.cpi
			}
			ys.events += a
		}
	}
	if ys.events > 0 {
		ys.inflow += ys.events
	} else {
		ys.outflow -= ys.events
	}
}
