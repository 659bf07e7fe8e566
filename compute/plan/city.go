package plan

import "strconv"

// resolveCity sets the retirement spending of plan k from its city, if it
// has one: the scenario's own city, else the base's unless the scenario
// sets its retirement spending itself.
func resolveCity(p *Plan, in *Inputs, k int, currency string, pr *PlanResult) error {
	base := &p.Place
	own, prefix := base, ""
	if k > 0 {
		own, prefix = &p.Scenarios[k-1].Place, "scenarios["+strconv.Itoa(k-1)+"]."
	}
	if own.CityID != "" && own.OwnExpenses {
		return &FieldError{prefix + "cityId", "give retirementExpenses or cityId, not both"}
	}
	id := own.CityID
	if id == "" && !own.OwnExpenses {
		id = base.CityID
	}
	n := 1
	if own.Household != 0 {
		n = own.Household
	} else if base.Household != 0 {
		n = base.Household
	}
	if id == "" {
		if own.Household != 0 {
			return &FieldError{prefix + "householdSize", "applies only with a cityId"}
		}
		return nil
	}
	city, ok := in.Cities[id]
	if !ok {
		field := prefix + "cityId"
		if own.CityID == "" {
			field = "cityId"
		}
		return &FieldError{field, "no city " + strconv.Quote(id) + "; GET /api/v1/geo/cities lists them"}
	}
	lines := city.Budget(n)
	usd := lines.Total()
	yearly, ok := in.Convert(12*float64(usd), "USD", currency)
	if !ok {
		return &FieldError{"currency", "has no reference rate to convert the city's budget from USD"}
	}
	pr.city = City{City: city, Household: n, MonthlyUSD: usd, Yearly: yearly}
	pr.City = &pr.city
	pr.input.RetirementExpenses = yearly
	return nil
}
