package tax

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// compileRule fills y.Rules[i] from jr; earlier rules are compiled.
func (s *System) compileRule(y *Year, i int, jr *jRule) error {
	if jr.ID == "" {
		return fmt.Errorf("rule %d: no id", i)
	}
	what := "rule " + jr.ID
	if err := s.checkSources(jr.Src, what); err != nil {
		return err
	}
	cat, ok := parseCategory(jr.Category)
	if !ok {
		return fmt.Errorf("%s: category %q", what, jr.Category)
	}
	for _, rg := range append(append([]string(nil), jr.Regions...), jr.ExceptRegions...) {
		if !s.HasRegion(rg) {
			return fmt.Errorf("%s: region %q not declared", what, rg)
		}
	}
	when, err := compileWhen(jr.When)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	r := &y.Rules[i]
	*r = Rule{When: when, PerEarner: jr.PerEarner, ID: jr.ID, Label: jr.Label, Category: cat, Regions: jr.Regions,
		ExceptRegions: jr.ExceptRegions, Exempt: jr.Exempt.V, MinTax: jr.MinTax.V, Sources: jr.Src}
	if r.exemptCls, err = s.classOf(&jr.Exempt); err != nil {
		return fmt.Errorf("%s: exemptUpTo: %w", what, err)
	}
	if r.minTaxCls, err = s.classOf(&jr.MinTax); err != nil {
		return fmt.Errorf("%s: minTax: %w", what, err)
	}
	if jr.Relief != nil {
		r.HasRelief, r.ReliefAbove, r.ReliefRate = true, jr.Relief.Above.V, jr.Relief.Rate
		if r.reliefCls, err = s.classOf(&jr.Relief.Above); err != nil {
			return fmt.Errorf("%s: relief: %w", what, err)
		}
	}
	if jr.Round != nil {
		if r.RoundBase, err = compileRound(jr.Round.Base); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if r.RoundTax, err = compileRound(jr.Round.Tax); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	if len(jr.Layers) == 0 || len(jr.Layers) > MaxLayers {
		return fmt.Errorf("%s: %d layers (1..%d)", what, len(jr.Layers), MaxLayers)
	}
	maxBand := 0.0
	for li := range jr.Layers {
		l, mb, err := s.compileLayer(y, i, &jr.Layers[li], fmt.Sprintf("%s layer %d", what, li))
		if err != nil {
			return err
		}
		maxBand = math.Max(maxBand, mb)
		r.Layers = append(r.Layers, l)
	}
	taper := 0.0
	for di := range jr.Deductions {
		a, err := s.compileAdjust(y, i, r, &jr.Deductions[di], what, false)
		if err != nil {
			return err
		}
		taper += a.slope()
		r.Deductions = append(r.Deductions, a)
	}
	creditSlope := 0.0
	for ci := range jr.Credits {
		a, err := s.compileAdjust(y, i, r, &jr.Credits[ci], what, true)
		if err != nil {
			return err
		}
		creditSlope += a.slope()
		r.Credits = append(r.Credits, a)
	}
	mr := maxBand * (1 + taper)
	if r.HasRelief {
		mr = math.Max(mr, r.ReliefRate*maxInputRate(y, r))
	}
	r.maxRate = mr + creditSlope
	r.reads, r.idleable = idleWhen(r)
	return nil
}

// idleWhen is the set of parts rule r's layer bases weigh, and whether
// nothing but those parts can make it charge or change another rule: no
// base reads another rule's figures and no credit spills over.
func idleWhen(r *Rule) (reads uint8, idleable bool) {
	idleable = true
	for li := range r.Layers {
		m := &r.Layers[li].Base
		if len(m.Refs) > 0 || m.On != OnNone {
			idleable = false
		}
		for p, w := range m.Parts {
			if w != 0 {
				reads |= 1 << p
			}
		}
	}
	for ci := range r.Credits {
		if len(r.Credits[ci].Spill) > 0 {
			idleable = false
		}
	}
	return reads, idleable
}

// parseCategory reads a category's name.
func parseCategory(name string) (Category, bool) {
	for c, n := range categoryNames {
		if n == name {
			return Category(c), true
		}
	}
	return 0, false
}

// compileLayer compiles one layer of rule self and returns with it the
// highest marginal rate its bands reach per unit of income.
func (s *System) compileLayer(y *Year, self int, jl *jLayer, what string) (Layer, float64, error) {
	l := Layer{ID: jl.ID, Label: jl.Label, NilLabel: jl.NilLabel, Buckets: jl.Buckets, Exempt: jl.Exempt.V}
	var err error
	if l.When, err = compileWhen(jl.When); err != nil {
		return l, 0, fmt.Errorf("%s: %w", what, err)
	}
	if l.exemptCls, err = s.classOf(&jl.Exempt); err != nil {
		return l, 0, fmt.Errorf("%s: exemptUpTo: %w", what, err)
	}
	for k := range jl.NilRate {
		c, err := s.classOf(&jl.NilRate[k])
		if err != nil {
			return l, 0, fmt.Errorf("%s: nilRate: %w", what, err)
		}
		if k > 0 && c != l.nilCls {
			return l, 0, fmt.Errorf("%s: nilRate: the amounts of one layer move alike (one class)", what)
		}
		l.nilCls = c
		l.NilRate = append(l.NilRate, jl.NilRate[k].V)
	}
	m, err := compileMeasure(y, self, &jl.Base, false)
	if err != nil {
		return l, 0, fmt.Errorf("%s: %w", what, err)
	}
	l.Base = m
	if len(jl.Bands) == 0 {
		return l, 0, fmt.Errorf("%s: no bands", what)
	}
	// the most a unit of income moves the layer's base
	maxW := 0.0
	for _, w := range m.Parts {
		maxW = math.Max(maxW, math.Abs(w))
	}
	for _, rf := range m.Refs {
		maxW = math.Max(maxW, math.Abs(rf.Weight)*math.Max(1, y.Rules[rf.Rule].maxRate))
	}
	maxBand := 0.0
	for bi, jb := range jl.Bands {
		if bi == 0 && jb.From.V != 0 {
			return l, 0, fmt.Errorf("%s: first band must start at 0", what)
		}
		if bi > 0 && jb.From.V <= jl.Bands[bi-1].From.V {
			return l, 0, fmt.Errorf("%s: bands not ascending", what)
		}
		b := Band{From: jb.From.V, Rate: jb.Rate, Label: jb.Label, Formula: jb.Formula}
		if b.cls, err = s.classOf(&jb.From); err != nil {
			return l, 0, fmt.Errorf("%s: band %d: %w", what, bi, err)
		}
		hi := b.From * 4
		if bi+1 < len(jl.Bands) {
			hi = jl.Bands[bi+1].From.V
		}
		mr, err := b.maxRate(hi)
		if err != nil {
			return l, 0, fmt.Errorf("%s: %w", what, err)
		}
		maxBand = math.Max(maxBand, mr*maxW)
		l.Bands = append(l.Bands, b)
	}
	if len(l.NilRate) > 1 && len(l.NilRate) != len(l.Bands) {
		return l, 0, fmt.Errorf("%s: nilRate needs one amount or one per band", what)
	}
	if err := s.checkFormulaClass(&l); err != nil {
		return l, 0, fmt.Errorf("%s: %w", what, err)
	}
	return l, maxBand, nil
}

// checkFormulaClass: the bands of a layer with a statutory formula move
// as one (the formula's amounts scale with its band), without a rounding
// step, which the formula has no single figure to apply to.
func (s *System) checkFormulaClass(l *Layer) error {
	formula := false
	for _, b := range l.Bands {
		formula = formula || b.Formula != nil
	}
	if !formula {
		return nil
	}
	for _, b := range l.Bands {
		if b.cls != l.Bands[0].cls {
			return fmt.Errorf("the bands of a formula tariff move alike (one class)")
		}
	}
	if s.classes[l.Bands[0].cls].Round.Mode != RoundNone {
		return fmt.Errorf("a formula tariff's class has no rounding step")
	}
	return nil
}

// maxRate is the band's highest marginal rate between its start and hi: its
// rate, or for a formula (2A·y+B)/Div at either end. It must lie in [0, 1].
func (b *Band) maxRate(hi float64) (float64, error) {
	mr := b.Rate
	if f := b.Formula; f != nil {
		if f.Div == 0 {
			return 0, fmt.Errorf("formula with div 0")
		}
		for _, x := range []float64{b.From, hi} {
			yv := (x - f.Y0) / f.Div
			mr = math.Max(mr, (2*f.A*yv+f.B)/f.Div)
		}
	}
	if mr < 0 || mr > 1 {
		return 0, fmt.Errorf("band rate %v out of [0,1]", mr)
	}
	return mr, nil
}

// maxInputRate bounds d(base)/d(income) of a rule whose base refers to other
// rules (a surtax): the weighted sum of the referenced rules' bounds.
func maxInputRate(y *Year, r *Rule) float64 {
	m := 0.0
	for _, l := range r.Layers {
		t := 0.0
		for _, w := range l.Base.Parts {
			t = math.Max(t, math.Abs(w))
		}
		for _, rf := range l.Base.Refs {
			t += math.Abs(rf.Weight) * math.Max(y.Rules[rf.Rule].maxRate, 1)
		}
		m += t
	}
	return m
}

// cliff is the largest step of the adjustment's function where one segment
// ends and the next begins (an allowance withdrawn whole above an income
// limit).
func (a *Adjust) cliff() float64 {
	c := 0.0
	for k := 1; k < len(a.Segments); k++ {
		p, n := &a.Segments[k-1], &a.Segments[k]
		c = math.Max(c, math.Abs(n.Base-(p.Base+p.Rate*(n.From-p.From))))
	}
	if a.Gate != nil {
		c = math.Max(c, a.gateJump())
	}
	return c * a.filers()
}

// gateJump bounds the amount a gate removes at its limit: the max, or the
// largest value the segments reach (compileGate requires one of them).
func (a *Adjust) gateJump() float64 {
	if a.HasMax {
		return math.Abs(a.Max)
	}
	j := 0.0
	for k, sg := range a.Segments {
		j = math.Max(j, math.Abs(sg.Base))
		if k+1 < len(a.Segments) {
			j = math.Max(j, math.Abs(sg.Base+sg.Rate*(a.Segments[k+1].From-sg.From)))
		}
	}
	return j
}

// filers is how many times the adjustment's amount can count: twice per
// person on a joint return, else once.
func (a *Adjust) filers() float64 {
	if a.PerPerson {
		return 2
	}
	return 1
}

// slope bounds how fast an adjustment can change per unit of income.
func (a *Adjust) slope() float64 {
	m := 0.0
	for _, sg := range a.Segments {
		m = math.Max(m, math.Abs(sg.Rate))
	}
	w := 0.0
	for _, p := range a.Of.Parts {
		w = math.Max(w, math.Abs(p))
	}
	for _, rf := range a.Of.Refs {
		w += math.Abs(rf.Weight)
	}
	if a.Of.On != OnNone {
		w = math.Max(w, 1)
	}
	return (m*w + a.Less.weight()) * a.filers()
}

// weight bounds how fast a measure can move per unit of income (0 for
// none).
func (m *Measure) weight() float64 {
	if m == nil {
		return 0
	}
	w := 0.0
	for _, p := range m.Parts {
		w = math.Max(w, math.Abs(p))
	}
	for _, rf := range m.Refs {
		w += math.Abs(rf.Weight)
	}
	if m.On != OnNone {
		w = math.Max(w, 1)
	}
	return w
}

func compileRound(j *jRound) (Rounding, error) {
	if j == nil {
		return Rounding{}, nil
	}
	var m Round
	switch j.Mode {
	case "", "none":
		m = RoundNone
	case "floor":
		m = RoundFloor
	case "ceil":
		m = RoundCeil
	case "nearest":
		m = RoundNearest
	default:
		return Rounding{}, fmt.Errorf("rounding mode %q", j.Mode)
	}
	if m != RoundNone && j.Unit <= 0 {
		return Rounding{}, fmt.Errorf("rounding unit %v", j.Unit)
	}
	return Rounding{m, j.Unit}, nil
}

// compileMeasure resolves part names and references "rule", "rule.layer",
// "rule#taxable", "rule#gross", "rule#deducted" to earlier rules (all earlier rules with that
// id: ids may repeat across region variants).
func compileMeasure(y *Year, self int, j *jMeasure, allowOn bool) (Measure, error) {
	var m Measure
	switch j.On {
	case "":
	case "gross":
		m.On = OnGross
	case "taxable":
		m.On = OnTaxable
	case "tax":
		m.On = OnTax
	default:
		return m, fmt.Errorf("measure on %q", j.On)
	}
	if m.On != OnNone && !allowOn {
		return m, fmt.Errorf("layer bases cannot use \"on\"")
	}
	for name, w := range j.Parts {
		found := false
		for p, n := range partNames {
			if n == name {
				m.Parts[p] = w
				found = true
			}
		}
		if !found {
			return m, fmt.Errorf("unknown income part %q", name)
		}
	}
	m.pack()
	keys := make([]string, 0, len(j.Refs))
	for k := range j.Refs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		var err error
		if m.Refs, err = appendRefs(m.Refs, y, self, key, j.Refs[key]); err != nil {
			return m, err
		}
	}
	return m, nil
}

