package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	json "github.com/goccy/go-json"

	"fiplan/data/store"
)

// runPlans checks the saved plans: their create, cap and ownership, the
// compare-and-set of a rewrite and a delete, the list's order and pages,
// and that export shows them and erasure removes them.
func runPlans(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"PlanCreateAndRead", testPlanCreateAndRead},
		{"PlanList", testPlanList},
		{"PlanUpdate", testPlanUpdate},
		{"PlanDeleteChecked", testPlanDeleteChecked},
		{"PlanCapConcurrent", testPlanCapConcurrent},
		{"PlanExportAndErase", testPlanExportAndErase},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func planDoc(id, name string) []byte { return []byte(fmt.Sprintf(`{"id":%q,"name":%q}`, id, name)) }

func createPlan(t *testing.T, s store.Store, user, id string) {
	t.Helper()
	if err := s.CreatePlan(user, id, planDoc(id, "p "+id), 100, nil, nil); err != nil {
		t.Fatalf("CreatePlan(%q, %q): %v", user, id, err)
	}
}

// planIDs lists the ids of a page of user's plans and the total.
func planIDs(t *testing.T, s store.Store, user string, offset, limit int) ([]string, int) {
	t.Helper()
	raw, total, err := s.AppendPlans([]byte("["), user, offset, limit)
	if err != nil {
		t.Fatalf("AppendPlans: %v", err)
	}
	var docs []struct{ ID string }
	if err := json.Unmarshal(append(raw, ']'), &docs); err != nil {
		t.Fatalf("AppendPlans wrote invalid JSON %q: %v", raw, err)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.ID
	}
	return out, total
}

func testPlanCreateAndRead(t *testing.T, s store.Store) {
	createPlan(t, s, "alice", "p1")
	got, err := s.AppendPlan([]byte("x"), "alice", "p1")
	if err != nil || !bytes.Equal(got, append([]byte("x"), planDoc("p1", "p p1")...)) {
		t.Fatalf("AppendPlan = %q, %v", got, err)
	}
	if err := s.CreatePlan("alice", "p1", planDoc("p1", "again"), 100, nil, nil); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second create of one id: %v, want ErrConflict", err)
	}
	// Another user's id, an unknown id and an invalid one are not found.
	for _, c := range []struct{ user, id string }{{"bob", "p1"}, {"alice", "p2"}, {"alice", ""}, {"", "p1"}} {
		if _, err := s.AppendPlan(nil, c.user, c.id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("AppendPlan(%q, %q): %v, want ErrNotFound", c.user, c.id, err)
		}
		if err := s.UpdatePlan(c.user, c.id, func(old []byte) ([]byte, *store.PlanWatch, error) { return old, nil, nil }); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UpdatePlan(%q, %q): %v, want ErrNotFound", c.user, c.id, err)
		}
		if err := s.DeletePlan(c.user, c.id, nil); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("DeletePlan(%q, %q): %v, want ErrNotFound", c.user, c.id, err)
		}
	}
	if err := s.CreatePlan("alice", "", planDoc("", ""), 100, nil, nil); err == nil {
		t.Error("a plan with an empty id was stored")
	}
	// A plan creates the account, as an asset does.
	if _, err := s.Account("carol"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("carol's account before: %v", err)
	}
	createPlan(t, s, "carol", "c1")
	if a, err := s.Account("carol"); err != nil || a.Tier != "free" {
		t.Errorf("carol's account after a plan = %+v, %v", a, err)
	}
}

func testPlanList(t *testing.T, s store.Store) {
	if got, total := planIDs(t, s, "alice", 0, 10); len(got) != 0 || total != 0 {
		t.Fatalf("plans of a new user = %v, %d", got, total)
	}
	for _, id := range []string{"z", "a", "m", "b"} {
		createPlan(t, s, "alice", id)
	}
	createPlan(t, s, "bob", "x")
	if got, total := planIDs(t, s, "alice", 0, 10); fmt.Sprint(got) != "[z a m b]" || total != 4 {
		t.Errorf("all = %v, %d; want creation order [z a m b], 4", got, total)
	}
	if got, total := planIDs(t, s, "alice", 1, 2); fmt.Sprint(got) != "[a m]" || total != 4 {
		t.Errorf("page = %v, %d; want [a m], 4", got, total)
	}
	if got, total := planIDs(t, s, "alice", 9, 2); len(got) != 0 || total != 4 {
		t.Errorf("past the end = %v, %d", got, total)
	}
	if err := s.DeletePlan("alice", "a", nil); err != nil {
		t.Fatal(err)
	}
	if got, total := planIDs(t, s, "alice", 0, 10); fmt.Sprint(got) != "[z m b]" || total != 3 {
		t.Errorf("after a delete = %v, %d", got, total)
	}
}

var errTestStale = errors.New("stale")

