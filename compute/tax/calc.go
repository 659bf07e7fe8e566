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
	// Sources cite a deduction's or credit's own figures where the data
	// gives them apart from its rule's (nil: the rule's)
	Sources []Source
}

// Total is one rule's final amount.
type Total struct {
	Rule     string
	Label    string
	Category Category
	Taxable  float64 // the rule's base after deductions
	Amount   float64
	Sources  []Source // where the rule's figures come from
	// Lines are the rule's breakdown lines: Lines[From:To] of the Result
	From, To int
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
	return y.Calculate(in, region, nil, out)
}

// Calculate is Calculate on the year's rules with its figures read through
// sc (nil: as stored; see Scale), the incomes in the scale's money.
func (y *Year) Calculate(in *Income, region string, sc *Scale, out *Result) error {
	s := y.sys
	v, err := s.viewFor(y, region, in)
	if err != nil {
		return err
	}
	sc = scaleOrNil(sc)
	parts, gross := cleanParts(in)
	who := filerOf(in, &parts)
	out.Country, out.Currency, out.Year, out.Region = s.Country, s.Currency, y.Year, region
	out.NLines, out.Truncated, out.NTotals = 0, false, 0
	out.GrossIncome = round2(gross)

	var st state
	st.parts, st.out, st.who, st.sc = parts, out, who, sc
	st.run(v)
	out.TotalTax = sumCategories(v, &st, 0, out)
	out.EffectiveRate = 0
	if gross > 0 {
		out.EffectiveRate = out.TotalTax / gross
	}

	// Marginal rate on the largest part, without rounding so that base and
	// tax rounding do not show up as noise.
	mp := largest(&parts)
	out.MarginalPart = mp
	var a, b state
	a.parts, a.exact, a.who, a.sc = parts, true, who, sc
	b.parts, b.exact, b.who, b.sc = parts, true, who, sc
	b.parts[mp] += s.MarginalStep
	ta, tb := a.run(v), b.run(v)
	out.MarginalRate = (tb - ta) / s.MarginalStep
	return nil
}

// scaleOrNil is sc, or nil when it reads every figure as stored, which
// the walker then reads without a scale.
func scaleOrNil(sc *Scale) *Scale {
	if sc == nil || !sc.moved {
		return nil
	}
	return sc
}

func round2(v float64) float64 {
	return math.Round(v*100) / 100
}

