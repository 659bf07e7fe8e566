// Package tax is a data-driven personal income tax engine. A country's rules
// for each tax year are data (a System, decoded from JSON with Parse); one
// generic walker (Calculate) applies them to an Income. The package is pure:
// no I/O, no globals beyond constant tables.
//
// Model. A tax year is an ordered list of rules. Every rule is a schedule:
//
//   - layers: one or more income layers stacked on a shared axis, each with
//     its own base (weighted income parts and/or earlier rules' results) and
//     its own band table. A single layer is an ordinary progressive schedule;
//     several layers express "savings and dividends sit on top of other
//     income" (UK), "preferential rates on top of ordinary income" (US
//     qualified dividends) or "self-employment earnings share the wage
//     ceiling" (US FICA). A band is a marginal rate from a threshold, or a
//     statutory formula (a·y+b)·y+c with y=(x−y0)/div (German §32a EStG).
//   - deductions and allowances, applied before the bands (bottom layer
//     first, or one named layer), each an amount function: a piecewise
//     linear function of a measure, clamped, optionally tapered (UK personal
//     allowance), rounded (the Swedish grundavdrag, up to the hundred) or
//     capped at its own base;
//   - a nil-rate amount inside a layer (UK savings and dividend allowances),
//     that is charged at 0% but still uses band space;
//   - an exemption limit and a marginal relief (shade-in) on the result
//     (Solidaritätszuschlag, Australian Medicare levy);
//   - credits after the bands, non-refundable, optionally spilling their
//     unused part over to earlier rules (Dutch heffingskortingen against
//     premiums); an adjustment's amount may be reduced by another measure
//     (the Swedish jobbskatteavdrag: the municipal rate times a scale of
//     earned income less the basic deduction, which an earlier rule
//     computed and a measure reads as "rule#deducted");
//   - rounding of the taxable base and of the result;
//   - conditions: a rule, a layer, a deduction or a credit may apply only
//     to a single or a joint return, or only when a filer has reached an
//     age (When); an adjustment may count once per filer of an age
//     (PerPerson: the US additional standard deduction per spouse aged 65),
//     or only below an income limit that removes it whole (Gate: Ohio's
//     retirement income credit below a modified AGI).
//
// Time: a file lists its rules once, with what changes between years dated
// inside them (dated.go); a plan's later years are taxed under At(year), the
// newest published year projected with each figure's own indexation and
// each sunset, its figures read through a Scale of the path's prices
// (time.go).
//
// Every rule and every value block carries its sources; Parse rejects a rule
// without one.
package tax

import (
	"errors"
	"math"
	"slices"
	"strings"
)

// Sentinel errors.
var (
	// ErrYear: the system has no parameters for the requested tax year.
	ErrYear = errors.New("tax: tax year not supported")
	// ErrRegion: the region is not one the system knows.
	ErrRegion = errors.New("tax: region not supported")
	// ErrJoint: the tax year (in the region) has no rules for a joint
	// return; each person is taxed alone.
	ErrJoint = errors.New("tax: joint filing not modelled")
)

// Part is one kind of income.
type Part int

// Income parts, in the order of Income's fields.
const (
	Employment Part = iota
	SelfEmployment
	Pension
	Interest
	Dividends
	CapitalGains
	// SocialSecurity is the taxed part of a social security benefit (the
	// US: what IRC §86 includes); a rule taxes it only where its base
	// lists it, so a state that exempts the benefit leaves it out.
	SocialSecurity
	NumParts
)

var partNames = [NumParts]string{"employment", "selfEmployment", "pension", "interest", "dividends", "capitalGains", "socialSecurity"}

func (p Part) String() string {
	if p < 0 || p >= NumParts {
		return "invalid"
	}
	return partNames[p]
}

// partByName is the part named name, as String spells it.
func partByName(name string) (Part, bool) {
	for p := Part(0); p < NumParts; p++ {
		if partNames[p] == name {
			return p, true
		}
	}
	return 0, false
}

