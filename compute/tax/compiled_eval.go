package tax

import "math"

// cstate is one evaluation of a Compiled: the parts, and each rule's
// amount and the values later rules read.
type cstate struct {
	figures // the rule's figures as the scale reads them

	parts   [NumParts]float64
	earned  [2]float64 // the partner's employment and self-employment (joint)
	present uint8      // bit p: part p is present; bit 7: always (see gate)
	vals    [maxVals]float64
}

// Due is the tax on in, a return of the kind c was compiled for, its
// figures read through sc (nil: as stored), the incomes in the scale's
// money: what Year.Due answers without a regime. It does not allocate.
func (c *Compiled) Due(in *Income, sc *Scale) float64 {
	cat := c.categories(in, sc)
	return round2(cat[IncomeTax] + cat[Social] + cat[Capital] + cat[Regional])
}

// DueByCategory is Due split by category, as Year.DueByCategory answers
// it. It does not allocate.
func (c *Compiled) DueByCategory(in *Income, sc *Scale) Categories {
	cat := c.categories(in, sc)
	return Categories{Income: cat[IncomeTax], Social: cat[Social], Capital: cat[Capital], Regional: cat[Regional]}
}

// categories is the tax on in by category, each rounded to the cent.
func (c *Compiled) categories(in *Income, sc *Scale) [numCategories]float64 {
	if c.fixed != nil {
		sc = c.fixed
	}
	if c.walks != "" {
		parts, _ := cleanParts(in)
		who := filerOf(in, &parts)
		return c.walk(&parts, &who, sc)
	}
	var st cstate
	st.present = always
	// the parts as cleanParts reads them, and which are present
	st.take(Employment, in.Employment)
	st.take(SelfEmployment, in.SelfEmployment)
	st.take(Pension, in.Pension)
	st.take(Interest, in.Interest)
	st.take(Dividends, in.Dividends)
	st.take(CapitalGains, in.CapitalGains)
	st.take(SocialSecurity, in.SocialSecurity)
	if c.joint {
		st.earned[0] = clampPart(in.PartnerEmployment, st.parts[Employment])
		st.earned[1] = clampPart(in.PartnerSelfEmployment, st.parts[SelfEmployment])
	}
	st.sc = scaleOrNil(sc)
	return c.eval(&st)
}

// take sets part p to v where v is present (positive and finite).
func (st *cstate) take(p Part, v float64) {
	if v > 0 && v <= math.MaxFloat64 {
		st.parts[p] = v
		st.present |= 1 << p
	}
}

// walk is the walker's categories for a return c cannot evaluate itself.
func (c *Compiled) walk(parts *[NumParts]float64, who *filer, sc *Scale) [numCategories]float64 {
	v := c.y.view(c.k)
	var st state
	st.sc = scaleOrNil(sc)
	st.parts, st.who = *parts, *who
	st.run(v)
	var cat [numCategories]float64
	for i := range v.rules {
		cat[v.rules[i].Category] += st.amt[i]
	}
	for k := range cat {
		cat[k] = round2(cat[k])
	}
	return cat
}

// eval runs the rules on the state's parts (present: those not 0) and
// returns the amounts by category, rounded to the cent. A rule that
// charges nothing for want of the parts it reads is passed over: its
// values stay 0.
func (c *Compiled) eval(st *cstate) [numCategories]float64 {
	c = c.shape(st.present)
	var cat [numCategories]float64
	// no credit changes an earlier rule's amount unless c.spills: each is
	// summed as it is charged, in the same order
	sum := !c.spills
	var mask uint32
	if st.sc != nil {
		mask = st.sc.mask
	}
	for i := range c.steps {
		s := &c.steps[i] // a shape's steps are those its parts charge
		k := int(s.k)
		var v float64
		if s.simple && s.classes&mask == 0 {
			v = s.charge(&st.parts)
			st.vals[k] = v
		} else if s.fr != nil && s.classes&mask == 0 {
			st.rsc = nil
			st.flat(k, s.fr)
			v = st.vals[k]
		} else {
			st.rule(k, &c.rules[k])
			v = st.vals[k]
		}
		if sum {
			cat[s.cat] += v
		}
	}
	if !sum {
		for i := range c.steps {
			cat[c.steps[i].cat] += st.vals[c.steps[i].k]
		}
	}
	for k := range cat {
		if cat[k] != 0 {
			cat[k] = round2(cat[k])
		}
	}
	return cat
}

