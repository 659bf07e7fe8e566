package decide

import (
	"testing"

	"fiplan/compute/household"
)

// Every field a plan is built from moves the memo's key, and a choice
// valued twice runs once, to the same outcome.
func TestMemoKeyAndReuse(t *testing.T) {
	t.Parallel()
	p := usCouple(t)
	var w Work
	s := newSearch(&p, &Request{Objective: Estate}, &w)
	c := s.userChoice()
	c.conv = make([]float64, s.n)
	c.orders = s.ordersOf(&c)
	base := s.key(&c)
	changes := map[string]func(d *choice){
		"conversion":  func(d *choice) { d.conv[3] += 1 },
		"order":       func(d *choice) { d.orders[5] = household.TaxSmart },
		"claim age":   func(d *choice) { d.ages[1]++ },
		"claim month": func(d *choice) { d.months[0] = 4 },
		"retirement":  func(d *choice) { d.retire++ },
		"scale":       func(d *choice) { d.scale *= 1.0001 },
		"series":      func(d *choice) { d.seppSet = true },
		"plan's own":  func(d *choice) { d.conv = nil },
	}
	for name, change := range changes {
		d := c.clone()
		change(&d)
		if s.key(&d) == base {
			t.Errorf("%s: the key does not move", name)
		}
	}
	a, err := s.evaluate(&c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.evaluate(&c)
	if err != nil || a != b || s.runs != 1 {
		t.Fatalf("valued twice: %+v and %+v (%v), %d runs", a, b, err, s.runs)
	}
	fresh, err := household.Evaluate(s.build(&c), new(household.Work))
	if err != nil || fresh != a {
		t.Fatalf("the memo's outcome %+v, a fresh run's %+v (%v)", a, fresh, err)
	}
}

// The bands a US couple's conversions may fill are the federal brackets of
// a joint return, lowest first.
func TestBandRates(t *testing.T) {
	t.Parallel()
	p := usCouple(t)
	var w Work
	s := newSearch(&p, &Request{Objective: Estate}, &w)
	got := s.bandRates()
	want := []float64{0.10, 0.12, 0.22, 0.24, 0.32}
	if len(got) != len(want) {
		t.Fatalf("rates %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("rates %v, want %v", got, want)
		}
	}
}
