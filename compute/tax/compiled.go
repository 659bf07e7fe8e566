package tax

import (
	"math"
	"sync"
	"sync/atomic"
)

// The compiled path. The walker (calc.go) reads the rules as they are
// stored and decides at every return which rule, layer and adjustment
// applies to it. A Compiled is the rules of one year in one region
// decided once for one kind of return: its filing and the outcome of
// every age condition of the rules (an age group). What is left is flat:
// the rules that apply, each with its layers' weighted parts, its band
// tables and its adjustments' piecewise linear functions in slices, the
// values one rule reads of another numbered into one array, and no map,
// interface or allocation on the way. It evaluates a return with the
// walker's operations, save where adding the same terms in another order
// saves work (deductions taken together), so the two agree to the cent (a
// property test holds them to it), and honours a Scale the same way:
// a rule none of whose figure classes the scale moves reads its figures
// as stored.
//
// The compiler knows the rule constructs it translates (handledFields).
// A rule holding anything else, or a view whose cross-rule values do not
// fit the evaluation state, compiles to a Compiled that hands each return
// to the walker (Walks says why), so a construct added to the data and
// the walker is right at once and fast once the compiler learns it.

// always is the bit of a rule's gate, and of every evaluation's parts
// present, beyond the parts': a rule gated by it is always charged.
const always = 1 << NumParts

// maxVals bounds the values of one evaluation: each rule's amount, and
// every other result a later rule reads.
const maxVals = MaxRules

// Compiled is a year's rules in one region compiled for one kind of
// return. It is immutable and safe for concurrent use.
type Compiled struct {
	y     *Year
	k     int  // the region's index in the system's Regions, -1 for none
	joint bool // the kind of return compiled: joint
	rules []crule
	nvals int
	walks string // why the walker evaluates the returns ("": compiled)
	// gate: rule k is charged when the parts present (and the bit
	// always) meet gate[k]: the parts an idle rule reads, else always
	gate []uint8
	// spills: a credit gives its unused part back to an earlier rule,
	// so the amounts are summed by category once all are charged
	spills bool
	// steps: the rules in order as eval charges them, a simple one
	// described in full (see cstep)
	steps []cstep
	// shapes: c specialised to each set of parts present (nil in a
	// shape, and where the walker evaluates the returns)
	shapes *shapes
	// fixed: the scale a Moved evaluator reads its figures through,
	// whatever scale it is given (nil: the scale given)
	fixed *Scale
}

// cstep is one rule as eval charges it: its gate and category, and for a
// simple rule (stored, one layer on one part, no value a later rule reads
// but its amount) all it reads, so a return's commonest rules (a
// contribution on wages, a levy on capital income) are charged from one
// small record.
type cstep struct {
	k       uint8 // the rule's position in rules and vals
	gate    uint8
	fr      *frule // the rule as a flat rule (nil: not one)
	cat     uint8
	simple  bool
	part    uint8
	classes uint32
	w       float64
	exempt  float64 // the layer's exemption limit
	minTax  float64
	round   Rounding
	l       *clayer
	// the rule's exemption limit and marginal relief (relieve)
	relieves, hasRelief       bool
	limit, reliefAt, reliefRt float64
}

// crule is one rule that applies to the kind of return.
type crule struct {
	cat       Category
	idle      bool  // charges nothing when no part it reads is present
	reads     uint8 // the parts its layers read (bit p for part p)
	classes   uint32
	perEarner bool // on a joint return, charged on each earner apart
	layers    []clayer
	deds      []cadj
	// low: every deduction is taken bottom layer first; with the figures
	// as stored, the constant ones' amounts sum to konstLow and the
	// others are varLow
	low       bool
	konstLow  float64
	varLow    []cadj
	creds     []cadj
	exempt    float64
	hasRelief bool
	relieves  bool // an exemption limit or a marginal relief to apply
	// plain: no adjustment or relief, and no layer with a tax-table
	// bucket or a nil-rate amount
	plain bool
	// stored: plain, charged on the whole return (not per earner), its
	// bases not rounded and every layer's bands tabled (cum): with the
	// figures as stored it is charged by plainAsStored
	stored    bool
	reliefAt  float64
	reliefRt  float64
	roundBase Rounding
	roundTax  Rounding
	minTax    float64
	exemptCls uint8
	reliefCls uint8
	minTaxCls uint8
	// where its results go: its amount in vals[k] (k its position among
	// the compiled rules); its taxable, gross and deducted bases and its
	// layers' amounts in their slots when a later rule reads them (-1:
	// none does)
	sTaxable, sGross, sDeducted int8
	sLayer                      [MaxLayers]int8
	nLayerOut                   uint8 // the layers up to the last read
}

