package plans

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"fiplan/handlers/owned"
)

func rebased(t *testing.T, input string, created time.Time, td today, year int) (map[string]any, float64, string) {
	t.Helper()
	p := &savedPlan{planIn: planIn{Input: []byte(input)}, Times: owned.Times{CreatedAt: created}}
	body, savings, field, _, err := rebase(p, td, year)
	if err != nil {
		t.Fatal(err)
	}
	if field != "" {
		return nil, 0, field
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m, savings, ""
}

func f(v float64) *float64 { return &v }

// The input run from a later year: ages advanced by the years since its
// start, the start moved to this year, a retirement age already passed
// moved to today, scenarios and goals left out, the savings today's.
func TestRebaseAdvancesThePlan(t *testing.T) {
	saved := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	m, savings, _ := rebased(t, `{"currentAge":60,"annualIncome":1,"annualExpenses":1,"targetRetirementAge":62,"currentSavings":5,"scenarios":[{"name":"a"}],"goals":{"fiByAge":70},"monteCarlo":{"simulations":10}}`,
		saved, today{savings: f(750000)}, 2027)
	want := map[string]any{"currentAge": 63.0, "startYear": 2027.0, "annualIncome": 1.0, "annualExpenses": 1.0, "targetRetirementAge": 63.0,
		"currentSavings": 750000.0, "monteCarlo": map[string]any{"simulations": 10.0}}
	if !reflect.DeepEqual(m, want) || savings != 750000 {
		t.Errorf("rebased = %v (%v), want %v", m, savings, want)
	}
	// A startYear in the input is the plan's start; a retirement age still
	// ahead stays.
	m, _, _ = rebased(t, `{"startYear":2020,"currentAge":40,"annualIncome":1,"annualExpenses":1,"targetRetirementAge":55}`, saved, today{savings: f(1)}, 2027)
	if m["currentAge"] != 47.0 || m["targetRetirementAge"] != 55.0 {
		t.Errorf("from startYear 2020: %v", m)
	}
	// A plan starting in the future is run from its own ages.
	m, _, _ = rebased(t, `{"startYear":2030,"currentAge":40,"annualIncome":1,"annualExpenses":1}`, saved, today{savings: f(1)}, 2027)
	if m["currentAge"] != 40.0 {
		t.Errorf("a future start: %v", m)
	}
}

// Balances set the accounts they name and add up to the savings; without
// accounts in the plan they add up to currentSavings.
func TestRebaseBalances(t *testing.T) {
	saved := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	in := `{"currentAge":40,"annualIncome":1,"annualExpenses":1,"accounts":[{"id":"isa","type":"gb-isa","balance":100},{"id":"cash","type":"cash","balance":50}]}`
	m, savings, _ := rebased(t, in, saved, today{balances: map[string]float64{"isa": 2000}}, 2026)
	acc := m["accounts"].([]any)
	if acc[0].(map[string]any)["balance"] != 2000.0 || acc[1].(map[string]any)["balance"] != 50.0 || savings != 2050 {
		t.Errorf("accounts = %v, savings %v", acc, savings)
	}
	if _, ok := m["currentSavings"]; ok {
		t.Errorf("currentSavings set beside accounts: %v", m)
	}
	if _, _, field := rebased(t, in, saved, today{balances: map[string]float64{"isa": 1, "brokerage": 2}}, 2026); field != "balances.brokerage" {
		t.Errorf("an unknown account: field %q", field)
	}
	if _, _, field := rebased(t, in, saved, today{savings: f(1)}, 2026); field != "currentSavings" {
		t.Errorf("currentSavings for a plan of accounts: field %q", field)
	}
	m, savings, _ = rebased(t, `{"currentAge":40,"annualIncome":1,"annualExpenses":1,"currentSavings":9}`, saved, today{balances: map[string]float64{"a": 1.5, "b": 2}}, 2026)
	if m["currentSavings"] != 3.5 || savings != 3.5 {
		t.Errorf("balances without accounts: %v, %v", m["currentSavings"], savings)
	}
}

func TestPlanIDGrammar(t *testing.T) {
	for range 20 {
		id, err := Plans.NewID()
		if err != nil || !PlanID.ValidString(id) {
			t.Fatalf("Plans.NewID() = %q, %v, outside its grammar", id, err)
		}
	}
}

// The age a conflict message names comes from the rebased body; a body
// that cannot be read is an error, not an age of 0.
func TestAgeOfReadsTheBody(t *testing.T) {
	if age, err := ageOf([]byte(`{"currentAge":47,"startYear":2026}`)); err != nil || age != 47 {
		t.Fatalf("ageOf = %d, %v; want 47", age, err)
	}
	for _, bad := range []string{``, `{"currentAge":"x"}`, `[1]`} {
		if _, err := ageOf([]byte(bad)); err == nil {
			t.Errorf("ageOf(%q) took an unreadable body", bad)
		}
	}
}
