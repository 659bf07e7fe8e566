package tax

import "testing"

// Greece. No AADE circular with a worked example for these incomes was
// found, so each case is computed by hand strictly from the published
// schedule: art. 15 and 16 ΚΦΕ (ν. 4646/2019), the e-EFKA employee rates
// (13,87 % in 2024, 13,37 % from 1.1.2025) and ceilings, and art. 40-41.
func TestExamplesGR(t *testing.T) { runExamples(t, "gr", examplesGR) }

var examplesGR = []example{
	// Computed from the schedule (no published worked example found):
	// EFKA 13,87 % = 2.774; taxable 17.226; 900 + 22 % × 7.226 = 2.489,72;
	// reduction 777 − 2 % × 5.226 = 672,48 → 1.817,24.
	{name: "2024 wages 20000", year: 2024, in: Income{Employment: 20000},
		income: 1817.24, social: 2774, capital: zero, tol: 0.01},
	// Computed (no published worked example found): EFKA 13,37 % = 8.022;
	// taxable 51.978; 9.500 + 44 % × 11.978 = 14.770,32; no reduction above
	// 50.850 €.
	{name: "2025 wages 60000", year: 2025, in: Income{Employment: 60000},
		income: 14770.32, social: 8022, tol: 0.01},
	// Computed (no published worked example found): ceiling 14 × 7.572,62
	// = 106.016,68 × 13,37 % = 14.174,43; taxable 105.825,57 → 9.500 +
	// 44 % × 65.825,57 = 38.463,25.
	{name: "2025 wages 120000 (insurable ceiling)", year: 2025, in: Income{Employment: 120000},
		income: 38463.25, social: 14174.43, tol: 0.01},
	// Computed (no published worked example found): pension 15.000, 900 +
	// 22 % × 5.000 = 2.000 − (777 − 2 % × 3.000) = 1.283.
	{name: "2024 pension 15000", year: 2024, in: Income{Pension: 15000},
		income: 1283, social: zero, tol: 0.01},
	// Art. 40 and 41 ΚΦΕ: 5 % × 10.000 + 15 % × 1.000 = 650.
	{name: "2024 dividends 10000 + interest 1000", year: 2024, in: Income{Dividends: 10000, Interest: 1000},
		income: zero, capital: 650},
	// Computed from the ν. 5246/2025 scale (no published worked example
	// found): EFKA 13,37 % = 4.011; taxable 25.989; 900 + 2.000 + 26 % ×
	// 5.989 = 4.457,14; reduction 777 − 2 % × 13.989 = 497,22 → 3.959,92.
	{name: "2026 wages 30000", year: 2026, in: Income{Employment: 30000},
		income: 3959.92, social: 4011, tol: 0.01},
	// Computed (no published worked example found): EFKA 10.696; taxable
	// 69.304; 900 + 2.000 + 2.600 + 3.400 + 39 % × 20.000 = 16.700 + 44 % ×
	// 9.304 = 20.793,76; no reduction above 50.850 €.
	{name: "2026 wages 80000 (44 % above 60000)", year: 2026, in: Income{Employment: 80000},
		income: 20793.76, social: 10696, tol: 0.01},
	// Computed (no published worked example found): ceiling 14 × 7.761,94
	// = 108.667,16 × 13,37 % = 14.528,80; taxable 105.471,20 → 16.700 +
	// 44 % × 45.471,20 = 36.707,33.
	{name: "2026 wages 120000 (insurable ceiling)", year: 2026, in: Income{Employment: 120000},
		income: 36707.33, social: 14528.80, tol: 0.01},
	// Computed (no published worked example found): pension 20.000, 900 +
	// 20 % × 10.000 = 2.900 − (777 − 2 % × 8.000) = 2.283.
	{name: "2026 pension 20000", year: 2026, in: Income{Pension: 20000},
		income: 2283, social: zero, tol: 0.01},
}
