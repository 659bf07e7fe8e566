package tax

import "testing"

// United Arab Emirates: calendar years; no personal income tax.
//
// No authority worked example with figures exists for an individual's income
// tax, because there is none: the authorities state the rule, not a
// computation. None of the cases below counts as an authority example; they
// check that the file encodes the stated rule.
func TestExamplesAE(t *testing.T) { runExamples(t, "ae", examplesAE) }

var examplesAE = []example{
	// Rule statements, no figures: u.ae "Taxation" (UAE Government with the
	// Ministry of Finance): no personal income tax on salaries; Federal Tax
	// Authority, "Basis of Taxation - Natural Person" (tax.gov.ae, updated
	// 6 May 2024): wages are not a Business or Business Activity; Cabinet
	// Decision No. 49 of 2023 Art. 3 excludes wages from Corporate Tax.
	{name: "2024 salary 500000", year: 2024, in: Income{Employment: 500000},
		income: zero, social: zero, capital: zero, total: zero},
	// Same FTA page and Cabinet Decision No. 49 of 2023 Art. 3: personal
	// investment income (interest, dividends, gains on shares held
	// personally) is not Business income; u.ae: no tax on individuals'
	// investment income.
	{name: "2025 investment income", year: 2025, in: Income{Interest: 40000, Dividends: 60000, CapitalGains: 250000},
		income: zero, capital: zero, total: zero},
	// FTA "Basis of Taxation - Natural Person": a natural person is subject
	// to Corporate Tax only when business turnover exceeds AED 1 million in
	// the calendar year, so a profit of 300,000 (turnover not an input, but
	// a profit below the AED 375,000 0% band of Federal Decree-Law No. 47
	// of 2022 Art. 3(2) and Cabinet Decision No. 116 of 2023 is untaxed
	// whatever the turnover) bears no tax.
	{name: "2025 self-employed 300000", year: 2025, in: Income{SelfEmployment: 300000, Pension: 10000},
		total: zero},
	// 2026: the same rule statements (no personal income tax has been
	// introduced; the Corporate Tax law still excludes wages and personal
	// investment income of natural persons).
	{name: "2026 salary 800000", year: 2026, in: Income{Employment: 800000},
		income: zero, social: zero, capital: zero, total: zero},
	{name: "2026 investment income", year: 2026, in: Income{Interest: 50000, Dividends: 100000, CapitalGains: 400000},
		income: zero, capital: zero, total: zero},
	{name: "2026 pension and self-employed 200000", year: 2026, in: Income{SelfEmployment: 200000, Pension: 60000},
		total: zero},
}
