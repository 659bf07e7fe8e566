package household

import (
	"strconv"

	"fiplan/compute/fi"
	"fiplan/compute/tax"
)

// Capacities.
const (
	MaxAccounts  = 12 // accounts a plan may name
	MaxPensions  = 8  // pensions and statutory benefits
	MaxPhases    = 8  // spending phases
	MaxMoves     = 4  // relocations
	maxAuto      = 3  // accounts the engine may add: taxable, one Roth per person
	maxHeld      = MaxAccounts + maxAuto
	maxSeasoning = 10 // longest conversion seasoning the engine tracks
)

// Person is one member of the household; amounts are today's money.
type Person struct {
	Age, LifeExpectancy int
	// RetirementAge is the age work stops; 0: when the household reaches
	// FI (the partner: with the first person).
	RetirementAge int
	Income        float64 // gross employment income
	IncomeGrowth  float64 // real yearly growth of Income
}

// Account is a pot of money in a wrapper, or cash or a taxable account.
type Account struct {
	ID    string
	Type  string // "cash", "taxable" or a wrapper id
	Owner int    // 0: the first person, 1: the partner
	// Balance today; CostBasis is the capital paid into a taxable account
	// (or a Roth's contributions); negative: all of Balance.
	Balance, CostBasis float64
	// Contribution and Employer are yearly payments in today's money while
	// the owner works.
	Contribution, Employer float64
	Wrapper                *Wrapper // nil for cash and taxable
	// Rate converts the plan's currency into the wrapper country's, whose
	// limits and caps are in it (0: the same currency).
	Rate float64
	// Yield is a taxable account's dividends and interest a year, a share
	// of its balance at the start of the year, paid out and taxed in the
	// year (part of Return, not beside it); QualifiedShare of it is taxed
	// as dividends (US qualified dividends), the rest as interest.
	Yield, QualifiedShare float64
	// OpenedYear is the calendar year the account was opened (0: the
	// plan's first year); holding periods count from it.
	OpenedYear int
}

// Pension is an income for life from an age: a generic pension (Benefit
// nil) or a statutory benefit claimed at FromAge.
type Pension struct {
	Owner   int
	FromAge int
	// Amount per year: for a benefit, at its normal age in today's money;
	// else today's money when Indexed, or the fixed nominal amount.
	Amount  float64
	Indexed bool
	// Kind names a statutory benefit for the caller to resolve into
	// Benefit; "" is a generic pension.
	Kind    string
	Benefit *Benefit
	// Months are the months of a benefit's claim past FromAge (0 to 11):
	// the claim's factor counts them, and the year it begins pays the
	// months left of it.
	Months int
	// Country is the benefit's country (its inclusion rule holds while the
	// household lives there); Rate converts the plan's currency into its.
	Country string
	Rate    float64
}

// Phase is the retirement spending from an age of the first person on,
// today's money.
type Phase struct {
	FromAge int
	Amount  float64
}

// Residence is where the household is taxed from an age of the first
// person on.
type Residence struct {
	FromAge int
	Country string
	System  *tax.System
	Year    int    // the tax year whose rules apply, in today's money
	Region  string // "" for none
	// Rate converts the plan's currency into the tax system's (0: the
	// same currency).
	Rate float64
	// Spending, when > 0, is the retirement spending from FromAge on (a
	// city's budget), until a later phase or residence sets another.
	Spending float64
	// Split, when set, is the residence's pension income splitting for a
	// couple each taxed alone.
	Split *PensionSplit
}

// Order is the order withdrawals draw accounts in.
type Order uint8

// Orders.
const (
	// Conventional: cash, taxable, tax-deferred and pensions, tax-free.
	Conventional Order = iota
	// Proportional: every open account in proportion to its balance.
	Proportional
	// TaxSmart: tax-deferred money up to the top of the lowest band first,
	// then conventional.
	TaxSmart
	// Explicit: the accounts in Plan.Explicit, the rest conventional.
	Explicit
)

var orderNames = [...]string{"conventional", "proportional", "tax-smart", "explicit"}

func (o Order) String() string { return orderNames[o] }

// ParseOrder reads an order's name (not explicit, which is a list).
func ParseOrder(name string) (Order, bool) {
	i, ok := index(orderNames[:3], name)
	return Order(i), ok
}

