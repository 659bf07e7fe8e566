package plan_test

import (
	"fmt"

	"fiplan/compute/fi"
	"fiplan/compute/plan"
)

// A 35-year-old earning 90,000 and spending 45,000 a year, with a frugal
// scenario beside the plan: Run projects both with fi's defaults (no tax,
// no city, no history needed) and answers each one's FI figures.
func ExampleRun() {
	in := fi.Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses, in.StartYear = 35, 90000, 45000, 2026
	frugal := in
	frugal.AnnualExpenses = 35000
	p := plan.Plan{Base: in, Scenarios: []plan.Scenario{{Name: "frugal", Input: frugal}}}
	var r plan.Result
	if err := plan.Run(&p, &plan.Inputs{}, &plan.Options{Step: 1}, &r); err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range r.Plans {
		s, name := q.Summary, q.Name
		if name == "" {
			name = "plan"
		}
		fmt.Printf("%-7s FI number %.0f at age %d (%d), saving %.0f%% of income\n",
			name, s.FINumber, s.FIAge, s.FIYear, 100*s.SavingsRate)
	}
	// Output:
	// plan    FI number 1125000 at age 53 (2044), saving 50% of income
	// frugal  FI number 875000 at age 48 (2039), saving 61% of income
}
