package household

import (
	"math"

	"fiplan/compute/fi"
	"fiplan/compute/tax"
)

// taxes is the year's taxes and charges on each person's income, computed
// in today's money under the residence's tax year (its thresholds move
// with prices) and returned in money of the year. It also fills the row's
// breakdown (ys.row.Tax, Split, Recapture, Health.Credit): the last call of
// a year's solve is on the year's final draws, so the row reads it as it
// stands, the tax withheld inside wrappers (settle) added (emit).
func (e *engine) taxes(ys *yearState) float64 {
	res := &e.p.Residences[ys.res]
	var t Taxes
	rate := rateOr1(res.Rate)
	cpi := ys.cpi / rate // amounts of the year in the plan's currency -> today's money in the tax system's
	joint := e.joint(ys)
	var moved [2]float64 // pension income moved onto each return
	if res.Split != nil && !joint && e.np == 2 && ys.alive[0] && ys.alive[1] {
		x, from := e.split(ys, res.Split)
		moved[from], moved[1-from] = -x, x
		ys.row.Split = x
	}
	agi := 0.0 // the household's adjusted gross income, money of the year
	recapture := 0.0
	for i := 0; i < e.np; i++ {
		f := &ys.f[i]
		t.Penalties += f.penalty
		recapture += f.recapture
		t.Income += f.entryTax
		if f.sep.n > 0 {
			si, sc := f.sep.due(ys.cpi)
			t.Income += si
			t.Capital += sc
		}
		if e.ty == nil || (joint && i == 1) {
			continue
		}
		var in tax.Income
		deferred := f.deferred
		if joint {
			in = e.jointIncome(ys, rate, cpi)
			deferred += ys.f[1].deferred
		} else {
			taxed := f.benefit
			if f.incl != nil {
				taxed = f.incl.Taxable(f.benefit*rate, (f.wages+f.pension+f.gains+f.interest+f.dividends)*rate, false) / rate
			}
			in = tax.Income{Employment: f.wages / cpi, Pension: (f.pension + moved[i]) / cpi, CapitalGains: f.gains / cpi,
				Interest: f.interest / cpi, Dividends: f.dividends / cpi, Age: ys.age[i]}
			if f.incl != nil {
				in.SocialSecurity = taxed / cpi
			} else {
				in.Pension += taxed / cpi
			}
		}
		agi += (in.Employment + in.Pension + in.CapitalGains + in.Interest + in.Dividends + in.SocialSecurity) * cpi
		if in.Employment == 0 && in.Pension == 0 && in.CapitalGains == 0 && in.SocialSecurity == 0 && in.Interest == 0 && in.Dividends == 0 {
			continue
		}
		c := e.due(i, res.Region, &in)
		social := c.Social
		if deferred > 0 {
			// deferrals that stay social wages: the social contributions
			// are those of the wages before them
			full := in
			full.Employment += deferred / cpi
			if joint {
				full.PartnerEmployment += ys.f[1].deferred / cpi
			}
			social = e.due(2+i, res.Region, &full).Social
		}
		t.Income += (c.Income + c.Regional) * cpi
		t.Social += social * cpi
		t.Capital += c.Capital * cpi
	}
	for i := 0; i < e.np && res.System != nil; i++ {
		if f := &ys.f[i]; f.recovery != nil {
			own := (f.wages + f.pension + moved[i] + f.gains + f.benefit) / cpi
			t.Income += f.recovery.Charge(res.Year+ys.t, own, f.recBenefit/cpi, 1) * cpi
		}
	}
	// the tax withheld on earnings inside wrappers (known once the year
	// is settled) is the fund's, not the household's to pay
	t.Income += ys.fundTax
	t.Wealth, t.WealthOn = ys.wealth, ys.wealthOn
	t.Total = t.Income + t.Social + t.Capital + t.Penalties + t.Wealth
	ys.row.Tax, ys.row.Recapture = t, recapture
	ys.magi = agi
	if ys.bench > 0 {
		// the credit's income counts the whole of a benefit
		magi := 0.0
		for i := 0; i < e.np; i++ {
			f := &ys.f[i]
			magi += f.wages + f.pension + f.gains + f.interest + f.dividends + f.benefit
		}
		ys.credit = e.premiumCredit(ys, magi)
		ys.row.Health.Credit = ys.credit
	}
	return t.Total - ys.credit
}