// Income is a person's yearly income by part, in the system's currency,
// and who the return is for. The zero filer fields are a single return of
// unknown age. On a joint return (Joint) the parts are the couple's
// combined income.
type Income struct {
	Employment     float64 // gross wages
	SelfEmployment float64 // net profit from self-employment
	Pension        float64 // pensions and annuities
	Interest       float64
	Dividends      float64
	CapitalGains   float64 // realised, net
	// SocialSecurity is the taxed part of social security benefits (US).
	SocialSecurity float64
	// Age is the taxpayer's age at the end of the tax year (the age
	// reached during it); 0 is unknown and counts as under every age
	// threshold.
	Age int
	// Joint: a joint return of a couple (US married filing jointly).
	Joint bool
	// PartnerAge is the partner's age at the end of the tax year on a
	// joint return (0 unknown); ignored on a single return.
	PartnerAge int
	// PartnerEmployment and PartnerSelfEmployment are the partner's share
	// of Employment and SelfEmployment on a joint return (counted in
	// those already), for the rules charged on each earner's own earnings
	// (a wage base per person, Rule.PerEarner). 0: the taxpayer earned it
	// all. Ignored on a single return.
	PartnerEmployment, PartnerSelfEmployment float64
}

func (in *Income) parts() [NumParts]float64 {
	return [NumParts]float64{in.Employment, in.SelfEmployment, in.Pension, in.Interest, in.Dividends, in.CapitalGains, in.SocialSecurity}
}

// Total is the sum of all parts.
func (in *Income) Total() float64 {
	return in.Employment + in.SelfEmployment + in.Pension + in.Interest + in.Dividends + in.CapitalGains + in.SocialSecurity
}

// Filing is the kind of return a condition asks for.
type Filing uint8

// Filing kinds.
const (
	AnyFiling Filing = iota // single or joint
	SingleFiling
	JointFiling
)

var filingNames = [...]string{"any", "single", "joint"}

func (f Filing) String() string {
	if int(f) >= len(filingNames) {
		return "invalid"
	}
	return filingNames[f]
}

// Condition says when a rule, a layer or an adjustment applies. The zero
// value always holds.
type Condition struct {
	Filing Filing
	// MinAge: some filer (on a joint return either spouse) is at least
	// this old at the end of the tax year (0: any age).
	MinAge int
	// MaxAge: some filer is at most this old at the end of the tax year
	// (0: any age); an unknown age (0) is within every MaxAge. With both,
	// one filer must be within both bounds.
	MaxAge int
}

// filer is who a return is for, as conditions read it.
type filer struct {
	joint bool
	age   [2]int // the taxpayer's and, on a joint return, the partner's
	// the partner's employment and self-employment on a joint return,
	// within the combined parts
	earned [2]float64
}

// filerOf reads who the return is for; parts are the cleaned income
// parts, which bound the partner's share.
func filerOf(in *Income, parts *[NumParts]float64) filer {
	f := filer{joint: in.Joint, age: [2]int{in.Age, 0}}
	if in.Joint {
		f.age[1] = in.PartnerAge
		f.earned[0] = clampPart(in.PartnerEmployment, parts[Employment])
		f.earned[1] = clampPart(in.PartnerSelfEmployment, parts[SelfEmployment])
	}
	return f
}

// clampPart is a partner's share v of a combined part: within [0, all],
// 0 when not a number.
func clampPart(v, all float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 0
	}
	return minf(v, all)
}

// count is the number of filers at least min years old (an unknown age,
// 0, is under every threshold; min 0 counts every filer).
func (f *filer) count(min int) int {
	n := 0
	if f.age[0] >= min {
		n++
	}
	if f.joint && f.age[1] >= min {
		n++
	}
	return n
}

