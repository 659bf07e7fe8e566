package tax

import "testing"

// Costa Rica. No worked example published by the Ministerio de Hacienda was
// found in the search; the cases are computed by hand from the brackets of
// Decretos 44276-H (2024) and 44772-H (2025), Ley 7092 Art. 31 ter, and the
// CCSS employee quota of 10.67%.
func TestExamplesCR(t *testing.T) {
	runExamples(t, "cr", []example{
		// Computed from Decreto 44276-H, no published worked example found:
		// monthly salary 1,000,000: 10% × (1,000,000 − 929,000) = 7,100 × 12 =
		// 85,200; CCSS 10.67% × 12,000,000 = 1,280,400.
		{name: "2024 salary 12000000", year: 2024, in: Income{Employment: 12000000},
			income: 85200, social: 1280400, capital: zero},
		// Decreto 44772-H: monthly 2,500,000: 43,000 + 153,150 + 25,400 =
		// 221,550 × 12 = 2,658,600; profit 8,000,000: 10% × (6,115,000 −
		// 4,094,000) + 15% × (8,000,000 − 6,115,000) = 484,850.
		{name: "2025 salary 30000000 + profit 8000000", year: 2025, in: Income{Employment: 30000000, SelfEmployment: 8000000},
			income: 2658600 + 484850, social: 3201000},
		// Ley 7092 Art. 31 ter: 15% × 2,000,000 = 300,000.
		{name: "2024 interest + dividends (15%)", year: 2024, in: Income{Interest: 1000000, Dividends: 1000000},
			income: zero, social: zero, capital: 300000},
	})
}