// rres is one charge of a rule: its amount and the values later rules
// may read.
type rres struct {
	amt, taxable, gross, deducted float64
	layer                         [MaxLayers]float64
}

// rule evaluates compiled rule k and stores its results.
func (st *cstate) rule(k int, r *crule) {
	st.enter(r.classes)
	if r.stored && st.rsc == nil {
		st.plainAsStored(k, r)
		return
	}
	var res rres
	switch {
	case r.perEarner && st.earned != [2]float64{}:
		all := st.parts
		st.parts[Employment] -= st.earned[0]
		st.parts[SelfEmployment] -= st.earned[1]
		var a rres
		st.once(k, r, &a)
		st.parts = [NumParts]float64{}
		st.parts[Employment], st.parts[SelfEmployment] = st.earned[0], st.earned[1]
		st.once(k, r, &res)
		st.parts = all
		res.amt += a.amt
		res.taxable += a.taxable
		res.gross += a.gross
		res.deducted += a.deducted
		for li := range res.layer {
			res.layer[li] += a.layer[li]
		}
	default:
		st.once(k, r, &res)
	}
	st.vals[k] = res.amt
	if r.sTaxable >= 0 {
		st.vals[r.sTaxable] = res.taxable
	}
	if r.sGross >= 0 {
		st.vals[r.sGross] = res.gross
	}
	if r.sDeducted >= 0 {
		st.vals[r.sDeducted] = res.deducted
	}
	for li := 0; li < int(r.nLayerOut); li++ {
		if s := r.sLayer[li]; s >= 0 {
			st.vals[s] = res.layer[li]
		}
	}
}

// once charges rule k on the state's parts, as the walker's once does.
func (st *cstate) once(k int, r *crule, res *rres) {
	if r.plain && st.rsc == nil {
		st.plain(r, res)
		return
	}
	var rem [MaxLayers]float64
	g := 0.0
	for li := range r.layers {
		l := &r.layers[li]
		v := 0.0
		if !l.off {
			v = st.base(&l.base)
		}
		if ex := st.fig(l.exempt, l.exemptCls); !(v > 0) || (ex > 0 && v <= ex) {
			v = 0
		}
		rem[li] = v
		g += v
	}
	res.gross = g
	res.deducted = st.deduct(r, g, &rem)
	t := 0.0
	for li := range r.layers {
		rem[li] = r.roundBase.apply(rem[li])
		t += rem[li]
	}
	res.taxable = t
	tax := 0.0
	pos := 0.0
	for li := range r.layers {
		l := &r.layers[li]
		lo, hi := pos, pos+rem[li]
		pos = hi
		if hi <= lo {
			continue
		}
		top := hi
		if len(l.buckets) > 0 {
			top = bucketTop(l.buckets, hi)
		}
		nilAmt := 0.0
		if len(l.nilRate) > 0 {
			nilAmt = st.nilAmount(l.nilRate, l.nilCls, l.bands, t)
		}
		lt := st.bands(l, lo, top, nilAmt)
		res.layer[li] = lt
		tax += lt
	}
	if r.relieves {
		tax = st.relieve(r, t, tax, res)
	}
	if len(r.creds) > 0 {
		tax = st.credit(r, g, t, tax)
	}
	tax = r.roundTax.apply(tax)
	if tax < 0 || tax < st.fig(r.minTax, r.minTaxCls) {
		tax = 0
	}
	res.amt = tax
}

// plain is once for a plain rule with its figures as stored: the same
// operations, less those that leave a value as it is (no deduction
// taken, so the taxable base is the gross one, summed in the same order,
// unless its layers' bases are rounded).
func (st *cstate) plain(r *crule, res *rres) {
	var rem [MaxLayers]float64
	g := 0.0
	for li := range r.layers {
		l := &r.layers[li]
		v := 0.0
		if !l.off {
			v = st.base(&l.base)
		}
		if !(v > 0) || (l.exempt > 0 && v <= l.exempt) {
			v = 0
		}
		rem[li] = v
		g += v
	}
	t := g
	if !r.roundBase.identity() {
		t = 0
		for li := range r.layers {
			rem[li] = r.roundBase.apply(rem[li])
			t += rem[li]
		}
	}
	res.gross, res.taxable = g, t
	tax := 0.0
	pos := 0.0
	for li := range r.layers {
		lo, hi := pos, pos+rem[li]
		pos = hi
		if hi <= lo {
			continue
		}
		lt := st.bands(&r.layers[li], lo, hi, 0)
		res.layer[li] = lt
		tax += lt
	}
	tax = r.roundTax.apply(tax)
	if tax < 0 || tax < r.minTax {
		tax = 0
	}
	res.amt = tax
}

