package tax

import "testing"

// United Arab Emirates: calendar years; no personal income tax.
func TestExamplesAE(t *testing.T) {
	runExamples(t, "ae", []example{
		// u.ae "Taxation" (UAE Government with the Ministry of Finance): no
		// personal income tax on salaries; Cabinet Decision No. 49 of 2023
		// Art. 3 excludes wages from Corporate Tax. No published worked example
		// with figures exists; the amount follows from the stated rule.
		{name: "2024 salary 500000", year: 2024, in: Income{Employment: 500000},
			income: zero, social: zero, capital: zero, total: zero},
		// Cabinet Decision No. 49 of 2023 Art. 3: personal investment income
		// (interest, dividends, gains on shares held personally) is not
		// Business income; u.ae: no tax on individuals' investment income.
		{name: "2025 investment income", year: 2025, in: Income{Interest: 40000, Dividends: 60000, CapitalGains: 250000},
			income: zero, capital: zero, total: zero},
		// Self-employment profit below the AED 375,000 Corporate Tax 0% band
		// (Federal Decree-Law No. 47 of 2022 Art. 3(2), Cabinet Decision No. 116
		// of 2023) is untaxed whatever the turnover.
		{name: "2025 self-employed 300000", year: 2025, in: Income{SelfEmployment: 300000, Pension: 10000},
			total: zero},
	})
}
