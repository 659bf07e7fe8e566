package plan

import (
	"math"
	"strconv"
	"strings"

	"fiplan/compute/fi"
	"fiplan/compute/tax"
)

// taxPlan is the plan's tax settings, resolved.
type taxPlan struct {
	sys *tax.System
	// year is the tax year of the plan's first year: its year t is taxed
	// under the rules of tax year year+t (see rules)
	year   int
	region string
	part   tax.Part // how retirement income is taxed
	// toTax converts the plan's currency into the tax system's.
	toTax float64
	// age is the taxpayer's age the retirement income is taxed at (the
	// plan's retirement age, or the row's): age-aware rules such as the US
	// additional standard deduction at 65 and the senior deduction apply.
	// It also says which year's rules apply: the plan's year age−age0.
	age int
	// age0 and infl are the plan's age today and its inflation, which
	// moves the figures of a projected year
	age0 int
	infl float64
	// the rules of the last year asked for and their scale; ver changes
	// with them
	at  int
	ty  *tax.Year
	sc  tax.Scale
	ver int
}

// rulesDiffer reports whether the retirement income would be taxed
// otherwise at age than at t.age: the rules or the scale of their figures
// differ between the two years, or the rules depend on age.
func (t *taxPlan) rulesDiffer(age int) bool {
	if t.sys.AgeRules() {
		return true
	}
	y0, sc := t.rules()
	s0 := *sc
	was := t.age
	t.age = age
	y1, s1 := t.rules()
	t.age = was
	same := y0 == y1 || (len(y0.Rules) > 0 && len(y0.Rules) == len(y1.Rules) && &y0.Rules[0] == &y1.Rules[0])
	return !same || s0 != *s1
}

// FirstTaxYear is the tax year of a plan's first year: the one asked for,
// else the calendar year the plan starts in, else (a plan without
// calendar years) the country's newest. Year t of the plan is taxed under
// the rules of tax year FirstTaxYear+t: as published, or past the newest
// published year projected (tax.System.At). Household residences use it
// too.
func FirstTaxYear(asked, startYear int, sys *tax.System) int {
	switch {
	case asked > 0:
		return asked
	case startYear > 0:
		return startYear
	}
	return sys.Latest()
}

// rules is the rules that tax the plan's year at t.age and the scale of
// their figures, prices moving at the plan's inflation from today.
func (t *taxPlan) rules() (*tax.Year, *tax.Scale) {
	c := t.year + t.age - t.age0
	if t.ty == nil || c != t.at {
		y := t.sys.At(c)
		var sc tax.Scale
		y.Scale(c, &tax.Path{Start: t.year, Inflation: t.infl, RealWages: t.sys.RealWageGrowth()}, &sc)
		t.at = c
		if y != t.ty || sc != t.sc {
			t.ty, t.sc = y, sc
			t.ver++
		}
	}
	return t.ty, &t.sc
}

// retirementAge is the age plan input in's retirement income is first
// taxed at: its target retirement age when later than today, else today.
func retirementAge(in *fi.Input) int {
	return max(in.CurrentAge, in.TargetRetirementAge)
}

// resolve checks the plan's tax and currency against the tax system and
// sets t, r.Tax and r.Currency.
func (t *taxPlan) resolve(p *Plan, in *Inputs, r *Result) error {
	rt := p.Tax
	if rt == nil {
		if r.Currency == "" {
			r.Currency = "USD"
		}
		return nil
	}
	sys := rt.System
	*t = taxPlan{sys: sys, year: FirstTaxYear(rt.Year, p.Base.StartYear, sys), part: rt.Withdrawal, toTax: 1}
	if _, err := sys.Year(rt.Year); rt.Year != 0 && err != nil {
		return &FieldError{"tax.year", sys.Country + " has the tax years " + joinInts(sys.Years())}
	}
	if rt.Region != "" {
		k := regionIndex(sys, rt.Region)
		switch {
		case k < 0:
			return &FieldError{"tax.region", "unknown region " + strconv.Quote(rt.Region) + " for " + sys.Country + regionList(sys)}
		case !sys.CoversFrom(t.year, sys.Regions[k].Code):
			return &FieldError{"tax.region", sys.Country + " models region " + sys.Regions[k].Code + " only in the tax years " + joinInts(sys.YearsCovering(sys.Regions[k].Code)) + ", not in all from " + strconv.Itoa(t.year)}
		}
		t.region = sys.Regions[k].Code
	} else {
		var err error
		if t.region, err = defaultRegion(sys, t.year, jointPlan(p), "tax.region"); err != nil {
			return err
		}
	}
	if r.Currency == "" {
		r.Currency = sys.Currency
	}
	if r.Currency != sys.Currency {
		rate, ok := in.Convert(1, r.Currency, sys.Currency)
		if !ok {
			return &FieldError{"currency", sys.Currency + ", the currency of tax.country, has no reference rate: send the amounts in " + sys.Currency}
		}
		t.toTax = rate
	}
	r.Tax = TaxUse{Country: sys.Country, Region: t.region, Year: t.year, Withdrawal: t.part}
	return nil
}

