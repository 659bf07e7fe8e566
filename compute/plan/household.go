package plan

import (
	"slices"
	"strconv"
	"strings"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/compute/household"
)

// Household is what a plan says of its people, accounts and spending
// beyond the one-pot plan: with it, every plan of the request is run by
// compute/household.
type Household struct {
	Partner *household.Person
	// Accounts replace CurrentSavings; their Wrapper and Rate are resolved
	// by Run from their Type. None: one taxable account holding
	// CurrentSavings at CostBasis.
	Accounts []household.Account
	// Pensions replace the one-pot plan's: Kind names a statutory benefit,
	// resolved by Run.
	Pensions    []household.Pension
	Phases      []household.Phase
	Order       household.Order
	Explicit    []string // with household.Explicit: account ids
	Convert     bool
	ConvertUpTo float64
	Moves       []Move
	Filing      string // "", "single" or "joint"
	OwnMix      bool   // some account gave its own stock share (not modelled)
	// Care is the health-care spending by age and the benchmark premium
	// (nil: none); its Rules are resolved by Run from the tax country.
	Care *household.Care
	// SEPP are the series of periodic payments, each from an account (an
	// index of Accounts); their rules are resolved by Run from the tax
	// country.
	SEPP []household.Series
	// NoHome: the household owns no home (means tests with an assets
	// test allow more).
	NoHome bool
}

// Move is a relocation at an age of the first person.
type Move struct {
	AtAge                   int
	Country, Region, CityID string
}

// HouseholdResult is a household plan's own figures beside its PlanResult.
type HouseholdResult struct {
	household.Result
}

// householdWork is the memory of household runs, kept with the Result.
type householdWork struct {
	work  household.Work
	plans [fi.MaxScenarios + 1]household.Plan
	res   [fi.MaxScenarios + 1]HouseholdResult
	accts [fi.MaxScenarios + 1][household.MaxAccounts]household.Account
	pens  [fi.MaxScenarios + 1][household.MaxPensions]household.Pension
	homes [fi.MaxScenarios + 1][household.MaxMoves + 1]household.Residence
	care  [fi.MaxScenarios + 1]household.Care
	supps [fi.MaxScenarios + 1][household.MaxSupplements]*household.Supplement
	mc    fi.MCResult
	// the search over the base plan's decisions and its plan's result
	decide *decide.Work
	optRes HouseholdResult
}

// resolveHousehold builds plan k's household from its resolved input.
func (t *taxPlan) resolveHousehold(p *Plan, in *Inputs, k int, pr *PlanResult, hw *householdWork, currency string) error {
	h := p.Household
	hp := &hw.plans[k]
	x := &pr.input
	*hp = household.Plan{
		People:   append(hp.People[:0], household.Person{Age: x.CurrentAge, LifeExpectancy: x.LifeExpectancy, RetirementAge: x.TargetRetirementAge, Income: x.AnnualIncome, IncomeGrowth: x.IncomeGrowthRate}),
		Expenses: x.AnnualExpenses, Retirement: x.RetirementExpenses, Phases: h.Phases,
		Return: x.ExpectedReturn, Inflation: x.InflationRate, Fee: x.Fee, WithdrawalRate: x.WithdrawalRate,
		StartYear: x.StartYear, Events: x.Events[:x.NumEvents], Order: h.Order,
		Convert: h.Convert, ConvertUpTo: h.ConvertUpTo,
	}
	if h.Partner != nil {
		hp.People = append(hp.People, *h.Partner)
	}
	homes, err := t.residences(p, in, hp, hw.homes[k][:0], currency)
	if err != nil {
		return err
	}
	hp.Residences = homes
	files := false
	for _, r := range homes {
		files = files || (r.System != nil && r.System.HasJointAt(r.System.At(r.Year), r.Region))
	}
	if h.Filing == "joint" && !files {
		return &FieldError{"tax.filing", "joint returns are not modelled for " + homes[0].Country + " in " + strconv.Itoa(homes[0].Year) + " (or its region): send single, each person taxed alone"}
	}
	// each residence files jointly where its rules let couples
	hp.Joint = h.Partner != nil && h.Filing != "single"
	rules := in.Wrappers
	accts := hw.accts[k][:0]
	if len(h.Accounts) == 0 {
		a := household.Account{ID: "savings", Type: "taxable", Balance: x.CurrentSavings, CostBasis: pr.basis}
		if x.FixedContribution {
			a.Contribution = x.Contribution
		}
		accts = append(accts, a)
	}
	for i, a := range h.Accounts {
		if err := resolveAccount(&a, i, homes[0].Country, rules, in, currency); err != nil {
			return err
		}
		accts = append(accts, a)
		if w := a.Wrapper; w != nil && w.Access.ConvertTo != "" && len(hp.Converts) == 0 {
			if to := rules(homes[0].Country).Wrapper(w.Access.ConvertTo); to != nil {
				hp.Converts = append(hp.Converts, to)
			}
		}
	}
	hp.Accounts = accts
	pens := hw.pens[k][:0]
	list := h.Pensions
	if k > 0 && len(p.Scenarios[k-1].Pensions) > 0 {
		list = p.Scenarios[k-1].Pensions // a scenario's list replaces the base's
	}
	for i, q := range list {
		if err := resolveBenefit(&q, i, rules, in, currency); err != nil {
			return err
		}
		pens = append(pens, q)
	}
	hp.Pensions = pens
	if err := explicitOrder(h, hp); err != nil {
		return err
	}
	// the rules are there without a series too: the decision search may
	// choose one
	hp.SEPP, hp.SEPPRules = h.SEPP, nil
	if r := rules(homes[0].Country); r != nil {
		hp.SEPPRules = r.SEPP
	}
	hp.NoHome, hp.Supplements = h.NoHome, supplements(homes, rules, hw.supps[k][:0])

	return resolveCare(h, hp, &hw.care[k], rules, homes[0].Country)
}