func (f *filer) holds(c *Condition) bool {
	switch c.Filing {
	case SingleFiling:
		if f.joint {
			return false
		}
	case JointFiling:
		if !f.joint {
			return false
		}
	}
	if c.MaxAge == 0 {
		return c.MinAge == 0 || f.count(c.MinAge) > 0
	}
	return f.within(c.MinAge, c.MaxAge) > 0
}

// within is the number of filers whose age is from min to max, both
// included (an unknown age, 0, is within any max and below any min above 0).
func (f *filer) within(min, max int) int {
	n := 0
	for i, a := range f.age {
		if (i == 0 || f.joint) && a >= min && a <= max {
			n++
		}
	}
	return n
}

// Category says which result field a rule's amount goes to.
type Category uint8

// Categories.
const (
	IncomeTax Category = iota // national income tax
	Social                    // employee social insurance and earner levies
	Capital                   // capital income taxed apart from other income
	Regional                  // sub-national tax (only with a region)
	numCategories
)

var categoryNames = [numCategories]string{"income", "social", "capital", "regional"}

func (c Category) String() string {
	if c >= numCategories {
		return "invalid"
	}
	return categoryNames[c]
}

// Kind says what a breakdown line is.
type Kind uint8

// Line kinds.
const (
	KindBand      Kind = iota // one band (bracket) of a schedule
	KindDeduction             // allowance or deduction from the base
	KindNilRate               // an allowance charged at 0% inside a band
	KindRelief                // exemption limit or marginal relief
	KindCredit                // credit against the tax
	KindTotal                 // a rule's total
	KindProgram               // an effect of a special regime (ApplyRegime)
)

var kindNames = [...]string{"band", "deduction", "nilRate", "relief", "credit", "total", "program"}

func (k Kind) String() string {
	if int(k) >= len(kindNames) {
		return "invalid"
	}
	return kindNames[k]
}

// Document is an official publication parameters come from.
type Document struct {
	Publisher string `json:"publisher"`
	Title     string `json:"title"`
	URL       string `json:"url,omitempty"`
	// AsOf is the date (YYYY-MM-DD) of the version whose figures are used:
	// its publication, or its last amendment when that is what was read.
	AsOf string `json:"asOf,omitempty"`
}

// Source points into a Document.
type Source struct {
	Doc     string `json:"doc"`
	Section string `json:"sec"`
}

// Limits of the fixed-size evaluation state.
const (
	MaxRules     = 32  // rules that apply in one region (or with none) in a tax year
	MaxYearRules = 512 // rules of a tax year, over all regions
	MaxLayers    = 4   // layers per rule
	MaxLines     = 128 // breakdown lines per Result
)

// System is one country's tax parameters for all covered years.
type System struct {
	Country      string              // ISO 3166-1 alpha-2, upper case
	Name         string              // country name
	Currency     string              // ISO 4217
	Regions      []Region            // known regions (may be empty)
	Documents    map[string]Document // cited documents by key
	Notes        []string            // modelling notes
	NotModelled  []string            // what the calculator leaves out
	MarginalStep float64             // income step for the marginal rate
	LocalTax     LocalTax            // how sub-national income tax enters comparisons
	// Withdrawal is how a withdrawal from a taxable investment portfolio
	// is taxed unless a plan says otherwise: Pension unless the data says
	// (portfolioWithdrawal), as when such a sale is taxed on its gain.
	Withdrawal Withdrawal
	ageRules   bool   // some rule, layer or adjustment depends on age
	years      []Year // sorted by Year
	// projected holds the years past the newest published one, each from
	// the first calendar year it taxes (a sunset starts the next); the
	// first is the newest published year plus one
	projected []Year
	classes   []Class // the classes of the figures, by number; 0 is ByPrices
	realWages float64 // real growth of average earnings a year, for ByWages
	wealth    []WealthYear
}

// Withdrawal is a country's default treatment of portfolio withdrawals.
type Withdrawal struct {
	Part    Part   // the income part a withdrawal is taxed as
	Note    string // why, in a sentence ("" for the Pension default)
	Sources []Source
}

