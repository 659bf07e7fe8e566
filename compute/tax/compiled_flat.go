package tax

// Flat rules. In a shape (see compiled_shape.go) a rule charged on the
// whole return (not per earner) is charged, with the figures as stored,
// from one record (frule): each layer's base as the parts and values it
// reads, a tabled layer's bands as three numbers a band, and bottom-first
// deductions as their constant sum and the few that read the return. The
// operations are once's, in its order, less those that leave a value as
// it is; what few rules have (a layer's formula or nil-rate amount, a
// deduction on one layer, a relief, a credit) is charged by once's own
// steps.

// frule is a flat rule: see flatRule for what it holds.
type frule struct {
	r      *crule
	nl     int
	base   [MaxLayers]fsum
	exempt [MaxLayers]float64
	// tab: a layer's bands as stored with the tax below each band's
	// start (nil: the layer has a formula or a nil-rate amount, and is
	// taxed by bands)
	tab [MaxLayers][]fband
	// buckets: a layer's tax-table buckets (a slice's top is taxed at
	// its bucket's midpoint)
	buckets [MaxLayers][]Bucket
	// low: every deduction is taken bottom layer first, the constant
	// ones' sum konst, the others varLow
	low       bool
	konst     float64
	varLow    []cadj
	roundBase bool // the layers' bases are rounded
	relieves  bool
	credits   bool
	round     Rounding
	minTax    float64
	// outs: a later rule reads a value of the rule other than its amount
	outs                        bool
	sTaxable, sGross, sDeducted int8
	sLayer                      [MaxLayers]int8
	nLayerOut                   uint8
}

// fsum is a layer's base: parts and values with their weights.
type fsum struct {
	n    uint8
	idx  [NumParts]uint8
	w    [NumParts]float64
	refs []cref
}

// fband is a band as stored with the tax by the bands below its start.
type fband struct {
	from, cum, rate float64
}

// flatRule is r as a flat rule, or nil when it is not one.
func flatRule(r *crule) *frule {
	if r.perEarner || len(r.layers) == 0 || len(r.layers) > MaxLayers {
		return nil
	}
	f := &frule{r: r, nl: len(r.layers), low: r.low, konst: r.konstLow, varLow: r.varLow,
		roundBase: !r.roundBase.identity(), relieves: r.relieves, credits: len(r.creds) > 0,
		round: r.roundTax, minTax: r.minTax,
		sTaxable: r.sTaxable, sGross: r.sGross, sDeducted: r.sDeducted, sLayer: r.sLayer, nLayerOut: r.nLayerOut}
	f.outs = r.sTaxable >= 0 || r.sGross >= 0 || r.sDeducted >= 0 || r.nLayerOut > 0
	for li := range r.layers {
		l := &r.layers[li]
		if l.base.on != OnNone {
			return nil
		}
		if !l.off {
			b := &f.base[li]
			b.n, b.idx, b.w, b.refs = l.base.n, l.base.idx, l.base.w, l.base.refs
		}
		f.exempt[li], f.buckets[li] = l.exempt, l.buckets
		if l.cum == nil || len(l.nilRate) > 0 {
			continue
		}
		tab := make([]fband, len(l.flat))
		for j := range l.flat {
			tab[j] = fband{from: l.flat[j].from, cum: l.cum[j], rate: l.flat[j].rate}
		}
		f.tab[li] = tab
	}
	return f
}

// at is the tax by the table on [0, x): cumAt's.
func tabAt(t []fband, x float64) float64 {
	if len(t) == 0 || x <= t[0].from {
		return 0
	}
	j := 0
	for j+1 < len(t) && t[j+1].from < x {
		j++
	}
	b := &t[j]
	return b.cum + b.rate*(x-b.from)
}

// sum is the base's weighted sum.
func (st *cstate) sum(b *fsum) float64 {
	v := 0.0
	for j := 0; j < int(b.n) && j < len(b.w); j++ {
		v += b.w[j] * st.parts[b.idx[j]]
	}
	for j := range b.refs {
		v += b.refs[j].w * st.vals[b.refs[j].slot]
	}
	return v
}

