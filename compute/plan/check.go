package plan

import (
	"regexp"
	"strconv"
	"strings"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/compute/household"
)

// A request is translated into a Plan field by field, without judgement
// (the caller's declaration has checked each field alone); Check then
// applies every rule that reads more than one field, naming the request
// field at fault, before Run resolves the datasets (tax years and
// regions, wrappers, cities, currencies) and the household engine checks
// what it cannot run. A saved plan's input passes the same Check when it
// is saved.

// Asked is what a request asked for beside its Plan that the plan's rules
// read.
type Asked struct {
	// Savings: the request sent currentSavings, which accounts replace.
	Savings bool
	// Simulations are the Monte Carlo paths asked for (0: no simulation).
	Simulations int
	// Every: the request sent every; Yearly: its output is yearly.
	Every, Yearly bool
	// Optimize is the request's optimize (nil: none).
	Optimize *Optimize
}

// Optimize is a request's optimize as sent, read by Check (ParseOptimize)
// into a decide.Request.
type Optimize struct {
	Objective string // spending or estate
	Method    string // the target's: "" (none), expected, historical or monteCarlo
	// SuccessRate is the target's success rate (nil: none sent).
	SuccessRate *float64
	Decisions   []string
}

// Check reports the first rule of p and a that their fields break, as a
// *FieldError naming the request field, in the order a request's fields
// are read: the ages of the base plan, the simulation's size, the output
// options, the ages of each scenario, the household and its relocations,
// the optimize (read into d), each scenario's pensions and relocations
// (against its own age), the tax country. It resolves what the
// request names by id or code: each bridge series' account
// (Household.SEPPAccounts), and the tax country's System and Withdrawal
// (Tax.Country, Tax.Part) from in.Systems.
func Check(p *Plan, a *Asked, in *Inputs, d *decide.Request) error {
	if err := checkAges(&p.Base, ""); err != nil {
		return err
	}
	if years := p.Base.LifeExpectancy - p.Base.CurrentAge; a.Simulations*years > fi.MaxCells {
		return &FieldError{"monteCarlo.simulations", "simulations x years (" + strconv.Itoa(a.Simulations) + " x " + strconv.Itoa(years) + ") must not exceed " + strconv.Itoa(fi.MaxCells)}
	}
	if a.Every && !a.Yearly {
		return &FieldError{"every", "applies only with output yearly"}
	}
	for i := range p.Scenarios {
		if err := checkAges(&p.Scenarios[i].Input, "scenarios["+strconv.Itoa(i)+"]."); err != nil {
			return err
		}
	}
	if h := p.Household; h != nil {
		if err := checkHousehold(h, a.Savings, p.Base.FixedContribution); err != nil {
			return err
		}
		if err := checkMoves(h.Moves, p.Base.CurrentAge, ""); err != nil {
			return err
		}
		if a.Optimize != nil {
			if err := ParseOptimize(a.Optimize, d); err != nil {
				return err
			}
		}
		for i := range p.Scenarios {
			prefix := "scenarios[" + strconv.Itoa(i) + "]."
			if err := checkOwners(p.Scenarios[i].Pensions, h.Partner != nil, prefix); err != nil {
				return err
			}
			if err := checkMoves(h.Moves, p.Scenarios[i].Input.CurrentAge, prefix); err != nil {
				return err
			}
		}
	}
	return checkTax(p.Tax, in)
}

// checkAges refuses ages out of order, a mix above 100% and a CAPE rule
// without CAPE; prefix is the path of the plan's fields.
func checkAges(in *fi.Input, prefix string) error {
	field, msg := "", ""
	switch {
	case in.LifeExpectancy <= in.CurrentAge:
		field, msg = "lifeExpectancy", "must be greater than currentAge"
	case in.TargetRetirementAge != 0 && in.TargetRetirementAge < in.CurrentAge:
		field, msg = "targetRetirementAge", "must be at least currentAge"
	case in.StockShare+in.CashShare > 1+1e-9:
		field, msg = "cashShare", "stockShare + cashShare must not exceed 1"
	case in.Strategy == fi.StrategyCAPE && in.CAPE == 0:
		field, msg = "cape", "is required with withdrawalStrategy cape"
	default:
		return nil
	}
	return &FieldError{prefix + field, msg}
}

// checkTax refuses a tax country without tax rules and resolves t's
// System and Withdrawal.
func checkTax(t *Tax, in *Inputs) error {
	if t == nil || t.System != nil {
		return nil
	}
	var sys = in.Systems(t.Country)
	if sys == nil {
		return &FieldError{"tax.country", "no tax parameters for " + strconv.Quote(t.Country) + "; supported: " + strings.Join(in.Countries, ", ")}
	}
	t.System, t.Withdrawal = sys, sys.Withdrawal.Part // the country's default
	if t.Part != "" {
		t.Withdrawal = ParsePart(t.Part)
	}
	return nil
}

var accountID = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)

