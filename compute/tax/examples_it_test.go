package tax

import "testing"

// Italy. No worked example of the Agenzia delle Entrate for these incomes
// was found, so each case is computed by hand strictly from the published
// schedule: art. 11 and art. 13 TUIR (D.Lgs. 216/2023 for 2024, L. 207/2024
// for 2025), D.L. 3/2020 and the INPS rates. The Agenzia truncates the
// detrazione ratios to four decimals; the engine does not, hence the few
// cents of tolerance, stated per case.
func TestExamplesIT(t *testing.T) { runExamples(t, "it", examplesIT) }

var examplesIT = []example{
	// Computed from the schedule (no published worked example found): INPS
	// 9,19 % × 25.000 = 2.297,50; R = 22.702,50; lorda 23 % = 5.221,58;
	// detrazione 1.910 + 1.190 × 5.297,50/13.000 = 2.394,93 (ratio
	// 0,4075, exact to four decimals); netta 2.826,65.
	{name: "2024 wages 25000", year: 2024, in: Income{Employment: 25000},
		income: 2826.65, social: 2297.50, capital: zero, tol: 0.01},
	// Computed (no published worked example found): INPS 3.676; R =
	// 36.324; lorda 6.440 + 35 % × 8.324 = 9.353,40; detrazione 1.910 ×
	// 13.676/22.000 = 1.187,33; ulteriore detrazione (L. 207/2024 c. 6)
	// 1.000 × 3.676/8.000 = 459,50; netta 7.706,57 (7.706,64 truncated).
	{name: "2025 wages 40000 (ulteriore detrazione)", year: 2025, in: Income{Employment: 40000},
		income: 7706.57, social: 3676, tol: 0.1},
	// Computed (no published worked example found): pension 20.000, lorda
	// 4.600; detrazione 700 + 1.255 × 8.000/19.500 = 1.214,87; netta
	// 3.385,13 (3.385,20 truncated).
	{name: "2024 pension 20000", year: 2024, in: Income{Pension: 20000},
		income: 3385.13, social: zero, tol: 0.1},
	// Computed (no published worked example found): INPS 2025 on 80.000:
	// 55.008 × 9,19 % + 24.992 × 10,19 % = 5.055,24 + 2.546,68 =
	// 7.601,92; R = 72.398,08; lorda 6.440 + 7.700 + 43 % × 22.398,08 =
	// 23.771,17; no detrazione above 50.000 €.
	{name: "2025 wages 80000 (above 50000, INPS 1 % band)", year: 2025, in: Income{Employment: 80000},
		income: 23771.17, social: 7601.92, tol: 0.01},
	// D.L. 66/2014 art. 3: 26 % of 10.000 = 2.600.
	{name: "2025 dividends 10000 (26 %)", year: 2025, in: Income{Dividends: 10000},
		income: zero, capital: 2600},
}
