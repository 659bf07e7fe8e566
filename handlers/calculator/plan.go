package calculator

import (
	"math"
	"strconv"
	"strings"

	"fiplan/compute/fi"
	place "fiplan/compute/geo"
	"fiplan/compute/tax"
	"fiplan/handlers/rest"
)

// planInfo is what one plan (the base or a scenario) adds to its engine
// input: the city its retirement spending comes from and its taxes.
// Money is in the plan's currency, today's money.
type planInfo struct {
	city      *place.City // nil: no city
	household int
	cityUSD   int     // the city's monthly budget for the household, USD
	spending  float64 // retirement spending after tax

	grossIncome   float64 // annualIncome before tax
	incomeTax     float64 // its tax as employment income
	grossSpending float64 // retirement income that leaves spending after tax
}

// taxPlan is the request's tax settings, resolved.
type taxPlan struct {
	sys    *tax.System
	year   int
	region string
	part   tax.Part // how retirement income is taxed
	// toTax converts the plan's currency into the tax system's.
	toTax float64
}

// due is the tax on amount (the plan's currency) as income of part.
func (t *taxPlan) due(amount float64, part tax.Part) float64 {
	in := incomeOf(part, amount*t.toTax)
	d, err := tax.Due(t.sys, t.year, &in, t.region, nil)
	if err != nil {
		return 0 // year and region were checked when the plan was resolved
	}
	return d / t.toTax
}

// grossFor is the retirement income, taxed as t.part, that leaves net.
func (t *taxPlan) grossFor(net float64) (float64, bool) {
	mix := incomeOf(t.part, 1)
	g, ok, err := tax.GrossFor(t.sys, t.year, &mix, t.region, nil, net*t.toTax)
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
	}
	return in
}

func parsePart(name string) tax.Part {
	for p := tax.Part(0); p < tax.NumParts; p++ {
		if p.String() == name {
			return p
		}
	}
	return tax.Pension
}