// appendRefs appends the references key ("rule", "rule.layer",
// "rule#taxable", "rule#gross", "rule#deducted") makes with weight w to every rule before
// self with that id.
func appendRefs(refs []Ref, y *Year, self int, key string, w float64) ([]Ref, error) {
	id, what, layer := key, RefAmount, ""
	if k := strings.IndexByte(id, '#'); k >= 0 {
		switch id[k+1:] {
		case "taxable":
			what = RefTaxable
		case "gross":
			what = RefGross
		case "deducted":
			what = RefDeducted
		default:
			return refs, fmt.Errorf("ref %q: unknown field", key)
		}
		id = id[:k]
	}
	if k := strings.IndexByte(id, '.'); k >= 0 {
		id, layer = id[:k], id[k+1:]
	}
	n := 0
	for ri := 0; ri < self; ri++ {
		if y.Rules[ri].ID != id {
			continue
		}
		li := -1
		if layer != "" {
			if li = y.Rules[ri].layerIndex(layer); li < 0 {
				return refs, fmt.Errorf("ref %q: no layer %q", key, layer)
			}
		}
		refs = append(refs, Ref{Rule: ri, Layer: li, What: what, Weight: w})
		n++
	}
	if n == 0 {
		return refs, fmt.Errorf("ref %q: no earlier rule with that id", key)
	}
	return refs, nil
}

