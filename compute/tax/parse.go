package tax

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

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
	// PortfolioWithdrawal is the default treatment of a withdrawal from a
	// taxable portfolio; absent, pension.
	PortfolioWithdrawal *struct {
		Income string   `json:"income"`
		Note   string   `json:"note"`
		Src    []Source `json:"src"`
	} `json:"portfolioWithdrawal"`
	// Uprating is what the country's figures indexed by wages follow.
	Uprating *jUprating `json:"uprating"`
	// Years are the published tax years.
	Years []jYearEntry `json:"years"`
	// Rules are the rules of every year, dated (see resolver); absent,
	// each year lists its own in full.
	Rules json.RawMessage `json:"rules"`
	// WealthTax lists the tax years whose wealth taxes the country models.
	WealthTax []jWealthYear `json:"wealthTax"`
}

// jUprating is the assumption a country's figures indexed by wages move
// by past the newest published year.
type jUprating struct {
	RealWageGrowth float64  `json:"realWageGrowth"`
	Note           string   `json:"note"`
	Src            []Source `json:"src"`
}

// jYearEntry is a published year as the file lists it.
type jYearEntry struct {
	Year  int      `json:"year"`
	Notes []string `json:"notes"`
	// Regions lists the regions whose sub-national rules the year models;
	// absent, all of the country's regions.
	Regions *[]string `json:"regions"`
	// Rules, in the older form, are the year's rules in full.
	Rules json.RawMessage `json:"rules"`
}

// jYear is one year's rules, resolved, for compileYear.
type jYear struct {
	Year    int
	Notes   []string
	Regions *[]string
	Rules   []jRule
}

type jRule struct {
	When          *jWhen    `json:"when"`
	PerEarner     bool      `json:"perEarner"`
	ID            string    `json:"id"`
	Label         string    `json:"label"`
	Category      string    `json:"category"`
	Src           []Source  `json:"src"`
	Regions       []string  `json:"regions"`
	ExceptRegions []string  `json:"exceptRegions"`
	Layers        []jLayer  `json:"layers"`
	Deductions    []jAdjust `json:"deductions"`
	Credits       []jAdjust `json:"credits"`
	Exempt        jFig      `json:"exemptUpTo"`
	MinTax        jFig      `json:"minTax"`
	Relief        *struct {
		Above jFig    `json:"above"`
		Rate  float64 `json:"rate"`
	} `json:"relief"`
	Round *struct {
		Base *jRound `json:"base"`
		Tax  *jRound `json:"tax"`
	} `json:"round"`
	Note string `json:"note"`
}

// jWhen is a condition ("when").
type jWhen struct {
	Filing string `json:"filing"`
	MinAge *int   `json:"minAge"`
	MaxAge *int   `json:"maxAge"`
}

// jPer is an adjustment's per-person count ("perPerson"): minAge, and
// pooled (the amounts count per filer, the reduction once); filing and
// maxAge are read only to refuse them with a clear error.
type jPer struct {
	Filing string `json:"filing"`
	MinAge *int   `json:"minAge"`
	MaxAge *int   `json:"maxAge"`
	Pooled bool   `json:"pooled"`
}

// maxAge bounds the ages a condition may name.
const maxAge = 130

