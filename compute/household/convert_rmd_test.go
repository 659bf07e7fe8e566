package household

import "testing"

// In a year of required minimums an amount asked converts from what is
// left once the minimum is drawn: the minimum is taken in full and the
// amount moves on top; the conversion band, the plan's own rule, still
// stops when the minimums start.
func TestConvertAmountAfterMinimum(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 78, 85, account(r, "i", "us-ira", 0, 1000000), account(r, "t", "taxable", 0, 200000))
	p.People[0].RetirementAge = 78
	p.Convert, p.Conversions = true, []float64{50000}
	res := run(t, &p)
	x := res.Extra[0]
	if !(x.Required > 0) || !near(x.Converted, 50000, 0.01) {
		t.Fatalf("year of 78: required %.2f, converted %.2f (want the minimum and 50,000)", x.Required, x.Converted)
	}
	if ira := res.Accounts(0)[0]; !near(ira.Conversions, -50000, 0.01) || ira.Withdrawals < x.Required-0.01 {
		t.Fatalf("the IRA: %+v, required %.2f", ira, x.Required)
	}
	p.Conversions = nil
	if x := run(t, &p).Extra[0]; x.Converted != 0 {
		t.Fatalf("the band converted %.2f in a year of required minimums", x.Converted)
	}
}
