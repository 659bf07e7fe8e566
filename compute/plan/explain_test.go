package plan

import (
	"strings"
	"testing"

	"fiplan/compute/fi"
	"fiplan/compute/household"
)

// Explain names what decides a plan: its depletion age, the bridge and its
// accounts, and what the order is worth against the baseline.
func TestExplain(t *testing.T) {
	t.Parallel()
	var r Result
	r.Plans = r.plans[:1]
	p := &r.Plans[0]
	p.Summary = fi.Summary{RunsOut: true, DepletionAge: 83}
	hr := &HouseholdResult{}
	hr.IDs = []string{"brokerage", "k"}
	hr.Bridges = []household.Bridge{{FromAge: 45, ToAge: 57, Accounts: []int{0}}, {FromAge: 58, ToAge: 59, Accounts: []int{0, 1}}}
	hr.LifetimeTax, hr.Baseline.LifetimeTax = 600000, 950000
	p.Household = hr
	x := r.Explain()
	for _, want := range []string{"runs out at age 83", "From 45 to 59", "brokerage", "saves 350,000 of lifetime tax"} {
		if !strings.Contains(x, want) {
			t.Fatalf("%q lacks %q", x, want)
		}
	}
	p.Household, p.Summary = nil, fi.Summary{}
	if x := r.Explain(); x != "" {
		t.Fatalf("a plain plan explained as %q", x)
	}
}
