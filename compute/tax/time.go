package tax

import (
	"math"
	"strconv"
	"strings"
)

// Time. A country's rules are published for some tax years (Years). A plan
// runs past them: its year t is taxed under At(start+t), the published
// year as published or, past the newest published year, that year's rules
// projected. A projected year keeps the newest year's figures; the rules,
// adjustments and figures whose sunset has passed are gone or take their
// later value, and every money figure moves by its class (Class): with
// prices, with wages, not at all, or not until a freeze ends, each change
// rounded as its statute says.
//
// How far each class has moved depends on the path's own inflation (a
// backtest replays history, a Monte Carlo path draws its own), so it is not
// compiled into the year: an evaluation takes a Scale, one factor per
// class, computed from the path's price levels by Year.Scale. One resolved
// year therefore serves every path of a run. Incomes given to an
// evaluation are in the money of the path's first year (today's money);
// the zero Scale, or nil, reads every figure as stored: a published year in
// its own money.
//
// An evaluator built from a Year (the walker, or a compiled one) reads each
// stored money figure through Scale.Of with the figure's class: the cls
// fields beside Band.From (and its formula's amounts, scaled as a whole by
// Factor), Layer.NilRate and Exempt, Segment.From and Base, Adjust.Min and
// Max, and Rule.Exempt, ReliefAbove and MinTax. A rule none of whose classes
// the scale moves (Rule.classes & Scale.mask == 0) reads its figures as
// stored; so do all rules under a Scale that has not Moved. Rounding units,
// the tax-table buckets, rates and weights are not figures: they stay as
// written.

// Indexation is what a figure follows after its base year.
type Indexation uint8

// Indexations.
const (
	ByPrices   Indexation = iota // consumer prices (the default)
	ByWages                      // average earnings
	NotIndexed                   // fixed in money
)

var indexationNames = [...]string{"prices", "wages", "none"}

func (x Indexation) String() string {
	if int(x) >= len(indexationNames) {
		return "invalid"
	}
	return indexationNames[x]
}

// Class is how a group of money figures moves after the newest published
// year. Class 0 of every system is {ByPrices}: a figure whose data says
// nothing moves with prices.
type Class struct {
	Indexed Indexation
	// FrozenUntil: the figures stay fixed in money up to this tax year and
	// follow Indexed from the year after (0: no freeze).
	FrozenUntil int
	// Plus is real growth a year on top of the index: Sweden's skiktgräns
	// follows prices plus two percentage points (taken here as
	// (1+inflation)·(1+Plus)).
	Plus float64
	// Round is the step each change is rounded to, in money of the year
	// (the US brackets: down to a multiple of $50).
	Round Rounding
}

// MaxClasses bounds the classes of one system.
const MaxClasses = 8

// Path is the price history of one run of a plan, which a Scale is
// computed from.
type Path struct {
	// Start is the tax year of the run's first year; the incomes an
	// evaluation is given are in its money.
	Start int
	// Levels[i] is the price level in the run's year i against its first
	// (Levels[0] = 1), as prices stood when that year began. A year past
	// the end of Levels moves from the last at Inflation a year; a year
	// before the first counts 1.
	Levels    []float64
	Inflation float64
	// RealWages is the real growth of average earnings a year, for
	// figures indexed by wages (System.RealWageGrowth, or the plan's own).
	RealWages float64
}

// level is the price level of the run's year t.
func (p *Path) level(t int) float64 {
	if t <= 0 {
		return 1
	}
	n := len(p.Levels)
	if t < n {
		return p.Levels[t]
	}
	base, from := 1.0, 0
	if n > 0 {
		base, from = p.Levels[n-1], n-1
	}
	return base * math.Pow(1+p.Inflation, float64(t-from))
}

// Scale is what each class of a year's figures is worth in one calendar
// year of one path, in the path's money: a figure v of class c reads
// v·f[c], or, where a rounding step is in force, its nominal value v plus
// its change rounded, deflated: (v + round(v·(grow[c]−1)))·defl. The zero
// Scale reads every figure as stored.
type Scale struct {
	f     [MaxClasses]float64
	grow  [MaxClasses]float64 // nominal growth since the base year; 0: no step in force
	round [MaxClasses]Rounding
	defl  float64 // money of the year -> money of the path's first year
	moved bool    // some figure of the year reads other than stored
	mask  uint32  // bit c: class c's figures read other than stored
}

