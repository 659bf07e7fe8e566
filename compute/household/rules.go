package household

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"fiplan/compute/tax"
)

// Kind is what a wrapper does with tax: when its money is taxed.
type Kind uint8

// Wrapper kinds.
const (
	KindTaxable     Kind = iota // taxed as it grows (dividends, gains when sold)
	KindTaxDeferred             // contributions relieved, withdrawals taxed as income
	KindTaxFree                 // contributions from taxed pay, withdrawals free
	KindPension                 // a pension pot: relieved, locked to an age, part tax-free
)

var kindNames = [...]string{"taxable", "tax-deferred", "tax-free", "pension"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Taxed is how a withdrawal from a wrapper is taxed.
type Taxed uint8

// Withdrawal treatments.
const (
	TaxedNone   Taxed = iota // free of tax
	TaxedIncome              // taxed as pension income
	TaxedGains               // only the gain share, as a capital gain
)

var taxedNames = [...]string{"none", "income", "gains"}

func (t Taxed) String() string { return taxedNames[t] }

// Rules are one country's wrappers, statutory benefits and the tables they
// read, decoded from its wrapper file.
type Rules struct {
	Country   string                  `json:"country"`
	Documents map[string]tax.Document `json:"documents"`
	Notes     []string                `json:"notes"`
	Wrappers  []Wrapper               `json:"wrappers"`
	Benefits  []Benefit               `json:"benefits"`
	Tables    map[string]Table        `json:"tables"`
	// Schedules are the separate taxes wrappers' withdrawals may name
	// (withdrawals.separate.schedule), shared by name so that the year's
	// withdrawals under one schedule are taxed together.
	Schedules map[string]*Schedule `json:"schedules,omitempty"`
	// PensionSplit, when set, lets a couple each taxed alone move pension
	// income from one return to the other (Canada's pension income
	// splitting).
	PensionSplit *PensionSplit `json:"pensionSplit,omitempty"`
	// Health are the rules on health costs that depend on income.
	Health *Health `json:"health,omitempty"`
	// SEPP, when set, lets a series of periodic payments open a wrapper
	// before its access age without its charge.
	SEPP *SEPP `json:"sepp,omitempty"`
	// Supplements are the country's means-tested public pensions.
	Supplements []Supplement `json:"supplements,omitempty"`
}

// PensionSplit moves up to Share of the eligible pension income (pensions
// and withdrawals taxed as pension income, not statutory benefits) of a
// partner at least FromAge old to the other partner's return. The engine
// splits tax-smart: as much as brings the two incomes closest.
type PensionSplit struct {
	Share   float64      `json:"share"`
	FromAge int          `json:"fromAge"`
	Src     []tax.Source `json:"src"`
}

// Wrapper is one kind of account and the statute's rules for it.
type Wrapper struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	KindName   string     `json:"kind"`
	Kind       Kind       `json:"-"`
	Notes      string     `json:"notes"`
	Contrib    Contrib    `json:"contributions"`
	Access     Access     `json:"access"`
	Withdrawal Withdrawal `json:"withdrawals"`
	RMD        *RMD       `json:"rmd,omitempty"`
	// EarningsTax is the share of the yearly growth taxed inside the
	// wrapper (a super fund's 15% on earnings); the plan's return is
	// before it.
	EarningsTax float64 `json:"earningsTax,omitempty"`
	// Advance, when set, taxes a yearly deemed gain in advance of a sale
	// (Germany's Vorabpauschale on accumulating funds).
	Advance *Advance `json:"advanceTax,omitempty"`
	// Phase, when set, moves the balance up to a cap into a retirement
	// phase whose earnings are free of EarningsTax (Australia's
	// account-based pension, up to the transfer balance cap).
	Phase *RetirementPhase `json:"retirementPhase,omitempty"`
	// partnerID names an account of the wrapper the plan adds for a
	// partner (a Roth IRA conversions go to).
	partnerID string
	Sources   []tax.Source `json:"src"`
}

