package tax

import (
	"errors"
	"math"
	"testing"
)

// DueByCategory reads who the return is for as Calculate does: the age
// (Sweden's förhöjt grundavdrag, the US additional standard deduction) and
// a joint return (the US married brackets). It once taxed every income as a
// single filer of unknown age, which household plans read.
func TestDueByCategoryReadsTheFiler(t *testing.T) {
	for _, c := range []struct {
		cc, region string
		in         Income
	}{
		{"se", "STHLM", Income{Pension: 240000, Age: 70}},
		{"se", "STHLM", Income{Pension: 240000, Age: 60}},
		{"us", "", Income{Pension: 60000, Age: 70}},
		{"us", "", Income{Employment: 150000, Joint: true, Age: 67, PartnerAge: 66, PartnerEmployment: 50000}},
	} {
		s := loadSystem(t, c.cc)
		var r Result
		if err := Calculate(s, 2026, &c.in, c.region, &r); err != nil {
			t.Fatalf("%s %+v: %v", c.cc, c.in, err)
		}
		got, err := DueByCategory(s, 2026, &c.in, c.region)
		if err != nil {
			t.Fatalf("%s %+v: %v", c.cc, c.in, err)
		}
		if math.Abs(got.Total()-r.TotalTax) > 0.01 || math.Abs(got.Income-r.IncomeTax) > 0.01 || math.Abs(got.Regional-r.RegionalTax) > 0.01 {
			t.Errorf("%s %+v: DueByCategory %+v, Calculate income %.2f regional %.2f total %.2f",
				c.cc, c.in, got, r.IncomeTax, r.RegionalTax, r.TotalTax)
		}
	}
	// the age changes Sweden's tax: the check above is not vacuous
	s := loadSystem(t, "se")
	old, _ := DueByCategory(s, 2026, &Income{Pension: 240000, Age: 70}, "STHLM")
	young, _ := DueByCategory(s, 2026, &Income{Pension: 240000, Age: 60}, "STHLM")
	if old.Total() >= young.Total() {
		t.Errorf("Sweden 2026, pension 240 000: %.2f at 70, %.2f at 60; want less at 70", old.Total(), young.Total())
	}
	// a joint return where none is modelled is refused, as by Calculate
	if _, err := DueByCategory(s, 2026, &Income{Pension: 1, Joint: true}, "STHLM"); !errors.Is(err, ErrJoint) {
		t.Errorf("joint return in Sweden: %v, want ErrJoint", err)
	}
	// and it still does not allocate, with an age and on a joint return
	us := loadSystem(t, "us")
	in := Income{Employment: 150000, Joint: true, Age: 67, PartnerAge: 66}
	if n := testing.AllocsPerRun(100, func() { _, _ = DueByCategory(us, 2026, &in, "") }); n != 0 {
		t.Errorf("DueByCategory: %v allocations", n)
	}
}
