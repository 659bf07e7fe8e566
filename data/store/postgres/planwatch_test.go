package postgres

import (
	"context"
	"errors"
	"testing"

	"fiplan/data/store"
)

// A failure of the database itself between a plan's write and its
// watch's (a trigger that refuses every watch) undoes the plan's write:
// a create leaves no plan, an update leaves the plan and its old watch.
func TestPlanAndWatchOneTransaction(t *testing.T) {
	u := freshSchema(t)
	d := openT(t, u)
	w := store.PlanWatch{Name: "v1", Expected: []float64{1}}
	if err := d.CreatePlan("ann", "p1", []byte(`{"id":"p1"}`), 100, nil, &w); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := d.pool.Exec(ctx, `CREATE FUNCTION refuse_watch() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'injected: the watch cannot be written'; END $$;
		CREATE TRIGGER refuse_watch BEFORE INSERT OR UPDATE ON plan_watch FOR EACH ROW EXECUTE FUNCTION refuse_watch()`); err != nil {
		t.Fatal(err)
	}
	if err := d.CreatePlan("ann", "p2", []byte(`{"id":"p2"}`), 100, nil, &w); err == nil {
		t.Fatal("a plan was created while its watch was refused")
	}
	if _, err := d.AppendPlan(nil, "ann", "p2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the plan of the refused watch: %v, want ErrNotFound", err)
	}
	next := store.PlanWatch{Name: "v2"}
	err := d.UpdatePlan("ann", "p1", func([]byte) ([]byte, *store.PlanWatch, error) { return []byte(`{"id":"p1","v":2}`), &next, nil })
	if err == nil {
		t.Fatal("a plan was updated while its watch was refused")
	}
	if got, err := d.AppendPlan(nil, "ann", "p1"); err != nil || string(got) != `{"id":"p1"}` {
		t.Fatalf("the plan after the refused update: %s %v", got, err)
	}
	var names []string
	if err := d.EachWatch(func(_ string, w store.PlanWatch) error { names = append(names, w.Plan+"/"+w.Name); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || names[0] != "p1/v1" {
		t.Fatalf("watches after the refused writes: %v, want p1/v1", names)
	}
}
