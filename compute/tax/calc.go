package tax

import "math"

// Line is one row of a calculation's breakdown.
type Line struct {
	Rule     string   // the rule's id
	Label    string   // what the line is (band, allowance, credit, ...)
	Layer    string   // the layer's label, for band and nil-rate lines
	Kind     Kind     // band, deduction, nilRate, relief, credit
	Category Category // which result field the rule feeds
	Base     float64  // the amount the line works on
	Rate     float64  // the rate applied (bands; average for formula bands)
	Amount   float64  // tax (bands), amount deducted (deductions, nil rates), reduction (relief, credits: negative)
}

// Total is one rule's final amount.
type Total struct {
	Rule     string
	Label    string
	Category Category
	Taxable  float64 // the rule's base after deductions
	Amount   float64
}

// Result is filled by Calculate. It is caller-owned and reusable; Calculate
// overwrites every field.
type Result struct {
	Country             string
	Currency            string
	Year                int
	Region              string
	GrossIncome         float64
	IncomeTax           float64
	SocialContributions float64
	CapitalTax          float64
	RegionalTax         float64
	TotalTax            float64
	EffectiveRate       float64 // TotalTax / GrossIncome (0 when no income)
	MarginalRate        float64 // extra total tax per unit of extra income in the largest part
	MarginalPart        Part    // the part the marginal rate refers to
	Lines               [MaxLines]Line
	NLines              int
	Truncated           bool // more lines than MaxLines; the sums are still complete
	Totals              [MaxRules]Total
	NTotals             int
}

// Breakdown is the filled part of Lines.
func (r *Result) Breakdown() []Line { return r.Lines[:r.NLines] }

// RuleTotals is the filled part of Totals (rules that apply, in order).
func (r *Result) RuleTotals() []Total { return r.Totals[:r.NTotals] }

// Calculate applies the system's rules for the tax year to the income and
// fills out. region is optional ("" for none). Negative parts count as 0.
// It does not allocate.
func Calculate(s *System, year int, in *Income, region string, out *Result) error {
	y, err := s.Year(year)
	if err != nil {
		return err
	}
	if !s.HasRegion(region) {
		return ErrRegion
	}
	parts := in.parts()
	gross := 0.0
	for p := range parts {
		if !(parts[p] > 0) || math.IsInf(parts[p], 0) { // also drops NaN
			parts[p] = 0
		}
		gross += parts[p]
	}
	out.Country, out.Currency, out.Year, out.Region = s.Country, s.Currency, year, region
	out.NLines, out.Truncated, out.NTotals = 0, false, 0
	out.GrossIncome = round2(gross)

	var st state
	st.parts, st.out = parts, out
	st.run(y, region)
	var cat [numCategories]float64
	for i := range y.Rules {
		r := &y.Rules[i]
		if !r.appliesIn(region) {
			continue
		}
		cat[r.Category] += st.amt[i]
		out.Totals[out.NTotals] = Total{Rule: r.ID, Label: r.Label, Category: r.Category,
			Taxable: round2(st.taxable[i]), Amount: round2(st.amt[i])}
		out.NTotals++
	}
	out.IncomeTax = round2(cat[IncomeTax])
	out.SocialContributions = round2(cat[Social])
	out.CapitalTax = round2(cat[Capital])
	out.RegionalTax = round2(cat[Regional])
	out.TotalTax = round2(out.IncomeTax + out.SocialContributions + out.CapitalTax + out.RegionalTax)
	out.EffectiveRate = 0
	if gross > 0 {
		out.EffectiveRate = out.TotalTax / gross
	}

	// Marginal rate on the largest part, without rounding so that base and
	// tax rounding do not show up as noise.
	mp := Employment
	for p := Part(0); p < NumParts; p++ {
		if parts[p] > parts[mp] {
			mp = p
		}
	}
	out.MarginalPart = mp
	var a, b state
	a.parts, a.exact = parts, true
	b.parts, b.exact = parts, true
	b.parts[mp] += s.MarginalStep
	ta, tb := a.run(y, region), b.run(y, region)
	out.MarginalRate = (tb - ta) / s.MarginalStep
	return nil
}

func round2(v float64) float64 {
	return math.Round(v*100) / 100
}

type state struct {
	parts    [NumParts]float64
	exact    bool
	out      *Result
	amt      [MaxRules]float64
	taxable  [MaxRules]float64
	gross    [MaxRules]float64
	layerAmt [MaxRules][MaxLayers]float64
}