// clayer is one layer: off when its condition does not hold for the
// kind of return (its base is then 0).
type clayer struct {
	off   bool
	base  cmeasure
	bands []Band
	// the bands as stored, flat: what an evaluation whose scale moves
	// none of the rule's figures reads (asc: thresholds never fall, so
	// the first band starting at or above the slice's top ends the walk)
	flat []cband
	asc  bool
	// oneCls: every band's threshold is of one class, which a scale
	// moves alike, so the bands stay ascending under any scale
	oneCls bool
	// cum: with the bands as stored, ascending and without a formula, the
	// tax by the bands alone below each band's start (nil otherwise), so
	// a slice's tax is the difference of two points' (cumAt)
	cum []float64
	// below: with the bands as stored and a formula among them, the tax by
	// the bands below each band's start (cumulative's recursion, done
	// once), for cumStored
	below     []float64
	nilRate   []float64
	buckets   []Bucket
	exempt    float64
	nilCls    uint8
	exemptCls uint8
}

// cband is a band as stored: [from, end) at rate, or by its formula.
type cband struct {
	from, end, rate float64
	formula         bool
	cls             uint8 // the class of from
}

// cmeasure is a weighted sum of parts and of slots.
type cmeasure struct {
	on  Basis
	n   uint8
	idx [NumParts]uint8
	w   [NumParts]float64
	// dense: every part is summed in part order with its weight (0 for
	// the parts not read), which adds the same terms in the same order
	// as the packed loop without its indexing
	dense bool
	wd    [NumParts]float64
	// single: one part, no ref, on none: w[0] times part idx[0]
	single bool
	refs   []cref
	has    bool // a Less or MaxLess that exists
	empty  bool // no parts and no refs: only on counts
	bare   bool // no refs, on none: the parts' sum alone
}

// cref reads vals[slot] with a weight.
type cref struct {
	slot int8
	w    float64
}

// cadj is an adjustment that applies to the kind of return.
type cadj struct {
	of        cmeasure
	segs      []Segment
	less      cmeasure
	maxLess   cmeasure
	gate      *cmeasure // non-nil: the adjustment applies only below gateBelow (a pointer: gates are rare, and a cadj stays small)
	gateBelow float64
	gateCls   uint8
	min, max  float64
	hasMax    bool
	perPerson bool
	pooled    bool    // with perPerson: the amounts count per filer, the rates once
	per       float64 // with perPerson: the filers it counts
	round     Rounding
	capAtBase bool
	layer     int
	spill     []int8 // the compiled rules absorbing a credit's unused part
	minCls    uint8
	maxCls    uint8
	// konst: the adjustment reads nothing of the return, so with its
	// figures as stored its input and amount are kx and kv
	konst  bool
	kx, kv float64
}

// Walks reports why the walker evaluates the compiled kind of return ("":
// the compiled path does).
func (c *Compiled) Walks() string { return c.walks }

// Joint reports whether the kind of return compiled is a joint one.
func (c *Compiled) Joint() bool { return c.joint }

// fastView is a view's compiled evaluators, made on first use.
type fastView struct {
	once  sync.Once
	kinds kinds
	mu    sync.Mutex
	list  atomic.Pointer[[]fastEntry]
}

type fastEntry struct {
	key uint64
	c   *Compiled
}

// kinds is what tells one kind of return from another in a view: the
// filing, the outcome of each distinct condition of its rules, layers and
// adjustments, and the number of filers each per-person adjustment
// counts.
type kinds struct {
	conds []Condition
	per   []int
	fits  bool // the key has room for them all
}

// key is the kind of the return who is for.
func (k *kinds) key(who *filer) uint64 {
	var key uint64
	if who.joint {
		key = 1
	}
	for i := range k.conds {
		if who.holds(&k.conds[i]) {
			key |= 2 << i
		}
	}
	b := 1 + len(k.conds)
	for i, m := range k.per {
		key |= uint64(who.count(m)) << (b + 2*i)
	}
	return key
}