// Moved reports whether some figure reads other than as stored.
func (sc *Scale) Moved() bool { return sc != nil && sc.moved }

// Of is figure v of class c under the scale: what the walker and every
// evaluator read for a stored figure.
func (sc *Scale) Of(v float64, c uint8) float64 {
	if sc == nil || !sc.moved {
		return v
	}
	if g := sc.grow[c]; g != 0 {
		return (v + sc.round[c].apply(v*(g-1))) * sc.defl
	}
	return v * sc.f[c]
}

// Factor is class c's factor without rounding: v·Factor(c) is the figure
// when no step is in force.
func (sc *Scale) Factor(c uint8) float64 {
	if sc == nil || !sc.moved {
		return 1
	}
	if g := sc.grow[c]; g != 0 {
		return g * sc.defl
	}
	return sc.f[c]
}

// Scale fills sc for calendar (tax) year c of path p, y being At(c):
//
//   - a published year is in its own money: every figure is deflated by
//     the path's price level of year c;
//   - in a projected year (Base the newest published year B, and a class
//     frozen until X moving from B' = max(B, X)): a figure not indexed is
//     deflated like a published one; an indexed figure is fixed in money
//     up to B' and from there grows by prices (and its real growth: Plus,
//     or for wages the path's real wage growth), so in the path's money it
//     is worth (1+r)^(c−B') / level(B'). Its change since B' is rounded in
//     money of year c by the class's step.
//
// Years before the path's first count its price level, 1: figures of a
// published year before the plan starts are taken as today's money.
func (y *Year) Scale(c int, p *Path, sc *Scale) {
	*sc = Scale{}
	t := c - p.Start
	lc := p.level(t)
	sc.defl = 1 / lc
	classes := y.sys.classes
	for k := range classes {
		if y.classes&(1<<k) == 0 {
			continue
		}
		sc.f[k] = sc.defl
		cl := &classes[k]
		if !y.Projected || cl.Indexed == NotIndexed {
			continue
		}
		from := max(y.Base, cl.FrozenUntil)
		if c <= from {
			continue // fixed in money
		}
		r := cl.Plus
		if cl.Indexed == ByWages {
			r += p.RealWages
		}
		lb := p.level(from - p.Start)
		real := 1.0
		if r != 0 {
			real = math.Pow(1+r, float64(c-from))
		}
		sc.f[k] = real / lb
		if g := real * lc / lb; cl.Round.Mode != RoundNone && g != 1 {
			sc.grow[k] = g
			sc.round[k] = cl.Round
		}
	}
	for k := range classes {
		if y.classes&(1<<k) != 0 && (sc.f[k] != 1 || sc.grow[k] != 0) {
			sc.moved = true
			sc.mask |= 1 << k
		}
	}
}

// At is the year whose rules tax calendar (tax) year c: the published year
// c, or the latest published before it where a year is missing, or before
// the first the first; past the newest published year, the newest
// projected to c (Projected, Base the newest). It is nil only for a
// system without years.
func (s *System) At(c int) *Year {
	if len(s.years) == 0 {
		return nil
	}
	if c > s.Latest() {
		for i := len(s.projected) - 1; i > 0; i-- {
			if s.projected[i].Year <= c {
				return &s.projected[i]
			}
		}
		return &s.projected[0]
	}
	for i := len(s.years) - 1; i > 0; i-- {
		if s.years[i].Year <= c {
			return &s.years[i]
		}
	}
	return &s.years[0]
}

// Classes lists the system's classes of figures by index: what a figure's
// class number means.
func (s *System) Classes() []Class { return s.classes }

// RealWageGrowth is the real growth of average earnings a year the
// country's data assumes for figures indexed by wages (0 when none is).
func (s *System) RealWageGrowth() float64 { return s.realWages }

// System is the system the year belongs to.
func (y *Year) System() *System { return y.sys }

// Used reports whether some figure of the year is of class c.
func (y *Year) Used(c uint8) bool { return y.classes&(1<<c) != 0 }

