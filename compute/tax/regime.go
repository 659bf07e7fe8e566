package tax

import (
	"errors"
	"math"

	"fiplan/compute/root"
)

// Special regimes. A Regime is an expat, retiree or new-resident program
// (Italy's 7% pensioner regime, Spain's Beckham law, the Dutch 30% ruling)
// reduced to what the engine can apply: rules that take income parts out of
// the country's normal rules and tax them their own way. ApplyRegime
//
//  1. gives each income part to the first taxing rule (flat, exempt,
//     partialExempt, lumpSum) that covers it; a minimumTax rule taxes
//     nothing itself;
//  2. takes out of the normal rules the income each rule relieves: all of it
//     (exempt, lumpSum), up to Cap (flat; above the cap the normal rules
//     apply), or Fraction of the slice between Floor and Cap, at most
//     ReliefCap (partialExempt). The parts of one rule share its cap in
//     proportion to their amounts;
//  3. adds the regime's own tax: Rate on the flat-taxed income, Amount for a
//     lump sum that covers any income, and for a minimumTax rule whose parts
//     carry income, a top-up to Amount over the regime's tax on those parts.
//     The regime's tax is reported as income tax;
//  4. runs the normal rules: income tax, capital and regional rules on the
//     income left to them, social contributions on the whole income (a
//     regime relieves tax, not social insurance).
//
// Amounts are yearly, in the system's currency.

// ErrRegime: the regime cannot be applied (too many rules, an unknown
// treatment, a rate or fraction outside [0, 1], a negative amount).
var ErrRegime = errors.New("tax: invalid regime")

// Treatment is how a regime rule taxes the income parts it covers.
type Treatment uint8

// Treatments.
const (
	TreatFlat          Treatment = iota + 1 // taxed at Rate instead of the normal rules, up to Cap
	TreatExempt                             // not taxed
	TreatPartialExempt                      // Fraction of the slice between Floor and Cap exempt, at most ReliefCap
	TreatLumpSum                            // a yearly Amount replaces the tax on the covered income
	TreatMinimumTax                         // the regime's tax on these parts is at least Amount
)

// MaxRegimeRules bounds the rules of one Regime.
const MaxRegimeRules = 8

// RegimeRule is one effect of a regime.
type RegimeRule struct {
	Treatment Treatment
	Parts     [NumParts]bool // the income parts it covers
	Rate      float64        // TreatFlat
	Fraction  float64        // TreatPartialExempt
	Amount    float64        // TreatLumpSum, TreatMinimumTax
	Floor     float64        // TreatPartialExempt: relief only on income above this
	Cap       float64        // TreatFlat, TreatPartialExempt: income above this stays with the normal rules; 0 for none
	ReliefCap float64        // TreatPartialExempt: the most that is exempt; 0 for none
	// Labels of the breakdown lines: one per covered part, and one for the
	// rule as a whole (a lump sum, a minimum top-up).
	PartLabels [NumParts]string
	Label      string
}

// Regime is a special regime's rules. The zero value changes nothing.
type Regime struct {
	ID    string // Line.Rule and Total.Rule of the regime's lines
	Label string // Total.Label
	Rules [MaxRegimeRules]RegimeRule
	N     int
}

// Add appends a rule; it reports false when the regime is full.
func (rg *Regime) Add(r RegimeRule) bool {
	if rg.N >= MaxRegimeRules {
		return false
	}
	rg.Rules[rg.N] = r
	rg.N++
	return true
}

// RegimeEffect is what ApplyRegime changed.
type RegimeEffect struct {
	Without  float64 // total tax under the normal rules alone (Calculate's TotalTax)
	Relieved float64 // income taken out of the normal rules
	Tax      float64 // the regime's own tax, included in IncomeTax
}

