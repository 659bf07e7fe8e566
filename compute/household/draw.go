package household

import (
	"math"
	"math/bits"
)

// solve draws what the year's spending, contributions and taxes need
// beyond its income: the draw d that meets outflow + tax(d) - inflow, found
// by the secant method. The first point is guess (last year's draw in
// money of this year) or, without one, the need before the draw's own tax
// grossed up by the marginal cost the last solve met. Each round places d
// afresh from the state before the first draw (see place), so a year draws
// what it needs and no more (within a hundred-thousandth of the draw; see
// overshoot); it reports what was left unmet. With conv, each round also
// converts up to the conversion band after its draws, so the draw pays the
// conversion's tax too.
func (e *engine) solve(ys *yearState, guess float64, conv bool) float64 {
	s := &e.saved
	e.keep(s, ys)
	var p0, t0 float64 // the last point evaluated: draw and tax
	known, placed := false, false
	d := guess
	if !(d > 0) {
		e.place(0, ys, conv)
		placed = true
		t0, known = e.taxes(ys), true
		need := ys.outflow + t0 - ys.inflow - ys.drawn
		if need <= 0.005 {
			ys.due = t0
			return 0
		}
		d = need / (1 - e.slope)
	}
	best := -1.0 // the smallest draw met, to fall back on
	for k := 0; k < maxSolve; k++ {
		if placed {
			e.back(s, ys)
		}
		got := e.place(d, ys, conv)
		placed = true
		t := e.taxes(ys)
		r := ys.outflow + t - ys.inflow - ys.drawn
		if got < d-1e-9*d && r > 0.005 {
			ys.due = t // nothing more to draw
			return r
		}
		d = got
		if r <= 0.005 {
			if d <= 0 || -r <= overshoot(d, k) {
				ys.due = t
				return 0
			}
			if best < 0 || d < best {
				best = d
			}
		}
		m := e.slope
		if known && d != p0 {
			m = min(0.9, max(0, (t-t0)/(d-p0)))
			if math.Abs(d-p0) > max(1, 1e-3*d) {
				// a slope over a stretch wider than the tax's rounding
				// steps is kept for the next year's first correction
				e.slope = m
			}
		}
		p0, t0, known = d, t, true
		d = max(0, d+r/(1-m))
	}
	if best >= 0 {
		e.back(s, ys)
		e.place(best, ys, conv)
	}
	ys.due = e.taxes(ys)
	return max(0, ys.outflow+ys.due-ys.inflow-ys.drawn-0.005)
}

// place draws d from the state a solve keeps and, with conv, converts
// what the year's conversion band still has room for; it reports what was
// drawn.
func (e *engine) place(d float64, ys *yearState, conv bool) float64 {
	got := 0.0
	if d > 0 {
		got = e.take(d, ys)
	}
	ys.drawn = e.saved.drawn + got
	if conv {
		e.convert(ys)
	}
	return got
}

// overshoot is how far round k of a solve may draw past the need (the
// surplus is saved in the taxable account): half a currency unit or a
// hundred-thousandth of the draw at first, then, as rounding
// in the tax rules can make the tax jump past any finer aim, anything.
func overshoot(d float64, k int) float64 {
	if k >= 3 {
		return math.Inf(1)
	}
	return max(0.5, 1e-5*d)
}

// drawState is what drawing and converting change: the accounts, the
// year's taxable flows, the lump sums used, the money drawn and converted.
type drawState struct {
	acc              [maxHeld]funds
	f                [2]flows
	cap              [2]float64
	drawn, converted float64
}

// keep saves the state a solve draws from; back returns to it. An
// account's funds are saved when a draw or a conversion first changes them
// (touch), so a solve copies only the accounts it draws on.
func (e *engine) keep(s *drawState, ys *yearState) {
	e.kept = 0
	s.f, s.drawn, s.converted = ys.f, ys.drawn, ys.row.Converted
	s.cap[0], s.cap[1] = e.ppl[0].capUsed, e.ppl[1].capUsed
}

