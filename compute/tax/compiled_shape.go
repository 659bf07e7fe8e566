package tax

import "sync/atomic"

// Shapes. A return of one kind still varies in which parts of income it
// has: a retired couple has no wages, so the payroll rules charge nothing,
// the values they would give a later rule are 0, and every term of a sum
// that reads wages adds 0. A Compiled is therefore specialised once more,
// on first use, to each set of parts present (its shape): the rules that
// charge nothing for want of the parts they read are left out, and every
// measure keeps only the parts present and the values of rules that
// charge. Leaving out a term that is 0 leaves every sum as it was, so a
// shape answers as the Compiled it comes from. An adjustment left reading
// nothing is a constant, reckoned once.

// numShapes is the number of sets of parts present.
const numShapes = 1 << NumParts

// shapes holds a Compiled's evaluators by shape, each made on first use.
type shapes [numShapes]atomic.Pointer[Compiled]

// shape is c specialised to the parts present (bit p: part p, and the bit
// always): c itself when c is a shape already or the walker evaluates it.
func (c *Compiled) shape(present uint8) *Compiled {
	if c.shapes == nil {
		return c
	}
	p := &c.shapes[present&(numShapes-1)]
	if s := p.Load(); s != nil {
		return s
	}
	s := c.specialise(present | always)
	if !p.CompareAndSwap(nil, s) {
		return p.Load()
	}
	return s
}

// specialise is c for the returns whose parts present are those of
// present: the same rules in the same slots, those that charge taken as
// they read such a return, the others passed over.
func (c *Compiled) specialise(present uint8) *Compiled {
	s := &Compiled{y: c.y, k: c.k, joint: c.joint, nvals: c.nvals, spills: c.spills}
	s.rules = make([]crule, len(c.rules))
	// zero[v]: value slot v is 0 in every evaluation of the shape (its
	// rule does not charge)
	var zero [maxVals]bool
	for k := range c.rules {
		if present&c.gate[k] != 0 {
			continue
		}
		r := &c.rules[k]
		zero[k] = true
		for _, v := range [3]int8{r.sTaxable, r.sGross, r.sDeducted} {
			if v >= 0 {
				zero[v] = true
			}
		}
		for li := 0; li < int(r.nLayerOut); li++ {
			if v := r.sLayer[li]; v >= 0 {
				zero[v] = true
			}
		}
	}
	for k := range c.rules {
		if present&c.gate[k] == 0 {
			s.rules[k] = c.rules[k]
			continue
		}
		s.rules[k] = c.rules[k].specialise(present, &zero)
	}
	s.gate = make([]uint8, len(c.rules))
	for k := range c.rules {
		s.gate[k] = c.gate[k] & present
	}
	s.steps = s.stepsOf()
	return s
}

// specialise is rule r for the parts present, the values zero[v] read as
// 0 dropped.
func (r *crule) specialise(present uint8, zero *[maxVals]bool) crule {
	n := *r
	n.layers = make([]clayer, len(r.layers))
	for li := range r.layers {
		n.layers[li] = r.layers[li]
		n.layers[li].base = r.layers[li].base.specialise(present, zero)
	}
	adjs := func(as []cadj) []cadj {
		if len(as) == 0 {
			return nil
		}
		out := make([]cadj, len(as))
		for j := range as {
			out[j] = as[j].specialise(present, zero)
		}
		return out
	}
	n.deds = adjs(r.deds)
	n.creds = adjs(r.creds)
	n.splitLow()
	return n
}

// specialise is adjustment a for the parts present: constant when it
// reads nothing left.
func (a *cadj) specialise(present uint8, zero *[maxVals]bool) cadj {
	n := *a
	n.of = a.of.specialise(present, zero)
	n.less = a.less.specialise(present, zero)
	n.maxLess = a.maxLess.specialise(present, zero)
	if a.gate != nil {
		g := a.gate.specialise(present, zero)
		n.gate = &g
	}
	none := func(m *cmeasure) bool { return !m.has || (m.empty && m.on == OnNone) }
	if !n.konst && none(&n.of) && none(&n.less) && none(&n.maxLess) && (n.gate == nil || none(n.gate)) {
		var st cstate
		n.kx, n.kv = st.adjust(&n, 0, 0, 0)
		n.konst = true
	}
	return n
}

// specialise is m reading only the parts present and the values not in
// zero.
func (m cmeasure) specialise(present uint8, zero *[maxVals]bool) cmeasure {
	if !m.has {
		return m
	}
	n := m
	n.n = 0
	n.idx, n.w, n.wd = [NumParts]uint8{}, [NumParts]float64{}, [NumParts]float64{}
	for j := 0; j < int(m.n); j++ {
		if p := m.idx[j]; present&(1<<p) != 0 {
			n.idx[n.n], n.w[n.n] = p, m.w[j]
			n.wd[p] = m.w[j]
			n.n++
		}
	}
	n.refs = nil
	for _, rf := range m.refs {
		if !zero[rf.slot] {
			n.refs = append(n.refs, rf)
		}
	}
	n.dense = n.n >= denseParts
	n.empty = n.n == 0 && len(n.refs) == 0
	n.single = n.n == 1 && len(n.refs) == 0 && n.on == OnNone
	n.bare = len(n.refs) == 0 && n.on == OnNone
	return n
}
