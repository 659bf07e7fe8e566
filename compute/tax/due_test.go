package tax

import "testing"

// DueByCategory splits exactly what Calculate reports, and totals to Due.
func TestDueByCategoryAgreesWithCalculate(t *testing.T) {
	t.Parallel()
	for _, cc := range []string{"us", "gb", "de", "ca", "se"} {
		s := loadSystem(t, cc)
		for _, in := range []Income{{Employment: 85000}, {Pension: 40000, CapitalGains: 12000}, {Employment: 30000, Pension: 9000, Dividends: 2000}} {
			var r Result
			if err := Calculate(s, s.Latest(), &in, "", &r); err != nil {
				t.Fatal(err)
			}
			c, err := DueByCategory(s, s.Latest(), &in, "")
			if err != nil {
				t.Fatal(err)
			}
			if c.Income != r.IncomeTax || c.Social != r.SocialContributions || c.Capital != r.CapitalTax || c.Regional != r.RegionalTax || c.Total() != r.TotalTax {
				t.Fatalf("%s %+v: %+v against %+v", cc, in, c, r)
			}
			if d, _ := Due(s, s.Latest(), &in, "", nil); d != c.Total() {
				t.Fatalf("%s %+v: Due %v, categories %v", cc, in, d, c.Total())
			}
		}
	}
	if _, err := DueByCategory(loadSystem(t, "us"), 1990, &Income{}, ""); err != ErrYear {
		t.Fatalf("1990: %v", err)
	}
}
