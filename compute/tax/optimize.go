package tax

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Ranking countries and special programs by after-tax income.
//
// Optimize takes one income, in the currency of the country where the
// person lives now, and taxes it in every candidate country (converted at
// the caller's exchange rates) under the country's normal rules and under
// each special program a newcomer can join. Each option is also put in US
// dollars, and, given a yearly budget, carries its after-tax FI number: the
// portfolio whose withdrawals, taxed as the same mix of income, leave the
// budget to spend (GrossFor divided by the withdrawal rate).

// Rates converts an amount between two currencies (ISO 4217 codes); it
// reports false when it has no rate for one of them. The caller fills it
// from its exchange-rate table; the engine reads no dataset.
type Rates interface {
	Convert(amount float64, from, to string) (float64, bool)
}

// Origin is the income, by where it arises, that a program rule covers.
type Origin uint8

// Origins.
const (
	OriginAll      Origin = iota // every income of the covered parts
	OriginForeign                // the parts that arise abroad
	OriginDomestic               // the parts that arise in the country itself
)

// ScopedRule is one rule of a special program and the income it covers by
// origin.
type ScopedRule struct {
	Rule   RegimeRule
	Origin Origin
}

// Offer is a special program in engine form.
type Offer struct {
	ID    string // Regime.ID
	Label string // Regime.Label
	// Closed: no new entrants, so never suggested to someone moving.
	Closed bool
	// Why says why the program cannot be calculated; "" when it can.
	Why   string
	Rules []ScopedRule
}

// Regime fills rg with the offer's rules, keeping of each rule the parts
// whose origin it covers; domestic marks the parts that arise in the
// country itself. It does not allocate.
func (o *Offer) Regime(domestic *[NumParts]bool, rg *Regime) {
	rg.ID, rg.Label, rg.N = o.ID, o.Label, 0
	for i := range o.Rules {
		sr := &o.Rules[i]
		r := sr.Rule
		for p := range r.Parts {
			switch sr.Origin {
			case OriginForeign:
				r.Parts[p] = r.Parts[p] && !domestic[p]
			case OriginDomestic:
				r.Parts[p] = r.Parts[p] && domestic[p]
			}
		}
		rg.Add(r)
	}
}

// Candidate is a country one might move to, with its programs.
type Candidate struct {
	System *System
	// Region is the region the income is taxed in; "" takes the one the
	// country's file names for comparisons (System.LocalTax.Region).
	Region string
	Offers []*Offer
}

// Same reports whether c and o tax the income alike: the same country in
// the same region.
func (c Candidate) Same(o Candidate) bool {
	return c.System == o.System && c.named() == o.named()
}

// named is the region c names, or the country's comparison region.
func (c *Candidate) named() string {
	if c.Region != "" {
		return c.Region
	}
	return c.System.LocalTax.Region
}

// region is the region c is taxed in for year: the one it names, or the
// comparison region where the year models it ("" where it does not: the
// national taxes alone).
func (c *Candidate) region(year int) string {
	if c.Region != "" {
		return c.Region
	}
	return c.System.LocalRegion(year)
}

// Query is what Optimize compares.
type Query struct {
	// Home is where the person lives now: Income is in its currency, it is
	// taxed in its LocalTax region under its normal rules only.
	Home   *System
	Income Income
	// Year is the tax year compared where a country has it; 0 (and a year a
	// country lacks) takes each country's latest. A country taxed in its
	// comparison region (a candidate naming no region, and Home) goes back
	// from that year to the latest one that models the region, so that its
	// local tax is counted; Option.Year says which year was taken. Without
	// such a year it keeps the year and counts the national taxes alone.
	Year int
	// BudgetUSD is the yearly spending in US dollars; above 0 it adds each
	// option's FI number at WithdrawalRate.
	BudgetUSD      float64
	WithdrawalRate float64
	// Domestic marks the parts that would arise in the candidate country.
	Domestic [NumParts]bool
	// Programs: also rank the candidates' open, calculable offers.
	Programs   bool
	Candidates []Candidate
}

