package plan

import (
	"errors"
	"testing"

	"fiplan/compute/decide"
	"fiplan/compute/fi"
	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// checkInputs know the tax rules of GB alone.
func checkInputs(t *testing.T) *Inputs {
	gb := loadSystem(t, "gb")
	in := testInputs()
	in.Countries = []string{"GB"}
	in.Systems = func(cc string) *tax.System {
		if cc == "GB" {
			return gb
		}
		return nil
	}
	return in
}

// householdPlan has a partner, two accounts, a bridge series and health
// care, all within the rules.
func householdPlan() (Plan, Asked) {
	p := basePlan()
	p.Scenarios = []Scenario{{Name: "later", Input: p.Base}}
	p.Household = &Household{
		Partner:      &household.Person{Age: 33, LifeExpectancy: 95},
		Accounts:     []household.Account{{ID: "isa", Type: "taxable", Balance: 1000, CostBasis: -1}, {ID: "cash-1", Type: "cash", CostBasis: -1, Owner: 1}},
		Pensions:     []household.Pension{{Owner: 1, FromAge: 67, Amount: 9000}},
		Care:         &household.Care{Phases: []household.CarePhase{{FromAge: 40}, {FromAge: 65}}, Benchmark: 1},
		SEPP:         []household.Series{{Account: -1, FromAge: 50}},
		SEPPAccounts: []string{"isa"},
		Filing:       "joint",
	}
	p.Tax = &Tax{Country: "GB", Part: "capitalGains"}
	return p, Asked{Simulations: 1000, Every: true, Yearly: true, Optimize: &Optimize{Objective: "estate", Decisions: []string{"order"}}}
}

func TestCheckAcceptsAndResolves(t *testing.T) {
	t.Parallel()
	p, a := householdPlan()
	var d decide.Request
	if err := Check(&p, &a, checkInputs(t), &d); err != nil {
		t.Fatal(err)
	}
	if p.Household.SEPP[0].Account != 0 {
		t.Errorf("series account %d, want 0 (isa)", p.Household.SEPP[0].Account)
	}
	if p.Tax.System == nil || p.Tax.System.Country != "GB" || p.Tax.Withdrawal != tax.CapitalGains {
		t.Errorf("tax resolved to %+v", p.Tax)
	}
	if d.Objective != decide.Estate || !d.Decisions.Has(decide.Order) || d.Decisions.Has(decide.Conversions) {
		t.Errorf("optimize read as %+v", d)
	}
}

// Each rule names its field; the first rule broken in the request's order
// wins.
func TestCheckRefuses(t *testing.T) {
	t.Parallel()
	in := checkInputs(t)
	for _, c := range []struct {
		field, msg string
		edit       func(p *Plan, a *Asked)
	}{
		{"lifeExpectancy", "greater than currentAge", func(p *Plan, _ *Asked) { p.Base.LifeExpectancy = 35 }},
		{"targetRetirementAge", "at least currentAge", func(p *Plan, _ *Asked) { p.Base.TargetRetirementAge = 30 }},
		{"cashShare", "must not exceed 1", func(p *Plan, _ *Asked) { p.Base.CashShare = 0.5 }},
		{"cape", "withdrawalStrategy cape", func(p *Plan, _ *Asked) { p.Base.Strategy = fi.StrategyCAPE }},
		{"monteCarlo.simulations", "(20000 x 60) must not exceed 1000000", func(_ *Plan, a *Asked) { a.Simulations = 20000 }},
		{"every", "only with output yearly", func(_ *Plan, a *Asked) { a.Yearly = false }},
		{"scenarios[0].lifeExpectancy", "greater than currentAge", func(p *Plan, _ *Asked) { p.Scenarios[0].Input.CurrentAge = 99 }},
		{"accounts", "not both", func(_ *Plan, a *Asked) { a.Savings = true }},
		{"annualContribution", "per account", func(p *Plan, _ *Asked) { p.Base.FixedContribution = true }},
		{"partner.lifeExpectancy", "greater than partner.age", func(p *Plan, _ *Asked) { p.Household.Partner.LifeExpectancy = 33 }},
		{"partner.retirementAge", "at least partner.age", func(p *Plan, _ *Asked) { p.Household.Partner.RetirementAge = 30 }},
		{"accounts[1].id", "must match", func(p *Plan, _ *Asked) { p.Household.Accounts[1].ID = "Cash" }},
		{"accounts[1].id", "the id of accounts[0] too", func(p *Plan, _ *Asked) { p.Household.Accounts[1].ID = "isa" }},
		{"accounts[1].costBasis", "applies to taxable accounts", func(p *Plan, _ *Asked) { p.Household.Accounts[1].CostBasis = 5 }},
		{"accounts[1].owner", "partner without a partner", func(p *Plan, _ *Asked) { p.Household.Partner, p.Household.Filing = nil, "" }},
		{"accounts[1].yield", "taxable accounts only", func(p *Plan, _ *Asked) { p.Household.Accounts[1].Yield = 0.02 }},
		{"pensions[0].owner", "partner without a partner", func(p *Plan, _ *Asked) {
			p.Household.Partner, p.Household.Filing, p.Household.Accounts[1].Owner = nil, "", 0
		}},
		{"spending[1].fromAge", "ascending order of age", func(p *Plan, _ *Asked) {
			p.Household.Phases = []household.Phase{{FromAge: 60}, {FromAge: 60}}
		}},
		{"relocations[0].atAge", "after today", func(p *Plan, _ *Asked) { p.Household.Moves = []Move{{AtAge: 35, Country: "PT"}} }},
		{"relocations[1].atAge", "ascending order of age", func(p *Plan, _ *Asked) {
			p.Household.Moves = []Move{{AtAge: 60, Country: "PT"}, {AtAge: 50, Country: "ES"}}
		}},
		{"scenarios[0].relocations[0].atAge", "after today", func(p *Plan, _ *Asked) {
			p.Household.Moves, p.Scenarios[0].Input.CurrentAge = []Move{{AtAge: 60, Country: "PT"}}, 61
		}},
		{"healthcare.phases[1].fromAge", "ascending order", func(p *Plan, _ *Asked) { p.Household.Care.Phases[1].FromAge = 40 }},
		{"healthcare.phases", "needs the health-care spending", func(p *Plan, _ *Asked) { p.Household.Care.Phases = nil }},
		{"bridge.sepp[0].account", "not the id of one of the plan's accounts", func(p *Plan, _ *Asked) { p.Household.SEPPAccounts[0] = "ira" }},
		{"tax.filing", "joint filing needs a partner", func(p *Plan, _ *Asked) {
			p.Household.Partner, p.Household.Accounts[1].Owner, p.Household.Pensions = nil, 0, nil
		}},
		{"optimize.target.successRate", "required with method historical", func(_ *Plan, a *Asked) { a.Optimize.Method = "historical" }},
		{"optimize.decisions[0]", `unknown decision "when"`, func(_ *Plan, a *Asked) { a.Optimize.Decisions = []string{"when"} }},
		{"optimize.decisions[1]", "order is named twice", func(_ *Plan, a *Asked) { a.Optimize.Decisions = []string{"order", "order"} }},
		{"scenarios[0].pensions[0].owner", "partner without a partner", func(p *Plan, _ *Asked) {
			p.Household.Partner, p.Household.Filing, p.Household.Accounts[1].Owner, p.Household.Pensions = nil, "", 0, nil
			p.Scenarios[0].Pensions = []household.Pension{{Owner: 1}}
		}},
		{"tax.country", `no tax parameters for "XX"; supported: GB`, func(p *Plan, _ *Asked) { p.Tax.Country = "XX" }},
		// the base plan's ages come before the simulation's size
		{"lifeExpectancy", "greater than currentAge", func(p *Plan, a *Asked) { p.Base.LifeExpectancy, a.Simulations = 30, 1e6 }},
	} {
		p, a := householdPlan()
		c.edit(&p, &a)
		var d decide.Request
		checkField(t, Check(&p, &a, in, &d), c.field, c.msg)
	}
}

// An invariant the household engine states is reported as Run's own
// field error, under the scenario's path; any other error as it is.
func TestEngineFieldIsRunsFieldError(t *testing.T) {
	t.Parallel()
	err := scenarioField(engineField(&household.FieldError{Field: "accounts[0].openedYear", Message: "must not be after"}), 2)
	checkField(t, err, "scenarios[1].accounts[0].openedYear", "must not be after")
	other := errors.New("out of runs")
	if engineField(other) != other {
		t.Error("an error that names no field changed")
	}
}
