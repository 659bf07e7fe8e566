package household

import (
	"reflect"
	"testing"
)

// A Work keeps what it found for one plan (compiled rules by kind of
// return, band tops, the grossed-up FI numbers) for the runs after: a run
// on a Work that served other plans answers what a Work that keeps nothing
// answers.
func TestWorkReusedAcrossPlans(t *testing.T) {
	a := couple(t) // the plans below share its rules (a tax system each fixture parses anew)
	older := a
	older.People = []Person{a.People[0], a.People[1]}
	older.People[0].Age, older.People[1].Age = 52, 49 // other kinds of return each year
	dearer := a
	dearer.Retirement = 76000 // other FI numbers, nothing else of the key
	later := a
	later.StartYear = 2027
	later.Residences = []Residence{a.Residences[0]}
	later.Residences[0].Year = 2027 // other years' rules at the same ages
	plain := a
	plain.Convert, plain.Joint = false, true
	r, _ := fixture(t)
	one := single(r, a.Residences[0].System, 60, 90, account(r, "k", "us-401k", 0, 600000), account(r, "t", "taxable", 0, 100000))
	plans := []*Plan{&a, &older, &a, &dearer, &later, &plain, &one, &a, &one, &older}

	var shared Work
	for k, p := range plans {
		var got, want Result
		if err := Run(p, &shared, &got); err != nil {
			t.Fatal(err)
		}
		ref := Work{uncached: true}
		if err := Run(p, &ref, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("plan %d on a reused Work: lifetime tax %v, FI number %v; without the tables %v, %v",
				k, got.LifetimeTax, got.Summary.FINumber, want.LifetimeTax, want.Summary.FINumber)
		}
	}
	if resultOf(t, &dearer).Summary.FINumber == resultOf(t, &a).Summary.FINumber {
		t.Fatal("the plans meant to differ in their FI numbers do not")
	}
}

func resultOf(t *testing.T, p *Plan) Result {
	t.Helper()
	var w Work
	var r Result
	if err := Run(p, &w, &r); err != nil {
		t.Fatal(err)
	}
	return r
}
