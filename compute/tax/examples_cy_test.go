package tax

import "testing"

// Cyprus. No Tax Department worked example for these incomes was found, so
// each case is computed by hand strictly from the published schedule:
// Income Tax Law s. 35 bands, social insurance 8,8 % with the 2024/2025
// maximum insurable earnings, GeSY 2,65 %, SDC 17 % on dividends and (since
// 2024) on interest; from 2026 the reformed bands and SDC of 5 % on
// dividends.
func TestExamplesCY(t *testing.T) { runExamples(t, "cy", examplesCY) }

var examplesCY = []example{
	// Computed from the schedule (no published worked example found): SI
	// 3.520 + GeSY 1.060 = 4.580; chargeable 35.420 → 20 % × 8.500 + 25 % ×
	// 7.420 = 3.555.
	{name: "2024 wages 40000", year: 2024, in: Income{Employment: 40000},
		income: 3555, social: 4580, capital: zero, tol: 0.01},
	// Computed (no published worked example found): SI 66.612 × 8,8 % =
	// 5.861,86; GeSY 2.120; chargeable 72.018,14 → 1.700 + 2.075 + 7.110 +
	// 35 % × 12.018,14 = 15.091,35.
	{name: "2025 wages 80000 (SI ceiling)", year: 2025, in: Income{Employment: 80000},
		income: 15091.35, social: 7981.86, tol: 0.01},
	// SDC Law s. 3 (computed): 17 % × 10.000 + 17 % × 1.000 (interest rate
	// since Law 157(I)/2023) = 1.870; GeSY 2,65 % × 11.000 = 291,50; no
	// income tax.
	{name: "2024 dividends 10000 + interest 1000", year: 2024, in: Income{Dividends: 10000, Interest: 1000},
		income: zero, social: 291.50, capital: 1870},
	// Computed (no published worked example found): pension 25.000, GeSY
	// 662,50; chargeable 24.337,50 → 20 % × 4.837,50 = 967,50.
	{name: "2025 pension 25000", year: 2025, in: Income{Pension: 25000},
		income: 967.50, social: 662.50, tol: 0.01},
	// Computed from the 2026 bands: SI 8,8 % × 40.000 = 3.520 and GeSY
	// 1.060 (within 1/5 of income); chargeable 35.420 → 20 % × 10.000 +
	// 25 % × 3.420 = 2.855.
	{name: "2026 wages 40000", year: 2026, in: Income{Employment: 40000},
		income: 2855, social: 4580},
	// Computed: SI 8,8 % × 68.904 (2026 maximum insurable earnings) =
	// 6.063,55, GeSY 2.120; chargeable 71.816,45 → 2.000 + 2.500 + 30 % ×
	// 29.816,45 = 13.444,93.
	{name: "2026 wages 80000 (SI ceiling)", year: 2026, in: Income{Employment: 80000},
		income: 13444.93, social: 8183.55, tol: 0.01},
	// Computed: SDC 5 % × 10.000 (dividends from 2026) + 17 % × 1.000 =
	// 670; GeSY 291,50.
	{name: "2026 dividends 10000 + interest 1000", year: 2026, in: Income{Dividends: 10000, Interest: 1000},
		income: zero, social: 291.50, capital: 670},
	// Computed: pension 25.000, GeSY 662,50; chargeable 24.337,50 → 20 % ×
	// 2.337,50 = 467,50.
	{name: "2026 pension 25000", year: 2026, in: Income{Pension: 25000},
		income: 467.50, social: 662.50},
}