// kindsOf collects the conditions and per-person ages of the view.
func kindsOf(v *view) kinds {
	var k kinds
	addCond := func(c Condition) {
		if c == (Condition{}) {
			return
		}
		for i := range k.conds {
			if k.conds[i] == c {
				return
			}
		}
		k.conds = append(k.conds, c)
	}
	addPer := func(a *Adjust) {
		if !a.PerPerson {
			return
		}
		for _, m := range k.per {
			if m == a.PerMinAge {
				return
			}
		}
		k.per = append(k.per, a.PerMinAge)
	}
	for i := range v.rules {
		r := &v.rules[i]
		addCond(r.When)
		for li := range r.Layers {
			addCond(r.Layers[li].When)
		}
		for _, as := range [2][]Adjust{r.Deductions, r.Credits} {
			for j := range as {
				addCond(as[j].When)
				addPer(&as[j])
			}
		}
	}
	k.fits = 1+len(k.conds)+2*len(k.per) <= 64
	return k
}

// Compiled is the year's rules in region ("" for none) compiled for the
// kind of return in is: its filing and age group. Evaluators are made
// once per kind and kept; the errors are those of Due (ErrRegion,
// ErrJoint). It does not allocate once the kind has been compiled.
func (y *Year) Compiled(region string, in *Income) (*Compiled, error) {
	v, k, err := y.sys.viewAt(y, region, in)
	if err != nil {
		return nil, err
	}
	// the kind reads the filing and the ages alone
	who := filer{joint: in.Joint, age: [2]int{in.Age, 0}}
	if in.Joint {
		who.age[1] = in.PartnerAge
	}
	return y.compiledFor(v, k, &who), nil
}

// compiledFor is the view's evaluator for the return who is for.
func (y *Year) compiledFor(v *view, k int, who *filer) *Compiled {
	fv := v.fast
	fv.once.Do(func() { fv.kinds = kindsOf(v) })
	var key uint64
	if fv.kinds.fits {
		key = fv.kinds.key(who)
	}
	if l := fv.list.Load(); l != nil {
		for i := range *l {
			if (*l)[i].key == key {
				return (*l)[i].c
			}
		}
	}
	fv.mu.Lock()
	defer fv.mu.Unlock()
	var old []fastEntry
	if l := fv.list.Load(); l != nil {
		old = *l
		for i := range old {
			if old[i].key == key {
				return old[i].c
			}
		}
	}
	c := compileView(y, v, k, who)
	if !fv.kinds.fits {
		c.walks = "the rules have more conditions than a kind of return can tell apart"
	}
	if c.walks == "" {
		c.shapes = new(shapes)
	}
	next := make([]fastEntry, len(old), len(old)+1)
	copy(next, old)
	next = append(next, fastEntry{key: key, c: c})
	fv.list.Store(&next)
	return c
}

// compileView compiles the view's rules for the return who is for (its
// filing and ages; its earnings are read at each evaluation).
func compileView(y *Year, v *view, k int, who *filer) *Compiled {
	c := &Compiled{y: y, k: k, joint: who.joint}
	for i := range v.rules {
		if why := unhandled(&v.rules[i]); why != "" {
			c.walks = "rule " + v.rules[i].ID + ": " + why
			return c
		}
	}
	// at[i]: the compiled position of view rule i (-1: its condition
	// does not hold, so it charges nothing and reads as 0)
	var at [MaxRules]int8
	n := 0
	for i := range v.rules {
		at[i] = -1
		if who.holds(&v.rules[i].When) {
			at[i] = int8(n)
			n++
		}
	}
	// the slots of the values later rules read, after the amounts
	var slot [MaxRules][4 + MaxLayers]int8
	for i := range slot {
		for j := range slot[i] {
			slot[i][j] = -1
		}
	}
	nv := n
	need := func(ri int, what int) int8 {
		if at[ri] < 0 {
			return -1
		}
		if slot[ri][what] < 0 {
			if nv >= maxVals {
				return -2
			}
			slot[ri][what] = int8(nv)
			nv++
		}
		return slot[ri][what]
	}
	c.rules = make([]crule, 0, n)
	full := false
	for i := range v.rules {
		if at[i] < 0 {
			continue
		}
		cr, ok := compileRule(&v.rules[i], who, at[:len(v.rules)], need)
		if !ok {
			full = true
			break
		}
		c.rules = append(c.rules, cr)
	}
	if full || n > maxVals {
		c.rules = nil
		c.walks = "the rules read more of each other's results than an evaluation holds"
		return c
	}
	for i := range v.rules {
		if at[i] < 0 {
			continue
		}
		r := &c.rules[at[i]]
		r.sTaxable, r.sGross, r.sDeducted = slot[i][RefTaxable], slot[i][RefGross], slot[i][RefDeducted]
		for li := range r.sLayer {
			if r.sLayer[li] = slot[i][4+li]; r.sLayer[li] >= 0 {
				r.nLayerOut = uint8(li + 1)
			}
		}
	}
	c.nvals = nv
	for k := range c.rules {
		r := &c.rules[k]
		r.stored = r.plain && !r.perEarner && r.roundBase.identity()
		for li := range r.layers {
			if r.layers[li].cum == nil {
				r.stored = false
			}
		}
	}
	c.gate = make([]uint8, len(c.rules))
	for k := range c.rules {
		c.gate[k] = always
		if c.rules[k].idle {
			c.gate[k] = c.rules[k].reads
		}
	}
	c.steps = c.stepsOf()
	for k := range c.rules {
		for j := range c.rules[k].creds {
			if len(c.rules[k].creds[j].spill) > 0 {
				c.spills = true
			}
		}
	}
	return c
}