func testPlanUpdate(t *testing.T, s store.Store) {
	createPlan(t, s, "alice", "p1")
	if err := s.UpdatePlan("alice", "p1", func(old []byte) ([]byte, *store.PlanWatch, error) {
		if !bytes.Equal(old, planDoc("p1", "p p1")) {
			return nil, nil, fmt.Errorf("old = %q", old)
		}
		return planDoc("p1", "renamed"), nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	// The callback's error aborts the write and comes back as it is.
	err := s.UpdatePlan("alice", "p1", func([]byte) ([]byte, *store.PlanWatch, error) { return planDoc("p1", "lost"), nil, errTestStale })
	if err != errTestStale {
		t.Errorf("UpdatePlan with a failing callback: %v, want the callback's error itself", err)
	}
	if got, _ := s.AppendPlan(nil, "alice", "p1"); !bytes.Equal(got, planDoc("p1", "renamed")) {
		t.Errorf("after updates = %q", got)
	}
	// Of writers that read the same version, exactly one wins.
	const n = 8
	errs := parallel(n, func(i int) error {
		return s.UpdatePlan("alice", "p1", func(old []byte) ([]byte, *store.PlanWatch, error) {
			if !bytes.Equal(old, planDoc("p1", "renamed")) {
				return nil, nil, errTestStale
			}
			return planDoc("p1", fmt.Sprint("w", i)), nil, nil
		})
	})
	if ok, stale := tally(t, errs, errTestStale); ok != 1 || stale != n-1 {
		t.Errorf("%d writes won and %d were stale; want 1 and %d", ok, stale, n-1)
	}
}

func testPlanDeleteChecked(t *testing.T, s store.Store) {
	createPlan(t, s, "alice", "p1")
	var seen []byte
	err := s.DeletePlan("alice", "p1", func(doc []byte) error {
		seen = bytes.Clone(doc)
		return errTestStale
	})
	if err != errTestStale || !bytes.Equal(seen, planDoc("p1", "p p1")) {
		t.Fatalf("checked delete = %v, saw %q", err, seen)
	}
	if _, err := s.AppendPlan(nil, "alice", "p1"); err != nil {
		t.Fatalf("a refused delete removed the plan: %v", err)
	}
	if err := s.DeletePlan("alice", "p1", func([]byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendPlan(nil, "alice", "p1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after delete: %v", err)
	}
	if err := s.DeletePlan("alice", "p1", nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	// The id is free again.
	createPlan(t, s, "alice", "p1")
}

func testPlanCapConcurrent(t *testing.T, s store.Store) {
	const max, n = 5, 12
	createPlan(t, s, "alice", "first")
	errs := parallel(n, func(i int) error {
		id := fmt.Sprint("p", i)
		return s.CreatePlan("alice", id, planDoc(id, "racing"), max, nil, nil)
	})
	if ok, limited := tally(t, errs, store.ErrLimit); ok != max-1 || limited != n-max+1 {
		t.Errorf("%d creates stored and %d hit the cap; want %d and %d", ok, limited, max-1, n-max+1)
	}
	if _, total := planIDs(t, s, "alice", 0, 100); total != max {
		t.Errorf("%d plans stored, cap %d", total, max)
	}
	// The cap is per user.
	if err := s.CreatePlan("bob", "b", planDoc("b", "b"), max, nil, nil); err != nil {
		t.Errorf("bob's first plan: %v", err)
	}
}

func testPlanExportAndErase(t *testing.T, s store.Store) {
	e, err := s.Export("alice")
	if err != nil || e.Plans == nil || len(e.Plans) != 0 {
		t.Fatalf("Export of an unknown user: plans %#v, %v", e.Plans, err)
	}
	createPlan(t, s, "alice", "p2")
	createPlan(t, s, "alice", "p1")
	createPlan(t, s, "bob", "p1")
	if e, err = s.Export("alice"); err != nil {
		t.Fatal(err)
	}
	if len(e.Plans) != 2 || !bytes.Equal(e.Plans[0], planDoc("p2", "p p2")) || !bytes.Equal(e.Plans[1], planDoc("p1", "p p1")) {
		t.Errorf("exported plans = %q", e.Plans)
	}
	if err := s.DeleteUser("alice"); err != nil {
		t.Fatal(err)
	}
	if _, total := planIDs(t, s, "alice", 0, 10); total != 0 {
		t.Errorf("%d plans after erasure", total)
	}
	if _, err := s.AppendPlan(nil, "alice", "p1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a plan read after erasure: %v", err)
	}
	if e, err = s.Export("alice"); err != nil || len(e.Plans) != 0 {
		t.Errorf("exported plans after erasure = %q, %v", e.Plans, err)
	}
	if _, total := planIDs(t, s, "bob", 0, 10); total != 1 {
		t.Errorf("bob has %d plans after alice's erasure", total)
	}
	// Erased, alice starts again from nothing.
	createPlan(t, s, "alice", "p1")
}