// Advance is a yearly deemed gain of an account held all year: Share of
// the year's base rate (Rates, by year; the last holds after) times its
// balance after the year's withdrawals, at most its growth and not below
// 0. It is taxed as a gain (less the wrapper's GainsExempt) in the next
// year's return, when the law deems it received, and added to the cost
// basis, so a later sale's gain is that much smaller.
type Advance struct {
	Share float64      `json:"share"`
	Rates []Limit      `json:"rates"`
	Src   []tax.Source `json:"src"`
}

// rate is the base rate of year.
func (a *Advance) rate(year int) float64 {
	r := 0.0
	for i := range a.Rates {
		if a.Rates[i].Year <= year || i == 0 {
			r = a.Rates[i].Amount
		}
	}
	return r
}

// RetirementPhase is a wrapper's retirement phase: from FromAge, in the first year
// its owner does not work, the balance up to the year's Cap starts paying
// a pension and its earnings are no longer taxed; the rest stays in
// accumulation. Withdrawals come from both parts in proportion.
type RetirementPhase struct {
	FromAge int `json:"fromAge"`
	// Cap by year (its amounts in the wrapper country's money of that
	// year); after the last year, when Indexed, it rises with prices and is
	// rounded down to a multiple of Step.
	Cap     []Limit      `json:"cap"`
	Indexed bool         `json:"indexed,omitempty"`
	Step    float64      `json:"step,omitempty"`
	Src     []tax.Source `json:"src"`
}

// CapFor is the cap of year; infl is the growth of prices from the last
// year given to year.
func (p *RetirementPhase) CapFor(year int, infl float64) float64 {
	c := Contrib{Limits: p.Cap, Indexed: p.Indexed}
	amount, _ := c.LimitFor(year, 0, infl)
	if p.Indexed && p.Step > 0 && year > p.Cap[len(p.Cap)-1].Year {
		amount = math.Floor(amount/p.Step+1e-9) * p.Step
	}
	return amount
}

// Contrib is what may be paid into a wrapper.
type Contrib struct {
	// Closed: no new contributions at all (a wrapper kept for existing
	// balances only).
	Closed bool `json:"closed,omitempty"`
	// PreTax contributions are taken off the employment income that is
	// taxed.
	PreTax bool `json:"preTax,omitempty"`
	// SocialWages: pre-tax contributions stay wages for social
	// contributions (US elective deferrals are FICA wages); else they are
	// taken off the wages social contributions are charged on too.
	SocialWages bool `json:"socialWages,omitempty"`
	// Group names the limit the wrapper shares with others (the US
	// elective-deferral limit of 401(k) and Roth 401(k)); "" its own.
	// Each wrapper stays within its own Limits, and the group's total
	// within the largest of its wrappers' limits (the UK Lifetime ISA's
	// 4,000 counts within the 20,000 ISA allowance).
	Group string `json:"group,omitempty"`
	// Limits are the yearly limits per person by tax year, ascending;
	// none: no statutory limit.
	Limits []Limit `json:"limits,omitempty"`
	// Indexed: after the last year given, the limit rises with inflation;
	// else it stays at the last year's amount.
	Indexed bool `json:"indexed,omitempty"`
	// EarnedShare, when > 0, also caps contributions at this share of the
	// person's employment income (Canada's RRSP: 18%).
	EarnedShare float64 `json:"earnedShare,omitempty"`
	// FromAge and ToAge bound the ages contributions are accepted at (a
	// person may pay in while FromAge <= age < ToAge; 0 for no bound).
	FromAge int `json:"fromAge,omitempty"`
	ToAge   int `json:"toAge,omitempty"`
	// Bonus is a top-up paid into the wrapper on each contribution, as a
	// share of it (the UK LISA's 25% government bonus).
	Bonus float64 `json:"bonus,omitempty"`
	// Employer: the wrapper takes employer contributions (outside Limits
	// unless EmployerInLimit).
	Employer        bool `json:"employer,omitempty"`
	EmployerInLimit bool `json:"employerInLimit,omitempty"`
	// WorkingOnly: contributions need employment income that year.
	WorkingOnly bool `json:"workingOnly,omitempty"`
	// Tax is the share of each contribution the wrapper pays as tax on
	// entry (Australia's 15% on concessional super contributions).
	Tax float64 `json:"tax,omitempty"`
	// Lifetime, when > 0, caps the account's capital paid in (its cost
	// basis) over its life (France's PEA: 150,000 of payments).
	Lifetime float64 `json:"lifetime,omitempty"`
}