// compileWhen reads a condition; absent, one that always holds.
func compileWhen(j *jWhen) (Condition, error) {
	var c Condition
	if j == nil {
		return c, nil
	}
	switch j.Filing {
	case "":
	case "single":
		c.Filing = SingleFiling
	case "joint":
		c.Filing = JointFiling
	default:
		return c, fmt.Errorf("when: filing %q (single or joint)", j.Filing)
	}
	if j.MinAge != nil {
		if *j.MinAge < 1 || *j.MinAge > maxAge {
			return c, fmt.Errorf("when: minAge %d (1..%d)", *j.MinAge, maxAge)
		}
		c.MinAge = *j.MinAge
	}
	if j.MaxAge != nil {
		if *j.MaxAge < 1 || *j.MaxAge > maxAge {
			return c, fmt.Errorf("when: maxAge %d (1..%d)", *j.MaxAge, maxAge)
		}
		if c.MinAge > *j.MaxAge {
			return c, fmt.Errorf("when: minAge %d above maxAge %d", c.MinAge, *j.MaxAge)
		}
		c.MaxAge = *j.MaxAge
	}
	if c == (Condition{}) {
		return c, fmt.Errorf("when: names neither filing nor minAge nor maxAge")
	}
	return c, nil
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
	When     *jWhen   `json:"when"`
	ID       string   `json:"id"`
	Label    string   `json:"label"`
	Base     jMeasure `json:"base"`
	Bands    []jBand  `json:"bands"`
	NilRate  []jFig   `json:"nilRate"`
	NilLabel string   `json:"nilRateLabel"`
	Buckets  []Bucket `json:"buckets"`
	Exempt   jFig     `json:"exemptUpTo"`
}

type jBand struct {
	From    jFig     `json:"from"`
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
	When      *jWhen    `json:"when"`
	PerPerson *jPer     `json:"perPerson"`
	Label     string    `json:"label"`
	Src       []Source  `json:"src"`
	Of        jMeasure  `json:"of"`
	Amount    *jFig     `json:"amount"`
	Rate      float64   `json:"rate"`
	Segments  [][]jFig  `json:"segments"`
	Min       jFig      `json:"min"`
	Max       *jFig     `json:"max"`
	MaxLess   *jMeasure `json:"maxLess"`
	Less      *jMeasure `json:"less"`
	Gate      *jGate    `json:"gate"`
	Round     *jRound   `json:"round"`
	CapAtBase bool      `json:"capAtBase"`
	Layer     string    `json:"layer"`
	Spill     []string  `json:"spillTo"`
	Note      string    `json:"note"`
}

// jGate is an adjustment's income limit: it applies only while the
// measure Of is below Below.
type jGate struct {
	Of    jMeasure `json:"of"`
	Below *jFig    `json:"below"`
}

// jFig is a money figure: a number, or an object with the figure's value
// and how it moves past the newest published year (see resolver).
type jFig struct {
	V    float64
	Meta *jFigMeta // nil for a plain number
}

// jFigMeta is a figure's indexation, as written.
type jFigMeta struct {
	Value       float64  `json:"value"`
	Indexed     string   `json:"indexed"`
	FrozenUntil int      `json:"frozenUntil"`
	Plus        float64  `json:"plus"`
	Round       *jRound  `json:"round"`
	Src         []Source `json:"src"`
}

func (f *jFig) UnmarshalJSON(p []byte) error {
	if len(p) > 0 && p[0] == '{' {
		var m jFigMeta
		if err := strictUnmarshal(p, &m); err != nil {
			return err
		}
		*f = jFig{V: m.Value, Meta: &m}
		return nil
	}
	*f = jFig{}
	return json.Unmarshal(p, &f.V)
}