// charge is the amount of a simple rule (see cstep) with its figures as
// stored: plainAsStored's operations on its one layer.
func (s *cstep) charge(parts *[NumParts]float64) float64 {
	v := 0 + s.w*parts[s.part]
	tax := 0.0
	if v > 0 && !(s.exempt > 0 && v <= s.exempt) {
		tax = s.l.cumAt(v)
	}
	if s.relieves {
		t := v
		if !(v > 0) || (s.exempt > 0 && v <= s.exempt) {
			t = 0
		}
		if s.limit > 0 && t <= s.limit && tax > 0 {
			tax = 0
		}
		if s.hasRelief {
			if c := s.reliefRt * maxf(0, t-s.reliefAt); tax > c {
				tax = c
			}
		}
	}
	tax = s.round.apply(tax)
	if tax < 0 || tax < s.minTax {
		tax = 0
	}
	return tax
}

// plainAsStored is rule for a stored rule (see crule.stored) with its
// figures as stored: plain's operations, each layer's slice taxed by its
// table (cumAt), the results stored as rule stores them.
func (st *cstate) plainAsStored(k int, r *crule) {
	var lt [MaxLayers]float64
	g, tax, pos := 0.0, 0.0, 0.0
	for li := range r.layers {
		l := &r.layers[li]
		v := 0.0
		if !l.off {
			v = st.base(&l.base)
		}
		if !(v > 0) || (l.exempt > 0 && v <= l.exempt) {
			continue
		}
		g += v
		lo, hi := pos, pos+v
		pos = hi
		if hi <= lo {
			continue
		}
		if lo == 0 {
			lt[li] = l.cumAt(hi)
		} else {
			lt[li] = l.cumAt(hi) - l.cumAt(lo)
		}
		tax += lt[li]
	}
	tax = r.roundTax.apply(tax)
	if tax < 0 || tax < r.minTax {
		tax = 0
	}
	st.vals[k] = tax
	if r.sTaxable >= 0 {
		st.vals[r.sTaxable] = g
	}
	if r.sGross >= 0 {
		st.vals[r.sGross] = g
	}
	if r.sDeducted >= 0 {
		st.vals[r.sDeducted] = 0
	}
	for li := 0; li < int(r.nLayerOut); li++ {
		if s := r.sLayer[li]; s >= 0 {
			st.vals[s] = lt[li]
		}
	}
}

// base is a layer's base: measure without a rule's own values.
func (st *cstate) base(m *cmeasure) float64 {
	if m.single {
		return 0 + m.w[0]*st.parts[m.idx[0]]
	}
	return st.measure(m, 0, 0, 0)
}

// measure is m's weighted sum, with the rule's gross, taxable base or tax
// where m is on one.
func (st *cstate) measure(m *cmeasure, gross, taxable, tax float64) float64 {
	v := 0.0
	if m.dense {
		// unrolled: the same additions in part order (NumParts is 7,
		// which densePartsFit holds)
		p, w := &st.parts, &m.wd
		v += w[0] * p[0]
		v += w[1] * p[1]
		v += w[2] * p[2]
		v += w[3] * p[3]
		v += w[4] * p[4]
		v += w[5] * p[5]
		v += w[6] * p[6]
	} else {
		for j := 0; j < int(m.n); j++ {
			v += m.w[j] * st.parts[m.idx[j]]
		}
	}
	if m.bare {
		return v
	}
	for j := range m.refs {
		v += m.refs[j].w * st.vals[m.refs[j].slot]
	}
	switch m.on {
	case OnGross:
		v += gross
	case OnTaxable:
		v += taxable
	case OnTax:
		v += tax
	}
	return v
}

