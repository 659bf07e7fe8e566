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
//   - rounding of the taxable base and of the result.
//
// Every rule and every value block carries its sources; Parse rejects a rule
// without one.
package tax

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Sentinel errors.
var (
	// ErrYear: the system has no parameters for the requested tax year.
	ErrYear = errors.New("tax: tax year not supported")
	// ErrRegion: the region is not one the system knows.
	ErrRegion = errors.New("tax: region not supported")
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
	NumParts
)

var partNames = [NumParts]string{"employment", "selfEmployment", "pension", "interest", "dividends", "capitalGains"}

func (p Part) String() string {
	if p < 0 || p >= NumParts {
		return "invalid"
	}
	return partNames[p]
}

// Income is a person's yearly income by part, in the system's currency.
type Income struct {
	Employment     float64 // gross wages
	SelfEmployment float64 // net profit from self-employment
	Pension        float64 // pensions and annuities
	Interest       float64
	Dividends      float64
	CapitalGains   float64 // realised, net
}

func (in *Income) parts() [NumParts]float64 {
	return [NumParts]float64{in.Employment, in.SelfEmployment, in.Pension, in.Interest, in.Dividends, in.CapitalGains}
}

// Total is the sum of all parts.
func (in *Income) Total() float64 {
	return in.Employment + in.SelfEmployment + in.Pension + in.Interest + in.Dividends + in.CapitalGains
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
	years        []Year              // sorted by Year
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
	Year  int
	Rules []Rule // every rule, whatever region it applies in
	Notes []string
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
	ID       string
	Label    string
	Base     Measure
	Bands    []Band
	NilRate  []float64 // one amount, or one per band (by the band of the total top)
	NilLabel string
	Buckets  []Bucket
	Exempt   float64 // layer taken as 0 when its gross base is at most this
}

// Segment is one piece of a piecewise linear function: Base+Rate·(x−From)
// for x from From up to the next segment.
type Segment struct {
	From, Base, Rate float64
}

// Adjust is a deduction (before the bands) or a credit (after them).
type Adjust struct {
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
	Sources   []Source
}

// eval is the adjustment's function at x, before the clamps.
func (a *Adjust) eval(x float64) float64 {
	for i := len(a.Segments) - 1; i >= 0; i-- {
		sg := &a.Segments[i]
		if x >= sg.From || i == 0 {
			return sg.Base + sg.Rate*(x-sg.From)
		}
	}
	return 0
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
}

// MaxMarginal is an upper bound on the marginal rate of the year's total tax
// in a region ("" for none) implied by its statutory rates, tapers and
// phase-outs.
func (s *System) MaxMarginal(y *Year, region string) float64 {
	total := 0.0
	for _, r := range s.rulesIn(y, region) {
		total += r.maxRate
	}
	return total
}

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
	j := 0.0
	rules := s.rulesIn(y, region)
	for i := range rules {
		r := &rules[i]
		j += r.maxRate*r.Exempt + r.MinTax
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
	}
	return j
}

