package tax

import "testing"

// Singapore: year = the year the income is earned; 2024 = YA 2025, 2025 = YA 2026.
func TestExamplesSG(t *testing.T) {
	runExamples(t, "sg", []example{
		// IRAS "Individual Income Tax rates" (YA 2024 onwards) table: gross tax
		// on the first $80,000 of chargeable income is $3,350. Self-employed
		// profit 81,000 − Earned Income Relief 1,000 = 80,000; IRAS Personal
		// Income Tax Rebate YA 2025: 60% capped at $200 → $3,150.
		{name: "2024 (YA2025) self-employed 81000 (IRAS table: first 80000 = 3350)", year: 2024, in: Income{SelfEmployment: 81000},
			income: 3150, social: zero, capital: zero},
		// IRAS table: first $30,000 → $200; YA 2025 rebate 60% of 200 = $120
		// (below the $200 cap) → $80.
		{name: "2024 (YA2025) self-employed 31000 (IRAS table: first 30000 = 200)", year: 2024, in: Income{SelfEmployment: 31000},
			income: 80},
		// Computed from the CPF Board rates (20% employee share, wage $5,000 a
		// month below the $6,800 ceiling → $12,000) and the IRAS YA 2025
		// schedule; no published worked example found: chargeable 60,000 −
		// 12,000 − 1,000 = 47,000 → 550 + 7% × 7,000 = 1,040 − 200 rebate = $840.
		{name: "2024 (YA2025) employee 60000", year: 2024, in: Income{Employment: 60000},
			income: 840, social: 12000},
		// Computed from the CPF Board 2025 Ordinary Wage ceiling ($7,400 a month:
		// 20% × 88,800 = $17,760) and the IRAS schedule (first $80,000 =
		// $3,350, then 11.5%); no YA 2026 rebate: chargeable 120,000 − 17,760 −
		// 1,000 = 101,240 → 3,350 + 2,442.60 = $5,792.60.
		{name: "2025 (YA2026) employee 120000 (CPF ceiling)", year: 2025, in: Income{Employment: 120000},
			income: 5792.60, social: 17760},
		// IRAS "Income received from investments": bank interest, one-tier
		// dividends and capital gains are not taxed.
		{name: "2025 (YA2026) investment income only", year: 2025, in: Income{Interest: 10000, Dividends: 30000, CapitalGains: 100000},
			income: zero, social: zero, capital: zero, total: zero},
	})
}