// Limit is a year's contribution limit with its catch-ups by age.
type Limit struct {
	Year   int     `json:"year"`
	Amount float64 `json:"amount"`
	// Family, when > 0, is the limit of a plan for two (family coverage of
	// a US HSA): shared by the spouses, each adding their own catch-up.
	Family  float64   `json:"family,omitempty"`
	CatchUp []CatchUp `json:"catchUp,omitempty"`
	// LessWageShare, when > 0, lowers the year's limit by this share of the
	// person's wages up to LessWageCap: room other statutory payments use
	// up (Germany's Höchstbetrag for Altersvorsorgeaufwendungen less the
	// statutory pension contributions, 18.6% of pay up to the ceiling).
	LessWageShare float64 `json:"lessWageShare,omitempty"`
	LessWageCap   float64 `json:"lessWageCap,omitempty"`
	// EarnedAbove is the part of wages EarnedShare does not count (the
	// Netherlands' AOW-franchise in the jaarruimte).
	EarnedAbove float64 `json:"earnedAbove,omitempty"`
	// AfterDraw, when > 0, is the limit from the year after its owner
	// first draws from a wrapper of this kind (the UK money purchase annual
	// allowance after a flexible draw).
	AfterDraw float64 `json:"afterDraw,omitempty"`
	// Taper lowers the limit of a person with a high income.
	Taper *Taper `json:"taper,omitempty"`
	// Src is where the year's figure comes from.
	Src []tax.Source `json:"src,omitempty"`
}

// Taper lowers a limit by Rate of the adjusted income (wages and employer
// contributions) above AdjustedAbove, when the threshold income (wages)
// is above ThresholdAbove, down to Floor at least (the UK tapered annual
// allowance). Amounts are in the limit's money, indexed as it is.
type Taper struct {
	ThresholdAbove float64 `json:"thresholdAbove"`
	AdjustedAbove  float64 `json:"adjustedAbove"`
	Rate           float64 `json:"rate"`
	Floor          float64 `json:"floor"`
}

// CatchUp raises the limit by Amount for ages FromAge <= age < ToAge
// (ToAge 0: for life). The largest catch-up that applies counts.
type CatchUp struct {
	FromAge int     `json:"fromAge"`
	ToAge   int     `json:"toAge,omitempty"`
	Amount  float64 `json:"amount"`
}

// Access is when a wrapper's money may be taken without a charge.
type Access struct {
	// Age is the access age (59.5 for a US IRA); 0: any time. ByBirth, when
	// set, gives it by year of birth instead.
	Age     float64     `json:"age,omitempty"`
	ByBirth []BirthRule `json:"byBirth,omitempty"`
	// Penalty is the share of a withdrawal before the access age charged
	// on top of the tax (the US 10% additional tax, the LISA's 25%).
	Penalty float64 `json:"penalty,omitempty"`
	// Locked: nothing can be taken before the access age at all.
	Locked bool `json:"locked,omitempty"`
	// SeparationAge, when > 0, opens the wrapper without a charge for a
	// person who stops work in or after the year they reach this age (the
	// US rule of 55).
	SeparationAge float64 `json:"separationAge,omitempty"`
	// BasisFirst: contributions come out first, free of tax and charge,
	// before the access age (a Roth IRA's contributions).
	BasisFirst bool `json:"basisFirst,omitempty"`
	// Seasoning, when > 0: converted money may be taken free of the charge
	// once this many tax years have begun since the conversion (the Roth
	// five-year rule).
	Seasoning int `json:"seasoning,omitempty"`
	// QualifiedAfter, when > 0: earnings taken after the access age are
	// free of tax only once this many tax years have begun since the
	// account was opened (a Roth IRA's five years for a qualified
	// distribution); before, contributions and conversions come out first,
	// free, and earnings are taxed as income without the charge.
	QualifiedAfter int `json:"qualifiedAfter,omitempty"`
	// ConvertTo names the wrapper conversions move this one's money to.
	ConvertTo string `json:"convertTo,omitempty"`
	// Exceptions describe statutory exceptions the plan does not apply by
	// itself, for the notes (72(t) payments, hardship).
	Exceptions []string `json:"exceptions,omitempty"`
}

