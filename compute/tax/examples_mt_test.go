package tax

import "testing"

// Malta. Each case applies the Commissioner for Revenue's published single
// rate tables ("rate less subtract" form) to one chargeable income; no
// worked example with these exact incomes was found, so they are computed
// from the CfR schedule.
func TestExamplesMT(t *testing.T) { runExamples(t, "mt", examplesMT) }

var examplesMT = []example{
	// CfR tax rates basis 2024, single, 19.501-60.000: 25 % × 30.000 −
	// 2.725 = 4.775 (computed from the schedule).
	{name: "2024 wages 30000", year: 2024, in: Income{Employment: 30000},
		income: 4775, capital: zero},
	// CfR basis 2024, single, 9.101-14.500: 15 % × 12.000 − 1.365 = 435.
	{name: "2024 wages 12000", year: 2024, in: Income{Employment: 12000},
		income: 435},
	// CfR basis 2024, single, over 60.000: 35 % × 70.000 − 8.725 = 15.775.
	{name: "2024 wages 70000", year: 2024, in: Income{Employment: 70000},
		income: 15775},
	// CfR basis 2025, single, 16.001-60.000: 25 % × 30.000 − 3.400 = 4.100.
	{name: "2025 wages 30000", year: 2025, in: Income{Employment: 30000},
		income: 4100},
	// CfR basis 2025, single, over 60.000: 35 % × 80.000 − 9.400 = 18.600.
	{name: "2025 pension 80000", year: 2025, in: Income{Pension: 80000},
		income: 18600},
	// Income Tax Act art. 41(c): 15 % final withholding on 5.000 interest.
	{name: "2025 interest 5000 (final withholding)", year: 2025, in: Income{Interest: 5000},
		income: zero, capital: 750},
}