func (st *state) line(l Line) {
	if st.out == nil {
		return
	}
	if st.out.NLines == MaxLines {
		st.out.Truncated = true
		return
	}
	st.out.Lines[st.out.NLines] = l
	st.out.NLines++
}

func (st *state) measure(m *Measure, gross, taxable, tax float64) float64 {
	v := 0.0
	for k := 0; k < int(m.nparts); k++ {
		v += m.weights[k] * st.parts[m.idx[k]]
	}
	for k := range m.Refs {
		rf := &m.Refs[k]
		var x float64
		switch rf.What {
		case RefTaxable:
			x = st.taxable[rf.Rule]
		case RefGross:
			x = st.gross[rf.Rule]
		default:
			if rf.Layer >= 0 {
				x = st.layerAmt[rf.Rule][rf.Layer]
			} else {
				x = st.amt[rf.Rule]
			}
		}
		v += rf.Weight * x
	}
	switch m.On {
	case OnGross:
		v += gross
	case OnTaxable:
		v += taxable
	case OnTax:
		v += tax
	}
	return v
}

// run evaluates every rule and returns the total.
func (st *state) run(y *Year, region string) float64 {
	total := 0.0
	for i := range y.Rules {
		r := &y.Rules[i]
		if !r.appliesIn(region) {
			continue
		}
		st.rule(i, r)
	}
	for i := range y.Rules {
		total += st.amt[i]
	}
	return total
}

func (st *state) rule(i int, r *Rule) {
	var rem [MaxLayers]float64
	g := 0.0
	for li := range r.Layers {
		l := &r.Layers[li]
		v := st.measure(&l.Base, 0, 0, 0)
		if !(v > 0) || (l.Exempt > 0 && v <= l.Exempt) {
			v = 0
		}
		rem[li] = v
		g += v
	}
	st.gross[i] = g

	for k := range r.Deductions {
		d := &r.Deductions[k]
		x := st.measure(&d.Of, g, 0, 0)
		v := d.eval(x)
		if d.HasMax {
			mx := d.Max
			if d.MaxLess != nil {
				mx -= st.measure(d.MaxLess, g, 0, 0)
			}
			if mx < 0 {
				mx = 0
			}
			if v > mx {
				v = mx
			}
		}
		if d.CapAtBase && v > x {
			v = x
		}
		if !(v > 0) {
			v = 0
		}
		applied := 0.0
		if d.Layer >= 0 {
			applied = minf(v, rem[d.Layer])
			rem[d.Layer] -= applied
		} else {
			left := v
			for li := range r.Layers {
				t := minf(left, rem[li])
				rem[li] -= t
				left -= t
				applied += t
			}
		}
		if applied == 0 {
			continue
		}
		st.line(Line{Rule: r.ID, Label: d.Label, Kind: KindDeduction, Category: r.Category, Base: x, Amount: applied})
	}

	t := 0.0
	for li := range r.Layers {
		if !st.exact {
			rem[li] = r.RoundBase.apply(rem[li])
		}
		t += rem[li]
	}
	st.taxable[i] = t

	tax := 0.0
	pos := 0.0
	for li := range r.Layers {
		l := &r.Layers[li]
		lo, hi := pos, pos+rem[li]
		pos = hi
		if hi <= lo {
			st.layerAmt[i][li] = 0
			continue
		}
		top := hi
		if !st.exact {
			for _, b := range l.Buckets {
				if hi >= b.From && hi < b.To && b.Width > 0 {
					top = b.From + math.Floor((hi-b.From)/b.Width)*b.Width + b.Width/2
					break
				}
			}
		}
		nilAmt := 0.0
		switch len(l.NilRate) {
		case 0:
		case 1:
			nilAmt = l.NilRate[0]
		default:
			nilAmt = l.NilRate[bandIndex(l.Bands, t)]
		}
		lt := st.bands(r, l, lo, top, nilAmt)
		st.layerAmt[i][li] = lt
		tax += lt
	}

	if r.Exempt > 0 && t <= r.Exempt && tax > 0 {
		st.line(Line{Rule: r.ID, Label: "exemption limit", Kind: KindRelief, Category: r.Category, Base: t, Amount: -tax})
		st.scaleLayers(i, r, 0, tax)
		tax = 0
	}
	if r.HasRelief {
		c := r.ReliefRate * maxf(0, t-r.ReliefAbove)
		if tax > c {
			st.line(Line{Rule: r.ID, Label: "marginal relief", Kind: KindRelief, Category: r.Category, Base: t, Rate: r.ReliefRate, Amount: c - tax})
			st.scaleLayers(i, r, c, tax)
			tax = c
		}
	}

	before := tax
	for k := range r.Credits {
		c := &r.Credits[k]
		x := st.measure(&c.Of, g, t, before)
		v := c.eval(x)
		if c.HasMax {
			mx := c.Max
			if c.MaxLess != nil {
				mx -= st.measure(c.MaxLess, g, t, before)
			}
			if v > mx {
				v = maxf(mx, 0)
			}
		}
		if c.CapAtBase && v > x {
			v = x
		}
		if !(v > 0) {
			continue
		}
		use := minf(v, tax)
		tax -= use
		rest := v - use
		for _, sp := range c.Spill {
			if rest <= 0 {
				break
			}
			u := minf(rest, st.amt[sp])
			st.amt[sp] -= u
			rest -= u
		}
		if v-rest == 0 {
			continue
		}
		st.line(Line{Rule: r.ID, Label: c.Label, Kind: KindCredit, Category: r.Category, Base: x, Amount: -(v - rest)})
	}
	if !st.exact {
		tax = r.RoundTax.apply(tax)
	}
	if tax < 0 || tax < r.MinTax {
		if tax > 0 {
			st.line(Line{Rule: r.ID, Label: "below collection threshold", Kind: KindRelief, Category: r.Category, Base: tax, Amount: -tax})
		}
		tax = 0
	}
	st.amt[i] = tax
}

