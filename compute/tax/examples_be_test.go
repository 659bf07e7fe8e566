package tax

import "testing"

// SPF Finances publishes the scale with a worked example for income year
// 2023 only (Jean, 38.000 €), outside the covered years; these 2024 cases are
// computed by hand from the SPF Finances 2024 scale (exercice d'imposition
// 2025), art. 51 and 131 CIR 92 and the ONSS rates, as each comment says.
func TestExamplesBE(t *testing.T) { runExamples(t, "be", examplesBE) }

var examplesBE = []example{
	// Computed, employee 40.000 €: ONSS 13,07 % = 5.228; 34.772 − forfait
	// 5.750 (30 % capped; SPF Finances, revenus 2024) = 29.022: 15.820 ×
	// 25 % + 12.100 × 40 % + 1.102 × 45 % = 9.290,90 − quotité exemptée
	// 10.570 × 25 % = 2.642,50 → 6.648,40. Special contribution: 9 % ×
	// 2.478,95 + 1,3 % × (29.022 − 21.070,96) = 326,47.
	{name: "2024 employee 40000 (computed from SPF schedule)", year: 2024, in: Income{Employment: 40000},
		income: 6648.40, social: 5228 + 326.47, capital: zero, tol: 0.01},
	// Computed, employee 80.000 €: ONSS 10.456; 69.544 − 5.750 = 63.794:
	// 3.955 + 4.840 + 9.180 + 15.474 × 50 % = 25.712 − 2.642,50 =
	// 23.069,50; special contribution at its maximum 731,28.
	{name: "2024 employee 80000 (computed from SPF schedule)", year: 2024, in: Income{Employment: 80000},
		income: 23069.50, social: 10456 + 731.28, tol: 0.01},
	// Computed from art. 269 and art. 21, 14° CIR 92: dividends 2.000 −
	// 833 exempt = 1.167 × 30 % = 350,10; interest 500 × 30 % = 150.
	{name: "2024 dividends 2000 + interest 500 (précompte mobilier)", year: 2024, in: Income{Dividends: 2000, Interest: 500},
		income: zero, social: zero, capital: 500.10},
}