// adjust is an adjustment's input x and its amount, as the walker's
// adjust reckons them.
func (st *cstate) adjust(a *cadj, gross, taxable, tax float64) (x, v float64) {
	if a.konst && st.rsc == nil {
		return a.kx, a.kv
	}
	x = st.measure(&a.of, gross, taxable, tax)
	if a.gate != nil && !(st.measure(a.gate, gross, taxable, tax) < st.fig(a.gateBelow, a.gateCls)) {
		return x, 0
	}
	if a.pooled {
		v = st.pooled(a.segs, x, a.per)
	} else {
		v = st.segment(a.segs, x)
	}
	return x, st.bound(a, x, v, gross, taxable, tax)
}

// bound is an adjustment's amount from its function's value v at its
// input x: less what it takes off, held to its minimum and maximum, per
// person (unless pooled), rounded, and capped at x where it is.
func (st *cstate) bound(a *cadj, x, v, gross, taxable, tax float64) float64 {
	if a.less.has {
		v -= st.measure(&a.less, gross, taxable, tax)
	}
	if mn := st.fig(a.min, a.minCls); v < mn {
		v = mn
	}
	if a.hasMax {
		mx := st.fig(a.max, a.maxCls)
		if a.maxLess.has {
			mx -= st.measure(&a.maxLess, gross, taxable, tax)
		}
		if v > mx {
			v = maxf(mx, 0)
		}
	}
	if a.perPerson && !a.pooled {
		v *= a.per
	}
	v = a.round.apply(v)
	if a.capAtBase && v > x {
		v = x
	}
	if !(v > 0) {
		v = 0
	}
	return v
}

// deduct takes the deductions off the layers' bases and returns the
// total taken. A deduction's amount reads the gross base, never what an
// earlier one left, so the deductions taken bottom layer first between
// two that name a layer are taken together: the same amounts, one walk
// over the layers.
func (st *cstate) deduct(r *crule, g float64, rem *[MaxLayers]float64) float64 {
	if r.low && st.rsc == nil {
		// all taken bottom first, figures as stored: the constant ones'
		// sum and the others'
		v := r.konstLow
		for k := range r.varLow {
			_, x := st.adjust(&r.varLow[k], g, 0, 0)
			v += x
		}
		return takeLow(rem, len(r.layers), v)
	}
	total, pend := 0.0, 0.0
	for k := range r.deds {
		d := &r.deds[k]
		v := d.kv
		if !d.konst || st.rsc != nil {
			_, v = st.adjust(d, g, 0, 0)
		}
		if d.layer < 0 {
			pend += v
			continue
		}
		if pend > 0 {
			total += takeLow(rem, len(r.layers), pend)
			pend = 0
		}
		applied := minf(v, rem[d.layer])
		rem[d.layer] -= applied
		total += applied
	}
	if pend > 0 {
		total += takeLow(rem, len(r.layers), pend)
	}
	return total
}

// takeLow takes v off the n layers' bases, bottom layer first, and
// returns what it took.
func takeLow(rem *[MaxLayers]float64, n int, v float64) float64 {
	taken := 0.0
	for li := 0; li < n && v > 0; li++ {
		t := minf(v, rem[li])
		rem[li] -= t
		v -= t
		taken += t
	}
	return taken
}

// relieve applies the exemption limit and the marginal relief.
func (st *cstate) relieve(r *crule, t, tax float64, res *rres) float64 {
	if ex := st.fig(r.exempt, r.exemptCls); ex > 0 && t <= ex && tax > 0 {
		scaleLayerAmts(&res.layer, len(r.layers), 0, tax)
		tax = 0
	}
	if r.hasRelief {
		c := r.reliefRt * maxf(0, t-st.fig(r.reliefAt, r.reliefCls))
		if tax > c {
			scaleLayerAmts(&res.layer, len(r.layers), c, tax)
			tax = c
		}
	}
	return tax
}

func scaleLayerAmts(l *[MaxLayers]float64, n int, now, was float64) {
	f := 0.0
	if was > 0 {
		f = now / was
	}
	for li := 0; li < n; li++ {
		l[li] *= f
	}
}

// credit sets the credits against the tax, spilling a credit's unused
// part over to the earlier rules it names.
func (st *cstate) credit(r *crule, g, t, tax float64) float64 {
	before := tax
	for k := range r.creds {
		c := &r.creds[k]
		_, v := st.adjust(c, g, t, before)
		if v == 0 {
			continue
		}
		use := minf(v, tax)
		tax -= use
		rest := v - use
		for _, sp := range c.spill {
			if rest <= 0 {
				break
			}
			u := minf(rest, st.vals[sp])
			st.vals[sp] -= u
			rest -= u
		}
	}
	return tax
}

