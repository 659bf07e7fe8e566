package tax

import "testing"

// Malta. Each case applies the published single rate tables ("rate less
// subtract" form) of the Commissioner for Revenue (from 2025 the Malta Tax
// and Customs Administration) to one chargeable income, and the Class 1 and
// Class 2 social security rates (10 % and 15 % up to a weekly maximum, paid
// for every Monday of the year) to the wage or net earnings. No worked
// example with these exact incomes was found, and the contribution tables
// could only be read in third-party reproductions, so every case is
// computed from the schedules.
func TestExamplesMT(t *testing.T) { runExamples(t, "mt", examplesMT) }

var examplesMT = []example{
	// CfR tax rates basis 2024, single, 19.501-60.000: 25 % × 30.000 −
	// 2.725 = 4.775. Class 1 2024: 30.000 / 52 = 576,92 € a week is above
	// the 532,28 € ceiling, so 53,23 € for each of the 53 Mondays of 2024
	// = 2.821,19.
	{name: "2024 wages 30000", year: 2024, in: Income{Employment: 30000},
		income: 4775, social: 2821.19, capital: zero},
	// CfR basis 2024, single, 9.101-14.500: 15 % × 12.000 − 1.365 = 435.
	// Class 1: 10 % × 12.000 × 53/52 = 1.223,08 (rounding the weekly rate
	// to the cent first, 23,08 € × 53 = 1.223,24, is not modelled).
	{name: "2024 wages 12000", year: 2024, in: Income{Employment: 12000},
		income: 435, social: 1223.08},
	// CfR basis 2024, single, over 60.000: 35 % × 70.000 − 8.725 = 15.775.
	{name: "2024 wages 70000", year: 2024, in: Income{Employment: 70000},
		income: 15775, social: 2821.19},
	// 2024 self-employment: no Class 2 modelled for 2024 (see
	// notModelled); 25 % × 20.000 − 2.725 = 2.275.
	{name: "2024 self-employment 20000", year: 2024, in: Income{SelfEmployment: 20000},
		income: 2275, social: zero},
	// CfR basis 2025, single, 16.001-60.000: 25 % × 30.000 − 3.400 = 4.100.
	// Class 1 2025: capped at 54,43 € × 52 Mondays = 2.830,36.
	{name: "2025 wages 30000", year: 2025, in: Income{Employment: 30000},
		income: 4100, social: 2830.36},
	// Class 1 2025 below the ceiling: 10 % × 20.000 = 2.000 (52 weeks of
	// 10 % of 20.000 / 52). Tax: 25 % × 20.000 − 3.400 = 1.600.
	{name: "2025 wages 20000", year: 2025, in: Income{Employment: 20000},
		income: 1600, social: 2000},
	// CfR basis 2025, single, over 60.000: 35 % × 80.000 − 9.400 = 18.600;
	// pensions carry no contribution.
	{name: "2025 pension 80000", year: 2025, in: Income{Pension: 80000},
		income: 18600, social: zero},
	// Class 2 2025: 15 % × 40.000 / 52 = 115,38 € a week is above the
	// 81,64 € maximum: 52 × 81,64 = 4.245,28. Tax: 25 % × 40.000 − 3.400 =
	// 6.600.
	{name: "2025 self-employment 40000 (Class 2 maximum)", year: 2025, in: Income{SelfEmployment: 40000},
		income: 6600, social: 4245.28},
	// Income Tax Act art. 41(c): 15 % final withholding on 5.000 interest.
	{name: "2025 interest 5000 (final withholding)", year: 2025, in: Income{Interest: 5000},
		income: zero, social: zero, capital: 750},
	// Basis 2026, single rates unchanged: 25 % × 30.000 − 3.400 = 4.100.
	// Class 1 2026: 30.000 / 52 = 576,92 € a week is above the 559,31 €
	// ceiling: 52 × 55,93 = 2.908,36.
	{name: "2026 wages 30000", year: 2026, in: Income{Employment: 30000},
		income: 4100, social: 2908.36, capital: zero},
	// Basis 2026, 12.001-16.000: 15 % × 14.000 − 1.800 = 300. Class 1:
	// 10 % × 14.000 = 1.400.
	{name: "2026 wages 14000", year: 2026, in: Income{Employment: 14000},
		income: 300, social: 1400},
	// Basis 2026, over 60.000: 35 % × 70.000 − 9.400 = 15.100; Class 1 at
	// the ceiling 2.908,36.
	{name: "2026 wages 70000", year: 2026, in: Income{Employment: 70000},
		income: 15100, social: 2908.36},
	// Class 2 2026 below the maximum: 15 % × 20.000 = 3.000 (57,69 € a week
	// < 83,89 €). Tax: 25 % × 20.000 − 3.400 = 1.600.
	{name: "2026 self-employment 20000", year: 2026, in: Income{SelfEmployment: 20000},
		income: 1600, social: 3000},
	// Class 2 2026 at the maximum: 52 × 83,89 = 4.362,28. Tax: 25 % ×
	// 50.000 − 3.400 = 9.100.
	{name: "2026 self-employment 50000 (Class 2 maximum)", year: 2026, in: Income{SelfEmployment: 50000},
		income: 9100, social: 4362.28},
}
