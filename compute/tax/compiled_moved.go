package tax

// Moved evaluators. A projection taxes each year under a scale (its
// figures deflated, or moved past the newest published year by each
// figure's own rule), and a rule whose figures a scale moves reads every
// threshold, allowance and band through it at every return. Moved reads
// them once: the caller keeps the evaluator for the plan's year and
// reuses it for every return of the year.

// Moved is c with its figures as sc moves them fixed once, for the caller
// to keep: its Due, DueByCategory and shapes read the figures as sc moves
// them whatever scale they are given, and answer as c does under sc. A
// rule whose figures cannot be fixed (a statutory formula's, which a scale
// stretches) keeps reading them through sc, as does a kind of return the
// walker evaluates. With sc nil, or reading every figure as stored, it is
// c. It allocates; c is left as it was.
func (c *Compiled) Moved(sc *Scale) *Compiled {
	sc = scaleOrNil(sc)
	if sc == nil {
		return c
	}
	fixed := *sc
	m := &Compiled{y: c.y, k: c.k, joint: c.joint, nvals: c.nvals, walks: c.walks, gate: c.gate,
		spills: c.spills, fixed: &fixed}
	if c.walks != "" {
		return m
	}
	m.rules = make([]crule, len(c.rules))
	for k := range c.rules {
		m.rules[k] = c.rules[k]
		if c.rules[k].classes&sc.mask == 0 {
			continue
		}
		if r, ok := c.rules[k].moved(sc); ok {
			m.rules[k] = r
		}
	}
	m.steps = m.stepsOf()
	m.shapes = new(shapes)
	return m
}

// moved is rule r with its figures read through sc and its classes none,
// so that it is charged as stored; false when a layer has a formula.
func (r *crule) moved(sc *Scale) (crule, bool) {
	n := *r
	n.classes = 0
	n.exempt = sc.Of(r.exempt, r.exemptCls)
	n.reliefAt = sc.Of(r.reliefAt, r.reliefCls)
	n.minTax = sc.Of(r.minTax, r.minTaxCls)
	n.layers = make([]clayer, len(r.layers))
	for li := range r.layers {
		l := &r.layers[li]
		bands := make([]Band, len(l.bands))
		for j := range l.bands {
			if l.bands[j].Formula != nil {
				return crule{}, false
			}
			bands[j] = l.bands[j]
			bands[j].From = sc.Of(l.bands[j].From, l.bands[j].cls)
		}
		var nilRate []float64
		if len(l.nilRate) > 0 {
			nilRate = make([]float64, len(l.nilRate))
			for j := range l.nilRate {
				nilRate[j] = sc.Of(l.nilRate[j], l.nilCls)
			}
		}
		fl, asc := flatBands(bands)
		n.layers[li] = clayer{off: l.off, base: l.base, bands: bands, flat: fl, asc: asc, oneCls: asc && oneClass(fl),
			cum: cumBands(fl, asc), nilRate: nilRate, buckets: l.buckets, exempt: sc.Of(l.exempt, l.exemptCls),
			nilCls: l.nilCls, exemptCls: l.exemptCls}
	}
	adjs := func(as []cadj) []cadj {
		if len(as) == 0 {
			return nil
		}
		out := make([]cadj, len(as))
		for j := range as {
			out[j] = as[j].moved(sc)
		}
		return out
	}
	n.deds = adjs(r.deds)
	n.creds = adjs(r.creds)
	n.splitLow()
	n.stored = n.plain && !n.perEarner && n.roundBase.identity()
	for li := range n.layers {
		if n.layers[li].cum == nil {
			n.stored = false
		}
	}
	return n, true
}

// moved is adjustment a with its figures read through sc.
func (a *cadj) moved(sc *Scale) cadj {
	n := *a
	n.segs = make([]Segment, len(a.segs))
	for j := range a.segs {
		n.segs[j] = a.segs[j]
		n.segs[j].From = sc.Of(a.segs[j].From, a.segs[j].fromCls)
		n.segs[j].Base = sc.Of(a.segs[j].Base, a.segs[j].baseCls)
	}
	n.min = sc.Of(a.min, a.minCls)
	n.max = sc.Of(a.max, a.maxCls)
	n.gateBelow = sc.Of(a.gateBelow, a.gateCls)
	if n.konst {
		var st cstate
		n.konst = false
		n.kx, n.kv = st.adjust(&n, 0, 0, 0)
		n.konst = true
	}
	return n
}