// classOf is the class of figure f, added to the system's classes when
// new: 0 (prices) for a plain number.
func (s *System) classOf(f *jFig) (uint8, error) {
	m := f.Meta
	if m == nil {
		return 0, nil
	}
	var c Class
	switch m.Indexed {
	case "", "prices":
		c.Indexed = ByPrices
	case "wages":
		c.Indexed = ByWages
	case "none":
		c.Indexed = NotIndexed
	default:
		return 0, fmt.Errorf("figure %v: indexed %q (prices, wages or none)", f.V, m.Indexed)
	}
	if c.Indexed == NotIndexed && (m.FrozenUntil != 0 || m.Plus != 0 || m.Round != nil) {
		return 0, fmt.Errorf("figure %v: a figure not indexed has no freeze, growth or rounding", f.V)
	}
	if m.FrozenUntil != 0 && (m.FrozenUntil < 1900 || m.FrozenUntil > 2200) {
		return 0, fmt.Errorf("figure %v: frozenUntil %d", f.V, m.FrozenUntil)
	}
	if !(m.Plus > -0.1 && m.Plus < 0.2) {
		return 0, fmt.Errorf("figure %v: plus %v (-0.1..0.2)", f.V, m.Plus)
	}
	c.FrozenUntil, c.Plus = m.FrozenUntil, m.Plus
	var err error
	if c.Round, err = compileRound(m.Round); err != nil {
		return 0, fmt.Errorf("figure %v: %w", f.V, err)
	}
	if err := s.checkSources(m.Src, fmt.Sprintf("figure %v", f.V)); err != nil {
		return 0, err
	}
	for i := range s.classes {
		if s.classes[i] == c {
			return uint8(i), nil
		}
	}
	if len(s.classes) == MaxClasses {
		return 0, fmt.Errorf("figure %v: more than %d classes of figures", f.V, MaxClasses)
	}
	s.classes = append(s.classes, c)
	return uint8(len(s.classes) - 1), nil
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
	s.Withdrawal.Part = Pension
	if pw := j.PortfolioWithdrawal; pw != nil {
		p, ok := partByName(pw.Income)
		if !ok || p == Employment || p == SelfEmployment {
			return nil, fmt.Errorf("tax: %s: portfolioWithdrawal income %q is not pension, interest, dividends or capitalGains", j.Country, pw.Income)
		}
		if pw.Note == "" {
			return nil, fmt.Errorf("tax: %s: portfolioWithdrawal has no note", j.Country)
		}
		if err := s.checkSources(pw.Src, "portfolioWithdrawal"); err != nil {
			return nil, fmt.Errorf("tax: %s: %w", j.Country, err)
		}
		s.Withdrawal = Withdrawal{Part: p, Note: pw.Note, Sources: pw.Src}
	}
	if err := s.compileUprating(j.Uprating); err != nil {
		return nil, fmt.Errorf("tax: %s: %w", j.Country, err)
	}
	if err := s.compileYears(&j); err != nil {
		return nil, fmt.Errorf("tax: %s %w", j.Country, err)
	}
	s.ageRules = anyAgeRule(s.years)
	if err := s.compileWealth(j.WealthTax); err != nil {
		return nil, fmt.Errorf("tax: %s: %w", j.Country, err)
	}
	return s, nil
}

// compileUprating reads the wage growth assumption.
func (s *System) compileUprating(u *jUprating) error {
	if u == nil {
		return nil
	}
	if !(u.RealWageGrowth > -0.05 && u.RealWageGrowth < 0.1) {
		return fmt.Errorf("uprating: realWageGrowth %v (-0.05..0.1)", u.RealWageGrowth)
	}
	if u.Note == "" {
		return fmt.Errorf("uprating: no note")
	}
	if err := s.checkSources(u.Src, "uprating"); err != nil {
		return err
	}
	s.realWages = u.RealWageGrowth
	return nil
}

