package decide

import (
	"testing"

	"fiplan/compute/household"
)

// The same search serves every country with wrappers and statutory
// pensions, from their data alone: a UK couple (SIPP, ISA, the State
// Pension's deferral), a Canadian one (RRSP, TFSA, CPP and OAS deferral)
// and the US couple.
func TestCountries(t *testing.T) {
	t.Parallel()
	gr, gs := rules(t, "gb")
	uk := couple(gr, gs, "GB", 60, 60, 90, account(gr, "sipp", "gb-sipp", 0, 600000), account(gr, "isa", "gb-isa", 1, 200000), account(gr, "t", "taxable", 0, 100000))
	uk.Joint = false
	uk.Pensions = []household.Pension{benefit(gr, "gb-state-pension", "GB", 0, 67, 12000), benefit(gr, "gb-state-pension", "GB", 1, 67, 12000)}
	cr, cs := rules(t, "ca")
	ca := couple(cr, cs, "CA", 60, 60, 90, account(cr, "rrsp", "ca-rrsp", 0, 700000), account(cr, "tfsa", "ca-tfsa", 1, 150000), account(cr, "t", "taxable", 0, 100000))
	ca.Joint = false
	ca.Pensions = []household.Pension{benefit(cr, "ca-cpp", "CA", 0, 65, 15000), benefit(cr, "ca-oas", "CA", 0, 65, 8800)}
	us := usCouple(t)
	for name, p := range map[string]household.Plan{"GB": uk, "CA": ca, "US": us} {
		a := optimize(t, &p, &Request{Objective: Spending})
		if !a.Feasible || a.Value < a.PlanValue || a.Value < a.BaselineValue || len(a.Claims) != 2 {
			t.Fatalf("%s: feasible %v, value %.0f, plan %.0f, baseline %.0f, claims %+v", name, a.Feasible, a.Value, a.PlanValue, a.BaselineValue, a.Claims)
		}
		if name != "US" && a.Decisions.Has(Conversions) {
			t.Fatalf("%s: no wrapper converts there, yet conversions were searched", name)
		}
		t.Logf("%s: %.0f over %.0f asked; claims %+v", name, a.Value, a.PlanValue, a.Claims)
	}
}