// layerIndex is the position of the layer with that id, or -1 (the last
// one when ids repeat).
func (r *Rule) layerIndex(id string) int {
	li := -1
	for x := range r.Layers {
		if r.Layers[x].ID == id {
			li = x
		}
	}
	return li
}

func (s *System) compileAdjust(y *Year, self int, r *Rule, j *jAdjust, what string, credit bool) (Adjust, error) {
	what = what + " / " + j.Label
	if j.Label == "" {
		return Adjust{}, fmt.Errorf("%s: adjustment without label", what)
	}
	if len(j.Src) > 0 {
		if err := s.checkSources(j.Src, what); err != nil {
			return Adjust{}, err
		}
	}
	m, err := compileMeasure(y, self, &j.Of, true)
	if err != nil {
		return Adjust{}, fmt.Errorf("%s: %w", what, err)
	}
	if !credit && m.On == OnTaxable || !credit && m.On == OnTax {
		return Adjust{}, fmt.Errorf("%s: deduction cannot depend on taxable base or tax", what)
	}
	a := Adjust{Label: j.Label, Of: m, Min: j.Min.V, CapAtBase: j.CapAtBase, Layer: -1, Sources: j.Src}
	if a.minCls, err = s.classOf(&j.Min); err != nil {
		return a, fmt.Errorf("%s: min: %w", what, err)
	}
	if a.When, err = compileWhen(j.When); err != nil {
		return a, fmt.Errorf("%s: %w", what, err)
	}
	if p := j.PerPerson; p != nil {
		if p.Filing != "" || p.MaxAge != nil {
			return a, fmt.Errorf("%s: perPerson counts filers by minAge only; a filing or maxAge belongs in when", what)
		}
		if p.MinAge != nil && (*p.MinAge < 0 || *p.MinAge > maxAge) {
			return a, fmt.Errorf("%s: perPerson minAge %d (0..%d)", what, *p.MinAge, maxAge)
		}
		a.PerPerson, a.Pooled = true, p.Pooled
		if p.MinAge != nil {
			a.PerMinAge = *p.MinAge
		}
	}
	if a.Segments, err = s.compileSegments(j); err != nil {
		return a, fmt.Errorf("%s: %w", what, err)
	}
	if j.Max != nil {
		a.HasMax, a.Max = true, j.Max.V
		if a.maxCls, err = s.classOf(j.Max); err != nil {
			return a, fmt.Errorf("%s: max: %w", what, err)
		}
	}
	if j.MaxLess != nil {
		ml, err := compileMeasure(y, self, j.MaxLess, false)
		if err != nil {
			return a, fmt.Errorf("%s: maxLess: %w", what, err)
		}
		a.MaxLess = &ml
	}
	if a.Round, err = compileRound(j.Round); err != nil {
		return a, fmt.Errorf("%s: %w", what, err)
	}
	if j.Less != nil {
		l, err := compileMeasure(y, self, j.Less, credit)
		if err != nil {
			return a, fmt.Errorf("%s: less: %w", what, err)
		}
		a.Less = &l
	}
	if j.Gate != nil {
		if err := s.compileGate(y, self, &a, j.Gate, credit); err != nil {
			return a, fmt.Errorf("%s: gate: %w", what, err)
		}
	}
	if j.Layer != "" {
		if credit {
			return a, fmt.Errorf("%s: credits apply to the whole rule", what)
		}
		a.Layer = r.layerIndex(j.Layer)
		if a.Layer < 0 {
			return a, fmt.Errorf("%s: no layer %q", what, j.Layer)
		}
	}
	if len(j.Spill) > 0 && !credit {
		return a, fmt.Errorf("%s: spillTo is for credits", what)
	}
	for _, id := range j.Spill {
		n := len(a.Spill)
		a.Spill = y.appendRuleIndices(a.Spill, self, id)
		if len(a.Spill) == n {
			return a, fmt.Errorf("%s: spillTo %q: no earlier rule", what, id)
		}
	}
	return a, nil
}

