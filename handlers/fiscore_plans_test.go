package handlers

import (
	"strings"
	"testing"
	"time"

	"fiplan/data/store"
)

// The FI score of a user with saved plans is of the plan updated last, or
// of the one ?plan= names; its FI number and FI age are the plan's own run.
func TestFIScoreOfSavedPlans(t *testing.T) {
	h := newHarness(t)
	tok := h.Token("fiona", "free", "")
	score := func(q string) map[string]any {
		t.Helper()
		r := h.Do("GET", "/api/v1/fi-score"+q, "", bearer(tok)...)
		if r.Status != 200 {
			t.Fatalf("fi-score%s: %d %s", q, r.Status, r.Raw)
		}
		return r.Data()
	}
	missing := func(d map[string]any, field string) bool {
		for _, m := range d["missing"].([]any) {
			if m.(map[string]any)["field"] == field {
				return true
			}
		}
		return false
	}

	// No plan: the profile's score, which lacks the expenses.
	if d := score(""); d["plan"] != nil || d["fiNumber"] != nil || !missing(d, "profile.annualExpenses") {
		t.Fatalf("without plans: %v", d)
	}

	a := savePlan(t, h, tok, "Lean at 55", `{"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":300000,"targetRetirementAge":55}`)
	h.Advance(time.Minute)
	b := savePlan(t, h, tok, "Fuller at 55", `{"currentAge":40,"annualIncome":90000,"annualExpenses":50000,"currentSavings":300000,"targetRetirementAge":55,"monteCarlo":{"simulations":500}}`)
	run := func(id string) map[string]any {
		r := h.Do("POST", "/api/v1/plans/"+id+"/run", "", bearer(tok)...)
		if r.Status != 200 {
			t.Fatalf("run %s: %d %s", id, r.Status, r.Raw)
		}
		return r.Data()
	}
	check := func(d map[string]any, p map[string]any, expenses float64) {
		t.Helper()
		want := run(p["id"].(string))
		got, _ := d["plan"].(map[string]any)
		if got["id"] != p["id"] || got["name"] != p["name"] {
			t.Errorf("plan scored = %v, want %v", got, p["id"])
		}
		if d["fiNumber"] != want["fiNumber"] || d["fiAge"] != want["fiAge"] || d["fiAge"] == nil {
			t.Errorf("fiNumber %v, fiAge %v; the plan's run: %v, %v", d["fiNumber"], d["fiAge"], want["fiNumber"], want["fiAge"])
		}
		if d["yearsToFI"] != d["fiAge"].(float64)-40 {
			t.Errorf("yearsToFI %v for FI at %v from 40", d["yearsToFI"], d["fiAge"])
		}
		// No assets stored: the plan's savings are the net worth.
		if d["netWorth"] != 300000.0 || d["progress"] != 300000/want["fiNumber"].(float64) {
			t.Errorf("netWorth %v, progress %v", d["netWorth"], d["progress"])
		}
		if in := d["inputs"].(map[string]any); in["annualExpenses"] != expenses || in["age"] != 40.0 {
			t.Errorf("inputs = %v", in)
		}
		if missing(d, "profile.annualExpenses") || missing(d, "profile.currentAge") {
			t.Errorf("a plan scored still misses the profile: %v", d["missing"])
		}
	}
	check(score(""), b, 50000) // updated last
	check(score("?plan="+a["id"].(string)), a, 40000)
	if d := score("?plan=" + a["id"].(string)); d["fiNumber"] != 1e6 {
		t.Errorf("40,000 at 4%%: fiNumber %v", d["fiNumber"])
	}

	// Renamed, the first plan is the one updated last.
	h.Advance(time.Minute)
	r := h.Do("PATCH", "/api/v1/plans/"+a["id"].(string), `{"name":"Lean, renamed"}`, bearer(tok)...)
	if r.Status != 200 {
		t.Fatalf("PATCH: %d %s", r.Status, r.Raw)
	}
	if d := score(""); d["plan"].(map[string]any)["id"] != a["id"] {
		t.Errorf("after a rename the plan scored is %v", d["plan"])
	}
	// ?plan=none: the profile alone.
	if d := score("?plan=none"); d["plan"] != nil || d["fiNumber"] != nil {
		t.Errorf("?plan=none: %v", d)
	}

	// A plan the caller has none of, another user's included: 404.
	expectError(t, h.Do("GET", "/api/v1/fi-score?plan=pln_aaaaaaaaaaaaaaaaaaaaaaaaaa", "", bearer(tok)...), 404, "NOT_FOUND")
	expectError(t, h.Do("GET", "/api/v1/fi-score?plan=nope", "", bearer(tok)...), 404, "NOT_FOUND")
	other := h.Token("otto", "free", "")
	expectError(t, h.Do("GET", "/api/v1/fi-score?plan="+a["id"].(string), "", bearer(other)...), 404, "NOT_FOUND")
	// A stored plan whose input no longer runs (written before a rule
	// that now refuses it): named, it is refused on ?plan=; updated last,
	// it is passed over for the profile.
	id := a["id"].(string)
	h.Advance(time.Minute)
	if err := h.DB.UpdatePlan("fiona", id, func(old []byte) ([]byte, *store.PlanWatch, error) {
		return []byte(strings.Replace(string(old), `"currentAge":40`, `"currentAge":40,"lifeExpectancy":39`, 1)), nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	r = h.Do("GET", "/api/v1/fi-score?plan="+id, "", bearer(tok)...)
	expectError(t, r, 400, "VALIDATION_ERROR")
	if det := r.Body["details"].([]any)[0].(map[string]any); det["path"] != "plan" {
		t.Errorf("details = %v", det)
	}
	if d := score(""); d["plan"] != nil {
		t.Errorf("a plan that no longer runs was scored: %v", d["plan"])
	}
	// Otto has no plan: his score is his profile's.
	if r := h.Do("GET", "/api/v1/fi-score", "", bearer(other)...); r.Status != 200 || r.Data()["plan"] != nil {
		t.Errorf("otto: %d %s", r.Status, r.Raw)
	}
}
