// Package program is the typed view over the special tax programs dataset
// (embed/tax/programs.json): expat, retiree and new-resident regimes such as
// Portugal's NHR, Italy's 7% pensioner regime or Spain's Beckham law.
//
// Load decodes and validates the raw bytes once; the resulting Table is
// read-only and safe for concurrent use.
//
// # Program fields
//
// A Program carries the fields the API documents (id, country, name,
// summary, rate, durationYears, eligibility, status, sources) plus kind,
// lumpSum, appliesTo, changes, rules and an optional notes field that records
// what could not be verified. Rate is the single rate of the regime where one
// rate applies (a fraction, 0.07 for 7%), otherwise null. DurationYears is
// null when the regime has no fixed length for the person (indefinite, or
// ending on a calendar date rather than after a number of years).
//
// StatusAsOf is the date (YYYY-MM-DD) on which the status was last checked
// against the authority's rules; it is never later than the dataset's
// meta.asOf.
//
// Status is one of:
//   - open: new entrants are admitted on the rules described;
//   - changed: new entrants are admitted, but the rules were materially
//     changed recently (see changes) and older entrants may be on other terms;
//   - closed: no new entrants; only people already in it (or in a
//     transitional window) keep it.
//
// # Rule model
//
// Rules are the machine-readable part a tax engine can apply for the simple
// cases; anything they cannot express stays in summary, eligibility and
// notes. Each Rule names the income parts it covers (the income parts of
// POST /tax/calculate: employment, selfEmployment, pension, interest,
// dividends, capitalGains) and a scope (foreign-source, domestic-source or
// all income). The rules of one program apply together. Types:
//
//   - flat: the covered income is taxed at Rate instead of the normal
//     schedule (optionally only up to IncomeCap per year).
//   - exempt: the covered income is not taxed.
//   - partialExempt: Fraction of the covered income is exempt; optional
//     IncomeFloor/IncomeCap bound the slice of income the relief applies to,
//     and ReliefCap bounds the exempt amount itself.
//   - lumpSum: a fixed yearly Amount replaces all tax on the covered income.
//   - minimumTax: the program's yearly tax is at least Amount.
//
// Amounts and caps are yearly, in Currency (ISO 4217). Condition is free
// text for a qualification the engine cannot check (for example "only
// income from listed high-value activities").
package program

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Status says whether a program admits new entrants.
type Status string

// Program statuses.
const (
	StatusOpen    Status = "open"
	StatusClosed  Status = "closed"
	StatusChanged Status = "changed"
)

// Statuses lists every valid Status.
var Statuses = []Status{StatusOpen, StatusClosed, StatusChanged}

// Kind classifies a program by how it works.
type Kind string

// Program kinds.
const (
	// KindPensionerFlat: a flat rate on (mainly foreign) income of retirees.
	KindPensionerFlat Kind = "pensioner-flat"
	// KindLumpSum: a fixed yearly amount (or a tax on a deemed base) in place
	// of tax on foreign income.
	KindLumpSum Kind = "lump-sum"
	// KindImpatriate: relief on work income for people recruited from abroad.
	KindImpatriate Kind = "impatriate"
	// KindNonDom: relief for residents who are not domiciled in the country.
	KindNonDom Kind = "non-dom"
	// KindHoliday: a time-limited exemption of foreign income for newcomers.
	KindHoliday Kind = "holiday"
	// KindVisa: a residence route whose tax effect comes from the country's
	// territorial or special rules for that status.
	KindVisa Kind = "visa"
	// KindRemittance: foreign income taxed only when brought into the country.
	KindRemittance Kind = "remittance"
	// KindInvestor: exemption of investment income for new resident investors.
	KindInvestor Kind = "investor"
	// KindSmallBusiness: a turnover tax for small sole traders.
	KindSmallBusiness Kind = "small-business"
	// KindDigitalNomad: exemption for remote workers of foreign employers.
	KindDigitalNomad Kind = "digital-nomad"
)

// Kinds lists every valid Kind.
var Kinds = []Kind{
	KindPensionerFlat, KindLumpSum, KindImpatriate, KindNonDom, KindHoliday,
	KindVisa, KindRemittance, KindInvestor, KindSmallBusiness, KindDigitalNomad,
}

// IncomePart is one part of a person's income, as in POST /tax/calculate.
type IncomePart string

// Income parts.
const (
	IncomeEmployment     IncomePart = "employment"
	IncomeSelfEmployment IncomePart = "selfEmployment"
	IncomePension        IncomePart = "pension"
	IncomeInterest       IncomePart = "interest"
	IncomeDividends      IncomePart = "dividends"
	IncomeCapitalGains   IncomePart = "capitalGains"
)

