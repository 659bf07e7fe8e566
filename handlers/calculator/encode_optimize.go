package calculator

import (
	"strconv"
	"strings"

	"fiplan/compute/decide"
	"fiplan/compute/plan"
)

var (
	objectiveNames = [...]string{decide.Spending: "spending", decide.Estate: "estate"}
	methodNames    = [...]string{decide.Expected: "expected", decide.Historical: "historical", decide.MonteCarlo: "monteCarlo"}
)

// writeOptimized writes the answer's optimized member: the declared
// fields, then the rows under the decisions.
func (d *docs) writeOptimized(r *plan.Result) error {
	o := r.Optimized
	req := &o.Request
	out := d.out
	out.Key("optimized")
	out.Begin()
	d.opt = optimizedFor(o, req, r.Currency, &d.optVal)
	if err := d.members(&d.opt); err != nil {
		return err
	}
	if o.Rows != nil {
		writeHouseholdRows(out, o.Rows, r.Taxed, r.Step)
	}
	out.End()
	return nil
}

// optimizedFor is the declared answer of a search.
func optimizedFor(o *plan.Optimized, req *decide.Request, currency string, val *float64) optimizedDoc {
	a := o.Answer
	doc := optimizedDoc{Feasible: a.Feasible, Why: a.Why, Objective: objectiveNames[req.Objective], Method: methodNames[req.Method], Notes: []string{}}
	if !a.Feasible {
		return doc
	}
	*val = cents(a.Value)
	doc.Value = val
	doc.Gain = &gainDoc{OverPlan: cents(a.Value - a.PlanValue), OverBaseline: cents(a.Value - a.BaselineValue)}
	dd := &decisionsDoc{}
	for _, c := range a.Conversions {
		dd.Conversions = append(dd.Conversions, conversionDoc{Age: c.Age, Amount: cents(c.Amount)})
	}
	for _, c := range a.Claims {
		dd.Claiming = append(dd.Claiming, claimDoc{Pension: c.Pension, Kind: a.Plan.Pensions[c.Pension].Kind, Age: c.Age, Month: c.Months})
	}
	for _, sp := range a.Orders {
		dd.Order = append(dd.Order, orderSpanDoc{FromAge: sp.FromAge, Order: sp.Order.String()})
	}
	for _, q := range a.SEPP {
		dd.SEPP = append(dd.SEPP, seppDoc{Account: a.Plan.Accounts[q.Account].ID, Method: q.Method.String(), FromAge: q.FromAge})
	}
	if a.Decisions.Has(decide.RetirementAge) && a.RetirementAge > 0 {
		age := a.RetirementAge
		dd.RetirementAge = &age
	}
	doc.Decisions = dd
	for _, w := range a.Worth {
		doc.Worth = append(doc.Worth, worthDoc{Decision: w.Decision.String(), Amount: cents(w.Amount)})
	}
	if rows := o.Rows; rows != nil {
		doc.LifetimeTaxPV, doc.AfterTaxEndWealth = cents(rows.Household.LifetimeTaxPV), cents(rows.Household.AfterTaxEnd)
	}
	doc.Notes = optimizeNotes(a, req, currency)
	return doc
}

// optimizeNotes says in a line each what the decisions are and how the
// answer was found.
func optimizeNotes(a *decide.Answer, req *decide.Request, currency string) []string {
	money := func(v float64) string { return currency + " " + strconv.FormatFloat(cents(v), 'f', 0, 64) }
	worth := func(d decide.Decision) string {
		for _, w := range a.Worth {
			if w.Decision == d {
				return "; alone it adds " + money(w.Amount)
			}
		}
		return ""
	}
	var notes []string
	if a.Decisions.Has(decide.Conversions) {
		total, top, at := 0.0, 0.0, 0
		for _, c := range a.Conversions {
			total += c.Amount
			if c.Amount > top {
				top, at = c.Amount, c.Age
			}
		}
		line := "conversions: none pay"
		if total > 0 {
			line = "conversions: " + money(total) + " in " + strconv.Itoa(len(a.Conversions)) + " years from age " + strconv.Itoa(a.Conversions[0].Age) +
				", most (" + money(top) + ") at " + strconv.Itoa(at) + ", each year's amount kept only while the whole plan gains"
		}
		notes = append(notes, line+worth(decide.Conversions))
	}
	if a.Decisions.Has(decide.Claiming) {
		var parts []string
		for _, c := range a.Claims {
			parts = append(parts, a.Plan.Pensions[c.Pension].Kind+" at "+claimAge(c.Age, c.Months)+" (asked "+claimAge(c.AskedAge, c.AskedMonths)+")")
		}
		notes = append(notes, "claiming: "+strings.Join(parts, ", ")+worth(decide.Claiming))
	}
	if a.Decisions.Has(decide.Order) {
		var parts []string
		for _, sp := range a.Orders {
			parts = append(parts, sp.Order.String()+" from "+strconv.Itoa(sp.FromAge))
		}
		for _, q := range a.SEPP {
			parts = append(parts, "periodic payments from "+a.Plan.Accounts[q.Account].ID+" by "+q.Method.String()+" from "+strconv.Itoa(q.FromAge))
		}
		notes = append(notes, "order: "+strings.Join(parts, ", ")+worth(decide.Order))
	}
	if a.Decisions.Has(decide.RetirementAge) && a.RetirementAge > 0 {
		notes = append(notes, "retirementAge: "+strconv.Itoa(a.RetirementAge)+" is the earliest at which the plan's spending stays on target"+worth(decide.RetirementAge))
	}
	how := "searched on the exact plan (" + strconv.Itoa(a.Runs) + " plan runs): claiming and order by coordinate search, conversions by greedy steps on spans of years down to single years"
	switch {
	case req.Method == decide.MonteCarlo:
		how += "; the spending bisected on the simulation's first paths, then checked on all of them (within 2%)"
	case req.Method == decide.Historical:
		how += "; the spending bisected on the backtest's success rate"
	case req.Objective == decide.Spending:
		how += "; the spending bisected on the expected path"
	}
	return append(notes, how)
}

func claimAge(age, months int) string {
	s := strconv.Itoa(age)
	if months > 0 {
		s += " and " + strconv.Itoa(months) + " months"
	}
	return s
}