// BirthRule is an age that holds for people born in From or later (until
// the next rule's From).
type BirthRule struct {
	From int     `json:"bornFrom"`
	Age  float64 `json:"age"`
}

// Withdrawal is how money taken out is taxed.
type Withdrawal struct {
	TaxedName string `json:"taxed"`
	Taxed     Taxed  `json:"-"`
	// TaxFreeShare of each withdrawal is free of tax (a UK pension's 25%
	// taken with each payment) while the lifetime TaxFreeCap (money of
	// TaxFreeCapYear, frozen unless indexed) is not used up.
	TaxFreeShare float64 `json:"taxFreeShare,omitempty"`
	TaxFreeCap   float64 `json:"taxFreeCap,omitempty"`
	// EarningsTaxedEarly: earnings taken before the access age are taxed
	// as income (a Roth's non-qualified distribution); else they are free.
	EarningsTaxedEarly bool `json:"earningsTaxedEarly,omitempty"`
	// GainsExempt is the share of a gain free of tax (Germany's
	// Teilfreistellung of 30% for equity funds).
	GainsExempt float64 `json:"gainsExempt,omitempty"`
	// Separate, when set, taxes the withdrawal (or its gain) by a schedule
	// of its own, apart from the income tax of the residence.
	Separate *Separate `json:"separate,omitempty"`
}

// RMD is a required minimum withdrawal each year from an age.
type RMD struct {
	ByBirth []BirthRule `json:"byBirth"`
	// Table names the Rules table of divisors or factors by age.
	Table string `json:"table"`
	tab   *Table
}

// Divisors is the table of the required minimums (set by ParseRules).
func (m *RMD) Divisors() *Table { return m.tab }

// Table is a value by age from FromAge on; the last value holds for every
// older age. Divisor: the minimum is the balance divided by the value;
// else the balance times it. The age is the one reached in the year (year
// minus year of birth), as in the IRS tables; a table the authority keys by
// the age on 1 January (Canada's RRIF factors) is entered one age later.
type Table struct {
	FromAge int          `json:"fromAge"`
	Divisor bool         `json:"divisor,omitempty"`
	Values  []float64    `json:"values"`
	Src     []tax.Source `json:"src"`
}

// At is the table's value at age, or 0 below FromAge.
func (t *Table) At(age int) float64 {
	if age < t.FromAge || len(t.Values) == 0 {
		return 0
	}
	i := min(age-t.FromAge, len(t.Values)-1)
	return t.Values[i]
}