// split is the pension income the partner with the larger income moves
// to the other's return: at most the rule's share of their eligible
// pension income (statutory benefits left out), and no more than brings
// the two incomes level.
func (e *engine) split(ys *yearState, sp *PensionSplit) (x float64, from int) {
	var inc [2]float64
	for i := range inc {
		f := &ys.f[i]
		inc[i] = f.wages + f.pension + f.gains + f.benefit
	}
	if inc[1] > inc[0] {
		from = 1
	}
	if ys.age[from] < sp.FromAge {
		return 0, from
	}
	f := &ys.f[from]
	x = min(sp.Share*(f.pension-f.statutory), (inc[from]-inc[1-from])/2)
	return max(0, x), from
}

// joint reports whether the year's return is a couple's joint one: the
// plan files jointly, both are alive, and the residence's rules file
// couples jointly (in its region too).
func (e *engine) joint(ys *yearState) bool { return ys.joint }

// files reports whether the year of ys is taxed as a couple's joint return
// (joint), from who is alive and the residence (begin).
func (e *engine) files(ys *yearState) bool {
	return e.p.Joint && e.np == 2 && ys.alive[0] && ys.alive[1] && e.jointOK[ys.res]
}

// jointIncome is the couple's income of a joint return in today's money
// of the tax system: both persons' parts, the partner's wages named.
func (e *engine) jointIncome(ys *yearState, rate, cpi float64) tax.Income {
	a, b := &ys.f[0], &ys.f[1]
	benefit := a.benefit + b.benefit
	in := tax.Income{Employment: (a.wages + b.wages) / cpi, PartnerEmployment: b.wages / cpi,
		Pension: (a.pension + b.pension + benefit) / cpi, CapitalGains: (a.gains + b.gains) / cpi,
		Interest: (a.interest + b.interest) / cpi, Dividends: (a.dividends + b.dividends) / cpi,
		Age: ys.age[0], PartnerAge: ys.age[1], Joint: true}
	if incl := a.incl; incl != nil || b.incl != nil {
		// a benefit with an inclusion rule is taxed as the country's
		// rules tax social security, only its included part
		if incl == nil {
			incl = b.incl
		}
		other := a.wages + a.pension + a.gains + a.interest + a.dividends + b.wages + b.pension + b.gains + b.interest + b.dividends
		in.Pension -= benefit / cpi
		in.SocialSecurity = incl.Taxable(benefit*rate, other*rate, true) / rate / cpi
	}
	return in
}

// ordinary is the ordinary income of owner's return so far: theirs, or the
// couple's on a joint return.
func (e *engine) ordinary(ys *yearState, owner int) float64 {
	f := &ys.f[owner]
	x := f.wages + f.pension + f.benefit + f.interest
	if e.joint(ys) {
		g := &ys.f[1-owner]
		x += g.wages + g.pension + g.benefit + g.interest
	}
	return x
}

// due is the tax of person i's income in under the year's rules,
// remembered: the rounds of a year's solve mostly change one person's
// income, and the row's breakdown is the last round's. The rules are the
// year's compiled for the return's kind (its filing and age group), found
// once a year for each slot: within a year the rules, the region, the
// filing and the ages of a slot's return stay.
// Slots 0 and 1 are the persons' returns, 2 and 3 the same returns with
// their deferrals counted as wages (their social contributions).
func (e *engine) due(i int, region string, in *tax.Income) tax.Categories {
	m := &e.memo[i]
	if m.ver != e.ver {
		*m = memo{ver: e.ver, rules: e.compiled(region, in)}
	} else if m.ok && m.in == *in {
		return m.due
	}
	m.in, m.ok = *in, true
	if m.rules == nil {
		m.due = tax.Categories{}
	} else {
		m.due = m.rules.DueByCategory(in, e.sc())
	}
	return m.due
}