func (rg *Regime) valid() bool {
	if rg.N < 0 || rg.N > MaxRegimeRules {
		return false
	}
	unit := func(v float64) bool { return v >= 0 && v <= 1 }
	money := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }
	for i := range rg.Rules[:rg.N] {
		r := &rg.Rules[i]
		if r.Treatment < TreatFlat || r.Treatment > TreatMinimumTax ||
			!unit(r.Rate) || !unit(r.Fraction) ||
			!money(r.Amount) || !money(r.Floor) || !money(r.Cap) || !money(r.ReliefCap) {
			return false
		}
	}
	return true
}

// split applies the regime to parts: rest is the income the normal rules
// still see, tax the regime's own tax, relieved the income taken out. With
// out it records one line per effect.
func (rg *Regime) split(parts *[NumParts]float64, out *Result) (rest [NumParts]float64, tax, relieved float64) {
	rest = *parts
	owner := rg.owners()
	var ruleTax [MaxRegimeRules]float64
	for i := range rg.Rules[:rg.N] {
		var rl float64
		ruleTax[i], rl = rg.take(i, parts, &owner, &rest, out)
		relieved += rl
	}
	for i := range rg.Rules[:rg.N] {
		ruleTax[i] += rg.topUp(i, parts, &owner, &ruleTax, out)
	}
	for i := range ruleTax[:rg.N] {
		tax += ruleTax[i]
	}
	for p := range rest {
		if rest[p] < 0 { // float noise of a full share
			rest[p] = 0
		}
	}
	return rest, tax, relieved
}

// owners gives each income part to the first taxing rule that covers it
// (-1: none); minimumTax rules own nothing.
func (rg *Regime) owners() [NumParts]int8 {
	var owner [NumParts]int8
	for p := range owner {
		owner[p] = -1
	}
	for i := range rg.Rules[:rg.N] {
		if rg.Rules[i].Treatment == TreatMinimumTax {
			continue
		}
		for p, on := range rg.Rules[i].Parts {
			if on && owner[p] < 0 {
				owner[p] = int8(i)
			}
		}
	}
	return owner
}

// take applies taxing rule i to the parts it owns: it takes the relieved
// share of each out of rest and returns the rule's own tax and the income
// relieved.
func (rg *Regime) take(i int, parts *[NumParts]float64, owner *[NumParts]int8, rest *[NumParts]float64, out *Result) (tax, relieved float64) {
	r := &rg.Rules[i]
	cov := 0.0
	for p := range parts {
		if owner[p] == int8(i) {
			cov += parts[p]
		}
	}
	if !(cov > 0) {
		return 0, 0
	}
	share, rate, tax := r.share(cov)
	if share <= 0 {
		return tax, 0
	}
	for p := range parts {
		if owner[p] != int8(i) || parts[p] == 0 {
			continue
		}
		b := parts[p] * share
		rest[p] -= b
		relieved += b
		if out != nil {
			l := Line{Rule: rg.ID, Label: r.PartLabels[p], Kind: KindProgram, Category: IncomeTax, Base: b, Rate: rate}
			if r.Treatment == TreatFlat {
				l.Amount = b * r.Rate
			}
			push(out, l)
		}
	}
	if r.Treatment == TreatLumpSum {
		tax = r.Amount
		if out != nil {
			push(out, Line{Rule: rg.ID, Label: r.Label, Kind: KindProgram, Category: IncomeTax, Base: cov, Amount: r.Amount})
		}
	}
	return tax, relieved
}

// share is the fraction of each covered part a taxing rule takes out of the
// normal rules when its parts carry cov, the rate its lines report, and its
// flat tax.
func (r *RegimeRule) share(cov float64) (share, rate, tax float64) {
	switch r.Treatment {
	case TreatExempt, TreatLumpSum:
		share = 1
	case TreatFlat:
		taxed := cov
		if r.Cap > 0 && taxed > r.Cap {
			taxed = r.Cap
		}
		share, rate = taxed/cov, r.Rate
		tax = taxed * r.Rate
	case TreatPartialExempt:
		top := cov
		if r.Cap > 0 && top > r.Cap {
			top = r.Cap
		}
		relief := r.Fraction * maxf(0, top-r.Floor)
		if r.ReliefCap > 0 && relief > r.ReliefCap {
			relief = r.ReliefCap
		}
		share, rate = relief/cov, r.Fraction
	}
	return share, rate, tax
}

