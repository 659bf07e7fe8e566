package tax

import "math"

// figures reads a rule's stored figures through a scale. The walker's
// state and the compiled path's cstate both embed it, so a band's
// arithmetic (where a position falls, the tax by the band table alone,
// a piecewise-linear adjustment, a band's span and its nil-rate part) is
// written once and the two paths read the same figures (they agree to
// the cent; the compiled path may add the same terms in another order).
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
		return segmentAt(segs, x)
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

// pooled is the piecewise-linear function segs at x with its amounts
// counted n times and its rates once: n·Base+Rate·(x−From), figures
// scaled (a pooled per-person adjustment); 0 when no filer counts.
func (f *figures) pooled(segs []Segment, x, n float64) float64 {
	if n == 0 {
		return 0
	}
	for i := len(segs) - 1; i >= 0; i-- {
		sg := &segs[i]
		from, base := sg.From, sg.Base
		if f.rsc != nil {
			from, base = f.rsc.Of(sg.From, sg.fromCls), f.rsc.Of(sg.Base, sg.baseCls)
		}
		if x >= from || i == 0 {
			return n*base + sg.Rate*(x-from)
		}
	}
	return 0
}

// segmentAt is the piecewise linear function segs at x, as stored.
func segmentAt(segs []Segment, x float64) float64 {
	for i := len(segs) - 1; i >= 0; i-- {
		sg := &segs[i]
		if x >= sg.From || i == 0 {
			return sg.Base + sg.Rate*(x-sg.From)
		}
	}
	return 0
}

// span is the part [a, z) of the band [from, end) inside the slice
// [lo, hi) of the stacked axis (none when z <= a). A band ends where the
// next one starts, both as read: bands stored ascending need not stay so
// under a scale (a threshold fixed in money falls below one indexed), so
// only a loop over figures as stored stops at the first band past hi.
func span(from, end, lo, hi float64) (a, z float64) {
	return maxf(lo, from), minf(hi, end)
}

// nilFirst splits a band's span seg at rate: the nil-rate amount left
// (nilAmt) comes off a taxed band first. It returns the base charged at
// the rate and the nil-rate amount used.
func nilFirst(rate, seg, nilAmt float64) (base, used float64) {
	if rate > 0 && nilAmt > 0 {
		used = minf(nilAmt, seg)
	}
	return seg - used, used
}

// formulaSpan is the tax on the span [a, z) of a band with a statutory
// cumulative formula: exact at every point, so the pieces telescope to
// cum(z) − cum(a).
func (f *figures) formulaSpan(b []Band, a, z float64) float64 {
	return f.cumulative(b, z) - f.cumulative(b, a)
}

// nilAmount is a layer's nil-rate amount (nilRate, one per band or one
// for all, of class c) when the taxable base is t.
func (f *figures) nilAmount(nilRate []float64, c uint8, bands []Band, t float64) float64 {
	switch len(nilRate) {
	case 0:
		return 0
	case 1:
		return f.fig(nilRate[0], c)
	}
	return f.fig(nilRate[f.bandIndex(bands, t)], c)
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
