package tax

import "testing"

// Malaysia: calendar years = Years of Assessment.
func TestExamplesMY(t *testing.T) { runExamples(t, "my", examplesMY) }

var examplesMY = []example{
	// ---- Not authority-verified (do not count toward the bar) ----
	//
	// Cumulative tax of the LHDN resident rate table for YA 2023 onwards
	// ("Tax rate of resident individuals", hasil.gov.my, column "Tax (RM)",
	// rows "On the first 400,000 → 84,400", "On the first 600,000 →
	// 136,400", "On the first 2,000,000 → 528,400"). The hasil.gov.my page
	// itself could not be read in our sources; the figures were read from
	// copies of the table (e.g. malaysiatercinta.com, "Kadar Cukai
	// Pendapatan Individu", categories G-J), so they check the top bands
	// but are not counted as the authority's own example. A self-employed
	// person with profit = chargeable income + the RM9,000 individual
	// relief isolates the schedule (no rebate above RM35,000).
	{name: "LHDN table (copy) 2025 chargeable 400000 → 84400", year: 2025, in: Income{SelfEmployment: 409000},
		income: 84400, social: zero},
	{name: "LHDN table (copy) 2024 chargeable 600000 → 136400", year: 2024, in: Income{SelfEmployment: 609000},
		income: 136400},
	{name: "LHDN table (copy) 2025 chargeable 2000000 → 528400", year: 2025, in: Income{SelfEmployment: 2009000},
		income: 528400},

	// ---- Computed by us ----
	// Computed from the LHDN resident rate table (cumulative tax RM3,700 on
	// the first RM70,000, 19% on the next RM30,000); no published worked
	// example found. Salary RM8,000 a month: EPF 11% = 10,560; SOCSO at the
	// ceiling RM29.75 a month = 357 and EIS RM11.90 = 142.80 (PERKESO tables,
	// RM6,000 ceiling); reliefs 9,000 + EPF 4,000 + SOCSO/EIS 350; chargeable
	// 82,650 → 3,700 + 2,403.50 = 6,103.50.
	{name: "2025 salary 96000", year: 2025, in: Income{Employment: 96000},
		income: 6103.50, social: 10560 + 357 + 142.80, capital: zero},
	// As above for YA 2024: SOCSO 9 × 24.75 + 3 × 29.75 = 312, EIS 9 × 9.90
	// + 3 × 11.90 = 124.80 (ceiling raised on 1 October 2024); tax unchanged.
	{name: "2024 salary 96000 (SOCSO ceiling change in October)", year: 2024, in: Income{Employment: 96000},
		income: 6103.50, social: 10560 + 312 + 124.80},
	// LHDN table (first RM35,000 → RM600) and the RM400 rebate at chargeable
	// income not exceeding RM35,000 (ITA 1967 s 6A): self-employed 44,000 −
	// 9,000 = 35,000 → 600 − 400 = 200.
	{name: "2025 self-employed 44000 (rebate at exactly 35000)", year: 2025, in: Income{SelfEmployment: 44000},
		income: 200, social: zero},
	// LHDN table (first RM20,000 → RM150, 3% on the next 15,000): chargeable
	// 31,000 → 150 + 330 = 480, less the RM400 rebate → 80.
	{name: "2024 self-employed 40000 (rebate)", year: 2024, in: Income{SelfEmployment: 40000},
		income: 80},
	// Just above the rebate limit: chargeable 40,000 → 600 + 6% × 5,000 = 900.
	{name: "2024 self-employed 49000 (no rebate)", year: 2024, in: Income{SelfEmployment: 49000},
		income: 900},
	// LHDN dividend tax from YA 2025: 2% on dividends above RM100,000 →
	// 2% × 50,000 = 1,000; bank interest and listed-share gains exempt.
	{name: "2025 dividends 150000 (dividend tax)", year: 2025, in: Income{Dividends: 150000, Interest: 20000, CapitalGains: 80000},
		income: zero, capital: 1000},

	// ---- YA 2026 (Budget 2026: rates, individual relief, rebate and
	// dividend tax unchanged; new reliefs need a claim) ----
	// Computed from the LHDN resident rate table, no published worked example
	// found; same case as YA 2025: EPF 10,560, SOCSO 357, EIS 142.80 (RM6,000
	// ceiling); chargeable 96,000 − 9,000 − 4,000 − 350 = 82,650 → 3,700 +
	// 19% × 12,650 = 6,103.50.
	{name: "2026 salary 96000", year: 2026, in: Income{Employment: 96000},
		income: 6103.50, social: 10560 + 357 + 142.80, capital: zero},
	// Rebate at exactly RM35,000 chargeable: 44,000 − 9,000 = 35,000 → 600 −
	// 400 = 200.
	{name: "2026 self-employed 44000 (rebate at exactly 35000)", year: 2026, in: Income{SelfEmployment: 44000},
		income: 200, social: zero},
	// Cumulative tax RM136,400 on the first RM600,000 (the table row, read
	// from copies as above) plus 28% × 100,000 = 164,400 on chargeable
	// 700,000 (self-employed 709,000).
	{name: "2026 self-employed 709000 (28% band)", year: 2026, in: Income{SelfEmployment: 709000},
		income: 164400},
	// Dividend tax: 2% × (150,000 − 100,000) = 1,000.
	{name: "2026 dividends 150000 (dividend tax)", year: 2026, in: Income{Dividends: 150000, Interest: 20000, CapitalGains: 80000},
		income: zero, capital: 1000},
}