// appendRuleIndices appends the indices of the rules before self with that
// id.
func (y *Year) appendRuleIndices(dst []int, self int, id string) []int {
	for ri := 0; ri < self; ri++ {
		if y.Rules[ri].ID == id {
			dst = append(dst, ri)
		}
	}
	return dst
}

// compileSegments is an adjustment's function: its segments, or a single
// segment from amount and rate.
// compileGate reads an adjustment's income limit. The amount it removes
// at the limit must be bounded (a max, or a last segment that is flat), as
// the checks of a year's jumps need.
func (s *System) compileGate(y *Year, self int, a *Adjust, j *jGate, credit bool) error {
	if j.Below == nil {
		return fmt.Errorf("no below")
	}
	if !(j.Below.V > 0) {
		return fmt.Errorf("below %v is not a positive amount", j.Below.V)
	}
	if n := len(a.Segments); !a.HasMax && (n == 0 || a.Segments[n-1].Rate != 0) {
		return fmt.Errorf("the amount removed at the limit is unbounded: give a max or end the segments flat")
	}
	// a deduction's gate reads no basis of its own rule (as its less)
	m, err := compileMeasure(y, self, &j.Of, credit)
	if err != nil {
		return err
	}
	a.Gate, a.GateBelow = &m, j.Below.V
	a.gateCls, err = s.classOf(j.Below)
	return err
}

