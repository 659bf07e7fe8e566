package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"fiplan/data/store"
)

// runWatch checks the plans' watches and the judge of asset writes: a
// create, an update and a delete of an asset each ask the judge inside
// their transaction and emit what it raises there, once under each id; a
// judge's error undoes the write; a user without a watched plan never
// reaches the judge; a rewritten plan loses its watch, a deleted one with
// it, and a watch needs its plan.
func runWatch(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"AssetWritesRaisePathEvents", testWatchEvents},
		{"JudgeErrorUndoesWrite", testWatchJudgeError},
		{"WatchFollowsItsPlan", testWatchFollowsPlan},
		{"WatchWrittenWithItsPlan", testWatchWithPlan},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

// valued is an asset of the test judge: only its value counts.
func valued(id string, value float64) (store.AssetMeta, []byte) {
	return store.AssetMeta{ID: id}, fmt.Appendf(nil, `{"id":%q,"value":%g}`, id, value)
}

// judge is the test's store.AssetWatch: the total of the assets' values
// against each watch's 2026, counting its calls.
func judge(calls *atomic.Int64) store.AssetWatch {
	return func(user string, each func(fn func(doc []byte) error) error, ws []store.PlanWatch) ([]store.Event, error) {
		calls.Add(1)
		total := 0.0
		err := each(func(doc []byte) error {
			var a struct{ Value float64 }
			if err := json.Unmarshal(doc, &a); err != nil {
				return err
			}
			total += a.Value
			return nil
		})
		if err != nil {
			return nil, err
		}
		var evs []store.Event
		for i := range ws {
			expected, fiNumber, ok := ws[i].At(2026)
			more, err := store.Track(user, ws[i].Plan, ws[i].Name, 2026, ws[i].Currency, total, expected, ok, fiNumber, t0)
			if err != nil {
				return nil, err
			}
			evs = append(evs, more...)
		}
		return evs, nil
	}
}

// watchedPlan saves plan id of user with a watch expecting 100,000 in
// 2026 and an FI number of 1,000,000.
func watchedPlan(t *testing.T, s store.Store, user, id string) {
	t.Helper()
	w := store.PlanWatch{Plan: id, Name: id, Currency: "EUR", FromYear: 2025, Expected: []float64{90_000, 100_000}, FINumber: []float64{1e6, 1e6}}
	if err := s.CreatePlan(user, id, []byte(`{"id":"`+id+`"}`), 100, nil, &w); err != nil {
		t.Fatal(err)
	}
}

