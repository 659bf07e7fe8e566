package household

import "math"

// Start is the age at which a person born in birthYear who claims at
// claimAge is first paid: claimAge, but not before Earliest and, when the
// benefit cannot be claimed early (NotBeforeNormal), not before the
// person's normal age.
func (b *Benefit) Start(birthYear int, claimAge float64) float64 {
	start := max(claimAge, b.Earliest)
	if b.NotBeforeNormal {
		start = max(start, ByBirth(b.NormalAge, birthYear))
	}
	return start
}

// Factor is the share of the normal-age benefit paid to a person born in
// birthYear who claims at claimAge (years, months as twelfths): the early
// reduction below the normal age, the delayed credit above it up to
// Latest. The claim is taken at Start: a claim before Earliest at
// Earliest, one before the normal age of a benefit that cannot be
// claimed early at the normal age.
func (b *Benefit) Factor(birthYear int, claimAge float64) float64 {
	claimAge = b.Start(birthYear, claimAge)
	normal := ByBirth(b.NormalAge, birthYear)
	months := int(math.Round((claimAge - normal) * 12))
	if months >= 0 {
		late := min(months, int(math.Round((b.Latest-normal)*12)))
		return 1 + float64(max(late, 0))*b.DelayedPerMonth
	}
	early, cut := -months, 0.0
	for _, s := range b.Early {
		n := early
		if s.Months > 0 {
			n = min(early, s.Months)
		}
		cut += float64(n) * s.PerMonth
		if early -= n; early == 0 {
			break
		}
	}
	return max(0, 1-cut)
}

// Taxable is the part of a year's benefit that is taxed, given the other
// income that counts (for the US: adjusted gross income before the
// benefit, plus tax-exempt interest) and the filing status.
func (in *Inclusion) Taxable(benefit, other float64, joint bool) float64 {
	base := in.Single
	if joint {
		base = in.Joint
	}
	pi := other + in.Half*benefit
	if pi <= base[0] {
		return 0
	}
	// The first tier: Rates[0] of the income between the bases, at most
	// Rates[0] of the benefit.
	first := min(in.Rates[0]*(min(pi, base[1])-base[0]), in.Rates[0]*benefit)
	if pi <= base[1] {
		return first
	}
	// Above the second base: Rates[1] of the excess plus the lesser of the
	// first tier and Rates[0] of the span between the bases, at most
	// Rates[1] of the benefit.
	tier := min(first, in.Rates[0]*(base[1]-base[0]))
	return min(in.Rates[1]*(pi-base[1])+tier, in.Rates[1]*benefit)
}

// Charge is the recovery tax of a year on a person's income with a
// benefit paid: Rate of the income above the threshold, at most the
// benefit. infl is the growth of prices since the last year given, used
// when Indexed.
func (rc *Recovery) Charge(year int, income, benefit, infl float64) float64 {
	c := Contrib{Limits: rc.Thresholds, Indexed: rc.Indexed}
	th, _ := c.LimitFor(year, 0, infl)
	return min(benefit, max(0, rc.Rate*(income-th)))
}

// Minimum is a required minimum withdrawal at age from balance (the
// balance at the end of the year before); 0 below the table's first age.
func (t *Table) Minimum(age int, balance float64) float64 {
	v := t.At(age)
	switch {
	case v == 0 || balance <= 0:
		return 0
	case t.Divisor:
		return balance / v
	}
	return balance * v
}

// TaxFree is the part of an income-taxed withdrawal of amount that is free
// of tax: TaxFreeShare of it, at most what is left of the lifetime
// TaxFreeCap after used (no cap when TaxFreeCap is 0).
func (w *Withdrawal) TaxFree(amount, used float64) float64 {
	if amount <= 0 {
		return 0
	}
	free := w.TaxFreeShare * amount
	if w.TaxFreeCap > 0 {
		free = min(free, max(0, w.TaxFreeCap-used))
	}
	return free
}

// raise is the benefit's increase with age, nil for none (or for a
// generic pension).
func (b *Benefit) raise() *Raise {
	if b == nil {
		return nil
	}
	return b.Raise
}