// due is the tax on amount (the plan's currency) as income of part.
func (t *taxPlan) due(amount float64, part tax.Part) float64 {
	in := incomeOf(part, amount*t.toTax)
	return t.dueOn(&in)
}

// dueOn is the tax on in, in the tax system's currency, converted to the
// plan's.
func (t *taxPlan) dueOn(in *tax.Income) float64 {
	if in.Age == 0 {
		in.Age = t.age
	}
	y, sc := t.rules()
	d, err := y.Due(in, t.region, nil, sc)
	if err != nil {
		return 0 // year and region were checked when the plan was resolved
	}
	return d / t.toTax
}

// gains reports whether withdrawals are taxed on their gain: sales from a
// taxable account.
func (t *taxPlan) gains() bool { return t.part == tax.CapitalGains }

// grossSpending is the retirement income that leaves net after tax: with
// gains, a withdrawal whose share is gain.
func (t *taxPlan) grossSpending(net, share float64) (float64, bool) {
	if t.gains() {
		return t.grossForShare(net, share)
	}
	return t.grossFor(net)
}

// grossFor is the retirement income, taxed as t.part, that leaves net.
func (t *taxPlan) grossFor(net float64) (float64, bool) {
	mix := incomeOf(t.part, 1)
	mix.Age = t.age
	y, sc := t.rules()
	g, ok, err := y.GrossFor(&mix, t.region, nil, sc, net*t.toTax)
	if err != nil || !ok {
		return 0, false
	}
	return g / t.toTax, true
}

func incomeOf(p tax.Part, amount float64) tax.Income {
	var in tax.Income
	switch p {
	case tax.Employment:
		in.Employment = amount
	case tax.SelfEmployment:
		in.SelfEmployment = amount
	case tax.Pension:
		in.Pension = amount
	case tax.Interest:
		in.Interest = amount
	case tax.Dividends:
		in.Dividends = amount
	case tax.CapitalGains:
		in.CapitalGains = amount
	case tax.SocialSecurity:
		in.SocialSecurity = amount
	}
	return in
}

// ParsePart is the income part named name, pension when none is.
func ParsePart(name string) tax.Part {
	for p := tax.Part(0); p < tax.NumParts; p++ {
		if p.String() == name {
			return p
		}
	}
	return tax.Pension
}

// defaultRegion is the region a plan without one is taxed in from tax
// year from on: where the country's income tax has a local part, the region
// its localTax names. A couple filing jointly stays without it where the
// rules have a joint return but the region's say nothing of one; a default
// some year from the first does not model is a FieldError on field.
func defaultRegion(sys *tax.System, from int, joint bool, field string) (string, error) {
	def := sys.LocalTax.Region
	if def == "" {
		return "", nil
	}
	if y := sys.At(from); joint && sys.HasJointAt(y, "") && !sys.HasJointAt(y, def) {
		return "", nil
	}
	if !sys.CoversFrom(from, def) {
		year := from
		for c := from; c <= sys.Latest(); c++ {
			if !sys.Covers(sys.At(c).Year, def) {
				year = c
				break
			}
		}
		return "", &FieldError{field, sys.DefaultRegionMissing(year)}
	}
	return def, nil
}

// jointPlan reports whether the plan asks for joint returns: a household
// with a partner that does not file single.
func jointPlan(p *Plan) bool {
	return p.Household != nil && p.Household.Partner != nil && p.Household.Filing != "single"
}

func regionIndex(sys *tax.System, code string) int {
	for i := range sys.Regions {
		if strings.EqualFold(sys.Regions[i].Code, code) {
			return i
		}
	}
	return -1
}

func regionList(sys *tax.System) string {
	if len(sys.Regions) == 0 {
		return ", which has no regions"
	}
	codes := make([]string, len(sys.Regions))
	for i := range sys.Regions {
		codes[i] = sys.Regions[i].Code
	}
	return "; known: " + strings.Join(codes, ", ")
}

