package plans

import (
	"bytes"
	"encoding/json"

	"fiplan/compute/fiscore"
	"fiplan/handlers/rest"
	"fiplan/handlers/schema"
)

// The FI score of a user with saved plans is of one of them: the one the
// caller names, else the one updated last (the plan the user worked on
// most recently, which the planner opens from Places too). The plan is run
// from its own start, as saved, without backtest or Monte Carlo.

// ScorePlan writes the saved plan the FI score is of into in: plan id's,
// or with id "" the caller's most recently updated one (with none, in is
// left as it is). ok is false when it has answered: 404 for an id the
// caller has no plan of, 400 on plan for a named plan whose input no longer runs,
// or the calculator's refusal (429, 503).
func (s *Handlers) ScorePlan(c *rest.Ctx, id string, in *fiscore.Input) (ok bool) {
	var p savedPlan
	if id != "" {
		if !s.loadID(c, id, &p) {
			return false
		}
	} else {
		found, err := s.latest(c.Principal.User, &p)
		if err != nil {
			c.Storage(err)
			return false
		}
		if !found {
			return true
		}
	}
	var head struct {
		CurrentAge          int     `json:"currentAge"`
		StartYear           int     `json:"startYear"`
		AnnualIncome        float64 `json:"annualIncome"`
		AnnualExpenses      float64 `json:"annualExpenses"`
		TargetRetirementAge int     `json:"targetRetirementAge"`
	}
	body, err := runFromStart(&p)
	if err == nil {
		err = json.Unmarshal(body, &head)
	}
	if err != nil || !s.calc.Validate(body, "input.", &schema.Result{}) {
		if id == "" {
			return true // the last plan no longer runs: the profile's score
		}
		c.Fail("plan", "the saved plan's input no longer runs: open it in the planner (or POST /plans/{id}/run) to see why")
		return false
	}
	scored := &fiscore.Plan{ID: p.ID, Name: p.Name, UpdatedAt: p.UpdatedAt}
	cur, ok := s.calc.FIFigures(c, body, scored)
	if !ok {
		return false
	}
	year := s.now().UTC().Year()
	in.Plan, in.Currency = scored, cur
	in.Age, in.HasAge = head.CurrentAge+max(0, year-head.StartYear), true
	in.AnnualIncome, in.HasAnnualIncome = head.AnnualIncome, true
	in.AnnualExpenses, in.HasAnnualExpenses = head.AnnualExpenses, true
	in.TargetRetirementAge, in.HasTargetRetirementAge = head.TargetRetirementAge, head.TargetRetirementAge > 0
	return true
}

// latest reads user's most recently updated plan into p; found is false
// when the user has none.
func (s *Handlers) latest(user string, p *savedPlan) (found bool, err error) {
	doc, total, err := s.db.AppendPlans([]byte{'['}, user, 0, MaxPlans)
	if err != nil || total == 0 {
		return false, err
	}
	var all []savedPlan
	if err := json.Unmarshal(append(doc, ']'), &all); err != nil {
		return false, err
	}
	for i := range all {
		if i == 0 || !all[i].UpdatedAt.Before(p.UpdatedAt) { // of a tie, the one saved later
			*p = all[i]
		}
	}
	return len(all) > 0, nil
}

// runFromStart is the plan's input as it runs from its own start (its
// startYear, else the year it was saved) without what-ifs: no scenarios,
// goals or optimisation.
func runFromStart(p *savedPlan) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(p.Input))
	d.UseNumber()
	var in map[string]any
	if err := d.Decode(&in); err != nil {
		return nil, err
	}
	if _, has := in["startYear"]; !has {
		in["startYear"] = p.CreatedAt.Year()
	}
	delete(in, "scenarios")
	delete(in, "goals")
	delete(in, "optimize")
	return json.Marshal(in)
}