// compileYears compiles every published year, each from its own rules (the
// older form) or from the file's dated rules, and the projected years past
// the newest.
func (s *System) compileYears(j *jSystem) error {
	if len(j.Years) == 0 {
		return fmt.Errorf("no years")
	}
	entries := slices.Clone(j.Years)
	sort.SliceStable(entries, func(a, b int) bool { return entries[a].Year < entries[b].Year })
	for i := 1; i < len(entries); i++ {
		if entries[i].Year == entries[i-1].Year {
			return fmt.Errorf("year %d twice", entries[i].Year)
		}
	}
	var shared *node
	if len(j.Rules) > 0 {
		var err error
		if shared, err = decodeNode(j.Rules); err != nil {
			return fmt.Errorf("rules: %w", err)
		}
	}
	last := entries[len(entries)-1].Year
	s.classes = []Class{{Indexed: ByPrices}}
	trees := make([]*node, len(entries))
	for i := range entries {
		e := &entries[i]
		switch {
		case shared != nil && len(e.Rules) > 0:
			return fmt.Errorf("%d: rules both in the year and for every year", e.Year)
		case shared != nil:
			trees[i] = shared
		case len(e.Rules) == 0:
			return fmt.Errorf("%d: no rules", e.Year)
		default:
			var err error
			if trees[i], err = decodeNode(e.Rules); err != nil {
				return fmt.Errorf("%d: rules: %w", e.Year, err)
			}
		}
		y, err := s.resolveYear(trees[i], e, e.Year, last)
		if err != nil {
			return fmt.Errorf("%d: %w", e.Year, err)
		}
		s.years = append(s.years, *y)
	}
	// the projected years: the newest year's rules, one more from each
	// sunset on
	newest := &entries[len(entries)-1]
	ends := sunsets(trees[len(trees)-1], last)
	if len(ends) == 0 || ends[0] != last+1 {
		// nothing ends with the newest year: the first projected year
		// holds its rules
		p := s.years[len(s.years)-1]
		p.Year, p.Projected = last+1, true
		s.projected = append(s.projected, p)
	}
	for _, from := range ends {
		y, err := s.resolveYear(trees[len(trees)-1], newest, from, last)
		if err != nil {
			return fmt.Errorf("projected to %d: %w", from, err)
		}
		y.Base, y.Projected = last, true
		s.projected = append(s.projected, *y)
	}
	return nil
}

// resolveYear compiles the rules tree as they stand in year (a published
// year, or one past the newest, last), with entry's notes and regions.
func (s *System) resolveYear(tree *node, entry *jYearEntry, year, last int) (*Year, error) {
	r := resolver{year: year, last: last}
	rt, err := r.resolve(tree)
	if err != nil {
		return nil, fmt.Errorf("rules%w", err)
	}
	jy := jYear{Year: year, Notes: entry.Notes, Regions: entry.Regions}
	if err := strictUnmarshal(rt.compact(), &jy.Rules); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	y, err := s.compileYear(&jy)
	if err != nil {
		return nil, err
	}
	y.sys, y.Base = s, year
	y.classes = y.usedClasses()
	return y, nil
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
		v.joint = y.hasJoint() && v.ownRulesSayFiling()
		v.fast = &fastView{}
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

// hasJoint reports whether some rule, layer or adjustment of the year
// applies to joint returns only.
func (y *Year) hasJoint() bool {
	for i := range y.Rules {
		if y.Rules[i].filingSaid(JointFiling) {
			return true
		}
	}
	return false
}

// filingSaid reports whether the rule, one of its layers or adjustments
// is conditioned on filing f (AnyFiling: on either).
func (r *Rule) filingSaid(f Filing) bool {
	is := func(c *Condition) bool {
		return c.Filing != AnyFiling && (f == AnyFiling || c.Filing == f)
	}
	if is(&r.When) {
		return true
	}
	for li := range r.Layers {
		if is(&r.Layers[li].When) {
			return true
		}
	}
	for _, as := range [][]Adjust{r.Deductions, r.Credits} {
		for k := range as {
			if is(&as[k].When) {
				return true
			}
		}
	}
	return false
}

// ownRulesSayFiling reports whether every rule of the view that applies
// only in regions (a sub-national tax, or a rule listing regions) is
// conditioned on filing somewhere: rules written for a single filer alone
// do not tax a joint return.
func (v *view) ownRulesSayFiling() bool {
	for i := range v.rules {
		r := &v.rules[i]
		if (r.Category == Regional || len(r.Regions) > 0) && !r.filingSaid(AnyFiling) {
			return false
		}
	}
	return true
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
		if a.Gate != nil {
			g := *a.Gate
			g.renumber(pos)
			a.Gate = &g
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
