package fi

import "testing"

// A portfolio equal to the FI number as shown (to the cent) is FI, though
// the quotient behind it lies a rounding error above: 36000 / 0.036 is
// 1000000.0000000001 in binary floating point.
func TestSavingsAtTheShownFINumberAreFI(t *testing.T) {
	t.Parallel()
	in := Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses = 40, 80000, 36000
	in.WithdrawalRate = 0.036
	in.CurrentSavings = 1_000_000
	if fin := in.AnnualExpenses / in.WithdrawalRate; fin <= in.CurrentSavings {
		t.Fatalf("the quotient %v no longer lies above the savings: the test needs another pair", fin)
	}
	s, _ := Project(&in, nil)
	if !s.Reached || s.YearsToFI != 0 || s.RetirementAge != 40 {
		t.Fatalf("savings equal to the FI number: reached %v, yearsToFI %d, retirementAge %d; want FI now, retired at 40",
			s.Reached, s.YearsToFI, s.RetirementAge)
	}

	// Half a cent short is still the shown number; a cent short is not.
	in.CurrentSavings = 1_000_000 - 0.004
	if s, _ := Project(&in, nil); s.YearsToFI != 0 {
		t.Errorf("savings 0.4 cent below the FI number: yearsToFI %d, want 0", s.YearsToFI)
	}
	in.CurrentSavings = 1_000_000 - 0.01
	if s, _ := Project(&in, nil); s.YearsToFI == 0 {
		t.Errorf("savings a cent below the FI number count as FI")
	}

	// Monte Carlo: a plan already FI reaches FI on every path.
	in.CurrentSavings = 1_000_000
	mc := DefaultMonteCarlo()
	mc.Simulations = 200
	var sc Scratch
	var out MCResult
	Simulate(&in, &mc, &sc, &out)
	if out.ReachedFI != 1 {
		t.Errorf("Monte Carlo of a plan FI today: reachedFI %v, want 1", out.ReachedFI)
	}
}
