package handlers

import (
	"os"
	"strconv"
	"testing"

	"fiplan/data/store"
)

// When the embedded data changes, the job computes again every plan whose
// watch names another data version: a plan whose answer moved by more than
// a hundredth raises one data.updated with its old and new figures, one
// whose answer did not raises nothing, and a rerun raises nothing more.
// The old version is injected into the stored watches: the test's data
// cannot change, but what the job compares with can. Both stores alike.
func TestDataUpdatedRechecksOlderPlans(t *testing.T) {
	onBothStores(t, func(t *testing.T, h *harness) {
		tok := h.Token("alice", "free", "")
		body := `{"startYear":2026,"currentAge":40,"annualIncome":90000,"annualExpenses":40000,"currentSavings":500000,"targetRetirementAge":60}`
		save := func(name string) string { return savePlan(t, h, tok, name, body)["id"].(string) }
		moved, same, current := save("moved"), save("same"), save("current")
		db := h.S.db
		var ws []store.PlanWatch
		if err := db.EachWatch(func(user string, w store.PlanWatch) error {
			if user == "alice" {
				ws = append(ws, w)
			}
			return nil
		}); err != nil || len(ws) != 3 {
			t.Fatalf("watches: %d, %v", len(ws), err)
		}
		for _, w := range ws {
			if w.Data == "" || w.Answer.FINumber != 1e6 {
				t.Fatalf("a saved plan's watch: %+v", w)
			}
			switch w.Plan {
			case moved: // the old data's answer was 5% lower
				w.Data, w.Answer.FINumber = "data-old", w.Answer.FINumber*0.95
			case same:
				w.Data = "data-old"
			case current:
				continue
			}
			if err := db.SetPlanWatch("alice", w); err != nil {
				t.Fatal(err)
			}
		}
		for run := range 2 {
			n, err := h.S.plans.Recheck(h.Clock())
			if want := 1 - run; err != nil || n != want {
				t.Fatalf("run %d: %d events, %v; want %d", run, n, err, want)
			}
			evs := eventsOfType(t, h, tok, "data.updated")
			if len(evs) != 1 || evs[0]["planId"] != moved {
				t.Fatalf("run %d: %v", run, evs)
			}
			d, _ := evs[0]["data"].(map[string]any)
			fi, _ := d["fiNumber"].(map[string]any)
			v, _ := d["dataVersion"].(map[string]any)
			if fi["old"] != 950000.0 || fi["new"] != 1e6 || fi["share"] != 0.0526 || v["old"] != "data-old" || v["new"] == "data-old" || d["threshold"] != 0.01 {
				t.Errorf("data.updated: %v", d)
			}
		}
		// A plan that lost its watch (as fiplan migrate leaves it) gets one
		// from the job, with no event.
		if err := db.UpdatePlan("alice", same, func(old []byte) ([]byte, *store.PlanWatch, error) { return old, nil, nil }); err != nil {
			t.Fatal(err)
		}
		if n, err := h.S.plans.Recheck(h.Clock()); err != nil || n != 0 {
			t.Fatalf("the job for an unwatched plan: %d events, %v", n, err)
		}
		n := 0
		if err := db.EachWatch(func(user string, w store.PlanWatch) error {
			if user == "alice" && (w.Data == "data-old" || w.Answer.FINumber != 1e6) {
				t.Errorf("after the job: %+v", w)
			}
			n++
			return nil
		}); err != nil || n != 3 {
			t.Fatalf("watches after the job: %d, %v", n, err)
		}
	})
}

// savePlan saves input as a plan named name and returns its answer's data.
func savePlan(t *testing.T, h *harness, tok, name, input string) map[string]any {
	t.Helper()
	r := h.Do("POST", "/api/v1/plans", `{"name":`+strconv.Quote(name)+`,"input":`+input+`}`, bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("save plan: %d %s", r.Status, r.Raw)
	}
	return r.Data()
}

// eventsOfType is the user's events of type typ, newest first.
func eventsOfType(t *testing.T, h *harness, tok, typ string) []map[string]any {
	t.Helper()
	r := h.Do("GET", "/api/v1/user/events?limit=100", "", bearer(tok)...)
	if r.Status != 200 {
		t.Fatalf("events: %d %s", r.Status, r.Raw)
	}
	list, _ := r.Body["data"].([]any)
	var out []map[string]any
	for _, e := range list {
		if m, _ := e.(map[string]any); m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// onBothStores runs fn against a server on bbolt and one on PostgreSQL
// (skipped without FI_TEST_POSTGRES).
func onBothStores(t *testing.T, fn func(t *testing.T, h *harness)) {
	t.Run("bbolt", func(t *testing.T) { fn(t, newHarness(t)) })
	t.Run("postgres", func(t *testing.T) {
		if os.Getenv("FI_TEST_POSTGRES") == "" {
			t.Skip("FI_TEST_POSTGRES is not set")
		}
		fn(t, newHarness(t, withDB(pgStore(t))))
	})
}