// topUp is minimumTax rule i's top-up: what the taxing rules owning its
// parts charge short of its Amount, when those parts carry income.
func (rg *Regime) topUp(i int, parts *[NumParts]float64, owner *[NumParts]int8, ruleTax *[MaxRegimeRules]float64, out *Result) float64 {
	r := &rg.Rules[i]
	if r.Treatment != TreatMinimumTax {
		return 0
	}
	cov, own := 0.0, 0.0
	var counted [MaxRegimeRules]bool
	for p, on := range r.Parts {
		if !on {
			continue
		}
		cov += parts[p]
		if o := owner[p]; o >= 0 && !counted[o] {
			counted[o] = true
			own += ruleTax[o]
		}
	}
	if !(cov > 0 && own < r.Amount) {
		return 0
	}
	up := r.Amount - own
	if out != nil {
		push(out, Line{Rule: rg.ID, Label: r.Label, Kind: KindProgram, Category: IncomeTax, Base: own, Amount: up})
	}
	return up
}

// ApplyRegime is Calculate under a special regime (see Regime): it fills out
// with the regime's lines first, then the normal rules' lines on the income
// left to them, and returns what the regime changed. The regime's own tax
// is part of IncomeTax, and its total leads the rule totals. It does not
// allocate.
func ApplyRegime(s *System, year int, in *Income, region string, rg *Regime, out *Result) (RegimeEffect, error) {
	y, err := s.Year(year)
	if err != nil {
		return RegimeEffect{}, err
	}
	v, err := s.viewFor(y, region, in)
	if err != nil {
		return RegimeEffect{}, err
	}
	if !rg.valid() {
		return RegimeEffect{}, ErrRegime
	}
	parts, gross := cleanParts(in)
	who := filerOf(in, &parts)
	out.Country, out.Currency, out.Year, out.Region = s.Country, s.Currency, year, region
	out.NLines, out.Truncated, out.NTotals = 0, false, 0
	out.GrossIncome = round2(gross)

	var eff RegimeEffect
	var normal state
	normal.parts, normal.who = parts, who
	normal.run(v)
	eff.Without = sumCategories(v, &normal, 0, nil)

	rest, ptax, relieved := rg.split(&parts, out)
	eff.Relieved, eff.Tax = round2(relieved), round2(ptax)
	out.Totals[0] = Total{Rule: rg.ID, Label: rg.Label, Category: IncomeTax, Taxable: eff.Relieved, Amount: eff.Tax, To: out.NLines}
	out.NTotals = 1
	var st state
	st.out, st.who = out, who
	st.runSplit(v, &parts, &rest)
	out.TotalTax = sumCategories(v, &st, ptax, out)
	out.EffectiveRate = 0
	if gross > 0 {
		out.EffectiveRate = out.TotalTax / gross
	}

	mp := largest(&parts)
	out.MarginalPart = mp
	var a, b state
	a.exact, b.exact = true, true
	a.who, b.who = who, who
	restA, taxA, _ := rg.split(&parts, nil)
	ta := a.runSplit(v, &parts, &restA) + taxA
	up := parts
	up[mp] += s.MarginalStep
	restB, taxB, _ := rg.split(&up, nil)
	tb := b.runSplit(v, &up, &restB) + taxB
	out.MarginalRate = (tb - ta) / s.MarginalStep
	return eff, nil
}

// Due is the TotalTax that Calculate (rg nil) or ApplyRegime would
// report, without the breakdown and the marginal rate: for searches and
// rankings over many incomes. It does not allocate.
func Due(s *System, year int, in *Income, region string, rg *Regime) (float64, error) {
	y, err := s.Year(year)
	if err != nil {
		return 0, err
	}
	return y.Due(in, region, rg, nil)
}

