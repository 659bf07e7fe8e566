package tax

import "math"

// cstate is one evaluation of a Compiled: the parts, and each rule's
// amount and the values later rules read.
type cstate struct {
	figures // the rule's figures as the scale reads them

	parts   [NumParts]float64
	earned  [2]float64 // the partner's employment and self-employment (joint)
	present uint8
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
	parts, _ := cleanParts(in)
	if c.walks != "" {
		who := filerOf(in, &parts)
		return c.walk(&parts, &who, sc)
	}
	var st cstate
	st.parts = parts
	if c.joint {
		st.earned[0] = clampPart(in.PartnerEmployment, parts[Employment])
		st.earned[1] = clampPart(in.PartnerSelfEmployment, parts[SelfEmployment])
	}
	st.sc = scaleOrNil(sc)
	return c.eval(&st)
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

// eval runs the rules on the state's parts and returns the amounts by
// category, rounded to the cent.
func (c *Compiled) eval(st *cstate) [numCategories]float64 {
	for p, v := range st.parts {
		if v != 0 {
			st.present |= 1 << p
		}
	}
	for k := range c.rules {
		st.rule(k, &c.rules[k])
	}
	var cat [numCategories]float64
	for k := range c.rules {
		cat[c.rules[k].cat] += st.vals[k]
	}
	for k := range cat {
		cat[k] = round2(cat[k])
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
	var res rres
	switch {
	case r.idle && st.present&r.reads == 0:
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
	for li, s := range r.sLayer {
		if s >= 0 {
			st.vals[s] = res.layer[li]
		}
	}
}

// once charges rule k on the state's parts, as the walker's once does.
func (st *cstate) once(k int, r *crule, res *rres) {
	var rem [MaxLayers]float64
	g := 0.0
	for li := range r.layers {
		l := &r.layers[li]
		v := 0.0
		if !l.off {
			v = st.measure(&l.base, 0, 0, 0)
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
		lt := st.bands(l, lo, top, st.nilAmount(l, t))
		res.layer[li] = lt
		tax += lt
	}
	tax = st.relieve(r, t, tax, res)
	tax = st.credit(r, g, t, tax)
	tax = r.roundTax.apply(tax)
	if tax < 0 || tax < st.fig(r.minTax, r.minTaxCls) {
		tax = 0
	}
	res.amt = tax
}

// measure is m's weighted sum, with the rule's gross, taxable base or tax
// where m is on one.
func (st *cstate) measure(m *cmeasure, gross, taxable, tax float64) float64 {
	v := 0.0
	for j := 0; j < int(m.n); j++ {
		v += m.w[j] * st.parts[m.idx[j]]
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
	v = st.segment(a.segs, x)
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
	if a.perPerson {
		v *= a.per
	}
	v = a.round.apply(v)
	if a.capAtBase && v > x {
		v = x
	}
	if !(v > 0) {
		v = 0
	}
	return x, v
}

// deduct takes the deductions off the layers' bases and returns the
// total taken.
func (st *cstate) deduct(r *crule, g float64, rem *[MaxLayers]float64) float64 {
	total := 0.0
	for k := range r.deds {
		d := &r.deds[k]
		_, v := st.adjust(d, g, 0, 0)
		applied := 0.0
		if d.layer >= 0 {
			applied = minf(v, rem[d.layer])
			rem[d.layer] -= applied
		} else {
			left := v
			for li := range r.layers {
				t := minf(left, rem[li])
				rem[li] -= t
				left -= t
				applied += t
			}
		}
		total += applied
	}
	return total
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

// bucketTop is hi replaced by the midpoint of its tax-table bucket, if
// any.
func bucketTop(bs []Bucket, hi float64) float64 {
	for _, b := range bs {
		if hi >= b.From && hi < b.To && b.Width > 0 {
			return b.From + math.Floor((hi-b.From)/b.Width)*b.Width + b.Width/2
		}
	}
	return hi
}

// nilAmount is the layer's nil-rate amount when the taxable base is t.
func (st *cstate) nilAmount(l *clayer, t float64) float64 {
	switch len(l.nilRate) {
	case 0:
		return 0
	case 1:
		return st.fig(l.nilRate[0], l.nilCls)
	}
	return st.fig(l.nilRate[st.bandIndex(l.bands, t)], l.nilCls)
}

// bands taxes the slice [lo, hi) of the stacked axis with the layer's
// bands, as the walker's bands does.
func (st *cstate) bands(l *clayer, lo, hi, nilAmt float64) float64 {
	tax := 0.0
	b := l.bands
	for j := range b {
		// no early exit: bands stored ascending need not stay so under a
		// scale (a threshold fixed in money falls below one indexed)
		from := st.fig(b[j].From, b[j].cls)
		end := math.Inf(1)
		if j+1 < len(b) {
			end = st.fig(b[j+1].From, b[j+1].cls)
		}
		a, z := maxf(lo, from), minf(hi, end)
		if z <= a {
			continue
		}
		if b[j].Formula != nil {
			tax += st.cumulative(b, z) - st.cumulative(b, a)
			continue
		}
		seg := z - a
		if b[j].Rate > 0 && nilAmt > 0 {
			n := minf(nilAmt, seg)
			nilAmt -= n
			seg -= n
		}
		if seg <= 0 {
			continue
		}
		tax += seg * b[j].Rate
	}
	return tax
}

// grossFor is Year.GrossFor without a regime on the compiled rules: the
// gross income, of the parts in their proportions (summing to total),
// that leaves net; earned is the partner's share of the parts' earnings.
func (c *Compiled) grossFor(parts *[NumParts]float64, total float64, earned [2]float64, sc *Scale, net float64) (float64, bool) {
	sc = scaleOrNil(sc)
	short := func(g float64) float64 {
		var st cstate
		for p := range parts {
			st.parts[p] = parts[p] / total * g
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
