package tax

import "testing"

// Croatia. No Porezna uprava worked example with these figures was found;
// each case is computed by hand strictly from the published schedule
// (Zakon o porezu na dohodak čl. 14 and 24 with the statutory default rates;
// Zakon o doprinosima čl. 13; Naredba o osnovicama za 2024., NN 150/2023).
func TestExamplesHR(t *testing.T) { runExamples(t, "hr", examplesHR) }

var examplesHR = []example{
	// Computed from the Porezna uprava schedule; no published worked
	// example found. 2024 wages 24 000 € (2 000 a month): pension 20 % =
	// 4 800; 19 200 − osobni odbitak 6 720 = 12 480 × 20 % = 2 496 €.
	{name: "2024 wages 24000", year: 2024, in: Income{Employment: 24000},
		income: 2496, social: 4800, capital: zero},
	// Computed from the schedule; no published worked example found. 2024
	// wages 150 000: contributions on the annual ceiling 112 320 × 20 % =
	// 22 464; 127 536 − 6 720 = 120 816: 50 400 × 20 % = 10 080 + 70 416 ×
	// 30 % = 21 124,80 → 31 204,80 €.
	{name: "2024 wages 150000 (contribution ceiling, 30 % band)", year: 2024, in: Income{Employment: 150000},
		income: 31204.80, social: 22464},
	// Computed from the schedule; no published worked example found. 2025
	// wages 100 000: pension 20 000; 80 000 − 7 200 = 72 800: 60 000 × 20 %
	// = 12 000 + 12 800 × 30 % = 3 840 → 15 840 €.
	{name: "2025 wages 100000", year: 2025, in: Income{Employment: 100000},
		income: 15840, social: 20000},
	// Computed from ZPD čl. 24 st. 7 (12 %); no published worked example
	// found. 2025: interest 1 000 + dividends 2 000 → 360 €.
	{name: "2025 interest 1000 + dividends 2000 (12 %)", year: 2025, in: Income{Interest: 1000, Dividends: 2000},
		income: zero, social: zero, capital: 360},
}