// Benefit is a statutory pension with its claiming rules.
type Benefit struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// NormalAge by year of birth: the age the benefit is paid in full.
	NormalAge []BirthRule `json:"normalAge"`
	// Earliest and Latest bound the claiming age; a claim after Latest
	// earns nothing more.
	Earliest float64 `json:"earliest"`
	Latest   float64 `json:"latest"`
	// NotBeforeNormal: the benefit cannot be claimed before the person's
	// normal age at all (the UK State Pension); a claim before it starts
	// at the normal age, unreduced. Earliest is then the lowest normal age.
	NotBeforeNormal bool `json:"notBeforeNormal,omitempty"`
	// Early reduces the benefit for each month claimed before the normal
	// age, step by step from the normal age down.
	Early []Step `json:"early,omitempty"`
	// DelayedPerMonth raises it for each month deferred past the normal
	// age, up to Latest.
	DelayedPerMonth float64 `json:"delayedPerMonth,omitempty"`
	// Raise, when set, increases the benefit by a share from an age of the
	// pensioner (Canada's OAS: 10% from 75).
	Raise *Raise `json:"raise,omitempty"`
	// Taxed: how it is taxed ("income" or "none").
	TaxedName string `json:"taxed"`
	// Inclusion is the share of the benefit taxed, when not all of it.
	Inclusion *Inclusion `json:"inclusion,omitempty"`
	// Recovery is a charge that takes back part of the benefit above an
	// income threshold.
	Recovery *Recovery `json:"recovery,omitempty"`
	// Spousal and Survivor, when set, pay a partner's benefit on the
	// other's record (the US spouse's and widow(er)'s benefits).
	Spousal  *Spousal     `json:"spousal,omitempty"`
	Survivor *Survivor    `json:"survivor,omitempty"`
	Sources  []tax.Source `json:"src"`
	Notes    string       `json:"notes,omitempty"`
}

// Spousal is a benefit on the partner's record while both live: Share of
// the partner's normal-age amount, less the person's own normal-age
// amount (their own is paid first), from when both have claimed; reduced
// by Early for each month it starts before the person's normal age, with
// no delayed credit.
type Spousal struct {
	Share float64      `json:"share"`
	Early []Step       `json:"early"`
	Src   []tax.Source `json:"src"`
}

// Survivor is the benefit of a widow(er) on the deceased partner's
// record: the deceased's benefit as paid (at least Floor of their
// normal-age amount when they claimed early), or their normal-age amount
// with the delayed credit earned to their death when they had not claimed,
// reduced when claimed before the survivor's own NormalAge, linearly to
// AtEarliest at Earliest. It is paid in so far as it exceeds the
// survivor's own benefit.
type Survivor struct {
	Earliest   float64      `json:"earliest"`
	NormalAge  []BirthRule  `json:"normalAge"`
	AtEarliest float64      `json:"atEarliest"`
	Floor      float64      `json:"floor"`
	Src        []tax.Source `json:"src"`
}

// Factor is the share of a survivor's benefit paid to a person born in
// birthYear who claims it at claimAge (a claim before Earliest is taken at
// Earliest).
func (s *Survivor) Factor(birthYear int, claimAge float64) float64 {
	normal := ByBirth(s.NormalAge, birthYear)
	claimAge = max(claimAge, s.Earliest)
	span := math.Round((normal - s.Earliest) * 12)
	early := math.Round((normal - claimAge) * 12)
	if early <= 0 || span <= 0 {
		return 1
	}
	return 1 - (1-s.AtEarliest)*early/span
}

// Factor is the share of the spousal amount paid when it starts at
// startAge for a person born in birthYear whose normal age is given by
// normal: reduced before it, never raised after.
func (sp *Spousal) Factor(normal, startAge float64) float64 {
	early := int(math.Round((normal - startAge) * 12))
	cut := 0.0
	for _, s := range sp.Early {
		if early <= 0 {
			break
		}
		n := early
		if s.Months > 0 {
			n = min(early, s.Months)
		}
		cut += float64(n) * s.PerMonth
		early -= n
	}
	return max(0, 1-cut)
}

// Raise is a benefit's increase by Share from the year its pensioner is
// FromAge.
type Raise struct {
	FromAge int          `json:"fromAge"`
	Share   float64      `json:"share"`
	Src     []tax.Source `json:"src"`
}

// Step is a rate per month for up to Months months (0: all the rest).
type Step struct {
	Months   int     `json:"months,omitempty"`
	PerMonth float64 `json:"perMonth"`
}

// Inclusion taxes up to Rates[1] of the benefit: the US rule on
// "provisional income" (other income + Half of the benefit) above the two
// bases, per filing status.
type Inclusion struct {
	Half   float64    `json:"half"`
	Single [2]float64 `json:"single"`
	Joint  [2]float64 `json:"joint"`
	Rates  [2]float64 `json:"rates"`
}