// resolveCare sets the plan's health care and the tax country's rules on
// it; a benchmark premium needs a country with a premium credit and a
// person under its age.
func resolveCare(h *Household, hp *household.Plan, c *household.Care, rules func(string) *household.Rules, cc string) error {
	if h.Care == nil {
		return nil
	}
	*c = *h.Care
	c.Rules, c.Country = nil, cc
	if r := rules(cc); cc != "" && r != nil {
		c.Rules = r.Health
	}
	if c.Benchmark > 0 {
		if c.Rules == nil || c.Rules.Credit == nil {
			return &FieldError{"healthcare.benchmarkPremium", "a premium tax credit is modelled for the US only (the plan's tax country is " + strconv.Quote(cc) + ")"}
		}
		young := false
		for _, q := range hp.People {
			young = young || q.Age < c.Rules.Credit.UnderAge
		}
		if !young {
			return &FieldError{"healthcare.benchmarkPremium", "the premium tax credit is for people under " + strconv.Itoa(c.Rules.Credit.UnderAge) + " (Medicare from then): nobody in the plan is"}
		}
	}
	hp.Care = c
	return nil
}

// residences are the plan's homes: where the tax says, then each move.
func (t *taxPlan) residences(p *Plan, in *Inputs, hp *household.Plan, dst []household.Residence, currency string) ([]household.Residence, error) {
	first := household.Residence{}
	if t.sys != nil {
		first = household.Residence{Country: t.sys.Country, System: t.sys, Year: t.year, Region: t.region, Rate: t.toTax, Split: splitOf(in, t.sys.Country)}
	}
	dst = append(dst, first)
	for i, m := range p.Household.Moves {
		field := "relocations[" + strconv.Itoa(i) + "]"
		sys := in.Systems(m.Country)
		if sys == nil {
			return nil, &FieldError{field + ".country", "no tax rules for " + strconv.Quote(m.Country) + "; GET /api/v1/tax/countries lists them"}
		}
		r := household.Residence{FromAge: m.AtAge, Country: sys.Country, System: sys, Year: t.year, Rate: 1, Split: splitOf(in, sys.Country)}
		if t.sys == nil {
			r.Year = FirstTaxYear(0, p.Base.StartYear, sys)
		}
		from := r.Year + m.AtAge - hp.People[0].Age // the tax year of the move
		if m.Region != "" {
			k := regionIndex(sys, m.Region)
			if k < 0 {
				return nil, &FieldError{field + ".region", "unknown region " + strconv.Quote(m.Region) + " for " + sys.Country + regionList(sys)}
			}
			r.Region = sys.Regions[k].Code
			if !sys.CoversFrom(from, r.Region) {
				return nil, &FieldError{field + ".region", sys.Country + " models region " + r.Region + " only in the tax years " + joinInts(sys.YearsCovering(r.Region)) + ", not in all from " + strconv.Itoa(from)}
			}
		} else {
			var err error
			if r.Region, err = defaultRegion(sys, from, jointPlan(p), field+".region"); err != nil {
				return nil, err
			}
		}
		if m.AtAge <= hp.People[0].Age {
			return nil, &FieldError{field + ".atAge", "must be after today (currentAge)"}
		}
		if sys.Currency != currency {
			rate, ok := in.Convert(1, currency, sys.Currency)
			if !ok {
				return nil, &FieldError{field + ".country", sys.Currency + " has no reference rate from " + currency}
			}
			r.Rate = rate
		}
		if m.CityID != "" {
			city, ok := in.Cities[m.CityID]
			if !ok {
				return nil, &FieldError{field + ".cityId", "no city " + strconv.Quote(m.CityID) + "; GET /api/v1/geo/cities lists them"}
			}
			lines := city.Budget(max(1, len(hp.People)))
			yearly, ok := in.Convert(12*float64(lines.Total()), "USD", currency)
			if !ok {
				return nil, &FieldError{"currency", "has no reference rate to convert the city's budget from USD"}
			}
			r.Spending = yearly
		}
		if r.FromAge <= dst[len(dst)-1].FromAge {
			return nil, &FieldError{field + ".atAge", "relocations must be in ascending order of age, after today"}
		}
		dst = append(dst, r)
	}
	return dst, nil
}

