package tax

import "testing"

func TestExamplesUS(t *testing.T) {
	runExamples(t, "us", []example{
		// IRS, 2024 Instructions for Form 1040, 2024 Tax Table, row "45,000–45,050",
		// single column: $5,171 (taxable income $45,025 = wages 59,625 − standard
		// deduction 14,600). FICA: IRS Publication 15 (2024) §9, 6.2% + 1.45%.
		{name: "2024 wages 59625 (Tax Table row 45,000-45,050)", year: 2024, in: Income{Employment: 59625},
			income: 5171, social: 4561.31, capital: zero, total: 9732.31},
		// IRS, 2024 Form 1040 Instructions, Tax Computation Worksheet Section A,
		// single, taxable income 100,525–191,950: × 24% − $6,957.50.
		// 135,400 × 0.24 − 6,957.50 = 25,538.50 → $25,539.
		{name: "2024 wages 150000 (Tax Computation Worksheet 24%)", year: 2024, in: Income{Employment: 150000},
			income: 25539, social: 11475, capital: zero},
		// Worksheet Section A, single, 191,950–243,725: × 32% − $22,313.50;
		// 235,400 × 0.32 − 22,313.50 = 53,014.50 → $53,015. OASDI capped at the
		// $168,600 wage base (SSA 2024 fact sheet); Additional Medicare Tax 0.9%
		// over $200,000 (Form 8959 line 7).
		{name: "2024 wages 250000 (32% bracket, wage base, Additional Medicare)", year: 2024, in: Income{Employment: 250000},
			income: 53015, social: 10453.20 + 3625 + 450},
		// Qualified Dividends and Capital Gain Tax Worksheet (2024 Form 1040
		// instructions): ordinary taxable 35,400 from the Tax Table (row
		// 35,400–35,450: $4,019); dividends 20,000: 11,625 at 0% up to $47,025,
		// 8,375 at 15% = 1,256.25; total 5,275.25 → $5,275.
		{name: "2024 wages 50000 + qualified dividends 20000 (QDCG worksheet)", year: 2024, in: Income{Employment: 50000, Dividends: 20000},
			income: 5275, social: 3825},
		// Schedule SE (2024): 50,000 × 92.35% = 46,175; × 15.3% = 7,064.78;
		// deduction for half (line 13) 3,532.39; taxable 50,000 − 3,532.39 −
		// 14,600 = 31,867.61, Tax Table row 31,850–31,900: $3,593.
		{name: "2024 self-employed 50000 (Schedule SE)", year: 2024, in: Income{SelfEmployment: 50000},
			income: 3593, social: 7064.78, tol: 0.01},
		// Rev. Proc. 2024-40 brackets with the OBBBA $15,750 standard deduction:
		// taxable 120,000, worksheet × 24% − $7,153.00 = $21,647.
		{name: "2025 wages 135750 (24% bracket, OBBBA standard deduction)", year: 2025, in: Income{Employment: 135750},
			income: 21647, social: 10384.88, tol: 0.01},
	})
}
