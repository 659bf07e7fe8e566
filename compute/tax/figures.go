package tax

// figures reads a rule's stored figures through a scale. The walker's
// state and the compiled path's cstate both embed it, so a band's
// arithmetic (where a position falls, the tax by the band table alone,
// a piecewise-linear adjustment) is written once and the two paths stay
// equal to the last bit.
type figures struct {
	sc  *Scale // the figures' scale; nil: as stored
	rsc *Scale // sc while the rule evaluated has a figure it moves, else nil
}

// enter readies the figures for a rule whose figures are of the classes
// given (bit c: class c): read through sc when the scale moves one of
// them, else as stored.
func (f *figures) enter(classes uint32) {
	f.rsc = nil
	if f.sc != nil && classes&f.sc.mask != 0 {
		f.rsc = f.sc
	}
}

// fig is a stored figure of class c as the scale reads it.
func (f *figures) fig(v float64, c uint8) float64 {
	if f.rsc == nil {
		return v
	}
	return f.rsc.Of(v, c)
}

// bandIndex is the band in which position x falls.
func (f *figures) bandIndex(b []Band, x float64) int {
	k := 0
	for j := 1; j < len(b); j++ {
		if x > f.fig(b[j].From, b[j].cls) {
			k = j
		}
	}
	return k
}

// cumulative is the tax on x by the band table alone; x on a boundary
// belongs to the lower band ("bis 17 005 Euro"). A formula's amounts
// scale with its band's class: the tax at x is k times the stored
// formula's at x/k.
func (f *figures) cumulative(bands []Band, x float64) float64 {
	k := f.bandIndex(bands, x)
	b := &bands[k]
	if b.Formula != nil {
		if f.rsc == nil {
			return b.Formula.at(x)
		}
		k := f.rsc.Factor(b.cls)
		return k * b.Formula.at(x/k)
	}
	from := f.fig(b.From, b.cls)
	base := 0.0
	if k > 0 {
		base = f.cumulative(bands[:k], from)
	}
	return base + b.Rate*(x-from)
}

// segment is the piecewise-linear function segs at x, its figures scaled.
func (f *figures) segment(segs []Segment, x float64) float64 {
	if f.rsc == nil {
		for i := len(segs) - 1; i >= 0; i-- {
			sg := &segs[i]
			if x >= sg.From || i == 0 {
				return sg.Base + sg.Rate*(x-sg.From)
			}
		}
		return 0
	}
	for i := len(segs) - 1; i >= 0; i-- {
		sg := &segs[i]
		from := f.rsc.Of(sg.From, sg.fromCls)
		if x >= from || i == 0 {
			return f.rsc.Of(sg.Base, sg.baseCls) + sg.Rate*(x-from)
		}
	}
	return 0
}