// stepsOf is the steps eval takes: one for each rule that may charge.
func (c *Compiled) stepsOf() []cstep {
	steps := make([]cstep, 0, len(c.rules))
	for k := range c.rules {
		if c.gate[k] == 0 {
			continue
		}
		r := &c.rules[k]
		st := cstep{k: uint8(k), gate: c.gate[k], cat: uint8(r.cat & (numCategories - 1)), classes: r.classes}
		st.fr = flatRule(r)
		if r.simple() {
			l := &r.layers[0]
			st.simple, st.part, st.w, st.exempt, st.l = true, l.base.idx[0], l.base.w[0], l.exempt, l
			st.minTax, st.round = r.minTax, r.roundTax
			st.relieves, st.hasRelief, st.limit, st.reliefAt, st.reliefRt = r.relieves, r.hasRelief, r.exempt, r.reliefAt, r.reliefRt
		}
		steps = append(steps, st)
	}
	return steps
}

// compileRule is rule r for the return who is for; need gives the slot of
// an earlier rule's value (-1: it reads as 0; -2: no room is left).
func compileRule(r *Rule, who *filer, at []int8, need func(ri, what int) int8) (crule, bool) {
	cr := crule{cat: r.Category, idle: r.idleable, reads: r.reads, classes: r.classes,
		perEarner: r.PerEarner && who.joint, exempt: r.Exempt, hasRelief: r.HasRelief,
		reliefAt: r.ReliefAbove, reliefRt: r.ReliefRate, roundBase: r.RoundBase, roundTax: r.RoundTax,
		minTax: r.MinTax, exemptCls: r.exemptCls, reliefCls: r.reliefCls, minTaxCls: r.minTaxCls,
		relieves: r.Exempt > 0 || r.HasRelief}
	ok := true
	measure := func(m *Measure) cmeasure {
		cm := cmeasure{on: m.On, n: m.nparts, idx: m.idx, w: m.weights, has: true,
			dense: m.nparts >= denseParts, wd: m.Parts}
		for _, rf := range m.Refs {
			var s int8
			switch {
			case rf.What == RefAmount && rf.Layer < 0:
				s = at[rf.Rule]
			case rf.What == RefAmount:
				s = need(rf.Rule, 4+rf.Layer)
			default:
				s = need(rf.Rule, rf.What)
			}
			if s == -2 {
				ok = false
			}
			if s >= 0 {
				cm.refs = append(cm.refs, cref{slot: s, w: rf.Weight})
			}
		}
		cm.empty = cm.n == 0 && len(cm.refs) == 0
		cm.single = cm.n == 1 && len(cm.refs) == 0 && cm.on == OnNone
		cm.bare = len(cm.refs) == 0 && cm.on == OnNone
		return cm
	}
	for li := range r.Layers {
		l := &r.Layers[li]
		fl, asc := flatBands(l.Bands)
		cr.layers = append(cr.layers, clayer{off: !who.holds(&l.When), base: measure(&l.Base), bands: l.Bands,
			flat: fl, asc: asc, oneCls: asc && oneClass(fl), cum: cumBands(fl, asc), below: formulaBases(l.Bands), nilRate: l.NilRate, buckets: l.Buckets, exempt: l.Exempt, nilCls: l.nilCls,
			exemptCls: l.exemptCls})
	}
	adjust := func(a *Adjust) cadj {
		ca := cadj{of: measure(&a.Of), segs: a.Segments, min: a.Min, max: a.Max, hasMax: a.HasMax,
			perPerson: a.PerPerson, pooled: a.Pooled, per: float64(who.count(a.PerMinAge)), round: a.Round,
			capAtBase: a.CapAtBase, layer: a.Layer, minCls: a.minCls, maxCls: a.maxCls}
		if a.Less != nil {
			ca.less = measure(a.Less)
		}
		if a.MaxLess != nil {
			ca.maxLess = measure(a.MaxLess)
		}
		if a.Gate != nil {
			g := measure(a.Gate)
			ca.gate, ca.gateBelow, ca.gateCls = &g, a.GateBelow, a.gateCls
		}
		for _, sp := range a.Spill {
			if at[sp] >= 0 {
				ca.spill = append(ca.spill, at[sp])
			}
		}
		if ca.of.empty && ca.of.on == OnNone && !ca.less.has && !ca.maxLess.has && ca.gate == nil {
			var st cstate
			ca.kx, ca.kv = st.adjust(&ca, 0, 0, 0)
			ca.konst = true
		}
		return ca
	}
	for j := range r.Deductions {
		if who.holds(&r.Deductions[j].When) {
			cr.deds = append(cr.deds, adjust(&r.Deductions[j]))
		}
	}
	for j := range r.Credits {
		if who.holds(&r.Credits[j].When) {
			cr.creds = append(cr.creds, adjust(&r.Credits[j]))
		}
	}
	cr.plain = len(cr.deds) == 0 && len(cr.creds) == 0 && !cr.relieves
	for li := range cr.layers {
		if l := &cr.layers[li]; len(l.buckets) > 0 || len(l.nilRate) > 0 {
			cr.plain = false
		}
	}
	cr.splitLow()
	return cr, ok
}