// Option is the income taxed in one country, under its normal rules (Offer
// nil) or one program. Amounts are in the country's currency, the *USD
// ones in US dollars.
type Option struct {
	System *System
	Region string // the region taxed; "" for national tax only
	Offer  *Offer
	Year   int

	Gross, Tax, Net          float64
	GrossUSD, TaxUSD, NetUSD float64
	// With a budget: FI is the portfolio that yields Withdrawal a year,
	// the gross whose after-tax income is the budget. HasFI is false
	// without a budget or when no gross below 1e15 leaves it.
	FI, FIUSD, Withdrawal float64
	HasFI                 bool
}

// Skip is a candidate or program Optimize leaves out, and why.
type Skip struct {
	Country string
	Program string // "" for the country as a whole
	Reason  string
}

// Ranking is Optimize's answer. Its slices are reused from call to call:
// keep one Ranking per worker.
type Ranking struct {
	Current Option   // Home under its normal rules
	Options []Option // best first
	Skipped []Skip
	rg      Regime
}

// ErrOptimize marks a query Optimize cannot answer.
var ErrOptimize = errors.New("tax: invalid optimize query")

// Optimize ranks q's candidates into r, best first by after-tax income in
// US dollars; ties go by country code, the normal rules before programs,
// then program id. A candidate whose currency fx cannot convert is skipped
// and said so; Home without a rate is an error. Closed programs, programs
// that cannot be calculated and programs whose rules cover none of the
// income are skipped with the reason. Apart from the skip reasons of
// missing rates, it does not allocate once r's slices have grown.
func Optimize(q *Query, fx Rates, r *Ranking) error {
	r.Options, r.Skipped = r.Options[:0], r.Skipped[:0]
	if q.Home == nil {
		return fmt.Errorf("cannot optimize without a home country: %w", ErrOptimize)
	}
	home := Candidate{System: q.Home}
	in, usd, budget, ok := q.prepare(&r.Current, &home, fx)
	if !ok {
		return fmt.Errorf("cannot convert %s to USD: no exchange rate: %w", q.Home.Currency, ErrOptimize)
	}
	if err := q.evaluate(&r.Current, &in, nil, usd, budget); err != nil {
		return err
	}
	for i := range q.Candidates {
		c := &q.Candidates[i]
		if c.Region != "" && !c.System.HasRegion(c.Region) {
			return fmt.Errorf("cannot tax in %s-%s: %w", c.System.Country, c.Region, ErrRegion)
		}
		if y := yearIn(c.System, q.Year); c.Region != "" && !c.System.Covers(y, c.Region) {
			r.Skipped = append(r.Skipped, Skip{Country: c.System.Country, Reason: c.Region + " is not modelled for " + strconv.Itoa(y)})
			continue
		}
		var o Option
		in, usd, budget, ok := q.prepare(&o, c, fx)
		if !ok {
			r.Skipped = append(r.Skipped, Skip{Country: c.System.Country, Reason: "no exchange rate for " + c.System.Currency})
			continue
		}
		if err := q.evaluate(&o, &in, nil, usd, budget); err != nil {
			return err
		}
		r.Options = append(r.Options, o)
		if !q.Programs || c.System == q.Home {
			continue
		}
		for _, of := range c.Offers {
			switch {
			case of.Closed:
				r.Skipped = append(r.Skipped, Skip{c.System.Country, of.ID, "closed to new entrants"})
				continue
			case of.Why != "":
				r.Skipped = append(r.Skipped, Skip{c.System.Country, of.ID, of.Why})
				continue
			}
			of.Regime(&q.Domestic, &r.rg)
			if !covers(&r.rg, &in) {
				r.Skipped = append(r.Skipped, Skip{c.System.Country, of.ID, "its rules cover none of this income (see domesticIncome)"})
				continue
			}
			po := o
			po.Offer = of
			if err := q.evaluate(&po, &in, &r.rg, usd, budget); err != nil {
				return err
			}
			r.Options = append(r.Options, po)
		}
	}
	slices.SortStableFunc(r.Options, compareOptions)
	return nil
}