func joinInts(v []int) string {
	var b []byte
	for i, x := range v {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// apply turns plan k's gross income into take-home pay and grosses its
// retirement spending up by the tax due on it. It fails when no
// retirement income below 1e15 leaves the spending after tax.
func (t *taxPlan) apply(k int, pr *PlanResult) error {
	in, pt := &pr.input, &pr.Taxes
	t.age0, t.infl = in.CurrentAge, in.InflationRate
	t.age = in.CurrentAge // the employment income, taxed today
	pt.GrossIncome = in.AnnualIncome
	if pt.GrossIncome > 0 {
		pt.IncomeTax = min(t.due(pt.GrossIncome, tax.Employment), pt.GrossIncome)
	}
	in.AnnualIncome = pt.GrossIncome - pt.IncomeTax
	t.age = retirementAge(in) // the retirement income, at retirement
	if t.gains() {
		// Until the projection says when drawdown starts, the gain share
		// of the pot today.
		pr.share = gainShare(pr.basis, in.CurrentSavings)
	}
	if !t.grossUp(pr) {
		field := "tax"
		if k > 0 {
			field = "scenarios[" + strconv.Itoa(k-1) + "].retirementExpenses"
		}
		return &FieldError{field, "no retirement income leaves the retirement spending after this country's tax"}
	}
	return nil
}

// grossUp sets plan pr's retirement income to the one that leaves its
// spending after tax, with pr.share of a withdrawal gain when withdrawals
// are taxed on their gain; false, changing nothing, when none does.
func (t *taxPlan) grossUp(pr *PlanResult) bool {
	pt := &pr.Taxes
	g, ok := t.grossSpending(pt.Spending, pr.share)
	if !ok {
		return false
	}
	pt.GrossSpending = g
	pr.input.RetirementExpenses = g
	// Lean and fat FI gross up their own spending: the tax is progressive,
	// so it is not the grossed-up spending scaled. Its average rate rising
	// with the income, the lean income lies between the lean spending and
	// the grossed-up income scaled, the fat one above the latter: the
	// guesses solve widens when a tax system says otherwise.
	lean, fat := pt.Spending*fi.LeanMultiplier, pt.Spending*fi.FatMultiplier
	pr.leanGross, pr.fatGross = g*fi.LeanMultiplier, g*fi.FatMultiplier
	if x, ok := t.solve(lean, pr.share, lean, g*fi.LeanMultiplier); ok {
		pr.leanGross = x
	}
	if x, ok := t.solve(fat, pr.share, g*fi.FatMultiplier, g*fi.FatMultiplier*g/pt.Spending); ok {
		pr.fatGross = x
	}
	return true
}

// rowTaxes appends the tax of each row, in money of that year: in working
// years the employment tax incomeTax, growing with income and prices as
// the take-home income does (today's average rate kept); in drawdown
// years the tax on that year's retirement income (withdrawals and
// pensions), under the rules of the row's year (see rules).
//
// With gains, a drawdown year's tax is on the gain share of its withdrawal
// as a capital gain (the cost basis followed from basis today) and on its
// pensions as pensions.
func (t *taxPlan) rowTaxes(dst []float64, rows []fi.Year, in *fi.Input, incomeTax, basis float64) []float64 {
	cpi, grow := 1.0, 1.0
	lastCents, lastTax, lastVer, lastAge := -1.0, 0.0, -1, -1
	t.age0, t.infl = in.CurrentAge, in.InflationRate
	cb := costBasis(basis)
	defer func(age int) { t.age = age }(t.age)
	for i := range rows {
		r := &rows[i]
		share := cb.next(r)
		t.age = r.Age
		var x float64
		if r.Retired && t.gains() {
			inc := tax.Income{CapitalGains: share * r.Withdrawals / cpi * t.toTax, Pension: r.Pension / cpi * t.toTax}
			x = t.dueOn(&inc) * cpi
		} else if r.Retired {
			// Constant real spending repeats the same income: tax it once.
			cents := math.Round((r.Withdrawals + r.Pension) / cpi * 100)
			if t.rules(); cents != lastCents || t.ver != lastVer || r.Age != lastAge && t.sys.AgeRules() {
				lastCents, lastTax, lastVer, lastAge = cents, t.due(cents/100, t.part), t.ver, r.Age
			}
			x = lastTax * cpi
		} else {
			// The engine saves a working year's income at year-end prices.
			x = incomeTax * grow * cpi * (1 + in.InflationRate)
		}
		dst = append(dst, x)
		cpi *= 1 + in.InflationRate
		grow *= 1 + in.IncomeGrowthRate
	}
	return dst
}