// LocalTax says how a comparison across countries treats the country's
// sub-national income tax, which the calculator adds only for a named
// region.
type LocalTax struct {
	// Region is the region a comparison taxes the income in, standing for
	// the country ("" = none: national tax only).
	Region string `json:"region"`
	// Note says in a sentence what the comparison's total counts and leaves
	// out of sub-national income tax.
	Note string `json:"note"`
}

// Region is a sub-national unit the system knows.
type Region struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Year is one tax year's rules.
type Year struct {
	// Year is the tax year; for a projected year, the first calendar year
	// it taxes.
	Year  int
	Rules []Rule // every rule, whatever region it applies in
	Notes []string
	// Base is the published tax year whose figures the year holds (Year
	// itself unless Projected).
	Base int
	// Projected: a year past the newest published one, its rules those of
	// Base as they stand in Year (see At and Scale).
	Projected bool
	sys       *System
	classes   uint32 // bit c: some figure of the year is of class c
	// views[0] holds the rules that apply with no region, views[1+k] those
	// that apply in the system's Regions[k]
	views []view
}

// view is the rules of a year that apply in one region, in order, with
// their references to earlier rules renumbered to positions in the view.
// A reference to a rule that does not apply there reads 0 in the full
// list, so the view drops it.
type view struct {
	rules   []Rule
	covered bool // the year's figures cover the region
	// joint: the view's rules model a joint return: the year conditions
	// something on joint filing, and every rule of the region's own says
	// which filing it applies to
	joint bool
	// fast holds the view compiled for each kind of return (compiled.go)
	fast *fastView
}

// view is the view for the region at index k of the system's Regions (-1:
// no region).
func (y *Year) view(k int) *view { return &y.views[k+1] }

// Years lists the covered tax years, ascending.
func (s *System) Years() []int {
	out := make([]int, len(s.years))
	for i := range s.years {
		out[i] = s.years[i].Year
	}
	return out
}

// Year returns one tax year's parameters.
func (s *System) Year(year int) (*Year, error) {
	for i := range s.years {
		if s.years[i].Year == year {
			return &s.years[i], nil
		}
	}
	return nil, ErrYear
}

// HasJoint reports whether the tax year has rules for a joint return (with
// no region). Without them a couple is taxed as two single persons, each
// on their own income, which is the caller's to do: Calculate answers
// ErrJoint for a joint return there.
func (s *System) HasJoint(year int) bool {
	y, err := s.Year(year)
	return err == nil && y.view(-1).joint
}

// HasJointIn is HasJoint in a region ("" for none): false also where the
// region's own rules do not say how they tax a joint return.
func (s *System) HasJointIn(year int, region string) bool {
	y, err := s.Year(year)
	if err != nil {
		return false
	}
	v, ok := s.viewOf(y, region)
	return ok && v.joint
}

// Latest is the last covered tax year.
func (s *System) Latest() int {
	if len(s.years) == 0 {
		return 0
	}
	return s.years[len(s.years)-1].Year
}

// HasRegion reports whether code (case-insensitive) is a known region; the
// empty code is always valid.
func (s *System) HasRegion(code string) bool {
	return code == "" || s.regionIndex(code) >= 0
}

// regionIndex is the position of code (case-insensitive) in Regions, or -1.
func (s *System) regionIndex(code string) int {
	for i := range s.Regions {
		if strings.EqualFold(s.Regions[i].Code, code) {
			return i
		}
	}
	return -1
}

// Basis is what an unweighted measure refers to inside its rule.
type Basis uint8

// Bases.
const (
	OnNone    Basis = iota // only parts and refs
	OnGross                // the rule's base before deductions
	OnTaxable              // the rule's base after deductions
	OnTax                  // the rule's amount before credits
)