// watches is user's stored watches by plan id.
func watches(t *testing.T, s store.Store, user string) map[string]store.PlanWatch {
	t.Helper()
	out := map[string]store.PlanWatch{}
	err := s.EachWatch(func(u string, w store.PlanWatch) error {
		if u == user {
			out[w.Plan] = w
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// testWatchWithPlan: a plan and its watch are written in one
// transaction, so a watch that cannot be written (its JSON cannot be
// encoded: a failure between the plan's write and the watch's) leaves
// neither, on a create and on an update.
func testWatchWithPlan(t *testing.T, s store.Store) {
	watchedPlan(t, s, "ann", "p1")
	if w, ok := watches(t, s, "ann")["p1"]; !ok || w.Name != "p1" || len(w.Expected) != 2 {
		t.Fatalf("the watch saved with its plan: %+v %v", w, ok)
	}
	broken := store.PlanWatch{Name: "broken", Expected: []float64{math.NaN()}}
	if err := s.CreatePlan("ann", "p2", []byte(`{"id":"p2"}`), 100, nil, &broken); err == nil {
		t.Fatal("a plan whose watch cannot be written was created")
	}
	if _, err := s.AppendPlan(nil, "ann", "p2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a plan was left without its watch: %v", err)
	}
	// A create refused (the id is taken) writes no watch either.
	other := store.PlanWatch{Name: "other"}
	if err := s.CreatePlan("ann", "p1", []byte(`{"id":"p1"}`), 100, nil, &other); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second p1: %v, want ErrConflict", err)
	}
	if ws := watches(t, s, "ann"); len(ws) != 1 || ws["p1"].Name != "p1" {
		t.Fatalf("watches after the failed creates: %+v", ws)
	}
	err := s.UpdatePlan("ann", "p1", func([]byte) ([]byte, *store.PlanWatch, error) {
		return []byte(`{"id":"p1","v":2}`), &broken, nil
	})
	if err == nil {
		t.Fatal("an update whose watch cannot be written was made")
	}
	if got, _ := s.AppendPlan(nil, "ann", "p1"); string(got) != `{"id":"p1"}` {
		t.Fatalf("the plan after the failed update: %s", got)
	}
	if ws := watches(t, s, "ann"); ws["p1"].Name != "p1" {
		t.Fatalf("the watch after the failed update: %+v", ws)
	}
	renamed := store.PlanWatch{Name: "renamed", Expected: []float64{1}}
	err = s.UpdatePlan("ann", "p1", func([]byte) ([]byte, *store.PlanWatch, error) {
		return []byte(`{"id":"p1","v":3}`), &renamed, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if ws := watches(t, s, "ann"); ws["p1"].Name != "renamed" || ws["p1"].Plan != "p1" {
		t.Fatalf("the watch written with the update: %+v", ws)
	}
	if err := s.UpdatePlan("ann", "p1", func(old []byte) ([]byte, *store.PlanWatch, error) { return old, nil, nil }); err != nil {
		t.Fatal(err)
	}
	if ws := watches(t, s, "ann"); len(ws) != 0 {
		t.Fatalf("an update with no watch kept the old: %+v", ws)
	}
}

func eventTypes(t *testing.T, s store.Store, user string) []string {
	t.Helper()
	evs, _, err := s.Events(user, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(evs) - 1; i >= 0; i-- {
		var d struct{ Side string }
		_ = json.Unmarshal(evs[i].Data, &d)
		out = append(out, evs[i].Type+"/"+evs[i].PlanID+"/"+d.Side)
	}
	return out
}

func testWatchEvents(t *testing.T, s store.Store) {
	var calls atomic.Int64
	s.WatchAssets(judge(&calls))
	m, doc := valued("plain", 1)
	if err := s.CreateAsset("bob", m, doc, 10, nil); err != nil || calls.Load() != 0 {
		t.Fatalf("a user without a watched plan: %v, judge called %d times", err, calls.Load())
	}
	watchedPlan(t, s, "ann", "p1")
	watchedPlan(t, s, "ann", "p2")
	var listed []string
	if err := s.EachWatch(func(user string, w store.PlanWatch) error {
		listed = append(listed, user+"/"+w.Plan+"/"+w.Currency)
		return nil
	}); err != nil || fmt.Sprint(listed) != "[ann/p1/EUR ann/p2/EUR]" {
		t.Fatalf("EachWatch: %v, %v", listed, err)
	}
	step := func(what string, err error, want ...string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := eventTypes(t, s, "ann"); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("after %s: events %v, want %v", what, got, want)
		}
	}
	m, doc = valued("a1", 50_000)
	step("a create to half the path", s.CreateAsset("ann", m, doc, 10, nil),
		"plan.offtrack/p1/below", "plan.offtrack/p2/below")
	m, doc = valued("a2", 5_000)
	step("a second create, still below", s.CreateAsset("ann", m, doc, 10, nil),
		"plan.offtrack/p1/below", "plan.offtrack/p2/below")
	step("an update to above the path", s.UpdateAsset("ann", "a1", func([]byte) (store.AssetMeta, []byte, error) {
		m, doc := valued("a1", 200_000)
		return m, doc, nil
	}), "plan.offtrack/p1/below", "plan.offtrack/p2/below", "plan.offtrack/p1/above", "plan.offtrack/p2/above")
	m, doc = valued("a3", 900_000)
	step("a create past the FI number", s.CreateAsset("ann", m, doc, 10, nil),
		"plan.offtrack/p1/below", "plan.offtrack/p2/below", "plan.offtrack/p1/above", "plan.offtrack/p2/above",
		"fi.reached/p1/", "fi.reached/p2/")
	step("deletes back to the path and below", errors.Join(s.DeleteAsset("ann", "a3", nil), s.DeleteAsset("ann", "a1", func([]byte) error { return nil })),
		"plan.offtrack/p1/below", "plan.offtrack/p2/below", "plan.offtrack/p1/above", "plan.offtrack/p2/above",
		"fi.reached/p1/", "fi.reached/p2/")
	if calls.Load() != 6 {
		t.Errorf("judge called %d times for 6 writes of a watched user", calls.Load())
	}
}

func testWatchJudgeError(t *testing.T, s store.Store) {
	watchedPlan(t, s, "ann", "p1")
	m, doc := valued("a1", 10)
	if err := s.CreateAsset("ann", m, doc, 10, nil); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	s.WatchAssets(func(string, func(func([]byte) error) error, []store.PlanWatch) ([]store.Event, error) {
		return nil, boom
	})
	m, doc = valued("a2", 10)
	if err := s.CreateAsset("ann", m, doc, 10, nil); err == nil {
		t.Fatal("a create whose judge failed succeeded")
	}
	if err := s.UpdateAsset("ann", "a1", func([]byte) (store.AssetMeta, []byte, error) {
		m, doc := valued("a1", 99)
		return m, doc, nil
	}); err == nil {
		t.Fatal("an update whose judge failed succeeded")
	}
	if err := s.DeleteAsset("ann", "a1", nil); err == nil {
		t.Fatal("a delete whose judge failed succeeded")
	}
	got, _, err := s.AppendAssets(nil, "ann", store.AnyCategory, 0, 10)
	if err != nil || string(got) != `{"id":"a1","value":10}` {
		t.Fatalf("the assets after three failed writes: %s, %v", got, err)
	}
}

func testWatchFollowsPlan(t *testing.T, s store.Store) {
	var calls atomic.Int64
	s.WatchAssets(judge(&calls))
	if err := s.SetPlanWatch("ann", store.PlanWatch{Plan: "nope"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a watch without its plan: %v, want ErrNotFound", err)
	}
	watchedPlan(t, s, "ann", "p1")
	watchedPlan(t, s, "ann", "p2")
	if err := s.UpdatePlan("ann", "p1", func(old []byte) ([]byte, *store.PlanWatch, error) { return old, nil, nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePlan("ann", "p2", nil); err != nil {
		t.Fatal(err)
	}
	m, doc := valued("a1", 5)
	if err := s.CreateAsset("ann", m, doc, 10, nil); err != nil {
		t.Fatal(err)
	}
	if got := eventTypes(t, s, "ann"); len(got) != 0 || calls.Load() != 0 {
		t.Fatalf("a rewritten and a deleted plan still watched: events %v, judge called %d times", got, calls.Load())
	}
	watchedPlan(t, s, "ann", "p3")
	if err := s.DeleteUser("ann"); err != nil {
		t.Fatal(err)
	}
	watchedPlan(t, s, "ann", "p3") // a new account starts unwatched
	if err := s.DeletePlan("ann", "p3", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAsset("ann", m, doc, 10, nil); err != nil || calls.Load() != 0 {
		t.Fatalf("after erasure: %v, judge called %d times", err, calls.Load())
	}
}