// IncomeParts lists every valid IncomePart.
var IncomeParts = []IncomePart{
	IncomeEmployment, IncomeSelfEmployment, IncomePension,
	IncomeInterest, IncomeDividends, IncomeCapitalGains,
}

// Scope says which income by source a program or rule covers.
type Scope string

// Scopes of income by source.
const (
	ScopeForeign  Scope = "foreign"
	ScopeDomestic Scope = "domestic"
	ScopeAll      Scope = "all"
)

// Scopes lists every valid Scope.
var Scopes = []Scope{ScopeForeign, ScopeDomestic, ScopeAll}

// RuleType is the kind of a machine-readable Rule; see the package doc.
type RuleType string

// Rule types.
const (
	RuleFlat          RuleType = "flat"
	RuleExempt        RuleType = "exempt"
	RulePartialExempt RuleType = "partialExempt"
	RuleLumpSum       RuleType = "lumpSum"
	RuleMinimumTax    RuleType = "minimumTax"
)

// RuleTypes lists every valid RuleType.
var RuleTypes = []RuleType{RuleFlat, RuleExempt, RulePartialExempt, RuleLumpSum, RuleMinimumTax}

// Money is a yearly amount in a currency (ISO 4217).
type Money struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// AppliesTo names the income parts a program concerns and their source.
type AppliesTo struct {
	Incomes []IncomePart `json:"incomes"`
	Scope   Scope        `json:"scope"`
}

// Change is a dated change to a program. Date is YYYY, YYYY-MM or YYYY-MM-DD.
type Change struct {
	Date        string `json:"date"`
	Description string `json:"description"`
}

// Source is where a program's facts come from: the authority that sets the
// rule (tax administration, official gazette, ministry) and, where used to
// cross-check, a professional summary.
type Source struct {
	Publisher string `json:"publisher"`
	Title     string `json:"title"`
	Reference string `json:"reference,omitempty"`
	Year      int    `json:"year"`
	URL       string `json:"url,omitempty"`
}

// Rule is one machine-readable effect of a program; see the package doc.
type Rule struct {
	Type        RuleType     `json:"type"`
	Rate        *float64     `json:"rate,omitempty"`
	Fraction    *float64     `json:"fraction,omitempty"`
	Amount      *float64     `json:"amount,omitempty"`
	Currency    string       `json:"currency,omitempty"`
	IncomeFloor *float64     `json:"incomeFloor,omitempty"`
	IncomeCap   *float64     `json:"incomeCap,omitempty"`
	ReliefCap   *float64     `json:"reliefCap,omitempty"`
	Incomes     []IncomePart `json:"incomes"`
	Scope       Scope        `json:"scope"`
	Condition   string       `json:"condition,omitempty"`
}

// Program is one special tax program.
type Program struct {
	ID            string    `json:"id"`
	Country       string    `json:"country"`
	Name          string    `json:"name"`
	Summary       string    `json:"summary"`
	Kind          Kind      `json:"kind"`
	Rate          *float64  `json:"rate"`
	LumpSum       *Money    `json:"lumpSum"`
	DurationYears *int      `json:"durationYears"`
	Eligibility   []string  `json:"eligibility"`
	AppliesTo     AppliesTo `json:"appliesTo"`
	Status        Status    `json:"status"`
	StatusAsOf    string    `json:"statusAsOf"`
	Changes       []Change  `json:"changes"`
	Sources       []Source  `json:"sources"`
	Rules         []Rule    `json:"rules"`
	Notes         string    `json:"notes,omitempty"`
}

// Meta describes the dataset as a whole.
type Meta struct {
	// AsOf is the date (YYYY-MM-DD) the research was done.
	AsOf string `json:"asOf"`
	// TaxYear is the tax year whose rules the entries describe.
	TaxYear int `json:"taxYear"`
	// Method says how the entries were verified.
	Method string `json:"method"`
}

// Table is the validated, read-only set of programs.
type Table struct {
	meta      Meta
	all       []Program // sorted by ID
	byID      map[string]int
	byCountry map[string][]int
}

type file struct {
	Meta     *Meta     `json:"meta"`
	Programs []Program `json:"programs"`
}