// Measure is a weighted sum of income parts, earlier rules' results and
// (optionally) the rule's own gross, taxable base or tax.
type Measure struct {
	On    Basis
	Parts [NumParts]float64
	Refs  []Ref
	// the non-zero parts, packed for the hot loop
	nparts  uint8
	idx     [NumParts]uint8
	weights [NumParts]float64
}

func (m *Measure) pack() {
	m.nparts = 0
	for p, w := range m.Parts {
		if w != 0 {
			m.idx[m.nparts] = uint8(p)
			m.weights[m.nparts] = w
			m.nparts++
		}
	}
}

// What a Ref reads.
const (
	RefAmount   = 0 // the rule's (or layer's) amount
	RefTaxable  = 1 // the rule's taxable base
	RefGross    = 2 // the rule's gross base
	RefDeducted = 3 // the deductions taken off the rule's base, before rounding
)

// Ref reads a result of an earlier rule.
type Ref struct {
	Rule   int // index into Year.Rules
	Layer  int // -1 for the whole rule
	What   int // RefAmount, RefTaxable, RefGross, RefDeducted
	Weight float64
}

// Band is one bracket. Either a marginal Rate applies from From, or, with
// Formula set, the cumulative tax at x is the statutory formula.
type Band struct {
	From    float64
	Rate    float64
	Label   string
	Formula *Formula
	// cls is the class of From and of the formula's amounts (see Scale)
	cls uint8
}

// Formula is the cumulative tax (A·y+B)·y+C with y=(x−Y0)/Div.
type Formula struct {
	Y0, Div, A, B, C float64
}

func (f *Formula) at(x float64) float64 {
	y := (x - f.Y0) / f.Div
	return (f.A*y+f.B)*y + f.C
}

// Bucket replaces a layer's top by the midpoint of its Width-wide bucket
// when the top lies in [From, To) (the US tax table).
type Bucket struct {
	From, To, Width float64
}

// Layer is one stacked slice of a rule's base.
type Layer struct {
	When     Condition // the layer's base is 0 unless it holds
	ID       string
	Label    string
	Base     Measure
	Bands    []Band
	NilRate  []float64 // one amount, or one per band (by the band of the total top)
	NilLabel string
	Buckets  []Bucket
	Exempt   float64 // layer taken as 0 when its gross base is at most this
	// the classes of NilRate's amounts and of Exempt
	nilCls, exemptCls uint8
}

// Segment is one piece of a piecewise linear function: Base+Rate·(x−From)
// for x from From up to the next segment.
type Segment struct {
	From, Base, Rate float64
	// the classes of From and Base
	fromCls, baseCls uint8
}

// Adjust is a deduction (before the bands) or a credit (after them).
type Adjust struct {
	When      Condition // the adjustment is skipped unless it holds
	Label     string
	Of        Measure   // the input x
	Segments  []Segment // f(x); a single {0, amount, 0} is a fixed amount
	Min       float64   // lower clamp (applied first)
	Max       float64   // upper clamp, when HasMax
	HasMax    bool
	MaxLess   *Measure // the upper clamp is reduced by this measure
	Less      *Measure // the amount f(x) is reduced by this measure, before the clamps
	Round     Rounding // the amount is rounded after the clamps (not in exact runs)
	CapAtBase bool     // never more than x itself
	Layer     int      // deductions: layer index, or -1 for bottom-up
	Spill     []int    // credits: earlier rules absorbing the unused part
	// PerPerson: the amount (after the clamps) counts once per filer at
	// least PerMinAge old, 0, 1 or 2 times
	PerPerson bool
	PerMinAge int
	// Pooled (with PerPerson): the segments' amounts count once per
	// filer counted and their rates once, on the return's measure, before
	// the clamps: a couple's phase-out is taken once from the sum of the
	// spouses' amounts (Virginia's age deduction, $12,000 for each spouse
	// of 65 reduced by the couple's income over $75,000, §58.1-322.03(5))
	Pooled bool
	// Gate: the adjustment applies only while this measure is below
	// GateBelow (an income limit that removes a credit whole: Ohio's
	// retirement income credit, a step of retirement income, is allowed
	// below a modified AGI); nil, always
	Gate      *Measure
	GateBelow float64
	Sources   []Source
	// the classes of Min, Max and GateBelow
	minCls, maxCls, gateCls uint8
}