// Plan is a household plan as asked, its wrappers and benefits resolved.
type Plan struct {
	People   []Person // one or two
	Accounts []Account
	Pensions []Pension
	Events   []fi.Event // cash in (positive) or out at an age of the first person
	// Expenses is the spending while the first person works; Retirement
	// the spending after (0: Expenses), unless a phase or a residence sets
	// another; all today's money.
	Expenses, Retirement float64
	Phases               []Phase
	Order                Order
	Explicit             []int // with Explicit: account indices, first drawn first
	// Convert moves tax-deferred money to its ConvertTo wrapper each year,
	// up to the top of the band taxed at ConvertUpTo, before required
	// minimums start.
	Convert     bool
	ConvertUpTo float64
	// Conversions, when not nil, replace the band: year t of the plan
	// converts Conversions[t] (today's money; 0 past its end) from the
	// accounts that convert, in account order, each up to its balance
	// (in a year of required minimums, once the minimum is taken).
	// Convert must be set.
	Conversions []float64
	// Orders, when not nil, is the drawing order of each year t of the
	// plan (Order past its end); Explicit there means Order's list.
	Orders []Order

	Return, Inflation, Fee float64 // nominal return, inflation, fees
	WithdrawalRate         float64 // the FI number is the spending over it
	StartYear              int
	Joint                  bool        // file jointly where the residence lets couples
	Residences             []Residence // at least one, by FromAge ascending
	// Converts are the wrappers conversions may move money to, for the
	// accounts the engine adds when the plan has none of them.
	Converts []*Wrapper
	// Care is the health-care spending and the credits and surcharges on
	// it (nil: none).
	Care *Care
	// SEPP are series of substantially equal periodic payments, each from
	// its own account, under SEPPRules (the tax country's).
	SEPP      []Series
	SEPPRules *SEPP
	// Supplements are the means-tested pensions the plan's residences pay
	// (each while the household lives in its country); NoHome: the
	// household owns no home (a larger allowance in an assets test).
	Supplements []*Supplement
	NoHome      bool
}

// FieldError is a plan the engine cannot run, with the request field at
// fault.
type FieldError struct {
	Field, Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

func fieldErr(field, msg string) error { return &FieldError{Field: field, Message: msg} }

func at(list string, i int) string { return list + "[" + strconv.Itoa(i) + "]" }

// Check reports the first thing in p the engine cannot run. Wrappers and
// benefits must be resolved already.
func Check(p *Plan) error {
	if len(p.People) == 0 || len(p.People) > 2 {
		return fieldErr("partner", "a household is one or two people")
	}
	if len(p.Accounts) > MaxAccounts {
		return fieldErr("accounts", "at most "+strconv.Itoa(MaxAccounts)+" accounts")
	}
	if len(p.Pensions) > MaxPensions {
		return fieldErr("pensions", "at most "+strconv.Itoa(MaxPensions)+" pensions")
	}
	if len(p.Phases) > MaxPhases {
		return fieldErr("spending", "at most "+strconv.Itoa(MaxPhases)+" phases")
	}
	if len(p.Residences) == 0 || len(p.Residences) > MaxMoves+1 {
		return fieldErr("relocations", "at most "+strconv.Itoa(MaxMoves)+" relocations")
	}
	for i := range p.People {
		q := &p.People[i]
		field := "currentAge"
		if i == 1 {
			field = "partner.age"
		}
		if q.LifeExpectancy <= q.Age {
			return fieldErr(field, "must be below the life expectancy")
		}
	}
	for i := range p.Accounts {
		a := &p.Accounts[i]
		if a.Owner < 0 || a.Owner >= len(p.People) {
			return fieldErr(at("accounts", i)+".owner", "partner without a partner")
		}
		if a.Wrapper != nil && a.Wrapper.Contrib.Closed && (a.Contribution > 0 || a.Employer > 0) {
			return fieldErr(at("accounts", i)+".annualContribution", a.Wrapper.Name+" takes no new contributions")
		}
		if a.Yield != 0 && (a.Wrapper != nil || a.Type != "taxable" || !(a.Yield > 0 && a.Yield < 1) || !(a.QualifiedShare >= 0 && a.QualifiedShare <= 1)) {
			return fieldErr(at("accounts", i)+".yield", "a taxable account's yield is a fraction from 0 to 1, its qualifiedShare from 0 to 1")
		}
		if a.OpenedYear > p.StartYear {
			return fieldErr(at("accounts", i)+".openedYear", "must not be after the plan's first year, "+strconv.Itoa(p.StartYear))
		}
		if a.Employer > 0 && (a.Wrapper == nil || !a.Wrapper.Contrib.Employer) {
			return fieldErr(at("accounts", i)+".employerContribution", "only a wrapper that takes employer contributions does (not "+a.Type+")")
		}
	}
	for i := range p.Pensions {
		if q := &p.Pensions[i]; q.Owner < 0 || q.Owner >= len(p.People) {
			return fieldErr(at("pensions", i)+".owner", "partner without a partner")
		}
	}
	for i := 1; i < len(p.Phases); i++ {
		if p.Phases[i].FromAge <= p.Phases[i-1].FromAge {
			return fieldErr(at("spending", i)+".fromAge", "phases must be in ascending order of age")
		}
	}
	for i := 1; i < len(p.Residences); i++ {
		if p.Residences[i].FromAge <= p.Residences[i-1].FromAge {
			return fieldErr(at("relocations", i-1)+".atAge", "relocations must be in ascending order of age")
		}
	}
	if len(p.Supplements) > MaxSupplements {
		return fieldErr("tax.country", "at most "+strconv.Itoa(MaxSupplements)+" means-tested pensions")
	}
	return checkSeries(p)
}