// resolveAccount checks account i's type against the tax country's
// wrappers and sets its Wrapper and Rate.
func resolveAccount(a *household.Account, i int, cc string, rules func(string) *household.Rules, in *Inputs, currency string) error {
	field := "accounts[" + strconv.Itoa(i) + "]"
	if a.Type == "cash" || a.Type == "taxable" {
		return nil
	}
	if cc == "" {
		return &FieldError{field + ".type", "a wrapper needs tax.country: without tax, accounts are cash or taxable"}
	}
	r := rules(cc)
	if r == nil || r.Wrapper(a.Type) == nil {
		return &FieldError{field + ".type", "unknown wrapper " + strconv.Quote(a.Type) + " for " + cc + wrapperList(r)}
	}
	a.Wrapper = r.Wrapper(a.Type)
	if a.Wrapper.Kind == household.KindTaxFree && a.Wrapper.Access.BasisFirst {
		// a Roth's contributions: the balance unless told
		if a.CostBasis < 0 {
			a.CostBasis = a.Balance
		}
	} else if a.CostBasis >= 0 && !a.Wrapper.TracksCost() {
		return &FieldError{field + ".costBasis", a.Wrapper.Name + " does not follow a cost basis: its withdrawals are not taxed on their gains"}
	}
	return rateInto(&a.Rate, cc, in, currency, field+".type")
}

// resolveBenefit sets pension i's statutory benefit from its kind.
func resolveBenefit(q *household.Pension, i int, rules func(string) *household.Rules, in *Inputs, currency string) error {
	if q.Kind == "" || q.Kind == "generic" {
		q.Kind = ""
		return nil
	}
	field := "pensions[" + strconv.Itoa(i) + "].kind"
	cc := strings.ToUpper(q.Kind[:min(2, len(q.Kind))])
	r := rules(cc)
	if r == nil || r.Benefit(q.Kind) == nil {
		return &FieldError{field, "unknown statutory pension " + strconv.Quote(q.Kind)}
	}
	b := r.Benefit(q.Kind)
	if f := float64(q.FromAge); f < b.Earliest {
		return &FieldError{"pensions[" + strconv.Itoa(i) + "].fromAge", b.Name + " is claimed from " + strconv.FormatFloat(b.Earliest, 'f', -1, 64)}
	}
	q.Benefit, q.Country = b, cc
	return rateInto(&q.Rate, cc, in, currency, field)
}

// rateInto sets *rate to the conversion from the plan's currency into
// country cc's.
func rateInto(rate *float64, cc string, in *Inputs, currency, field string) error {
	sys := in.Systems(cc)
	if sys == nil || sys.Currency == currency {
		*rate = 1
		return nil
	}
	x, ok := in.Convert(1, currency, sys.Currency)
	if !ok {
		return &FieldError{field, sys.Currency + " has no reference rate from " + currency}
	}
	*rate = x
	return nil
}

// wrapperList names a country's wrappers for an error message.
func wrapperList(r *household.Rules) string {
	if r == nil || len(r.Wrappers) == 0 {
		return " (it has no wrappers on file: use cash or taxable)"
	}
	ids := make([]string, 0, len(r.Wrappers)+2)
	ids = append(ids, "cash", "taxable")
	for _, w := range r.Wrappers {
		ids = append(ids, w.ID)
	}
	return " (one of " + strings.Join(ids, ", ") + ")"
}

// explicitOrder turns the ids of an explicit order into account indices.
func explicitOrder(h *Household, hp *household.Plan) error {
	if h.Order != household.Explicit {
		return nil
	}
	hp.Explicit = hp.Explicit[:0]
	for i, id := range h.Explicit {
		j := -1
		for k := range hp.Accounts {
			if hp.Accounts[k].ID == id {
				j = k
			}
		}
		if j < 0 {
			return &FieldError{"withdrawalOrder[" + strconv.Itoa(i) + "]", "no account " + strconv.Quote(id)}
		}
		hp.Explicit = append(hp.Explicit, j)
	}
	return nil
}

// splitOf is country cc's pension income splitting, nil for none.
func splitOf(in *Inputs, cc string) *household.PensionSplit {
	if in.Wrappers == nil {
		return nil
	}
	if r := in.Wrappers(cc); r != nil {
		return r.PensionSplit
	}
	return nil
}

// supplements appends to dst the means-tested pensions of the residences'
// countries, each once, as many as a plan may carry.
func supplements(homes []household.Residence, rules func(string) *household.Rules, dst []*household.Supplement) []*household.Supplement {
	for i := range homes {
		r := rules(homes[i].Country)
		if r == nil || (i > 0 && homes[i].Country == homes[i-1].Country) {
			continue
		}
		for k := range r.Supplements {
			s := &r.Supplements[k]
			if len(dst) < household.MaxSupplements && !slices.Contains(dst, s) {
				dst = append(dst, s)
			}
		}
	}
	return dst
}
