package plans

import (
	"testing"
	"time"
)

// A check-in a year on ages the partner with the plan: their age moves on
// by the same years, so the couple keeps its age gap, and a retirement age
// already passed moves to today.
func TestRebaseAgesThePartner(t *testing.T) {
	saved := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	in := `{"startYear":2025,"currentAge":45,"annualIncome":1,"annualExpenses":1,"targetRetirementAge":58,"partner":{"age":43,"retirementAge":44,"annualIncome":1},"currentSavings":1}`
	m, _, _ := rebased(t, in, saved, today{savings: f(1)}, 2027)
	q := m["partner"].(map[string]any)
	if m["currentAge"] != 47.0 || q["age"] != 45.0 || q["retirementAge"] != 45.0 || q["annualIncome"] != 1.0 {
		t.Errorf("rebased: you %v, partner %v", m["currentAge"], q)
	}
	// A partner's retirement age still ahead stays; a partner without an age is left alone.
	m, _, _ = rebased(t, `{"startYear":2026,"currentAge":45,"annualIncome":1,"annualExpenses":1,"partner":{"age":40,"retirementAge":60},"currentSavings":1}`, saved, today{savings: f(1)}, 2027)
	if q := m["partner"].(map[string]any); q["age"] != 41.0 || q["retirementAge"] != 60.0 {
		t.Errorf("partner %v", q)
	}
	m, _, _ = rebased(t, `{"currentAge":45,"annualIncome":1,"annualExpenses":1,"partner":{},"currentSavings":1}`, saved, today{savings: f(1)}, 2027)
	if q := m["partner"].(map[string]any); len(q) != 0 {
		t.Errorf("partner without an age: %v", q)
	}
}