// Due is Due on the year's rules with its figures read through sc (nil: as
// stored; see Scale), the incomes in the scale's money. It does not
// allocate.
func (y *Year) Due(in *Income, region string, rg *Regime, sc *Scale) (float64, error) {
	v, k, err := y.sys.viewAt(y, region, in)
	if err != nil {
		return 0, err
	}
	parts, _ := cleanParts(in)
	who := filerOf(in, &parts)
	if rg == nil {
		return y.compiledFor(v, k, &who).Due(in, sc), nil
	}
	var st state
	st.sc = scaleOrNil(sc)
	st.who = who
	if !rg.valid() {
		return 0, ErrRegime
	}
	rest, ptax, _ := rg.split(&parts, nil)
	st.runSplit(v, &parts, &rest)
	return sumCategories(v, &st, ptax, nil), nil
}

// runSplit is run with social rules on full and every other rule on rest.
func (st *state) runSplit(v *view, full, rest *[NumParts]float64) float64 {
	for i := range v.rules {
		r := &v.rules[i]
		if r.Category == Social {
			st.parts = *full
		} else {
			st.parts = *rest
		}
		st.rule(i, r)
	}
	total := 0.0
	for i := range v.rules {
		total += st.amt[i]
	}
	return total
}

// sumCategories rounds a run's amounts per category as Calculate does, with
// extra added to income tax, and returns the total. With out it also fills
// the category fields and appends the rule totals.
func sumCategories(v *view, st *state, extra float64, out *Result) float64 {
	var cat [numCategories]float64
	cat[IncomeTax] = extra
	for i := range v.rules {
		r := &v.rules[i]
		cat[r.Category] += st.amt[i]
		if out == nil || st.off[i] {
			continue
		}
		if out.NTotals == MaxRules {
			out.Truncated = true // the regime's total took the last slot
			continue
		}
		out.Totals[out.NTotals] = Total{Rule: r.ID, Label: r.Label, Category: r.Category,
			Taxable: round2(st.taxable[i]), Amount: round2(st.amt[i]), Sources: r.Sources,
			From: int(st.lines[i][0]), To: int(st.lines[i][1])}
		out.NTotals++
	}
	for c := range cat {
		cat[c] = round2(cat[c])
	}
	if out != nil {
		out.IncomeTax, out.SocialContributions = cat[IncomeTax], cat[Social]
		out.CapitalTax, out.RegionalTax = cat[Capital], cat[Regional]
	}
	return round2(cat[IncomeTax] + cat[Social] + cat[Capital] + cat[Regional])
}

// cleanParts is the income as Calculate reads it: negative, NaN and
// infinite parts count as 0.
func cleanParts(in *Income) (parts [NumParts]float64, gross float64) {
	parts = in.parts()
	for p := range parts {
		if !(parts[p] > 0) || math.IsInf(parts[p], 0) {
			parts[p] = 0
		}
		gross += parts[p]
	}
	return parts, gross
}

// largest is the part the marginal rate refers to, as in Calculate.
func largest(parts *[NumParts]float64) Part {
	mp := Employment
	for p := Part(0); p < NumParts; p++ {
		if parts[p] > parts[mp] {
			mp = p
		}
	}
	return mp
}

func push(out *Result, l Line) {
	if out.NLines == MaxLines {
		out.Truncated = true
		return
	}
	out.Lines[out.NLines] = l
	out.NLines++
}

// CategoryNames lists the result categories by value ("income", "social",
// "capital", "regional"), for documentation.
var CategoryNames = categoryNames[:]

// KindNames lists the line kinds by value, for documentation.
var KindNames = kindNames[:]

// TreatmentNames are the treatments' names by value, as the programs
// dataset spells its rule types.
var TreatmentNames = [...]string{TreatFlat: "flat", TreatExempt: "exempt", TreatPartialExempt: "partialExempt",
	TreatLumpSum: "lumpSum", TreatMinimumTax: "minimumTax"}

// ParseTreatment reads a treatment's name.
func ParseTreatment(name string) (Treatment, bool) {
	for t, n := range TreatmentNames {
		if n != "" && n == name {
			return Treatment(t), true
		}
	}
	return 0, false
}

