package household

import (
	"testing"
)

// A retiree living in Stockholm is taxed with the förhöjt grundavdrag from
// the year they have turned 66 when it begins: the plan passes each year's
// age (the age reached during it) to the tax engine. A pension of 240 000
// kr in 2026's money is taxed 35 702 kr at 70 (grundavdrag 121 200) and
// 59 900 kr at 64, when the ordinary grundavdrag (40 000) applies
// (examples_se66_test.go in compute/tax has the arithmetic).
func TestSEForhojtGrundavdragInPlan(t *testing.T) {
	s := taxSystem(t, "se")
	firstYearTax := func(age int) float64 {
		t.Helper()
		p := Plan{
			People:         []Person{{Age: age, LifeExpectancy: age + 10, RetirementAge: age}},
			Accounts:       []Account{{ID: "cash", Type: "cash", Balance: 1e6, CostBasis: -1}},
			Pensions:       []Pension{{Owner: 0, FromAge: age, Amount: 240000, Indexed: true}},
			Return:         0.03,
			Expenses:       200000,
			StartYear:      2026,
			Residences:     []Residence{{Country: "SE", System: s, Year: 2026, Region: "STHLM"}},
			WithdrawalRate: 0.04,
		}
		r := run(t, &p)
		if len(r.Extra) == 0 {
			t.Fatal("no rows")
		}
		return r.Extra[0].Tax.Income
	}
	if got := firstYearTax(70); !near(got, 35702, 1) {
		t.Errorf("pension 240 000 at 70: income tax %.2f, want 35 702 (förhöjt grundavdrag)", got)
	}
	if got := firstYearTax(64); !near(got, 59900, 1) {
		t.Errorf("pension 240 000 at 64: income tax %.2f, want 59 900 (ordinary grundavdrag)", got)
	}
}