// checkHousehold applies the household's rules: savings or accounts, the
// partner's ages, the accounts, whose pensions, the spending phases'
// order, health care, the bridge series and joint filing. savings: currentSavings was sent; fixed: the
// base plan's annualContribution was.
func checkHousehold(h *Household, savings, fixed bool) error {
	if len(h.Accounts) > 0 && savings {
		return &FieldError{"accounts", "send currentSavings or accounts, not both"}
	}
	if len(h.Accounts) > 0 && fixed {
		return &FieldError{"annualContribution", "with accounts, contributions are per account (accounts[].annualContribution)"}
	}
	if q := h.Partner; q != nil {
		switch {
		case q.LifeExpectancy <= q.Age:
			return &FieldError{"partner.lifeExpectancy", "must be greater than partner.age"}
		case q.RetirementAge != 0 && q.RetirementAge < q.Age:
			return &FieldError{"partner.retirementAge", "must be at least partner.age"}
		}
	}
	if err := checkAccounts(h); err != nil {
		return err
	}
	if err := checkOwners(h.Pensions, h.Partner != nil, ""); err != nil {
		return err
	}
	for i := 1; i < len(h.Phases); i++ {
		if h.Phases[i].FromAge <= h.Phases[i-1].FromAge {
			return &FieldError{"spending[" + strconv.Itoa(i) + "].fromAge", "phases must be in ascending order of age"}
		}
	}
	if err := checkCare(h.Care); err != nil {
		return err
	}
	if err := seriesAccounts(h); err != nil {
		return err
	}
	if h.Filing == "joint" && h.Partner == nil {
		return &FieldError{"tax.filing", "joint filing needs a partner"}
	}
	return nil
}

// checkAccounts refuses an account id that is malformed or taken, a cost
// basis on cash, a partner's account without a partner and a yield on
// anything but a taxable account.
func checkAccounts(h *Household) error {
	accts := h.Accounts
	for i := range accts {
		a := &accts[i]
		f := "accounts[" + strconv.Itoa(i) + "]"
		if !accountID.MatchString(a.ID) {
			return &FieldError{f + ".id", "must match ^[a-z0-9-]{1,32}$"}
		}
		for j := 0; j < i; j++ {
			if accts[j].ID == a.ID {
				return &FieldError{f + ".id", "is the id of accounts[" + strconv.Itoa(j) + "] too"}
			}
		}
		if a.CostBasis >= 0 && a.Type == "cash" {
			return &FieldError{f + ".costBasis", "applies to taxable accounts, wrappers taxed on their gains and a Roth IRA's contributions"}
		}
		if a.Owner == 1 && h.Partner == nil {
			return &FieldError{f + ".owner", "partner without a partner"}
		}
		if a.Yield > 0 && a.Type != "taxable" {
			return &FieldError{f + ".yield", "applies to taxable accounts only (a wrapper's dividends and interest are not taxed in the year)"}
		}
	}
	return nil
}

// checkMoves refuses a relocation not after today (age, the first
// person's age in the plan at prefix) or out of order.
func checkMoves(moves []Move, age int, prefix string) error {
	for i, m := range moves {
		field := prefix + "relocations[" + strconv.Itoa(i) + "].atAge"
		if m.AtAge <= age {
			return &FieldError{field, "must be after today (currentAge)"}
		}
		if i > 0 && m.AtAge <= moves[i-1].AtAge {
			return &FieldError{field, "relocations must be in ascending order of age, after today"}
		}
	}
	return nil
}

// checkOwners refuses a partner's pension without a partner; prefix is
// the path of the plan's fields.
func checkOwners(list []household.Pension, partner bool, prefix string) error {
	for i := range list {
		if list[i].Owner == 1 && !partner {
			return &FieldError{prefix + "pensions[" + strconv.Itoa(i) + "].owner", "partner without a partner"}
		}
	}
	return nil
}

// checkCare refuses health-care phases out of order and a benchmark
// premium without health-care spending.
func checkCare(c *household.Care) error {
	if c == nil {
		return nil
	}
	for i := 1; i < len(c.Phases); i++ {
		if c.Phases[i].FromAge <= c.Phases[i-1].FromAge {
			return &FieldError{"healthcare.phases[" + strconv.Itoa(i) + "].fromAge", "phases must be in ascending order of age"}
		}
	}
	if c.Benchmark > 0 && len(c.Phases) == 0 {
		return &FieldError{"healthcare.phases", "a benchmark premium needs the health-care spending it is part of"}
	}
	return nil
}

// seriesAccounts sets each bridge series' account from the id it names.
func seriesAccounts(h *Household) error {
	for k := range h.SEPP {
		s := &h.SEPP[k]
		s.Account = -1
		for i := range h.Accounts {
			if k < len(h.SEPPAccounts) && h.Accounts[i].ID == h.SEPPAccounts[k] {
				s.Account = i
			}
		}
		if s.Account < 0 {
			return &FieldError{"bridge.sepp[" + strconv.Itoa(k) + "].account", "is not the id of one of the plan's accounts"}
		}
	}
	return nil
}

// ParseOptimize reads o into d, reporting the first field in error by its
// path in a calculator request (optimize.target.successRate, ...).
func ParseOptimize(o *Optimize, d *decide.Request) error {
	*d = decide.Request{Objective: decide.Spending}
	if o.Objective == "estate" {
		d.Objective = decide.Estate
	}
	switch o.Method {
	case "historical":
		d.Method = decide.Historical
	case "monteCarlo":
		d.Method = decide.MonteCarlo
	}
	if d.Method != decide.Expected {
		if o.SuccessRate == nil {
			return &FieldError{"optimize.target.successRate", "is required with method " + o.Method}
		}
		d.Target = *o.SuccessRate
	}
	for i, name := range o.Decisions {
		x, ok := decide.ParseDecision(name)
		field := "optimize.decisions[" + strconv.Itoa(i) + "]"
		if !ok {
			return &FieldError{field, "unknown decision " + strconv.Quote(name) + ": one of conversions, claiming, order, retirementAge"}
		}
		if d.Decisions.Has(x) {
			return &FieldError{field, name + " is named twice"}
		}
		d.Decisions = d.Decisions.With(x)
	}
	return nil
}