// flat charges flat rule f at position k, with the figures as stored
// (st.rsc nil), and stores its results.
func (st *cstate) flat(k int, f *frule) {
	var rem [MaxLayers]float64
	n := min(f.nl, MaxLayers)
	g := 0.0
	for li := 0; li < n; li++ {
		var v float64
		if b := &f.base[li]; b.n == 1 && b.refs == nil {
			v = 0 + b.w[0]*st.parts[b.idx[0]]
		} else {
			v = st.sum(b)
		}
		if ex := f.exempt[li]; !(v > 0) || (ex > 0 && v <= ex) {
			v = 0
		}
		rem[li] = v
		g += v
	}
	deducted := 0.0
	if f.low {
		d := f.konst
		for j := range f.varLow {
			d += st.deduction(&f.varLow[j], g)
		}
		if d != 0 {
			deducted = takeLow(&rem, n, d)
		}
	} else {
		deducted = st.deduct(f.r, g, &rem)
	}
	t := 0.0
	if f.roundBase {
		for li := 0; li < n; li++ {
			rem[li] = f.r.roundBase.apply(rem[li])
		}
	}
	for li := 0; li < n; li++ {
		t += rem[li]
	}
	tax, pos := 0.0, 0.0
	var lt [MaxLayers]float64
	for li := 0; li < n; li++ {
		lo, hi := pos, pos+rem[li]
		pos = hi
		if hi <= lo {
			continue
		}
		if len(f.buckets[li]) > 0 {
			hi = bucketTop(f.buckets[li], hi)
		}
		if tab := f.tab[li]; tab == nil {
			lt[li] = st.layerBands(&f.r.layers[li], lo, hi, t)
		} else if lo == 0 {
			lt[li] = tabAt(tab, hi)
		} else {
			lt[li] = tabAt(tab, hi) - tabAt(tab, lo)
		}
		tax += lt[li]
	}
	if f.relieves {
		res := rres{layer: lt}
		tax = st.relieve(f.r, t, tax, &res)
		lt = res.layer
	}
	if f.credits {
		tax = st.credit(f.r, g, t, tax)
	}
	tax = f.round.apply(tax)
	if tax < 0 || tax < f.minTax {
		tax = 0
	}
	st.vals[k] = tax
	if !f.outs {
		return
	}
	if f.sTaxable >= 0 {
		st.vals[f.sTaxable] = t
	}
	if f.sGross >= 0 {
		st.vals[f.sGross] = g
	}
	if f.sDeducted >= 0 {
		st.vals[f.sDeducted] = deducted
	}
	for li := 0; li < int(f.nLayerOut) && li < MaxLayers; li++ {
		if s := f.sLayer[li]; s >= 0 {
			st.vals[s] = lt[li]
		}
	}
}

// deduction is the amount of a deduction with its figures as stored
// (st.rsc nil) and the rule's gross base g: adjust's.
func (st *cstate) deduction(a *cadj, g float64) float64 {
	var x float64
	switch m := &a.of; {
	case m.single:
		x = 0 + m.w[0]*st.parts[m.idx[0]]
	case m.bare && !m.dense:
		for j := 0; j < int(m.n) && j < len(m.w); j++ {
			x += m.w[j] * st.parts[m.idx[j]]
		}
	default:
		x = st.measure(m, g, 0, 0)
	}
	if a.gate != nil && !(st.measure(a.gate, g, 0, 0) < a.gateBelow) {
		return 0
	}
	if a.pooled {
		return st.bound(a, x, st.pooled(a.segs, x, a.per), g, 0, 0)
	}
	return st.bound(a, x, segmentAt(a.segs, x), g, 0, 0)
}

// layerBands is the tax of the slice [lo, hi) of a layer taxed by its
// bands (a formula, or a nil-rate amount read at the taxable base t).
func (st *cstate) layerBands(l *clayer, lo, hi, t float64) float64 {
	nilAmt := 0.0
	if len(l.nilRate) > 0 {
		nilAmt = st.nilAmount(l.nilRate, l.nilCls, l.bands, t)
	}
	return st.bands(l, lo, hi, nilAmt)
}