// RoundingSlack bounds how much rounding of taxable bases and amounts can
// lower the year's total tax in a region when income rises: a base rounded to a unit
// moves its tax by up to the rule's top rate times the unit.
func (s *System) RoundingSlack(y *Year, region string) float64 {
	sl := 0.0
	rules := s.rulesIn(y, region)
	for i := range rules {
		r := &rules[i]
		sl += r.maxRate*r.RoundBase.Unit + r.RoundTax.Unit
		for k := range r.Deductions {
			sl += r.maxRate * r.Deductions[k].Round.Unit
		}
		for k := range r.Credits {
			sl += r.Credits[k].Round.Unit
		}
	}
	return sl
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

// ---- decoding ----

type jSystem struct {
	Country      string              `json:"country"`
	Name         string              `json:"name"`
	Currency     string              `json:"currency"`
	Regions      []Region            `json:"regions"`
	Documents    map[string]Document `json:"documents"`
	Notes        []string            `json:"notes"`
	NotModelled  []string            `json:"notModelled"`
	MarginalStep float64             `json:"marginalStep"`
	LocalTax     *LocalTax           `json:"localTax"`
	Years        []jYear             `json:"years"`
}

type jYear struct {
	Year  int      `json:"year"`
	Notes []string `json:"notes"`
	// Regions lists the regions whose sub-national rules the year models;
	// absent, all of the country's regions.
	Regions *[]string `json:"regions"`
	Rules   []jRule   `json:"rules"`
}

type jRule struct {
	ID            string    `json:"id"`
	Label         string    `json:"label"`
	Category      string    `json:"category"`
	Src           []Source  `json:"src"`
	Regions       []string  `json:"regions"`
	ExceptRegions []string  `json:"exceptRegions"`
	Layers        []jLayer  `json:"layers"`
	Deductions    []jAdjust `json:"deductions"`
	Credits       []jAdjust `json:"credits"`
	Exempt        float64   `json:"exemptUpTo"`
	MinTax        float64   `json:"minTax"`
	Relief        *struct {
		Above float64 `json:"above"`
		Rate  float64 `json:"rate"`
	} `json:"relief"`
	Round *struct {
		Base *jRound `json:"base"`
		Tax  *jRound `json:"tax"`
	} `json:"round"`
	Note string `json:"note"`
}

type jRound struct {
	Mode string  `json:"mode"`
	Unit float64 `json:"unit"`
}

type jMeasure struct {
	On    string             `json:"on"`
	Parts map[string]float64 `json:"parts"`
	Refs  map[string]float64 `json:"refs"`
}

type jLayer struct {
	ID       string    `json:"id"`
	Label    string    `json:"label"`
	Base     jMeasure  `json:"base"`
	Bands    []jBand   `json:"bands"`
	NilRate  []float64 `json:"nilRate"`
	NilLabel string    `json:"nilRateLabel"`
	Buckets  []Bucket  `json:"buckets"`
	Exempt   float64   `json:"exemptUpTo"`
}

type jBand struct {
	From    float64  `json:"from"`
	Rate    float64  `json:"rate"`
	Label   string   `json:"label"`
	Formula *Formula `json:"formula"`
}

func (b *Bucket) UnmarshalJSON(p []byte) error {
	var v struct {
		From  float64 `json:"from"`
		To    float64 `json:"to"`
		Width float64 `json:"width"`
	}
	if err := strictUnmarshal(p, &v); err != nil {
		return err
	}
	*b = Bucket{v.From, v.To, v.Width}
	return nil
}

func (f *Formula) UnmarshalJSON(p []byte) error {
	var v struct {
		Y0  float64 `json:"y0"`
		Div float64 `json:"div"`
		A   float64 `json:"a"`
		B   float64 `json:"b"`
		C   float64 `json:"c"`
	}
	if err := strictUnmarshal(p, &v); err != nil {
		return err
	}
	*f = Formula{v.Y0, v.Div, v.A, v.B, v.C}
	return nil
}

type jAdjust struct {
	Label     string      `json:"label"`
	Src       []Source    `json:"src"`
	Of        jMeasure    `json:"of"`
	Amount    *float64    `json:"amount"`
	Rate      float64     `json:"rate"`
	Segments  [][]float64 `json:"segments"`
	Min       float64     `json:"min"`
	Max       *float64    `json:"max"`
	MaxLess   *jMeasure   `json:"maxLess"`
	Less      *jMeasure   `json:"less"`
	Round     *jRound     `json:"round"`
	CapAtBase bool        `json:"capAtBase"`
	Layer     string      `json:"layer"`
	Spill     []string    `json:"spillTo"`
	Note      string      `json:"note"`
}

func strictUnmarshal(p []byte, v any) error {
	d := json.NewDecoder(strings.NewReader(string(p)))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// Parse decodes and validates one country file.
func Parse(b []byte) (*System, error) {
	var j jSystem
	if err := strictUnmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("tax: decode: %w", err)
	}
	if len(j.Country) != 2 || strings.ToUpper(j.Country) != j.Country {
		return nil, fmt.Errorf("tax: country %q is not an upper-case ISO alpha-2 code", j.Country)
	}
	if len(j.Currency) != 3 {
		return nil, fmt.Errorf("tax: %s: currency %q is not an ISO 4217 code", j.Country, j.Currency)
	}
	s := &System{
		Country: j.Country, Name: j.Name, Currency: j.Currency, Regions: j.Regions,
		Documents: j.Documents, Notes: j.Notes, NotModelled: j.NotModelled,
		MarginalStep: j.MarginalStep,
	}
	if s.MarginalStep <= 0 {
		s.MarginalStep = 100
	}
	if lt := j.LocalTax; lt != nil {
		if lt.Note == "" {
			return nil, fmt.Errorf("tax: %s: localTax has no note", j.Country)
		}
		s.LocalTax = LocalTax{Note: lt.Note}
		if lt.Region != "" {
			i := s.regionIndex(lt.Region)
			if i < 0 {
				return nil, fmt.Errorf("tax: %s: localTax region %q is not one of the country's regions", j.Country, lt.Region)
			}
			s.LocalTax.Region = s.Regions[i].Code // as the regions list spells it
		}
	}
	if len(j.Years) == 0 {
		return nil, fmt.Errorf("tax: %s: no years", j.Country)
	}
	for _, jy := range j.Years {
		y, err := s.compileYear(&jy)
		if err != nil {
			return nil, fmt.Errorf("tax: %s %d: %w", j.Country, jy.Year, err)
		}
		s.years = append(s.years, *y)
	}
	sort.Slice(s.years, func(a, b int) bool { return s.years[a].Year < s.years[b].Year })
	for i := 1; i < len(s.years); i++ {
		if s.years[i].Year == s.years[i-1].Year {
			return nil, fmt.Errorf("tax: %s: year %d twice", j.Country, s.years[i].Year)
		}
	}
	return s, nil
}

func (s *System) checkSources(src []Source, what string) error {
	if len(src) == 0 {
		return fmt.Errorf("%s: no source", what)
	}
	for _, x := range src {
		if _, ok := s.Documents[x.Doc]; !ok {
			return fmt.Errorf("%s: unknown document %q", what, x.Doc)
		}
		if x.Section == "" {
			return fmt.Errorf("%s: source %q without section", what, x.Doc)
		}
	}
	return nil
}

func (s *System) compileYear(jy *jYear) (*Year, error) {
	if jy.Year < 1900 || jy.Year > 2200 {
		return nil, fmt.Errorf("bad year")
	}
	if len(jy.Rules) == 0 || len(jy.Rules) > MaxYearRules {
		return nil, fmt.Errorf("%d rules (1..%d)", len(jy.Rules), MaxYearRules)
	}
	y := &Year{Year: jy.Year, Notes: jy.Notes, Rules: make([]Rule, len(jy.Rules))}
	for i := range jy.Rules {
		if err := s.compileRule(y, i, &jy.Rules[i]); err != nil {
			return nil, err
		}
	}
	y.views = make([]view, 1+len(s.Regions))
	for k := -1; k < len(s.Regions); k++ {
		region := ""
		if k >= 0 {
			region = s.Regions[k].Code
		}
		v, err := y.viewIn(region)
		if err != nil {
			return nil, err
		}
		v.covered = k < 0 || jy.Regions == nil
		y.views[k+1] = v
	}
	if jy.Regions != nil {
		for _, code := range *jy.Regions {
			k := s.regionIndex(code)
			if k < 0 {
				return nil, fmt.Errorf("covered region %q not declared", code)
			}
			y.views[k+1].covered = true
		}
		for k := range s.Regions {
			v := &y.views[k+1]
			if !v.covered && len(v.rules) != len(y.views[0].rules) {
				return nil, fmt.Errorf("region %s has rules but is not among the year's regions", s.Regions[k].Code)
			}
		}
	}
	return y, nil
}

// viewIn selects the rules that apply in region and renumbers their
// references and spills to positions among them.
func (y *Year) viewIn(region string) (view, error) {
	pos := make([]int, len(y.Rules)) // position in the view, or -1
	var v view
	for i := range y.Rules {
		pos[i] = -1
		if y.Rules[i].appliesIn(region) {
			pos[i] = len(v.rules)
			v.rules = append(v.rules, y.Rules[i].renumbered(pos))
		}
	}
	if len(v.rules) > MaxRules {
		where := "with no region"
		if region != "" {
			where = "in region " + region
		}
		return v, fmt.Errorf("%d rules apply %s (at most %d)", len(v.rules), where, MaxRules)
	}
	return v, nil
}

// renumbered is a copy of r whose references and spills point to pos[i]
// instead of rule i, without those whose pos is -1.
func (r Rule) renumbered(pos []int) Rule {
	r.Layers = slices.Clone(r.Layers)
	for li := range r.Layers {
		r.Layers[li].Base.renumber(pos)
	}
	r.Deductions = renumberAdjusts(r.Deductions, pos)
	r.Credits = renumberAdjusts(r.Credits, pos)
	return r
}

func renumberAdjusts(as []Adjust, pos []int) []Adjust {
	as = slices.Clone(as)
	for k := range as {
		a := &as[k]
		a.Of.renumber(pos)
		if a.MaxLess != nil {
			ml := *a.MaxLess
			ml.renumber(pos)
			a.MaxLess = &ml
		}
		if a.Less != nil {
			l := *a.Less
			l.renumber(pos)
			a.Less = &l
		}
		var spill []int
		for _, sp := range a.Spill {
			if pos[sp] >= 0 {
				spill = append(spill, pos[sp])
			}
		}
		a.Spill = spill
	}
	return as
}

func (m *Measure) renumber(pos []int) {
	var refs []Ref
	for _, rf := range m.Refs {
		if pos[rf.Rule] >= 0 {
			rf.Rule = pos[rf.Rule]
			refs = append(refs, rf)
		}
	}
	m.Refs = refs
}

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
	r := &y.Rules[i]
	*r = Rule{ID: jr.ID, Label: jr.Label, Category: cat, Regions: jr.Regions,
		ExceptRegions: jr.ExceptRegions, Exempt: jr.Exempt, MinTax: jr.MinTax, Sources: jr.Src}
	if jr.Relief != nil {
		r.HasRelief, r.ReliefAbove, r.ReliefRate = true, jr.Relief.Above, jr.Relief.Rate
	}
	if jr.Round != nil {
		var err error
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
		l, mb, err := compileLayer(y, i, &jr.Layers[li], fmt.Sprintf("%s layer %d", what, li))
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
	return nil
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
func compileLayer(y *Year, self int, jl *jLayer, what string) (Layer, float64, error) {
	l := Layer{ID: jl.ID, Label: jl.Label, NilRate: jl.NilRate, NilLabel: jl.NilLabel, Buckets: jl.Buckets, Exempt: jl.Exempt}
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
		if bi == 0 && jb.From != 0 {
			return l, 0, fmt.Errorf("%s: first band must start at 0", what)
		}
		if bi > 0 && jb.From <= jl.Bands[bi-1].From {
			return l, 0, fmt.Errorf("%s: bands not ascending", what)
		}
		b := Band(jb)
		hi := b.From * 4
		if bi+1 < len(jl.Bands) {
			hi = jl.Bands[bi+1].From
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
	return l, maxBand, nil
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
	return c
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
	return m*w + a.Less.weight()
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
	a := Adjust{Label: j.Label, Of: m, Min: j.Min, CapAtBase: j.CapAtBase, Layer: -1, Sources: j.Src}
	if a.Segments, err = compileSegments(j); err != nil {
		return a, fmt.Errorf("%s: %w", what, err)
	}
	if j.Max != nil {
		a.HasMax, a.Max = true, *j.Max
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
func compileSegments(j *jAdjust) ([]Segment, error) {
	if len(j.Segments) == 0 {
		amt := 0.0
		if j.Amount != nil {
			amt = *j.Amount
		}
		return []Segment{{0, amt, j.Rate}}, nil
	}
	if j.Amount != nil || j.Rate != 0 {
		return nil, fmt.Errorf("segments exclude amount/rate")
	}
	out := make([]Segment, 0, len(j.Segments))
	for k, sg := range j.Segments {
		if len(sg) != 3 {
			return nil, fmt.Errorf("a segment is [from, value, rate]")
		}
		if k > 0 && sg[0] <= j.Segments[k-1][0] {
			return nil, fmt.Errorf("segments not ascending")
		}
		out = append(out, Segment{sg[0], sg[1], sg[2]})
	}
	return out, nil
}