// splitLow sets low, and the constant deductions' sum and the others
// (konstLow, varLow) from the deductions.
func (r *crule) splitLow() {
	r.low, r.konstLow, r.varLow = true, 0, nil
	for j := range r.deds {
		switch d := &r.deds[j]; {
		case d.layer >= 0:
			r.low = false
		case d.konst:
			r.konstLow += d.kv
		default:
			r.varLow = append(r.varLow, *d)
		}
	}
}

// simple reports whether r is charged by cstep.charge: one layer on one
// part, its bands tabled, on the whole return, no adjustment, no rounded
// base, no value a later rule reads but its amount (an exemption limit
// and a marginal relief are taken).
func (r *crule) simple() bool {
	if len(r.deds) > 0 || len(r.creds) > 0 || r.perEarner || !r.roundBase.identity() || len(r.layers) != 1 ||
		r.sTaxable >= 0 || r.sGross >= 0 || r.sDeducted >= 0 || r.nLayerOut > 0 {
		return false
	}
	l := &r.layers[0]
	return !l.off && l.base.single && l.cum != nil && len(l.buckets) == 0 && len(l.nilRate) == 0
}

// identity reports whether r leaves every value as it is.
func (r Rounding) identity() bool { return r.Mode == RoundNone || r.Unit <= 0 }

// densePartsFit holds the unrolled dense sum to the number of parts.
var _ = [1]struct{}{}[NumParts-7]

// denseParts is the number of parts read from which a measure sums every
// part rather than the packed ones.
const denseParts = 3

// flatBands is the bands as stored, each with its end, and whether their
// thresholds ascend.
func flatBands(b []Band) ([]cband, bool) {
	fl := make([]cband, len(b))
	asc := true
	for j := range b {
		end := math.Inf(1)
		if j+1 < len(b) {
			end = b[j+1].From
			if end < b[j].From {
				asc = false
			}
		}
		fl[j] = cband{from: b[j].From, end: end, rate: b[j].Rate, formula: b[j].Formula != nil, cls: b[j].cls}
	}
	return fl, asc
}

// formulaBases is, for bands with a statutory formula, the tax by the
// bands as stored below each band's start, as cumulative reckons it (nil
// for bands without a formula).
func formulaBases(b []Band) []float64 {
	formula := false
	for j := range b {
		formula = formula || b[j].Formula != nil
	}
	if !formula {
		return nil
	}
	var f figures
	base := make([]float64, len(b))
	for k := 1; k < len(b); k++ {
		base[k] = f.cumulative(b[:k], b[k].From)
	}
	return base
}

// oneClass reports whether every band's threshold is of one class.
func oneClass(fl []cband) bool {
	for j := range fl {
		if fl[j].cls != fl[0].cls {
			return false
		}
	}
	return true
}

// cumBands is the tax by the bands alone below each band's start, for
// bands ascending without a formula (nil for others, and for none).
func cumBands(fl []cband, asc bool) []float64 {
	if !asc || len(fl) == 0 {
		return nil
	}
	cum := make([]float64, len(fl))
	for j := range fl {
		if fl[j].formula {
			return nil
		}
		if j > 0 {
			cum[j] = cum[j-1] + fl[j-1].rate*(fl[j-1].end-fl[j-1].from)
		}
	}
	return cum
}
