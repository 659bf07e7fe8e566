package household

import (
	"slices"

	"fiplan/compute/fi"
)

// settle closes the year: the spending met, whatever is left over saved in
// the taxable account, every account grown by the year's return (cash by
// inflation) and paid its contributions at year end.
func (e *engine) settle(ys *yearState, ret, pi float64) {
	if surplus := ys.inflow + ys.drawn - ys.outflow - ys.due; surplus > 0.005 {
		t := &e.acc[e.taxIx]
		t.y.Contributions += surplus
		t.basis += surplus
	}
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		r := ret
		if a.cash {
			r = pi
		}
		g := a.bal * r
		if a.paid > 0 {
			g = a.bal*r - a.yield*a.bal // its dividends and interest were paid out
		}
		if a.earnTax {
			g -= e.earningsTax(a, g, ys)
		}
		if a.advanced {
			a.advance = min(max(0, g), a.bal*a.w.Advance.Share*a.w.Advance.rate(e.year0+ys.t))
			a.basis += a.advance
		}
		a.y.Growth = g
		a.bal += g + a.y.Contributions
		if a.bal < 0 {
			a.bal = 0
		}
		a.y.End = a.bal
		if a.flexAfter && a.y.Withdrawals > 0 {
			e.ppl[a.owner].flexed = true
		}
	}
}

// earningsTax is the tax on account a's growth g inside its wrapper: on
// a gain, the share of the balance outside the retirement phase (the phase
// part, drawn in proportion, grows untaxed). It is counted among the
// year's taxes, withheld by the fund.
func (e *engine) earningsTax(a *held, g float64, ys *yearState) float64 {
	share := 0.0
	if a.phase > 0 {
		if a.y.Start > 0 {
			a.phase = min(a.bal, a.phase*a.bal/a.y.Start)
		}
		if a.bal > 0 {
			share = a.phase / a.bal
			a.phase *= 1 + g/a.bal
		}
	}
	if g <= 0 {
		return 0
	}
	t := g * (1 - share) * a.w.EarningsTax
	ys.fundTax += t
	return t
}

// emit appends the year's rows. The row's taxes are those of the solve's
// last round (taxes), with the tax withheld inside wrappers on the year's
// earnings, known once the year is settled.
func (e *engine) emit(ys *yearState, r *Result, real float64) {
	row := &ys.row
	if ys.fundTax != 0 {
		t := &row.Tax
		t.Income += ys.fundTax
		t.Total = t.Income + t.Social + t.Capital + t.Penalties + t.Wealth
	}
	row.Drawn = ys.drawn
	row.PartnerAge = -1
	if e.np == 2 {
		row.PartnerAge = ys.age[1]
	}
	row.Residence = e.p.Residences[ys.res].Country
	y := fi.Year{Year: e.year0 + ys.t, Age: ys.age[0], Events: ys.events, Pension: row.Pensions, Retired: !ys.work[0]}
	n := len(r.Cells)
	r.Cells = slices.Grow(r.Cells, e.na)[:n+e.na]
	cells := r.Cells[n:]
	for i := range cells {
		a := &e.acc[i].y
		y.StartBalance += a.Start
		y.Contributions += a.Contributions
		y.Growth += a.Growth
		y.Withdrawals += a.Withdrawals
		y.EndBalance += a.End
		cells[i] = *a
	}
	y.RealEndBalance = real
	y.FIProgress = 1
	if e.fiNumber > 0 {
		y.FIProgress = real / e.fiNumber
	}
	r.Rows = append(r.Rows, y)
	r.Extra = append(r.Extra, *row)
}