func (e *engine) back(s *drawState, ys *yearState) {
	for m := e.kept; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		e.acc[i].funds = s.acc[i]
	}
	ys.f, ys.drawn, ys.row.Converted = s.f, s.drawn, s.converted
	e.ppl[0].capUsed, e.ppl[1].capUsed = s.cap[0], s.cap[1]
}

// touch saves account i's funds as the solve found them, before a draw
// or a conversion first changes them.
func (e *engine) touch(i int) {
	if e.kept&(1<<i) == 0 {
		e.saved.acc[i] = e.acc[i].funds
		e.kept |= 1 << i
	}
}

// take draws want from the accounts in the plan's order: first what can be
// had without a charge, then, when nothing else is left, money before its
// access age with the statute's charge.
func (e *engine) take(want float64, ys *yearState) float64 {
	got := 0.0
	if !e.baseline {
		switch e.orderAt(ys.t) {
		case TaxSmart:
			got += e.takeLow(want, ys)
		case Proportional:
			got += e.takeShares(want, ys)
		}
	}
	for k := 0; k < e.na && want-got > 1e-9; k++ {
		got += e.draw(e.order[k], want-got, false, ys)
	}
	for k := 0; k < e.na && want-got > 1e-9; k++ {
		got += e.draw(e.order[k], want-got, true, ys)
	}
	return got
}

// takeLow draws open tax-deferred and pension money while its owner's
// ordinary income stays below the top of the lowest taxed band.
func (e *engine) takeLow(want float64, ys *yearState) float64 {
	top := e.band(ys.res, false, e.joint(ys)) * ys.cpi
	got := 0.0
	for k := 0; k < e.na && want-got > 1e-9; k++ {
		i := e.order[k]
		a := &e.acc[i]
		if a.class != 2 || a.w.Withdrawal.Taxed != TaxedIncome || !e.open(i, ys) {
			continue
		}
		room := top - e.ordinary(ys, a.owner)
		if room <= 0 {
			continue
		}
		got += e.draw(i, min(want-got, room), false, ys)
	}
	return got
}

// takeShares draws from every open account in proportion to its balance.
func (e *engine) takeShares(want float64, ys *yearState) float64 {
	var avail [maxHeld]float64
	sum := 0.0
	for i := 0; i < e.na; i++ {
		if e.open(i, ys) {
			avail[i] = e.acc[i].bal
			sum += avail[i]
		}
	}
	if sum <= 0 {
		return 0
	}
	share := min(1, want/sum)
	got := 0.0
	for i := 0; i < e.na; i++ {
		if avail[i] > 0 {
			got += e.draw(i, avail[i]*share, false, ys)
		}
	}
	return got
}

// open reports whether account i's money can be had without a charge this
// year.
func (e *engine) open(i int, ys *yearState) bool {
	a := &e.acc[i]
	if a.seppOn {
		return false // a running series pays nothing else without a charge
	}
	if a.w == nil || a.access == 0 {
		return true
	}
	age := float64(ys.age[a.owner])
	if age >= a.access {
		return true
	}
	sep := a.w.Access.SeparationAge
	r := e.ppl[a.owner].retiredAge
	return sep > 0 && r >= 0 && float64(r) >= sep && ys.age[a.owner] >= r
}

// draw takes up to want from account i: an open account's money freely
// (with its tax); before the access age only the part open without a
// charge (a Roth's contributions and seasoned conversions), and, when
// charged, the rest with the statute's charge unless the wrapper is
// locked.
func (e *engine) draw(i int, want float64, charged bool, ys *yearState) float64 {
	a := &e.acc[i]
	x := min(want, a.bal)
	if x <= 1e-12 {
		return 0
	}
	e.touch(i)
	f := &ys.f[a.owner]
	if a.seppOn {
		if !charged {
			return 0
		}
		e.modify(a, f)
	}
	if e.open(i, ys) {
		e.taxOut(a, x, f, ys.t)
	} else {
		free := 0.0
		if a.w.Access.BasisFirst {
			free = min(a.basis+a.seasoned, a.bal)
		}
		if !charged || a.w.Access.Locked {
			x = min(x, free)
		}
		if x <= 1e-12 {
			return 0
		}
		fx := min(x, free)
		a.useBasis(fx)
		if rest := x - fx; rest > 0 {
			f.penalty += a.w.Access.Penalty * rest
			e.earlyTax(a, rest, f, ys.t)
		}
	}
	a.bal -= x
	a.y.Withdrawals += x
	return x
}

// useBasis takes x from the contributions, then the seasoned conversions.
func (a *held) useBasis(x float64) {
	b := min(x, a.basis)
	a.basis -= b
	a.seasoned = max(0, a.seasoned-(x-b))
}

// earlyTax is the tax of money taken before its access age beyond the part
// open without a charge: income for a tax-deferred wrapper; for a tax-free
// one, nothing on converted money not yet seasoned (taken oldest first)
// and income on the earnings when the statute taxes them.
func (e *engine) earlyTax(a *held, x float64, f *flows, t int) {
	switch a.w.Withdrawal.Taxed {
	case TaxedIncome:
		f.pension += x
	case TaxedGains:
		e.sell(a, x, f)
	case TaxedNone:
		s := min(a.w.Access.Seasoning, maxSeasoning)
		for k := 0; k < s && x > 0; k++ {
			j := (t + 1 + k) % s
			c := min(x, a.pend[j])
			a.pend[j] -= c
			x -= c
		}
		if a.w.Withdrawal.EarningsTaxedEarly {
			f.pension += x
		}
	}
}

// taxOut is the tax of x taken from an open account in year t of the
// plan.
func (e *engine) taxOut(a *held, x float64, f *flows, t int) {
	switch {
	case a.cash:
	case e.separate(a, x, f, t):
	case a.w == nil || a.w.Withdrawal.Taxed == TaxedGains:
		e.sell(a, x, f)
	case a.w.Withdrawal.Taxed == TaxedIncome:
		q := &e.ppl[a.owner]
		free := a.w.Withdrawal.TaxFree(x*a.rate, q.capUsed*a.rate) / a.rate
		q.capUsed += free
		f.pension += x - free
	case a.w.Access.QualifiedAfter > t+a.heldFor:
		a.unqualified(x, f)
	default:
		a.basis = min(a.basis, a.bal-x)
		a.seasoned = min(a.seasoned, a.bal-x)
	}
}

// unqualified takes x from a tax-free account after its access age but
// before its qualifying years: contributions first, then conversions (the
// seasoned, then the newest pending ones), free of tax; the earnings after
// them are income.
func (a *held) unqualified(x float64, f *flows) {
	free := min(x, a.basis+a.seasoned)
	a.useBasis(free)
	rest := x - free
	for k := range a.pend {
		c := min(rest, a.pend[k])
		a.pend[k] -= c
		rest -= c
	}
	f.pension += rest
}

// sell takes x from a taxable account at average cost: the gain share of
// x is a capital gain.
func (e *engine) sell(a *held, x float64, f *flows) {
	if a.bal <= 0 {
		return
	}
	share := min(1, x/a.bal)
	cost := a.basis * share
	g := max(0, x-cost)
	if a.w != nil {
		g *= 1 - a.w.Withdrawal.GainsExempt
	}
	f.gains += g
	a.basis -= cost
}

// convert moves tax-deferred money to its conversion wrapper up to the top
// of the conversion band, before required minimums start.
func (e *engine) convert(ys *yearState) {
	if e.p.Conversions != nil {
		e.convertAmount(ys)
		return
	}
	if e.nconv == 0 {
		return
	}
	top := e.band(ys.res, true, e.joint(ys)) * ys.cpi
	for _, i := range e.convs[:e.nconv] {
		a := &e.acc[i]
		if a.seppOn || !ys.alive[a.owner] || (a.rmdAge > 0 && float64(ys.age[a.owner]) >= a.rmdAge) {
			continue
		}
		x := min(a.bal, top-e.ordinary(ys, a.owner))
		if x <= 0.005 {
			continue
		}
		e.moveConverted(ys, i, x)
	}
}