// bands taxes the slice [lo, hi) of the stacked axis with the layer's
// bands, as the walker's bands does, in one pass for figures as stored
// and as a scale reads them. A band ends where the next one starts, both
// as read; only bands as stored, ascending, end the walk at the first
// band starting at or above hi (under a scale a threshold fixed in money
// may fall below one indexed).
func (st *cstate) bands(l *clayer, lo, hi, nilAmt float64) float64 {
	sc := st.rsc
	if sc == nil && nilAmt == 0 && l.cum != nil {
		if lo == 0 {
			return l.cumAt(hi) // less the tax below 0: none
		}
		return l.cumAt(hi) - l.cumAt(lo)
	}
	fl := l.flat
	tax := 0.0
	if sc != nil {
		// each threshold read once: a band's end is the next one's start
		from := sc.Of(fl[0].from, fl[0].cls)
		for j := range fl {
			if l.oneCls && from >= hi {
				break // one class keeps the bands ascending
			}
			end := fl[j].end
			if j+1 < len(fl) {
				end = sc.Of(fl[j+1].from, fl[j+1].cls)
			}
			tax += st.band(l, &fl[j], from, end, lo, hi, &nilAmt)
			from = end
		}
		return tax
	}
	for j := range fl {
		b := &fl[j]
		if l.asc && b.from >= hi {
			break
		}
		tax += st.band(l, b, b.from, b.end, lo, hi, &nilAmt)
	}
	return tax
}

// band is the tax of band b, read as [from, end), on the slice [lo, hi)
// of the stacked axis, the nil-rate amount left taken off first.
func (st *cstate) band(l *clayer, b *cband, from, end, lo, hi float64, nilAmt *float64) float64 {
	a, z := span(from, end, lo, hi)
	if z <= a {
		return 0
	}
	if b.formula {
		if l.below != nil && st.rsc == nil {
			return l.cumStored(z) - l.cumStored(a)
		}
		return st.formulaSpan(l.bands, a, z)
	}
	seg, n := nilFirst(b.rate, z-a, *nilAmt)
	*nilAmt -= n
	if seg <= 0 {
		return 0
	}
	return seg * b.rate
}

// cumStored is cumulative on the layer's bands as stored, the tax below
// each band's start taken from below.
func (l *clayer) cumStored(x float64) float64 {
	b := l.bands
	k := 0
	for j := 1; j < len(b); j++ {
		if x > b[j].From {
			k = j
		}
	}
	if f := b[k].Formula; f != nil {
		return f.at(x)
	}
	return l.below[k] + b[k].Rate*(x-b[k].From)
}

// cumAt is the tax by the layer's bands as stored on [0, x): the tax below
// the band x falls in and the part of it below x. A position below the
// first band's start is charged nothing.
func (l *clayer) cumAt(x float64) float64 {
	fl := l.flat
	if x <= fl[0].from {
		return 0
	}
	j := 0
	for j+1 < len(fl) && fl[j+1].from < x {
		j++
	}
	return l.cum[j] + fl[j].rate*(x-fl[j].from)
}

// grossFor is Year.GrossFor without a regime on the compiled rules: the
// gross income, of the parts in their proportions (summing to total),
// that leaves net; earned is the partner's share of the parts' earnings.
func (c *Compiled) grossFor(parts *[NumParts]float64, total float64, earned [2]float64, sc *Scale, net float64) (float64, bool) {
	if c.fixed != nil {
		sc = c.fixed
	}
	sc = scaleOrNil(sc)
	short := func(g float64) float64 {
		var st cstate
		st.present = always
		for p := range parts {
			st.parts[p] = parts[p] / total * g
			if st.parts[p] != 0 {
				st.present |= 1 << p
			}
		}
		if c.joint {
			st.earned[0] = earned[0] * (g / total)
			st.earned[1] = earned[1] * (g / total)
		}
		st.sc = sc
		cat := c.eval(&st)
		return net - (g - round2(cat[IncomeTax]+cat[Social]+cat[Capital]+cat[Regional]))
	}
	return solveGross(net, short)
}