// prepare starts o for c and returns the income in c's currency, the rate
// of that currency to US dollars and the budget in it (0: none); ok is
// false when fx lacks a rate.
func (q *Query) prepare(o *Option, c *Candidate, fx Rates) (in Income, usd, budget float64, ok bool) {
	sys := c.System
	f, ok1 := fx.Convert(1, q.Home.Currency, sys.Currency)
	usd, ok2 := fx.Convert(1, sys.Currency, "USD")
	if !ok1 || !ok2 || !finitePositive(f) || !finitePositive(usd) {
		return in, 0, 0, false
	}
	year := yearIn(sys, q.Year)
	if c.Region == "" {
		year = localYear(sys, year)
	}
	*o = Option{System: sys, Region: c.region(year), Year: year}
	if q.BudgetUSD > 0 {
		budget = q.BudgetUSD / usd
	}
	x := &q.Income
	in = Income{Employment: x.Employment * f, SelfEmployment: x.SelfEmployment * f, Pension: x.Pension * f,
		Interest: x.Interest * f, Dividends: x.Dividends * f, CapitalGains: x.CapitalGains * f, SocialSecurity: x.SocialSecurity * f}
	return in, usd, budget, true
}

// evaluate fills o for in (in o's currency) under rg (nil: the normal
// rules); usd converts to US dollars, budget is the yearly spending in o's
// currency (0: no FI number).
func (q *Query) evaluate(o *Option, in *Income, rg *Regime, usd, budget float64) error {
	t, err := Due(o.System, o.Year, in, o.Region, rg)
	if err != nil {
		return fmt.Errorf("cannot tax the income in %s: %w", o.System.Country, err)
	}
	o.Gross, o.Tax = in.Total(), t
	o.Net = o.Gross - t
	o.GrossUSD, o.TaxUSD, o.NetUSD = o.Gross*usd, t*usd, o.Net*usd
	o.HasFI = false
	if budget > 0 && q.WithdrawalRate > 0 {
		g, ok, err := GrossFor(o.System, o.Year, in, o.Region, rg, budget)
		if err != nil {
			return fmt.Errorf("cannot find the gross income for the budget in %s: %w", o.System.Country, err)
		}
		// A withdrawal rate near 0 would make the FI number infinite: none.
		if fi := g / q.WithdrawalRate; ok && finite(fi) && finite(fi*usd) {
			o.HasFI, o.Withdrawal, o.FI, o.FIUSD = true, g, fi, fi*usd
		}
	}
	return nil
}

// yearIn is the year compared in sys: year where sys has it, else its
// latest.
func yearIn(sys *System, year int) int {
	if year != 0 {
		if _, err := sys.Year(year); err == nil {
			return year
		}
	}
	return sys.Latest()
}

// localYear is the year sys is compared in when taxed in its comparison
// region: year where it models the region (or sys names none), else the
// latest earlier year that does, else year.
func localYear(sys *System, year int) int {
	lr := sys.LocalTax.Region
	if lr == "" || sys.Covers(year, lr) {
		return year
	}
	for i := len(sys.years) - 1; i >= 0; i-- {
		if y := sys.years[i].Year; y < year && sys.Covers(y, lr) {
			return y
		}
	}
	return year
}

// covers reports whether a rule of rg covers a part of in above 0.
func covers(rg *Regime, in *Income) bool {
	amounts := in.parts()
	for i := range rg.Rules[:rg.N] {
		for p, on := range rg.Rules[i].Parts {
			if on && amounts[p] > 0 {
				return true
			}
		}
	}
	return false
}

// compareOptions ranks by after-tax income in US dollars, best first; ties
// by country code, the normal rules before programs, then program id.
func compareOptions(a, b Option) int {
	switch {
	case a.NetUSD > b.NetUSD:
		return -1
	case a.NetUSD < b.NetUSD:
		return 1
	case a.System.Country != b.System.Country:
		if a.System.Country < b.System.Country {
			return -1
		}
		return 1
	case a.Offer == nil || b.Offer == nil:
		if a.Offer == nil && b.Offer != nil {
			return -1
		}
		if a.Offer != nil && b.Offer == nil {
			return 1
		}
		return 0
	case a.Offer.ID < b.Offer.ID:
		return -1
	case a.Offer.ID > b.Offer.ID:
		return 1
	}
	return 0
}

func finite(x float64) bool         { return !math.IsNaN(x) && !math.IsInf(x, 0) }
func finitePositive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }
