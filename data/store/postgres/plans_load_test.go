package postgres

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"fiplan/data/store"
)

// TestLoadMovesPlans: the saved plans of a bbolt file move with
// `fiplan migrate -from` (Everything, then Load), each under its owner and
// id, in creation order, byte for byte.
func TestLoadMovesPlans(t *testing.T) {
	u := freshSchema(t)
	src, err := store.Open(filepath.Join(t.TempDir(), "fiplan.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	plans := []struct{ user, id, doc string }{
		{"mia", "pln_b", `{"id":"pln_b","name":"later"}`},
		{"mia", "pln_a", `{"id":"pln_a","name":"lean"}`},
		{"ola", "pln_a", `{"id":"pln_a","name":"ola's"}`},
	}
	for _, p := range plans {
		if err := src.CreatePlan(p.user, p.id, []byte(p.doc), 100, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	e, err := src.Everything()
	if err != nil {
		t.Fatal(err)
	}
	n, err := Load(context.Background(), u, e)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if n.Plans != 3 {
		t.Errorf("Load copied %d plans, want 3 (%v)", n.Plans, n)
	}
	d := openT(t, u)
	for _, p := range plans {
		got, err := d.AppendPlan(nil, p.user, p.id)
		if err != nil || string(got) != p.doc {
			t.Errorf("plan %s/%s after the move = %q, %v", p.user, p.id, got, err)
		}
	}
	list, total, err := d.AppendPlans(nil, "mia", 0, 10)
	if want := plans[0].doc + "," + plans[1].doc; err != nil || total != 2 || !bytes.Equal(list, []byte(want)) {
		t.Errorf("mia's plans after the move = %q (%d), %v; want %q in creation order", list, total, err, want)
	}
}
