package plan

import (
	"fiplan/compute/fi"
	"fiplan/compute/root"
	"fiplan/compute/tax"
)

// A withdrawal from a taxable account sells part of the pot: it returns
// capital paid in and realises the gain on the rest, and only that gain is
// a capital gain. The pot's cost basis (the capital paid in) is followed
// row by row at its average cost: contributions and windfalls add to it, a
// withdrawal or an outlay takes its share of it away, and growth leaves it
// as it is. The gain share of a withdrawal is 1 - basis / balance, none
// when the pot is worth less than it cost (losses are not offset).

// costBasis is the pot's cost basis, in money of the row being followed.
type costBasis float64

// gainShare is the share of a withdrawal from balance that is gain, for a
// pot of the given basis.
func gainShare(basis, balance float64) float64 {
	if !(balance > 0) {
		return 0
	}
	return min(max(1-basis/balance, 0), 1)
}

// next follows the basis over row r and returns the gain share of the
// row's withdrawal: taken at the start of a drawdown year, after growth in
// an accumulation year whose saving is negative.
func (c *costBasis) next(r *fi.Year) float64 {
	b := float64(*c)
	bal := r.StartBalance + r.Events
	switch {
	case r.Events > 0:
		b += r.Events
	case r.Events < 0 && r.StartBalance > 0:
		b *= max(bal, 0) / r.StartBalance
	}
	at := bal // the balance the withdrawal is taken from
	if !r.Retired {
		at += r.Growth
	}
	share := gainShare(b, at)
	if r.Withdrawals > 0 && at > 0 {
		b *= max(at-r.Withdrawals, 0) / at
	}
	*c = costBasis(b + r.Contributions)
	return share
}

// drawdownShare is the gain share of the first drawdown year's withdrawal
// in rows, for a pot whose basis today is basis; ok is false when the plan
// never draws down.
func drawdownShare(rows []fi.Year, basis float64) (share float64, ok bool) {
	c := costBasis(basis)
	for i := range rows {
		s := c.next(&rows[i])
		if rows[i].Retired {
			return s, true
		}
	}
	return 0, false
}

// grossForShare is the withdrawal, share of which is taxed as a capital
// gain and the rest returned capital, that leaves net after tax (see
// solve). A share of 1 is grossFor's answer,
// the whole withdrawal taxed as t.part.
func (t *taxPlan) grossForShare(net, share float64) (float64, bool) {
	if share >= 1 {
		return t.grossFor(net)
	}
	if !(share > 0) {
		return max(net, 0), true
	}
	// The tax never exceeds the gain, so net / (1 - share) leaves enough.
	return t.solve(net, share, net, net/(1-share))
}

// taxOn is the tax on a retirement income g: with gains, on its share
// as a capital gain; else on all of it as t.part.
func (t *taxPlan) taxOn(g, share float64) float64 {
	if t.gains() {
		return t.due(share*g, tax.CapitalGains)
	}
	return t.due(g, t.part)
}

// solve is a retirement income that leaves net after taxOn: one that
// leaves at most a fifth of a cent more, or else the upper end of a
// bracket a cent wide around the smallest. It searches from the guesses
// lo and hi: a
// guess that does not bound the answer is widened (from net, which no
// tax can leave too much, and doubling), so a tight pair spares tax
// evaluations and a wrong one costs a few. false when none below 1e15
// does.
func (t *taxPlan) solve(net, share, lo, hi float64) (float64, bool) {
	if !(net > 0) {
		return max(net, 0), true
	}
	short := func(g float64) float64 { return net - (g - t.taxOn(g, share)) }
	lo = max(lo, net)
	flo := short(lo)
	var b root.Bracket
	var err error
	if flo <= 0 {
		if lo == net {
			return net, true
		}
		fnet := short(net)
		if fnet <= 0 {
			return net, true
		}
		b, err = root.New(net, fnet, lo, flo)
	} else {
		b, err = root.GrowFrom(short, lo, flo, hi, 1e15)
	}
	if err != nil {
		return 0, false
	}
	for i := 0; i < 100 && b.Width() > 0.01; i++ {
		g := b.Next()
		fg := short(g)
		if fg <= 0 && fg > -0.002 {
			// Within a fifth of a cent of net: any smaller income, by
			// at least the cent, leaves too little at a marginal rate
			// below 80%.
			return g, true
		}
		b.Narrow(g, fg)
	}
	return b.Hi, true
}