// Load decodes and validates the programs dataset. It does no I/O. Unknown
// fields, trailing data and any invalid entry are errors.
func Load(b []byte) (*Table, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("cannot parse programs: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("cannot parse programs: trailing data after the top-level object")
	}
	if f.Meta == nil {
		return nil, errors.New("cannot parse programs: missing meta")
	}
	if err := f.Meta.validate(); err != nil {
		return nil, fmt.Errorf("cannot parse programs: meta: %w", err)
	}
	if len(f.Programs) == 0 {
		return nil, errors.New("cannot parse programs: no programs")
	}
	t := &Table{
		meta:      *f.Meta,
		all:       f.Programs,
		byID:      make(map[string]int, len(f.Programs)),
		byCountry: make(map[string][]int),
	}
	for i := range t.all {
		p := &t.all[i]
		if err := p.validate(); err != nil {
			return nil, fmt.Errorf("cannot parse programs: program %d (%q): %w", i, p.ID, err)
		}
		if p.StatusAsOf > t.meta.AsOf {
			return nil, fmt.Errorf("cannot parse programs: program %d (%q): statusAsOf %s is after the dataset's asOf %s", i, p.ID, p.StatusAsOf, t.meta.AsOf)
		}
		if _, dup := t.byID[p.ID]; dup {
			return nil, fmt.Errorf("cannot parse programs: duplicate program id %q", p.ID)
		}
		t.byID[p.ID] = i
		if p.Changes == nil {
			p.Changes = []Change{}
		}
		if p.Rules == nil {
			p.Rules = []Rule{}
		}
	}
	slices.SortFunc(t.all, func(a, b Program) int { return strings.Compare(a.ID, b.ID) })
	for i, p := range t.all {
		t.byID[p.ID] = i
		t.byCountry[p.Country] = append(t.byCountry[p.Country], i)
	}
	return t, nil
}

// Meta returns the dataset's meta block.
func (t *Table) Meta() Meta { return t.meta }

// Len returns the number of programs.
func (t *Table) Len() int { return len(t.all) }

// All returns every program, sorted by id. The slice is the caller's.
func (t *Table) All() []Program { return slices.Clone(t.all) }

// ByID returns the program with the given id.
func (t *Table) ByID(id string) (Program, bool) {
	i, ok := t.byID[id]
	if !ok {
		return Program{}, false
	}
	return t.all[i], true
}

// ByCountry returns the programs of a country (ISO 3166-1 alpha-2, any
// case), sorted by id; an empty, non-nil slice when there are none.
func (t *Table) ByCountry(cc string) []Program {
	idx := t.byCountry[strings.ToUpper(cc)]
	out := make([]Program, len(idx))
	for j, i := range idx {
		out[j] = t.all[i]
	}
	return out
}

// IDPattern is what every program id matches: the lower-case country code
// and a slug, such as pt-nhr.
const IDPattern = `^[a-z]{2}(-[a-z0-9]+)+$`

// MaxIDLen bounds a program id.
const MaxIDLen = 64

var (
	idPattern       = regexp.MustCompile(IDPattern)
	countryPattern  = regexp.MustCompile(`^[A-Z]{2}$`)
	currencyPattern = regexp.MustCompile(`^[A-Z]{3}$`)
)

func (m *Meta) validate() error {
	if _, err := time.Parse(time.DateOnly, m.AsOf); err != nil {
		return fmt.Errorf("asOf %q is not a YYYY-MM-DD date", m.AsOf)
	}
	if m.TaxYear < 2000 || m.TaxYear > 2100 {
		return fmt.Errorf("taxYear %d out of range", m.TaxYear)
	}
	if strings.TrimSpace(m.Method) == "" {
		return errors.New("method is empty")
	}
	return nil
}

func (p *Program) validate() error {
	if !idPattern.MatchString(p.ID) || len(p.ID) > MaxIDLen {
		return fmt.Errorf("id %q is not a slug like \"pt-nhr\"", p.ID)
	}
	if !countryPattern.MatchString(p.Country) {
		return fmt.Errorf("country %q is not an ISO 3166-1 alpha-2 code", p.Country)
	}
	if !strings.HasPrefix(p.ID, strings.ToLower(p.Country)+"-") {
		return fmt.Errorf("id %q does not start with the country code %q", p.ID, strings.ToLower(p.Country))
	}
	if strings.TrimSpace(p.Name) == "" {
		return errors.New("name is empty")
	}
	if strings.TrimSpace(p.Summary) == "" {
		return errors.New("summary is empty")
	}
	if !slices.Contains(Kinds, p.Kind) {
		return fmt.Errorf("unknown kind %q", p.Kind)
	}
	if !slices.Contains(Statuses, p.Status) {
		return fmt.Errorf("unknown status %q", p.Status)
	}
	if _, err := time.Parse(time.DateOnly, p.StatusAsOf); err != nil {
		return fmt.Errorf("statusAsOf %q is not a YYYY-MM-DD date", p.StatusAsOf)
	}
	if p.Rate != nil && !inOpenUnit(*p.Rate) {
		return fmt.Errorf("rate %v not in (0,1)", *p.Rate)
	}
	if p.LumpSum != nil {
		if err := p.LumpSum.validate(); err != nil {
			return fmt.Errorf("lumpSum: %w", err)
		}
	}
	if p.DurationYears != nil && *p.DurationYears <= 0 {
		return fmt.Errorf("durationYears %d must be positive", *p.DurationYears)
	}
	if err := nonEmptyLines("eligibility", p.Eligibility); err != nil {
		return err
	}
	if err := validIncomes(p.AppliesTo.Incomes, p.AppliesTo.Scope); err != nil {
		return fmt.Errorf("appliesTo: %w", err)
	}
	for i, c := range p.Changes {
		if !validDate(c.Date) {
			return fmt.Errorf("changes[%d]: date %q is not YYYY, YYYY-MM or YYYY-MM-DD", i, c.Date)
		}
		if strings.TrimSpace(c.Description) == "" {
			return fmt.Errorf("changes[%d]: description is empty", i)
		}
	}
	if len(p.Sources) == 0 {
		return errors.New("no sources")
	}
	for i, s := range p.Sources {
		if strings.TrimSpace(s.Publisher) == "" || strings.TrimSpace(s.Title) == "" {
			return fmt.Errorf("sources[%d]: publisher and title are required", i)
		}
		if s.Year < 1900 || s.Year > 2100 {
			return fmt.Errorf("sources[%d]: year %d out of range", i, s.Year)
		}
	}
	for i := range p.Rules {
		if err := p.Rules[i].validate(); err != nil {
			return fmt.Errorf("rules[%d]: %w", i, err)
		}
	}
	return nil
}