// Rounding rounds a value to a multiple of Unit.
type Rounding struct {
	Mode Round
	Unit float64
}

// Round is a rounding mode.
type Round uint8

// Rounding modes.
const (
	RoundNone Round = iota
	RoundFloor
	RoundCeil
	RoundNearest // halves away from zero
)

func (r Rounding) apply(v float64) float64 {
	if r.Mode == RoundNone || r.Unit <= 0 {
		return v
	}
	q := v / r.Unit
	// absorb binary noise such as 1234.9999999
	const eps = 1e-9
	switch r.Mode {
	case RoundFloor:
		q = math.Floor(q + eps)
	case RoundCeil:
		q = math.Ceil(q - eps)
	case RoundNearest:
		q = math.Floor(q + 0.5 + eps)
	}
	return q * r.Unit
}

// Rule is one schedule: a tax, contribution or levy.
type Rule struct {
	When Condition // the rule charges nothing unless it holds
	// PerEarner: on a joint return the rule is charged on each spouse's
	// own employment and self-employment apart, and the two add (a
	// social security wage base per person): once on the partner's
	// earnings alone, once on all the rest of the income
	PerEarner     bool
	ID            string
	Label         string
	Category      Category
	Regions       []string // applies only in these regions
	ExceptRegions []string // does not apply in these regions
	Layers        []Layer
	Deductions    []Adjust
	Credits       []Adjust
	Exempt        float64 // no tax when the taxable base is at most this
	ReliefAbove   float64 // marginal relief: amount ≤ ReliefRate·(base−ReliefAbove)
	ReliefRate    float64
	HasRelief     bool
	RoundBase     Rounding
	RoundTax      Rounding
	MinTax        float64 // a final amount below this is not collected
	Sources       []Source
	maxRate       float64 // highest marginal rate the rule can reach, for checks
	// reads is the set of parts (bit p for part p) its layers' bases weigh;
	// idleable: those bases read nothing else and no credit spills, so
	// when every part it reads is 0 the rule charges 0 and changes nothing
	reads    uint8
	idleable bool
	// the classes of Exempt, ReliefAbove and MinTax
	exemptCls, reliefCls, minTaxCls uint8
	// classes: bit c, some figure of the rule is of class c (a scale that
	// moves none of them leaves the rule's figures as stored)
	classes uint32
}

// MaxMarginal is an upper bound on the marginal rate of the year's total tax
// in a region ("" for none) implied by its statutory rates, tapers and
// phase-outs.
func (s *System) MaxMarginal(y *Year, region string) float64 {
	var by byFiling
	for i, rules := 0, s.rulesIn(y, region); i < len(rules); i++ {
		by.add(&rules[i], rules[i].maxRate)
	}
	return by.max()
}

// byFiling sums a bound over rules: a rule for single returns and one for
// joint returns never apply together, so the bound is what every return
// has plus the larger of the two.
type byFiling [3]float64

func (b *byFiling) add(r *Rule, v float64) { b[r.When.Filing] += v }

func (b *byFiling) max() float64 { return b[AnyFiling] + math.Max(b[SingleFiling], b[JointFiling]) }

// rulesIn is the year's rules that apply in region (nil for an unknown
// region).
func (s *System) rulesIn(y *Year, region string) []Rule {
	if v, ok := s.viewOf(y, region); ok {
		return v.rules
	}
	return nil
}

// viewOf is the year's view for region ("" for none); false when the
// region is unknown or the year does not model it.
func (s *System) viewOf(y *Year, region string) (*view, bool) {
	k := -1
	if region != "" {
		if k = s.regionIndex(region); k < 0 {
			return nil, false
		}
	}
	v := y.view(k)
	return v, v.covered
}