type state struct {
	figures // the rule's figures as the scale reads them

	parts    [NumParts]float64
	who      filer
	exact    bool
	off      [MaxRules]bool // the rule's condition does not hold
	out      *Result
	lines    [MaxRules][2]int16 // with out: each rule's lines in it
	amt      [MaxRules]float64
	taxable  [MaxRules]float64
	gross    [MaxRules]float64
	deducted [MaxRules]float64
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
		case RefDeducted:
			x = st.deducted[rf.Rule]
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

// run evaluates every rule of the view and returns the total.
func (st *state) run(v *view) float64 {
	for i := range v.rules {
		st.rule(i, &v.rules[i])
	}
	total := 0.0
	for i := range v.rules {
		total += st.amt[i]
	}
	return total
}

// rule evaluates rule i: the layers' gross bases, the deductions, the
// taxable base, the bands, the reliefs, the credits and the final rounding.
func (st *state) rule(i int, r *Rule) {
	if st.out == nil {
		st.charge(i, r)
		return
	}
	st.lines[i][0] = int16(st.out.NLines)
	st.charge(i, r)
	st.lines[i][1] = int16(st.out.NLines)
}

// charge is rule without the record of its lines.
func (st *state) charge(i int, r *Rule) {
	st.enter(r.classes)
	st.off[i] = !st.who.holds(&r.When)
	if st.off[i] || (r.idleable && st.present()&r.reads == 0) {
		st.amt[i], st.taxable[i], st.gross[i], st.deducted[i] = 0, 0, 0, 0
		st.layerAmt[i] = [MaxLayers]float64{}
		return
	}
	if r.PerEarner && st.who.joint && st.who.earned != [2]float64{} {
		st.perEarner(i, r)
		return
	}
	st.once(i, r)
}

// present is the set of parts that are not 0 (bit p for part p).
func (st *state) present() uint8 {
	var m uint8
	for p, v := range st.parts {
		if v != 0 {
			m |= 1 << p
		}
	}
	return m
}

// perEarner charges rule i on the partner's earnings alone and on the rest
// of the income, and adds the two.
func (st *state) perEarner(i int, r *Rule) {
	all := st.parts
	st.parts[Employment] -= st.who.earned[0]
	st.parts[SelfEmployment] -= st.who.earned[1]
	st.once(i, r)
	amt, taxable, gross, deducted, layers := st.amt[i], st.taxable[i], st.gross[i], st.deducted[i], st.layerAmt[i]
	st.parts = [NumParts]float64{}
	st.parts[Employment], st.parts[SelfEmployment] = st.who.earned[0], st.who.earned[1]
	st.once(i, r)
	st.parts = all
	st.amt[i] += amt
	st.taxable[i] += taxable
	st.gross[i] += gross
	st.deducted[i] += deducted
	for li := range layers {
		st.layerAmt[i][li] += layers[li]
	}
}

// once evaluates rule i on the state's parts.
func (st *state) once(i int, r *Rule) {
	var rem [MaxLayers]float64
	g := st.layerBases(r, &rem)
	st.gross[i] = g
	st.deducted[i] = st.deduct(r, g, &rem)
	t := st.taxableBase(r, &rem)
	st.taxable[i] = t
	tax := st.layerTaxes(i, r, &rem, t)
	tax = st.relieve(i, r, t, tax)
	tax = st.credit(r, g, t, tax)
	st.amt[i] = st.collect(r, tax)
}

// layerBases fills rem with each layer's gross base (0 when negative or
// within the layer's exemption limit) and returns their sum.
func (st *state) layerBases(r *Rule, rem *[MaxLayers]float64) float64 {
	g := 0.0
	for li := range r.Layers {
		l := &r.Layers[li]
		v := 0.0
		if st.who.holds(&l.When) {
			v = st.measure(&l.Base, 0, 0, 0)
		}
		if ex := st.fig(l.Exempt, l.exemptCls); !(v > 0) || (ex > 0 && v <= ex) {
			v = 0
		}
		rem[li] = v
		g += v
	}
	return g
}

// adjust is an adjustment's input x and its amount v (0 when not positive):
// its function at x, less its Less measure, after the clamps, rounded
// (unless exact) and capped at x when the adjustment says so.
func (st *state) adjust(a *Adjust, gross, taxable, tax float64) (x, v float64) {
	x = st.measure(&a.Of, gross, taxable, tax)
	if a.Gate != nil && !(st.measure(a.Gate, gross, taxable, tax) < st.fig(a.GateBelow, a.gateCls)) {
		return x, 0
	}
	if a.Pooled {
		v = st.pooled(a.Segments, x, float64(st.who.count(a.PerMinAge)))
	} else {
		v = st.segment(a.Segments, x)
	}
	if a.Less != nil {
		v -= st.measure(a.Less, gross, taxable, tax)
	}
	if mn := st.fig(a.Min, a.minCls); v < mn {
		v = mn
	}
	if a.HasMax {
		mx := st.fig(a.Max, a.maxCls)
		if a.MaxLess != nil {
			mx -= st.measure(a.MaxLess, gross, taxable, tax)
		}
		if v > mx {
			v = maxf(mx, 0)
		}
	}
	if a.PerPerson && !a.Pooled {
		v *= float64(st.who.count(a.PerMinAge))
	}
	if !st.exact {
		v = a.Round.apply(v)
	}
	if a.CapAtBase && v > x {
		v = x
	}
	if !(v > 0) {
		v = 0
	}
	return x, v
}

// deduct takes the deductions off the layers' bases: off one named layer,
// or bottom layer first. It returns the total taken off.
func (st *state) deduct(r *Rule, g float64, rem *[MaxLayers]float64) float64 {
	total := 0.0
	for k := range r.Deductions {
		d := &r.Deductions[k]
		if !st.who.holds(&d.When) {
			continue
		}
		x, v := st.adjust(d, g, 0, 0)
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
		total += applied
		st.line(Line{Rule: r.ID, Label: d.Label, Kind: KindDeduction, Category: r.Category, Base: x, Amount: applied, Sources: d.Sources})
	}
	return total
}

// taxableBase rounds each layer's base (unless exact) and returns the sum.
func (st *state) taxableBase(r *Rule, rem *[MaxLayers]float64) float64 {
	t := 0.0
	for li := range r.Layers {
		if !st.exact {
			rem[li] = r.RoundBase.apply(rem[li])
		}
		t += rem[li]
	}
	return t
}

// layerTaxes stacks the layers on one axis and taxes each slice with its
// bands; t is the taxable base, which picks a band-dependent nil rate.
func (st *state) layerTaxes(i int, r *Rule, rem *[MaxLayers]float64, t float64) float64 {
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
			top = l.bucketTop(hi)
		}
		lt := st.bands(r, l, lo, top, st.nilAmount(l, t))
		st.layerAmt[i][li] = lt
		tax += lt
	}
	return tax
}

