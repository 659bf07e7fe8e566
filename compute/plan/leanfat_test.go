package plan

import (
	"math"
	"testing"

	"fiplan/compute/tax"
)

// Lean and fat FI after tax gross up 0.7 and 1.5 times the spending through
// the tax, instead of scaling the grossed-up FI number: tax is progressive,
// so a lean retirement pays less than 0.7 times the tax and a fat one more
// than 1.5 times.
//
// By hand, from HMRC's rates for a pension (no National Insurance on it):
// personal allowance 12,570, basic rate 20% to 50,270, higher rate 40%
// above. Spending 30,000 after tax: G - 0.2 (G - 12,570) = 30,000, G =
// 34,357.50, FI number at 4% 858,937.50. Lean, 21,000: 0.8 G = 21,000 -
// 2,514, G = 23,107.50, lean FI 577,687.50 (the scaled number was
// 601,256.25). Fat, 45,000: above the basic band, G - 7,540 - 0.4 (G -
// 50,270) = 45,000, G = 54,053.33, fat FI 1,351,333.33 (the scaled number
// was 1,288,406.25).
func TestLeanAndFatFIGrossUpTheirOwnSpending(t *testing.T) {
	t.Parallel()
	gb := loadSystem(t, "gb")
	p := basePlan()
	p.Base.RetirementExpenses = 30000
	p.Tax = &Tax{System: gb, Year: 2025, Withdrawal: tax.Pension}
	// prices flat: the allowance and the bands keep their money value in
	// every year the plan retires in (they are frozen to 2030)
	p.Base.InflationRate = 0
	var r Result
	if err := Run(&p, testInputs(), &Options{}, &r); err != nil {
		t.Fatal(err)
	}
	s := &r.Plans[0].Summary
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"fiNumber", s.FINumber, 858937.50},
		{"leanFINumber", s.LeanFINumber, 577687.50},
		{"fatFINumber", s.FatFINumber, 1351333.33},
	} {
		// The tax rounds to the pound: the gross is within a pound, the
		// FI number within 1 / 0.04 of the hand figure.
		if math.Abs(c.got-c.want) > 25 {
			t.Errorf("%s %.2f, by hand %.2f", c.name, c.got, c.want)
		}
	}
}