// compiled is e.ty.Compiled(region, in), nil for an error, kept in the
// Work's table for the runs and paths after: the compiled rules depend on
// the year's rules, the region, the filing and the ages alone.
func (e *engine) compiled(region string, in *tax.Income) *tax.Compiled {
	k := rulesKey{year: e.ty, region: region, joint: in.Joint, age: in.Age}
	if in.Joint {
		k.partner = in.PartnerAge
	}
	if e.rules == nil {
		c, _ := e.ty.Compiled(region, in)
		return c
	}
	return e.rules.get(k, in)
}

// rulesKey names a kind of return of a year's rules: what tax.Year.Compiled
// compiles for.
type rulesKey struct {
	year         *tax.Year
	region       string
	joint        bool
	age, partner int
}

// rulesCache keeps the compiled rules a Work has looked up, by kind of
// return (a direct-mapped table: a projection meets one kind a year and
// person, and every path of a plan meets the same).
type rulesCache struct {
	keys [256]rulesKey
	vals [256]*tax.Compiled
}

func (c *rulesCache) get(k rulesKey, in *tax.Income) *tax.Compiled {
	h := uint(k.age)*131 + uint(k.partner)*17
	if k.joint {
		h += 7
	}
	h = (h ^ uint(len(k.region))) % uint(len(c.keys))
	if c.keys[h] == k { // an empty slot has no year, and k has one
		return c.vals[h]
	}
	v, err := k.year.Compiled(k.region, in)
	if err != nil {
		v = nil
	}
	c.keys[h], c.vals[h] = k, v
	return v
}

// memo is the last tax computed for a return of the year ver, and the
// compiled rules of the year for it.
type memo struct {
	in    tax.Income
	ver   uint64 // the year it was computed in (engine.ver)
	due   tax.Categories
	ok    bool
	rules *tax.Compiled
}

// yearRules sets the rules that tax the year and the scale of their
// figures on this path: year t of the plan is taxed under the residence's
// rules of tax year Residence.Year+t (tax.System.At: as published, or
// past the newest published year projected by each figure's own rule), its
// figures moved by the path's prices since the plan's first year. ver
// changes every year (the year's ages change the returns anyway), so the
// memo holds within a year.
func (e *engine) yearRules(ys *yearState) {
	res := &e.p.Residences[ys.res]
	if res.System == nil {
		e.ty = nil
		return
	}
	c := res.Year + ys.t
	y := res.System.At(c)
	e.ty = y
	e.ver++
	if e.expected && e.scales != nil {
		// the plan's expected prices: the same scale every run of a plan
		// with this inflation
		if s := &e.scales.at[ys.t]; s.y == y && s.start == res.Year && s.inflation == e.p.Inflation {
			e.scp = &s.sc
			return
		}
		s := &e.scales.at[ys.t]
		s.y, s.start, s.inflation = y, res.Year, e.p.Inflation
		e.scaleAt(y, c, res, ys.t, &s.sc)
		e.scp = &s.sc
		return
	}
	e.scaleAt(y, c, res, ys.t, &e.scs)
	e.scp = &e.scs
}

// scaleAt fills sc with the scale of tax year c's rules y in year t of
// this path.
func (e *engine) scaleAt(y *tax.Year, c int, res *Residence, t int, sc *tax.Scale) {
	p := tax.Path{Start: res.Year, Levels: e.levels[:t+1], RealWages: res.System.RealWageGrowth()}
	y.Scale(c, &p, sc)
}

// scaleCache keeps the scale of each year of a plan's expected path (its
// prices moving at the plan's inflation), for the runs after: a scale
// depends on the year's rules, the first tax year and the price levels
// alone.
type scaleCache struct {
	at [fi.MaxYears]struct {
		y         *tax.Year
		start     int
		inflation float64
		sc        tax.Scale
	}
}

// sc is the scale of the year's figures on this path (yearRules).
func (e *engine) sc() *tax.Scale { return e.scp }