func (st *state) scaleLayers(i int, r *Rule, now, was float64) {
	f := 0.0
	if was > 0 {
		f = now / was
	}
	for li := range r.Layers {
		st.layerAmt[i][li] *= f
	}
}

// bandIndex is the band in which position x falls.
func bandIndex(b []Band, x float64) int {
	k := 0
	for j := 1; j < len(b); j++ {
		if x > b[j].From {
			k = j
		}
	}
	return k
}

// bands taxes the slice [lo, hi) of the stacked axis with the layer's bands.
func (st *state) bands(r *Rule, l *Layer, lo, hi, nilAmt float64) float64 {
	tax := 0.0
	for j := range l.Bands {
		b := &l.Bands[j]
		end := math.Inf(1)
		if j+1 < len(l.Bands) {
			end = l.Bands[j+1].From
		}
		a, z := maxf(lo, b.From), minf(hi, end)
		if z <= a {
			continue
		}
		label := b.Label
		if label == "" {
			label = l.Label
		}
		if b.Formula != nil {
			// statutory cumulative formula: exact at every point, so the
			// pieces telescope to cum(hi) − cum(lo)
			amt := cumulative(l.Bands, z) - cumulative(l.Bands, a)
			tax += amt
			st.line(Line{Rule: r.ID, Label: label, Layer: l.Label, Kind: KindBand, Category: r.Category, Base: z - a, Rate: amt / (z - a), Amount: amt})
			continue
		}
		seg := z - a
		if b.Rate > 0 && nilAmt > 0 {
			n := minf(nilAmt, seg)
			nilAmt -= n
			seg -= n
			st.line(Line{Rule: r.ID, Label: l.NilLabel, Layer: l.Label, Kind: KindNilRate, Category: r.Category, Base: n, Amount: n})
		}
		if seg <= 0 {
			continue
		}
		amt := seg * b.Rate
		tax += amt
		if amt == 0 && b.Label == "" {
			continue // structural zero band
		}
		st.line(Line{Rule: r.ID, Label: label, Layer: l.Label, Kind: KindBand, Category: r.Category, Base: seg, Rate: b.Rate, Amount: amt})
	}
	return tax
}

// cumulative is the tax on x by the band table alone; x on a boundary
// belongs to the lower band ("bis 17 005 Euro").
func cumulative(bands []Band, x float64) float64 {
	k := 0
	for j := 1; j < len(bands); j++ {
		if x > bands[j].From {
			k = j
		}
	}
	b := &bands[k]
	if b.Formula != nil {
		return b.Formula.at(x)
	}
	base := 0.0
	if k > 0 {
		base = cumulative(bands[:k], b.From)
	}
	return base + b.Rate*(x-b.From)
}

// minf and maxf skip math.Min/Max's NaN and signed-zero handling; inputs
// here are finite.
func minf(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}

func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}