// resolveTax checks the request's tax and currency against the tables and
// fills w.tax and w.currency. On a failure it has answered.
func (s *Handlers) resolveTax(c *rest.Ctx, w *calcWork) bool {
	req := &w.req
	w.currency = req.Currency
	w.taxOn = req.Tax != nil
	if !w.taxOn {
		if w.currency == "" {
			w.currency = "USD"
		}
		return true
	}
	rt, t := req.Tax, &w.tax
	sys, ok := s.taxes.ByCountry(rt.Country)
	if !ok {
		c.Fail("tax.country", "no tax parameters for "+strconv.Quote(rt.Country)+"; supported: "+strings.Join(s.taxes.Codes(), ", "))
		return false
	}
	*t = taxPlan{sys: sys, year: rt.Year, part: parsePart(rt.WithdrawalIncome), toTax: 1}
	if t.year == 0 {
		t.year = sys.Latest()
	} else if _, err := sys.Year(t.year); err != nil {
		c.Fail("tax.year", sys.Country+" has the tax years "+joinInts(sys.Years()))
		return false
	}
	if rt.Region != "" {
		k := regionIndex(sys, rt.Region)
		switch {
		case k < 0:
			c.Fail("tax.region", "unknown region "+strconv.Quote(rt.Region)+" for "+sys.Country+regionList(sys))
			return false
		case !sys.Covers(t.year, sys.Regions[k].Code):
			c.Fail("tax.region", sys.Country+" models region "+sys.Regions[k].Code+" only in other tax years than "+strconv.Itoa(t.year))
			return false
		}
		t.region = sys.Regions[k].Code
	}
	if w.currency == "" {
		w.currency = sys.Currency
	}
	if w.currency != sys.Currency {
		rate, ok := s.fx.Convert(1, w.currency, sys.Currency)
		if !ok {
			c.Fail("currency", sys.Currency+", the currency of tax.country, has no reference rate: send the amounts in "+sys.Currency)
			return false
		}
		t.toTax = rate
	}
	return true
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

// resolveCity sets the retirement spending of plan k from its city, if it
// has one: the scenario's own cityId, else the base's unless the scenario
// sets retirementExpenses. On a failure it has answered.
func (s *Handlers) resolveCity(c *rest.Ctx, w *calcWork, k int, in *fi.Input) bool {
	base := &w.req.calcParams
	own, prefix := base, ""
	if k > 0 {
		own, prefix = &w.req.Scenarios[k-1].calcParams, "scenarios["+strconv.Itoa(k-1)+"]."
	}
	if own.CityID != "" && own.RetirementExpenses != nil {
		c.Fail(prefix+"cityId", "give retirementExpenses or cityId, not both")
		return false
	}
	id := own.CityID
	if id == "" && own.RetirementExpenses == nil {
		id = base.CityID
	}
	n := 1
	if own.HouseholdSize != nil {
		n = *own.HouseholdSize
	} else if base.HouseholdSize != nil {
		n = *base.HouseholdSize
	}
	p := &w.plans[k]
	if id == "" {
		if own.HouseholdSize != nil {
			c.Fail(prefix+"householdSize", "applies only with a cityId")
			return false
		}
		return true
	}
	city, ok := s.cities[id]
	if !ok {
		field := prefix + "cityId"
		if own.CityID == "" {
			field = "cityId"
		}
		c.Fail(field, "no city "+strconv.Quote(id)+"; GET /api/v1/geo/cities lists them")
		return false
	}
	lines := city.Budget(n)
	usd := lines.Total()
	yearly, ok := s.fx.Convert(12*float64(usd), "USD", w.currency)
	if !ok {
		c.Fail("currency", "has no reference rate to convert the city's budget from USD")
		return false
	}
	p.city, p.household, p.cityUSD = city, n, usd
	in.RetirementExpenses = yearly
	return true
}

// applyTax turns plan k's gross income into take-home pay and grosses its
// retirement spending up by the tax due on it. It reports false when no
// retirement income below 1e15 leaves the spending after tax.
func (w *calcWork) applyTax(c *rest.Ctx, k int, in *fi.Input) bool {
	p, t := &w.plans[k], &w.tax
	p.grossIncome = in.AnnualIncome
	if p.grossIncome > 0 {
		p.incomeTax = min(t.due(p.grossIncome, tax.Employment), p.grossIncome)
	}
	in.AnnualIncome = p.grossIncome - p.incomeTax
	g, ok := t.grossFor(p.spending)
	if !ok {
		field := "tax"
		if k > 0 {
			field = "scenarios[" + strconv.Itoa(k-1) + "].retirementExpenses"
		}
		c.Fail(field, "no retirement income leaves the retirement spending after this country's tax")
		return false
	}
	p.grossSpending = g
	in.RetirementExpenses = g
	return true
}

// rowTaxes appends the tax of each row, in money of that year: in working
// years the employment tax, growing with income and prices as the
// take-home income does (today's average rate kept); in drawdown years the
// tax on that year's retirement income (withdrawals and pensions), with
// the brackets rising with inflation.
func (w *calcWork) rowTaxes(dst []float64, rows []fi.Year, in *fi.Input, p *planInfo) []float64 {
	t := &w.tax
	cpi, grow := 1.0, 1.0
	lastCents, lastTax := -1.0, 0.0
	for i := range rows {
		r := &rows[i]
		var x float64
		if r.Retired {
			// Constant real spending repeats the same income: tax it once.
			cents := math.Round((r.Withdrawals + r.Pension) / cpi * 100)
			if cents != lastCents {
				lastCents, lastTax = cents, t.due(cents/100, t.part)
			}
			x = lastTax * cpi
		} else {
			// The engine saves a working year's income at year-end prices.
			x = p.incomeTax * grow * cpi * (1 + in.InflationRate)
		}
		dst = append(dst, x)
		cpi *= 1 + in.InflationRate
		grow *= 1 + in.IncomeGrowthRate
	}
	return dst
}