// Recovery takes back Rate of the person's income above the year's
// threshold, at most the benefit itself (Canada's OAS recovery tax).
type Recovery struct {
	Rate       float64 `json:"rate"`
	Thresholds []Limit `json:"thresholds"`
	Indexed    bool    `json:"indexed"`
}

var wrapperID = regexp.MustCompile(`^[a-z]{2}-[a-z0-9-]{1,24}$`)

// ParseRules decodes and checks one country's wrapper file.
func ParseRules(b []byte) (*Rules, error) {
	var r Rules
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("wrappers: decode: %w", err)
	}
	if len(r.Country) != 2 || strings.ToUpper(r.Country) != r.Country {
		return nil, fmt.Errorf("wrappers: country %q is not an upper-case ISO alpha-2 code", r.Country)
	}
	prefix := strings.ToLower(r.Country) + "-"
	seen := map[string]bool{}
	for i := range r.Wrappers {
		w := &r.Wrappers[i]
		if !wrapperID.MatchString(w.ID) || !strings.HasPrefix(w.ID, prefix) {
			return nil, fmt.Errorf("wrappers: %s: id %q is not %s<name>", r.Country, w.ID, prefix)
		}
		if seen[w.ID] {
			return nil, fmt.Errorf("wrappers: %s: %s twice", r.Country, w.ID)
		}
		seen[w.ID] = true
		w.partnerID = w.ID + "-partner"
		if err := r.check(w); err != nil {
			return nil, fmt.Errorf("wrappers: %s: %w", w.ID, err)
		}
	}
	for i := range r.Wrappers {
		if to := r.Wrappers[i].Access.ConvertTo; to != "" && !seen[to] {
			return nil, fmt.Errorf("wrappers: %s: convertTo %q is not a wrapper", r.Wrappers[i].ID, to)
		}
	}
	for i := range r.Benefits {
		if err := r.checkBenefit(&r.Benefits[i]); err != nil {
			return nil, fmt.Errorf("wrappers: %s: benefit %s: %w", r.Country, r.Benefits[i].Kind, err)
		}
	}
	if sp := r.PensionSplit; sp != nil {
		if sp.Share <= 0 || sp.Share > 1 || len(sp.Src) == 0 {
			return nil, fmt.Errorf("wrappers: %s: pensionSplit needs a share in (0, 1] and sources", r.Country)
		}
		if err := r.checkSources(sp.Src); err != nil {
			return nil, fmt.Errorf("wrappers: %s: pensionSplit: %w", r.Country, err)
		}
	}
	if err := r.checkSupplements(); err != nil {
		return nil, fmt.Errorf("wrappers: %s: %w", r.Country, err)
	}
	if err := r.checkSEPP(r.SEPP); err != nil {
		return nil, fmt.Errorf("wrappers: %s: sepp: %w", r.Country, err)
	}
	if err := r.checkHealth(r.Health); err != nil {
		return nil, fmt.Errorf("wrappers: %s: health: %w", r.Country, err)
	}
	for name, t := range r.Tables {
		if len(t.Values) == 0 || t.FromAge <= 0 {
			return nil, fmt.Errorf("wrappers: %s: table %s is empty", r.Country, name)
		}
		for _, v := range t.Values {
			if v <= 0 {
				return nil, fmt.Errorf("wrappers: %s: table %s holds %v", r.Country, name, v)
			}
		}
		if err := r.checkSources(t.Src); err != nil {
			return nil, fmt.Errorf("wrappers: %s: table %s: %w", r.Country, name, err)
		}
	}
	return &r, nil
}