func (t Treatment) String() string {
	if int(t) >= len(TreatmentNames) || TreatmentNames[t] == "" {
		return "invalid"
	}
	return TreatmentNames[t]
}

// GrossFor is the gross yearly income, made of the parts of mix in their
// proportions, that leaves net after Due (under rg, or the normal rules
// when rg is nil): the income a portfolio must yield so that net is left to
// spend. It reports false when mix has no income or no gross below 1e15
// leaves net. The answer is within a cent of the smallest such gross (tax
// rounding makes net after tax a step function). It does not allocate.
func GrossFor(s *System, year int, mix *Income, region string, rg *Regime, net float64) (float64, bool, error) {
	y, err := s.Year(year)
	if err != nil {
		return 0, false, err
	}
	return y.GrossFor(mix, region, rg, nil, net)
}

// GrossFor is GrossFor on the year's rules with its figures read through sc
// (nil: as stored; see Scale), net and the answer in the scale's money. It
// does not allocate.
func (y *Year) GrossFor(mix *Income, region string, rg *Regime, sc *Scale, net float64) (float64, bool, error) {
	return y.grossFor(mix, region, rg, sc, net, false)
}

// grossFor is GrossFor, by the walker when walk is set or rg is not nil,
// else by the evaluator compiled for the mix's kind of return.
func (y *Year) grossFor(mix *Income, region string, rg *Regime, sc *Scale, net float64, walk bool) (float64, bool, error) {
	v, k, err := y.sys.viewAt(y, region, mix)
	if err != nil {
		return 0, false, err
	}
	sc = scaleOrNil(sc)
	if rg != nil && !rg.valid() {
		return 0, false, ErrRegime
	}
	parts, total := cleanParts(mix)
	if !(total > 0) || math.IsNaN(net) || math.IsInf(net, 0) {
		return 0, false, nil
	}
	if net <= 0 {
		return 0, true, nil
	}
	who := filerOf(mix, &parts)
	if rg == nil && !walk {
		if c := y.compiledFor(v, k, &who); c.walks == "" {
			g, ok := c.grossFor(&parts, total, who.earned, sc, net)
			return g, ok, nil
		}
	}
	// short is what gross g leaves missing from net (negative: a surplus).
	short := func(g float64) float64 {
		var in [NumParts]float64
		for p := range parts {
			in[p] = parts[p] / total * g
		}
		var st state
		st.who, st.sc = who, sc
		st.who.earned[0] *= g / total
		st.who.earned[1] *= g / total
		ptax := 0.0
		if rg == nil {
			st.parts = in
			st.run(v)
		} else {
			var rest [NumParts]float64
			rest, ptax, _ = rg.split(&in, nil)
			st.runSplit(v, &in, &rest)
		}
		return net - (g - sumCategories(v, &st, ptax, nil))
	}
	g, ok := solveGross(net, short)
	return g, ok, nil
}

// solveGross finds, within a cent, the smallest gross g ≥ net with
// short(g) ≤ 0, where short is what g leaves missing from net; false when
// none lies below 1e15.
func solveGross(net float64, short func(float64) float64) (float64, bool) {
	// Bracket: net leaves too little unless no tax is due (the best case).
	flo := short(net)
	if flo <= 0 {
		return net, true
	}
	b, err := root.GrowFrom(short, net, flo, 2*net, 1e15)
	if err != nil {
		return 0, false
	}
	for i := 0; i < 100 && b.Width() > 0.01; i++ {
		g := b.Next()
		fg := short(g)
		if fg <= 0 && fg > -0.01 && g-0.01 > b.Lo {
			// g all but meets net exactly, as it does on a linear piece
			// of the tax: a cent less decides whether it is the smallest
			fc := short(g - 0.01)
			if fc > 0 {
				return g, true
			}
			g, fg = g-0.01, fc
		}
		b.Narrow(g, fg)
	}
	return b.Hi, true
}