// bucketTop is hi replaced by the midpoint of its tax-table bucket, if any.
func (l *Layer) bucketTop(hi float64) float64 { return bucketTop(l.Buckets, hi) }

// nilAmount is the layer's nil-rate amount when the taxable base is t.
func (st *state) nilAmount(l *Layer, t float64) float64 {
	return st.figures.nilAmount(l.NilRate, l.nilCls, l.Bands, t)
}

// relieve applies the exemption limit and the marginal relief to the
// rule's tax.
func (st *state) relieve(i int, r *Rule, t, tax float64) float64 {
	if ex := st.fig(r.Exempt, r.exemptCls); ex > 0 && t <= ex && tax > 0 {
		st.line(Line{Rule: r.ID, Label: "exemption limit", Kind: KindRelief, Category: r.Category, Base: t, Amount: -tax})
		st.scaleLayers(i, r, 0, tax)
		tax = 0
	}
	if r.HasRelief {
		c := r.ReliefRate * maxf(0, t-st.fig(r.ReliefAbove, r.reliefCls))
		if tax > c {
			st.line(Line{Rule: r.ID, Label: "marginal relief", Kind: KindRelief, Category: r.Category, Base: t, Rate: r.ReliefRate, Amount: c - tax})
			st.scaleLayers(i, r, c, tax)
			tax = c
		}
	}
	return tax
}

// credit sets the credits against the tax; a credit's unused part spills
// over to the earlier rules it names.
func (st *state) credit(r *Rule, g, t, tax float64) float64 {
	before := tax
	for k := range r.Credits {
		c := &r.Credits[k]
		if !st.who.holds(&c.When) {
			continue
		}
		x, v := st.adjust(c, g, t, before)
		if v == 0 {
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
		st.line(Line{Rule: r.ID, Label: c.Label, Kind: KindCredit, Category: r.Category, Base: x, Amount: -(v - rest), Sources: c.Sources})
	}
	return tax
}

// collect rounds the final amount (unless exact) and drops it when negative
// or below the collection threshold.
func (st *state) collect(r *Rule, tax float64) float64 {
	if !st.exact {
		tax = r.RoundTax.apply(tax)
	}
	if tax < 0 || tax < st.fig(r.MinTax, r.minTaxCls) {
		if tax > 0 {
			st.line(Line{Rule: r.ID, Label: "below collection threshold", Kind: KindRelief, Category: r.Category, Base: tax, Amount: -tax})
		}
		tax = 0
	}
	return tax
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

// bands taxes the slice [lo, hi) of the stacked axis with the layer's bands.
func (st *state) bands(r *Rule, l *Layer, lo, hi, nilAmt float64) float64 {
	tax := 0.0
	for j := range l.Bands {
		b := &l.Bands[j]
		end := math.Inf(1)
		if j+1 < len(l.Bands) {
			end = st.fig(l.Bands[j+1].From, l.Bands[j+1].cls)
		}
		a, z := span(st.fig(b.From, b.cls), end, lo, hi)
		if z <= a {
			continue
		}
		label := b.Label
		if label == "" {
			label = l.Label
		}
		if b.Formula != nil {
			amt := st.formulaSpan(l.Bands, a, z)
			tax += amt
			st.line(Line{Rule: r.ID, Label: label, Layer: l.Label, Kind: KindBand, Category: r.Category, Base: z - a, Rate: amt / (z - a), Amount: amt})
			continue
		}
		seg, n := nilFirst(b.Rate, z-a, nilAmt)
		if n > 0 {
			nilAmt -= n
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
