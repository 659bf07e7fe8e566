package tax

import "testing"

// New Zealand: year 2024 = 1 April 2024 – 31 March 2025, 2025 = 2025-26,
// 2026 = 2026-27.
func TestExamplesNZ(t *testing.T) { runExamples(t, "nz", examplesNZ) }

var examplesNZ = []example{
	// Computed from the IRD "Tax rates for individuals" composite table for
	// 1 April 2024 – 31 March 2025; no published worked example found:
	// 14,000 × 10.5% + 1,600 × 12.82% + 32,400 × 17.5% + 5,500 × 21.64% +
	// 6,500 × 30% = 1,470 + 205.12 + 5,670 + 1,190.20 + 1,950 = $10,485.32.
	// ACC earners' levy (IRD "ACC earners' levy rates"): 1.60% = $960.
	{name: "2024 wages 60000 (composite rates)", year: 2024, in: Income{Employment: 60000},
		income: 10485.32, social: 960, capital: zero},
	// Income tax computed from the IRD composite table as above: ... +
	// 16,500 × 30% + 8,100 × 30.99% + 71,900 × 33% = $39,722.51. ACC
	// (authority figure): IRD "ACC earners' levy rates"
	// (https://www.ird.govt.nz/income-tax/income-tax-for-individuals/
	// acc-clients-and-carers/acc-earners-levy-rates), 1 April 2024 to 31
	// March 2025: maximum liable earnings $142,283 at 1.60%, "maximum levy
	// anyone can pay" $2,276.53.
	{name: "2024 wages 150000 (composite rates, ACC maximum)", src: table, year: 2024, in: Income{Employment: 150000},
		income: 39722.51, social: 2276.53},
	// IRD "Tax rates for individuals" from 1 April 2025: 15,600 × 10.5% +
	// 37,900 × 17.5% + 6,500 × 30% = 1,638 + 6,632.50 + 1,950 = $10,220.50;
	// ACC 1.67% = $1,002 (computed from the IRD schedule).
	{name: "2025 wages 60000", year: 2025, in: Income{Employment: 60000},
		income: 10220.50, social: 1002},
	// Income tax computed from the IRD rates from 1 April 2025: 1,638 +
	// 6,632.50 + 24,600 × 30% + 101,900 × 33% + 20,000 × 39% = $57,077.50.
	// ACC (authority figure): IRD "ACC earners' levy rates" (as above), 1
	// April 2025 to 31 March 2026: maximum liable earnings $152,790 at
	// 1.67%, "maximum levy anyone can pay" $2,551.59.
	{name: "2025 wages 200000 (39% band, ACC maximum levy)", src: table, year: 2025, in: Income{Employment: 200000},
		income: 57077.50, social: 2551.59},
	// Interest taxed at marginal rates, capital gains untaxed (no CGT):
	// computed from the IRD 2025-26 schedule: interest 20,000 → 15,600 ×
	// 10.5% + 4,400 × 17.5% = $2,408; no ACC levy on passive income.
	{name: "2025 interest 20000 + capital gains 50000", year: 2025, in: Income{Interest: 20000, CapitalGains: 50000},
		income: 2408, social: zero, capital: zero},
	// ACC (authority figure): IRD's ACC earners' levy for 1 April 2026 to 31
	// March 2027: $1.75 per $100, maximum liable earnings $156,641, maximum
	// levy $2,741.22 (read through a payroll vendor's copy of the IRD
	// announcement). Income tax computed from the rates from 1 April 2025,
	// unchanged: 1,638 + 6,632.50 + 7,380 + 33,627 + 7,800 = $57,077.50.
	{name: "2026 wages 200000 (ACC maximum levy 2026-27)", src: table, year: 2026, in: Income{Employment: 200000},
		income: 57077.50, social: 2741.22},
	// Computed: 15,600 × 10.5% + 37,900 × 17.5% + 6,500 × 30% = $10,220.50;
	// ACC 1.75% × 60,000 = $1,050.
	{name: "2026 wages 60000", year: 2026, in: Income{Employment: 60000},
		income: 10220.50, social: 1050},
	// Computed: self-employment profit 100,000 (no earners' levy modelled
	// for the self-employed): 1,638 + 6,632.50 + 7,380 + 21,900 × 33% =
	// $22,877.50.
	{name: "2026 self-employed 100000", year: 2026, in: Income{SelfEmployment: 100000},
		income: 22877.50, social: zero},
}
