package tax

// Flat rules. In a shape (see compiled_shape.go) the commonest rule of
// all, an income tax whose deductions are all taken bottom layer first,
// without credits or reliefs, its layers' bands tabled, is charged with
// the figures as stored from one record (frule): each layer's base as the
// parts and values it reads, its band table as three numbers a band, and
// the deductions as their constant sum and the few that read the return.
// The operations are once's, in its order, less those that leave a value
// as it is. A layer may have tax-table buckets.

// frule is a flat rule: see flatRule for what it holds.
type frule struct {
	nl     int
	base   [MaxLayers]fsum
	exempt [MaxLayers]float64
	tab    [MaxLayers][]fband
	// buckets: a layer's tax-table buckets (a slice's top is taxed at
	// its bucket's midpoint)
	buckets [MaxLayers][]Bucket
	// the deductions: the constant ones' sum and the others
	konst  float64
	varLow []cadj
	round  Rounding
	minTax float64
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
	if r.perEarner || !r.roundBase.identity() || len(r.creds) > 0 || r.relieves || !r.low || len(r.layers) == 0 {
		return nil
	}
	f := &frule{nl: len(r.layers), konst: r.konstLow, varLow: r.varLow, round: r.roundTax, minTax: r.minTax,
		sTaxable: r.sTaxable, sGross: r.sGross, sDeducted: r.sDeducted, sLayer: r.sLayer, nLayerOut: r.nLayerOut}
	f.outs = r.sTaxable >= 0 || r.sGross >= 0 || r.sDeducted >= 0 || r.nLayerOut > 0
	for li := range r.layers {
		l := &r.layers[li]
		if l.cum == nil || len(l.nilRate) > 0 || l.base.on != OnNone {
			return nil
		}
		if !l.off {
			b := &f.base[li]
			b.n, b.idx, b.w, b.refs = l.base.n, l.base.idx, l.base.w, l.base.refs
		}
		f.exempt[li], f.buckets[li] = l.exempt, l.buckets
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
	if b.n == 1 && len(b.refs) == 0 {
		return 0 + b.w[0]*st.parts[b.idx[0]]
	}
	v := 0.0
	for j := 0; j < int(b.n) && j < len(b.w); j++ {
		v += b.w[j] * st.parts[b.idx[j]]
	}
	for j := range b.refs {
		v += b.refs[j].w * st.vals[b.refs[j].slot]
	}
	return v
}

// flat charges flat rule f at position k and stores its results.
func (st *cstate) flat(k int, f *frule) {
	var rem [MaxLayers]float64
	n := min(f.nl, MaxLayers)
	g := 0.0
	for li := 0; li < n; li++ {
		v := st.sum(&f.base[li])
		if ex := f.exempt[li]; !(v > 0) || (ex > 0 && v <= ex) {
			v = 0
		}
		rem[li] = v
		g += v
	}
	d := f.konst
	for j := range f.varLow {
		d += st.deduction(&f.varLow[j], g)
	}
	deducted := 0.0
	if d != 0 {
		deducted = takeLow(&rem, n, d)
	}
	t, tax, pos := 0.0, 0.0, 0.0
	var lt [MaxLayers]float64
	for li := 0; li < n; li++ {
		t += rem[li]
		lo, hi := pos, pos+rem[li]
		pos = hi
		if hi <= lo {
			continue
		}
		if len(f.buckets[li]) > 0 {
			hi = bucketTop(f.buckets[li], hi)
		}
		if lo == 0 {
			lt[li] = tabAt(f.tab[li], hi)
		} else {
			lt[li] = tabAt(f.tab[li], hi) - tabAt(f.tab[li], lo)
		}
		tax += lt[li]
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

// deduction is the amount of a deduction with its figures as stored and
// the rule's gross base g: adjust's.
func (st *cstate) deduction(a *cadj, g float64) float64 {
	var x float64
	if a.of.single {
		x = 0 + a.of.w[0]*st.parts[a.of.idx[0]]
	} else {
		x = st.measure(&a.of, g, 0, 0)
	}
	if a.gate != nil && !(st.measure(a.gate, g, 0, 0) < a.gateBelow) {
		return 0
	}
	v := segmentAt(a.segs, x)
	if a.less.has {
		v -= st.measure(&a.less, g, 0, 0)
	}
	if v < a.min {
		v = a.min
	}
	if a.hasMax {
		mx := a.max
		if a.maxLess.has {
			mx -= st.measure(&a.maxLess, g, 0, 0)
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
	return v
}