func (r *Rules) check(w *Wrapper) error {
	k, ok := index(kindNames[:], w.KindName)
	if !ok {
		return fmt.Errorf("kind %q is not one of %s", w.KindName, strings.Join(kindNames[:], ", "))
	}
	w.Kind = Kind(k)
	t, ok := index(taxedNames[:], w.Withdrawal.TaxedName)
	if !ok {
		return fmt.Errorf("withdrawals.taxed %q is not one of %s", w.Withdrawal.TaxedName, strings.Join(taxedNames[:], ", "))
	}
	w.Withdrawal.Taxed = Taxed(t)
	if w.Name == "" || len(w.Sources) == 0 {
		return fmt.Errorf("has no name or no sources")
	}
	if err := r.checkSources(w.Sources); err != nil {
		return err
	}
	if !sort.SliceIsSorted(w.Contrib.Limits, func(i, j int) bool { return w.Contrib.Limits[i].Year < w.Contrib.Limits[j].Year }) {
		return fmt.Errorf("contribution limits are not by ascending year")
	}
	for _, l := range w.Contrib.Limits {
		if l.Amount <= 0 || (l.Family != 0 && l.Family < l.Amount) {
			return fmt.Errorf("limit %d is %v (family %v)", l.Year, l.Amount, l.Family)
		}
		if err := r.checkSources(l.Src); err != nil {
			return err
		}
	}
	if a := w.Access; a.Penalty < 0 || a.Penalty >= 1 || (a.Locked && a.Penalty > 0) {
		return fmt.Errorf("access: penalty %v with locked %v", a.Penalty, a.Locked)
	}
	if m := w.RMD; m != nil {
		t, ok := r.Tables[m.Table]
		if !ok || len(m.ByBirth) == 0 {
			return fmt.Errorf("rmd: table %q is not in tables, or no ages", m.Table)
		}
		m.tab = &t
		if !ascending(m.ByBirth) {
			return fmt.Errorf("rmd: byBirth is not by ascending year of birth")
		}
	}
	if ad := w.Advance; ad != nil {
		if ad.Share <= 0 || len(ad.Rates) == 0 || len(ad.Src) == 0 || !w.tracksCost() {
			return fmt.Errorf("advanceTax: needs a share, rates, sources and a wrapper taxed on its gains")
		}
		if err := r.checkSources(ad.Src); err != nil {
			return err
		}
		for _, l := range ad.Rates {
			if err := r.checkSources(l.Src); err != nil {
				return err
			}
		}
	}
	if ph := w.Phase; ph != nil {
		if len(ph.Cap) == 0 || ph.FromAge <= 0 || w.EarningsTax <= 0 || len(ph.Src) == 0 {
			return fmt.Errorf("retirementPhase: needs fromAge, a cap, sources and an earningsTax to lift")
		}
		if err := r.checkSources(ph.Src); err != nil {
			return err
		}
		for i, l := range ph.Cap {
			if l.Amount <= 0 || (i > 0 && l.Year <= ph.Cap[i-1].Year) {
				return fmt.Errorf("retirementPhase: cap %d is %v, or not by ascending year", l.Year, l.Amount)
			}
			if err := r.checkSources(l.Src); err != nil {
				return err
			}
		}
	}
	if !ascending(w.Access.ByBirth) {
		return fmt.Errorf("access: byBirth is not by ascending year of birth")
	}
	return r.checkSeparate(w)
}

// ascending reports whether the rules are by strictly ascending year of
// birth, the order ByBirth reads them in.
func ascending(rules []BirthRule) bool {
	for i := 1; i < len(rules); i++ {
		if rules[i].From <= rules[i-1].From {
			return false
		}
	}
	return true
}

