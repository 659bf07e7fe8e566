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
	Years []jYear `json:"years"`
	// WealthTax lists the tax years whose wealth taxes the country models.
	WealthTax []jWealthYear `json:"wealthTax"`
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

// jWhen is a condition ("when") or an adjustment's per-person count
// ("perPerson", minAge only).
type jWhen struct {
	Filing string `json:"filing"`
	MinAge *int   `json:"minAge"`
	MaxAge *int   `json:"maxAge"`
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
	When     *jWhen    `json:"when"`
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
	When      *jWhen      `json:"when"`
	PerPerson *jWhen      `json:"perPerson"`
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
	s.classes = []Class{{Indexed: ByPrices}}
	for i := range s.years {
		y := &s.years[i]
		y.sys, y.Base = s, y.Year
		y.classes = y.usedClasses()
	}
	s.project()
	s.ageRules = anyAgeRule(s.years)
	if err := s.compileWealth(j.WealthTax); err != nil {
		return nil, fmt.Errorf("tax: %s: %w", j.Country, err)
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
		v.joint = y.hasJoint() && v.ownRulesSayFiling()
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