// residenceFiles reports whether residence k files a couple jointly and
// whether it taxes wealth in the years the plan may live there: jointly
// only where every year's rules (in its region) have a joint return.
func (e *engine) residenceFiles(k int) (joint, wealth bool) {
	r := &e.p.Residences[k]
	if r.System == nil {
		return false, false
	}
	joint = true
	// the years whose rules may differ: the first, then each change
	for c := r.Year; c != 0 && c < r.Year+e.n; c = r.System.NextChange(c) {
		joint = joint && r.System.HasJointAt(r.System.At(c), r.Region)
		wealth = wealth || r.System.HasWealthTax(r.System.WealthYearAt(c), r.Region)
	}
	return joint, wealth
}

// band is the real pension income at the top of the residence's lowest
// taxed band (conv false) or of the band taxed at the plan's ConvertUpTo
// (conv true): the largest income whose marginal rate does not exceed
// that rate. It is found once per residence and year's rules by bisection
// on the tax due with the figures as stored, and moved as the year's
// price-indexed figures move on the path; a figure frozen or not indexed
// moves otherwise, so in a projected year a draw aimed at the top may
// reach a little past or short of it.
func (e *engine) band(k int, conv, joint bool) float64 {
	return e.bandTop(k, conv, joint) * e.sc().Factor(0)
}

// bandTop is band as the year's rules store their figures: found once for
// each residence and each year's rules.
func (e *engine) bandTop(k int, conv, joint bool) float64 {
	j := 0
	if joint {
		j = 1
	}
	cache, for_ := &e.lowTop[j][k], &e.lowYear[j][k]
	if conv {
		cache, for_ = &e.convTop[j][k], &e.convYear[j][k]
	}
	if *cache >= 0 && *for_ == e.ty {
		return *cache
	}
	*for_ = e.ty
	res := &e.p.Residences[k]
	if res.System == nil || e.ty == nil {
		*cache = math.Inf(1)
		return *cache
	}
	y := e.ty
	key := bandKey{year: y, region: res.Region, conv: conv, joint: joint}
	if conv {
		key.rate = e.p.ConvertUpTo
	}
	if e.bands != nil {
		if v, ok := e.bands.get(key); ok {
			*cache = v
			return v
		}
		defer func() { e.bands.put(key, *cache) }()
	}
	*cache = 0
	due := func(g float64) float64 {
		in := tax.Income{Pension: g, Joint: joint}
		d, _ := y.Due(&in, res.Region, nil, nil)
		return d
	}
	const step, hi = 100.0, 1e7
	marginal := func(g float64) float64 { return (due(g+step) - due(g)) / step }
	rate := e.p.ConvertUpTo
	if !conv {
		// the first income taxed, and its rate
		lo, up := 0.0, hi
		for up-lo > 1 {
			if mid := (lo + up) / 2; due(mid) > 0 {
				up = mid
			} else {
				lo = mid
			}
		}
		rate = marginal(up + step)
	}
	lo, up := 0.0, hi
	for up-lo > 1 {
		if mid := (lo + up) / 2; marginal(mid) <= rate+1e-6 {
			lo = mid
		} else {
			up = mid
		}
	}
	*cache = lo / rateOr1(res.Rate)
	return *cache
}

// bandKey names a band top: a tax system's year and region, and the rate
// (conversions) or the lowest band.
type bandKey struct {
	year   *tax.Year
	region string
	conv   bool
	joint  bool
	rate   float64
}

// bandCache keeps the band tops a Work has found, for the runs after: they
// depend on the tax rules alone.
type bandCache struct {
	keys [16]bandKey
	vals [16]float64
	n    int
}

func (c *bandCache) get(k bandKey) (float64, bool) {
	for i := 0; i < c.n; i++ {
		if c.keys[i] == k {
			return c.vals[i], true
		}
	}
	return 0, false
}

func (c *bandCache) put(k bandKey, v float64) {
	i := c.n % len(c.keys)
	c.keys[i], c.vals[i] = k, v
	c.n = min(c.n+1, len(c.keys))
}