func (r *Rules) checkBenefit(b *Benefit) error {
	if len(b.NormalAge) == 0 || b.Earliest <= 0 || b.Latest < b.Earliest {
		return fmt.Errorf("normal age, earliest or latest missing")
	}
	if !ascending(b.NormalAge) {
		return fmt.Errorf("normalAge is not by ascending year of birth")
	}
	if b.TaxedName != "income" && b.TaxedName != "none" {
		return fmt.Errorf("taxed %q is not income or none", b.TaxedName)
	}
	if rs := b.Raise; rs != nil {
		if rs.FromAge <= 0 || rs.Share <= 0 || len(rs.Src) == 0 {
			return fmt.Errorf("raise needs fromAge, a positive share and sources")
		}
		if err := r.checkSources(rs.Src); err != nil {
			return err
		}
	}
	if rc := b.Recovery; rc != nil && (rc.Rate <= 0 || len(rc.Thresholds) == 0) {
		return fmt.Errorf("recovery without rate or thresholds")
	}
	if sp := b.Spousal; sp != nil {
		if !(sp.Share > 0 && sp.Share <= 1) {
			return fmt.Errorf("spousal share %v", sp.Share)
		}
		if err := r.checkSources(sp.Src); err != nil {
			return err
		}
	}
	if sv := b.Survivor; sv != nil {
		if len(sv.NormalAge) == 0 || !ascending(sv.NormalAge) || sv.Earliest <= 0 || !(sv.AtEarliest > 0 && sv.AtEarliest <= 1) || sv.Floor < 0 || sv.Floor > 1 {
			return fmt.Errorf("survivor: normal ages, earliest, atEarliest or floor missing or out of range")
		}
		if err := r.checkSources(sv.Src); err != nil {
			return err
		}
	}
	return r.checkSources(b.Sources)
}

func (r *Rules) checkSources(src []tax.Source) error {
	for _, s := range src {
		if _, ok := r.Documents[s.Doc]; !ok {
			return fmt.Errorf("source cites %q, not in documents", s.Doc)
		}
	}
	return nil
}

func index(names []string, name string) (int, bool) {
	for i, n := range names {
		if n == name {
			return i, true
		}
	}
	return 0, false
}

// Wrapper returns the wrapper with id, or nil.
func (r *Rules) Wrapper(id string) *Wrapper {
	for i := range r.Wrappers {
		if r.Wrappers[i].ID == id {
			return &r.Wrappers[i]
		}
	}
	return nil
}

// Benefit returns the benefit of kind, or nil.
func (r *Rules) Benefit(kind string) *Benefit {
	for i := range r.Benefits {
		if r.Benefits[i].Kind == kind {
			return &r.Benefits[i]
		}
	}
	return nil
}

// ByBirth is the age the rules give for a person born in year; 0 with no
// rules.
func ByBirth(rules []BirthRule, year int) float64 {
	age := 0.0
	for _, b := range rules {
		if year >= b.From || age == 0 {
			age = b.Age
		}
	}
	return age
}

// LimitFor is the contribution limit of year for a person of age, with
// inflation after the last year given when indexed (infl: the growth of
// prices from the last given year to year); ok false when the wrapper has
// no limit.
func (c *Contrib) LimitFor(year, age int, infl float64) (limit float64, ok bool) {
	if len(c.Limits) == 0 {
		return 0, false
	}
	l := &c.Limits[0]
	for i := range c.Limits {
		if c.Limits[i].Year <= year {
			l = &c.Limits[i]
		}
	}
	amount := l.Amount + l.catchUp(age)
	if c.Indexed && year > c.Limits[len(c.Limits)-1].Year {
		amount *= infl
	}
	return amount, true
}

// catchUp is the largest catch-up of l for a person of age.
func (l *Limit) catchUp(age int) float64 {
	extra := 0.0
	for _, cu := range l.CatchUp {
		if age >= cu.FromAge && (cu.ToAge == 0 || age < cu.ToAge) {
			extra = max(extra, cu.Amount)
		}
	}
	return extra
}

// FamilyFor is the limit of year for a couple sharing family coverage
// (the family amount, indexed as LimitFor's) and the catch-up of a person
// of age within it; ok false when the wrapper has no family limit.
func (c *Contrib) FamilyFor(year, age int, infl float64) (family, catchUp float64, ok bool) {
	if len(c.Limits) == 0 {
		return 0, 0, false
	}
	l := &c.Limits[0]
	for i := range c.Limits {
		if c.Limits[i].Year <= year {
			l = &c.Limits[i]
		}
	}
	if l.Family <= 0 {
		return 0, 0, false
	}
	family, catchUp = l.Family, l.catchUp(age)
	if c.Indexed && year > c.Limits[len(c.Limits)-1].Year {
		family, catchUp = family*infl, catchUp*infl
	}
	return family, catchUp, true
}