func (m Money) validate() error {
	if m.Amount <= 0 {
		return fmt.Errorf("amount %v must be positive", m.Amount)
	}
	if !currencyPattern.MatchString(m.Currency) {
		return fmt.Errorf("currency %q is not an ISO 4217 code", m.Currency)
	}
	return nil
}

func (r *Rule) validate() error {
	if !slices.Contains(RuleTypes, r.Type) {
		return fmt.Errorf("unknown rule type %q", r.Type)
	}
	if err := validIncomes(r.Incomes, r.Scope); err != nil {
		return err
	}
	has := func(v *float64) bool { return v != nil }
	switch r.Type {
	case RuleFlat:
		if !has(r.Rate) || !inOpenUnit(*r.Rate) {
			return errors.New("flat rule needs a rate in (0,1)")
		}
	case RulePartialExempt:
		if !has(r.Fraction) || !inOpenUnit(*r.Fraction) {
			return errors.New("partialExempt rule needs a fraction in (0,1)")
		}
	case RuleLumpSum, RuleMinimumTax:
		if !has(r.Amount) || *r.Amount <= 0 {
			return fmt.Errorf("%s rule needs a positive amount", r.Type)
		}
	}
	if r.Type != RuleFlat && has(r.Rate) {
		return fmt.Errorf("%s rule must not carry a rate", r.Type)
	}
	if r.Type != RulePartialExempt && (has(r.Fraction) || has(r.ReliefCap) || has(r.IncomeFloor)) {
		return fmt.Errorf("%s rule must not carry fraction, reliefCap or incomeFloor", r.Type)
	}
	if r.Type != RuleLumpSum && r.Type != RuleMinimumTax && has(r.Amount) {
		return fmt.Errorf("%s rule must not carry an amount", r.Type)
	}
	for _, v := range []*float64{r.IncomeFloor, r.IncomeCap, r.ReliefCap} {
		if has(v) && *v <= 0 {
			return errors.New("caps and floors must be positive")
		}
	}
	if has(r.IncomeFloor) && has(r.IncomeCap) && *r.IncomeFloor >= *r.IncomeCap {
		return errors.New("incomeFloor must be below incomeCap")
	}
	needsCurrency := has(r.Amount) || has(r.IncomeFloor) || has(r.IncomeCap) || has(r.ReliefCap)
	switch {
	case needsCurrency && !currencyPattern.MatchString(r.Currency):
		return fmt.Errorf("currency %q is not an ISO 4217 code", r.Currency)
	case !needsCurrency && r.Currency != "":
		return errors.New("currency without an amount")
	}
	return nil
}

func validIncomes(incomes []IncomePart, scope Scope) error {
	if len(incomes) == 0 {
		return errors.New("no income parts")
	}
	for _, in := range incomes {
		if !slices.Contains(IncomeParts, in) {
			return fmt.Errorf("unknown income part %q", in)
		}
	}
	if !slices.Contains(Scopes, scope) {
		return fmt.Errorf("unknown scope %q", scope)
	}
	return nil
}

func nonEmptyLines(field string, lines []string) error {
	if len(lines) == 0 {
		return fmt.Errorf("no %s lines", field)
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			return fmt.Errorf("%s[%d] is empty", field, i)
		}
	}
	return nil
}

func inOpenUnit(v float64) bool { return v > 0 && v < 1 }

func validDate(s string) bool {
	for _, layout := range []string{"2006", "2006-01", time.DateOnly} {
		if len(s) == len(layout) {
			if _, err := time.Parse(layout, s); err == nil {
				return true
			}
		}
	}
	return false
}