// viewFor is viewOf for the income's return: ErrRegion when the region is
// unknown or not modelled, ErrJoint for a joint return the view does not
// model.
func (s *System) viewFor(y *Year, region string, in *Income) (*view, error) {
	v, _, err := s.viewAt(y, region, in)
	return v, err
}

// viewAt is viewFor with the region's index in Regions (-1 for none).
func (s *System) viewAt(y *Year, region string, in *Income) (*view, int, error) {
	k := -1
	if region != "" {
		if k = s.regionIndex(region); k < 0 {
			return nil, 0, ErrRegion
		}
	}
	v := y.view(k)
	if !v.covered {
		return nil, 0, ErrRegion
	}
	if in.Joint && !v.joint {
		return nil, 0, ErrJoint
	}
	return v, k, nil
}

// LocalRegion is the region a comparison taxes the income in for the tax
// year: LocalTax.Region where the year models it, else "" (national tax
// only).
func (s *System) LocalRegion(year int) string {
	if s.LocalTax.Region != "" && s.Covers(year, s.LocalTax.Region) {
		return s.LocalTax.Region
	}
	return ""
}

// Covers reports whether the tax year models region ("" always, for a
// covered year): a country may model its regions for some years only.
// Calculate answers ErrRegion for a region the year does not cover.
func (s *System) Covers(year int, region string) bool {
	y, err := s.Year(year)
	if err != nil {
		return false
	}
	_, ok := s.viewOf(y, region)
	return ok
}

// MaxJump bounds the step in the year's total tax in a region at a notch: where an
// exemption limit (rule or layer) or a minimum amount switches a whole
// charge on at once, or a nil-rate amount steps down at a band (the UK
// personal savings allowance). A marginal rate measured over a step of income may
// exceed MaxMarginal by up to MaxJump divided by the step.
func (s *System) MaxJump(y *Year, region string) float64 {
	var by byFiling
	rules := s.rulesIn(y, region)
	for i := range rules {
		r := &rules[i]
		j := r.maxRate*r.Exempt + r.MinTax
		for k := range r.Deductions {
			j += r.maxRate * r.Deductions[k].cliff()
		}
		for k := range r.Credits {
			j += r.Credits[k].cliff()
		}
		for _, l := range r.Layers {
			j += r.maxRate * l.Exempt
			if len(l.NilRate) > 1 { // a nil-rate amount that shrinks as the top rises
				j += r.maxRate * (slices.Max(l.NilRate) - slices.Min(l.NilRate))
			}
		}
		by.add(r, j*r.earners())
	}
	return by.max()
}

// RoundingSlack bounds how much rounding of taxable bases and amounts can
// lower the year's total tax in a region when income rises: a base rounded to a unit
// moves its tax by up to the rule's top rate times the unit.
func (s *System) RoundingSlack(y *Year, region string) float64 {
	var by byFiling
	rules := s.rulesIn(y, region)
	for i := range rules {
		r := &rules[i]
		sl := r.maxRate*r.RoundBase.Unit + r.RoundTax.Unit
		for k := range r.Deductions {
			sl += r.maxRate * r.Deductions[k].Round.Unit
		}
		for k := range r.Credits {
			sl += r.Credits[k].Round.Unit
		}
		by.add(r, sl*r.earners())
	}
	return by.max()
}

// earners is how many times the rule can be charged on one return: twice
// when it is charged per earner, else once.
func (r *Rule) earners() float64 {
	if r.PerEarner {
		return 2
	}
	return 1
}

func (r *Rule) appliesIn(region string) bool {
	if r.Category == Regional && region == "" {
		return false // sub-national tax only for a named region
	}
	if len(r.Regions) > 0 {
		ok := false
		for _, c := range r.Regions {
			if strings.EqualFold(c, region) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, c := range r.ExceptRegions {
		if strings.EqualFold(c, region) {
			return false
		}
	}
	return true
}