// usedClasses is the set of classes the year's figures use; it sets each
// rule's own (of the year's rules and of every view's copies).
func (y *Year) usedClasses() uint32 {
	var m uint32
	for i := range y.Rules {
		m |= y.Rules[i].setClasses()
	}
	for k := range y.views {
		for i := range y.views[k].rules {
			y.views[k].rules[i].setClasses()
		}
	}
	return m
}

// setClasses sets and returns the set of classes the rule's figures use.
func (r *Rule) setClasses() uint32 {
	var m uint32
	add := func(c uint8) { m |= 1 << c }
	add(r.exemptCls)
	add(r.reliefCls)
	add(r.minTaxCls)
	for li := range r.Layers {
		l := &r.Layers[li]
		add(l.nilCls)
		add(l.exemptCls)
		for bi := range l.Bands {
			add(l.Bands[bi].cls)
		}
	}
	for _, as := range [2][]Adjust{r.Deductions, r.Credits} {
		for k := range as {
			a := &as[k]
			add(a.minCls)
			add(a.maxCls)
			add(a.gateCls)
			for _, sg := range a.Segments {
				add(sg.fromCls)
				add(sg.baseCls)
			}
		}
	}
	r.classes = m
	return m
}

// HasJointAt is HasJointIn for a year At returned.
func (s *System) HasJointAt(y *Year, region string) bool {
	v, ok := s.viewOf(y, region)
	return ok && v.joint
}

// WealthYearAt is the wealth-tax year that taxes calendar year c: c itself
// up to the newest published tax year (0 where c has no wealth-tax entry:
// no wealth tax is modelled for it), and past it the newest entry, whose
// thresholds move with prices.
func (s *System) WealthYearAt(c int) int {
	if len(s.wealth) == 0 {
		return 0
	}
	if c > s.Latest() {
		return s.wealth[len(s.wealth)-1].Year
	}
	if s.WealthYear(c) != nil {
		return c
	}
	return 0
}

// CoversFrom reports whether every year from calendar year c on models
// region: At(c), every published year after it, and so the projected
// years, which keep the newest published year's regions.
func (s *System) CoversFrom(c int, region string) bool {
	if len(s.years) == 0 {
		return false
	}
	if _, ok := s.viewOf(s.At(c), region); !ok {
		return false
	}
	for i := range s.years {
		if y := &s.years[i]; y.Year > c {
			if _, ok := s.viewOf(y, region); !ok {
				return false
			}
		}
	}
	return true
}

// YearsCovering lists the published tax years that model region.
func (s *System) YearsCovering(region string) []int {
	var out []int
	for i := range s.years {
		if _, ok := s.viewOf(&s.years[i], region); ok {
			out = append(out, s.years[i].Year)
		}
	}
	return out
}

// DefaultRegionMissing says, for a request without a region, that the
// country's default region (LocalTax.Region) is not modelled in tax year
// year (or in some year from it on), and which regions that year models.
func (s *System) DefaultRegionMissing(year int) string {
	def := s.LocalTax.Region
	var in []string
	for _, r := range s.Regions {
		if s.Covers(year, r.Code) {
			in = append(in, r.Code)
		}
	}
	modelled := "none"
	if len(in) > 0 {
		modelled = strings.Join(in, ", ")
	}
	covering := s.YearsCovering(def)
	years := make([]string, len(covering))
	for i, y := range covering {
		years[i] = strconv.Itoa(y)
	}
	return s.Country + "'s income tax has a local part: without a region it is taxed in " + def +
		", which " + strconv.Itoa(year) + " does not model (it does in " + strings.Join(years, ", ") +
		"); regions modelled in " + strconv.Itoa(year) + ": " + modelled
}

// NextChange is the first calendar year after c whose rules (At) may differ
// from c's: the next published year, or the start of the next projected
// year (the newest year's successor, then each sunset); 0 when none does.
func (s *System) NextChange(c int) int {
	for i := range s.years {
		if y := s.years[i].Year; y > c {
			return y
		}
	}
	for i := range s.projected {
		if y := s.projected[i].Year; y > c {
			return y
		}
	}
	return 0
}