func (s *System) compileSegments(j *jAdjust) ([]Segment, error) {
	if len(j.Segments) == 0 {
		sg := Segment{Rate: j.Rate}
		if j.Amount != nil {
			sg.Base = j.Amount.V
			var err error
			if sg.baseCls, err = s.classOf(j.Amount); err != nil {
				return nil, fmt.Errorf("amount: %w", err)
			}
		}
		return []Segment{sg}, nil
	}
	if j.Amount != nil || j.Rate != 0 {
		return nil, fmt.Errorf("segments exclude amount/rate")
	}
	out := make([]Segment, 0, len(j.Segments))
	for k, sg := range j.Segments {
		if len(sg) != 3 {
			return nil, fmt.Errorf("a segment is [from, value, rate]")
		}
		if k > 0 && sg[0].V <= j.Segments[k-1][0].V {
			return nil, fmt.Errorf("segments not ascending")
		}
		if sg[2].Meta != nil {
			return nil, fmt.Errorf("a segment's rate is not a money figure")
		}
		seg := Segment{From: sg[0].V, Base: sg[1].V, Rate: sg[2].V}
		var err error
		if seg.fromCls, err = s.classOf(&sg[0]); err != nil {
			return nil, fmt.Errorf("segment %d: %w", k, err)
		}
		if seg.baseCls, err = s.classOf(&sg[1]); err != nil {
			return nil, fmt.Errorf("segment %d: %w", k, err)
		}
		out = append(out, seg)
	}
	return out, nil
}
