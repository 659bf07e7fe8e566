package tax

import "testing"

// Brazil. No Receita Federal worked example of the annual adjustment was
// found in the search; the cases are computed by hand from the Receita
// Federal's annual progressive tables (ano-calendário 2024: isento até
// 26.963,20; 2025: até 28.467,20), Lei 9.250 Art. 10 (desconto simplificado,
// limite 16.754,34) and the INSS tables of Portarias Interministeriais MPS/MF
// 2/2024 and 6/2025. A second search of the stored corpora (gov.br/receitafederal
// tabelas and Perguntas e Respostas, gov.br/inss) found no stored Receita
// Federal or INSS page with a worked example, so none of these is authoritative.
func TestExamplesBR(t *testing.T) { runExamples(t, "br", examplesBR) }

var examplesBR = []example{
	// Computed from the published schedules, no worked example found: INSS
	// 2024 on 5,000/month: 1,270.80 + 1,355.05 + 1,920.02 + 1,679.95 =
	// 6,225.83; simplified discount 12,000 > INSS; base 48,000: 22,5% ×
	// 48,000 − 7,942.17 = 2,857.83.
	{name: "2024 wages 60000", year: 2024, in: Income{Employment: 60000},
		income: 2857.83, social: 6225.83, capital: zero, tol: 0.01},
	// INSS 2025 at the ceiling (8,157.41/month): 11,419.61; simplified
	// discount capped at 16,754.34; base 103,245.66: 27,5% − 10,853.78 =
	// 17,538.78.
	{name: "2025 wages 120000 (INSS ceiling, discount cap)", year: 2025, in: Income{Employment: 120000},
		income: 17538.78, social: 11419.61, tol: 0.01},
	// INSS 2024: 1,270.80 + 9% × 13,056 = 2,445.84; 30,000 − 6,000 = 24,000
	// is inside the exempt band.
	{name: "2024 wages 30000 (exempt after discount)", year: 2024, in: Income{Employment: 30000},
		income: zero, social: 2445.84},
	// Contribuinte individual 20% × 97,888.92 (ceiling) = 19,577.78 > 16,754.34,
	// so the complete model wins: base 80,422.22 × 27,5% − 10,853.78 = 11,262.33.
	{name: "2025 self-employed 100000 (complete model)", year: 2025, in: Income{SelfEmployment: 100000},
		income: 11262.33, social: 19577.78, tol: 0.01},
	// Lei 11.033 Art. 1º IV (15% over 720 days) and Lei 8.981 Art. 21 (15%).
	{name: "2025 interest 10000 + gains 20000", year: 2025, in: Income{Interest: 10000, CapitalGains: 20000},
		income: zero, capital: 4500},
	// Computed from Lei 15.270/2025 (Art. 11-A of Lei 9.250/1995), the
	// annual table of 12 × the monthly one in force since May 2025 and
	// Portaria Interministerial MPS/MF nº 13/2026; no Receita Federal worked
	// example for ano-calendário 2026 was found. Wages 60,000 (5,000 a
	// month): INSS 1,458.90 + 1,384.39 + 2,090.06 + 1,084.83 = 6,018.17;
	// simplified discount 12,000 is better; base 48,000 → 358.07 + 1,663.92
	// + 672.17 = 2,694.15, all taken by the reduction (up to 2,694.15).
	{name: "2026 wages 60000 (Lei 15.270 zeroes the tax)", year: 2026, in: Income{Employment: 60000},
		income: zero, social: 6018.17, tol: 0.01},
	// Computed as above: wages 72,000: INSS 7,698.17; discount 14,400; base
	// 57,600 → 358.07 + 1,663.92 + 2,466.80 + 27.5% × 1,623.84 = 4,935.34;
	// reduction 8,429.73 − 0.095575 × 72,000 = 1,548.33 → 3,387.01.
	{name: "2026 wages 72000 (partial reduction)", year: 2026, in: Income{Employment: 72000},
		income: 3387.01, social: 7698.17, tol: 0.01},
	// Computed as above: wages 150,000: INSS capped at 12 × 8,475.55 →
	// 11,857.10; discount capped at 16,754.34; base 133,245.66 → 4,488.79
	// + 27.5% × 77,269.50 = 25,737.90; no reduction above 88,200.
	{name: "2026 wages 150000 (INSS ceiling, no reduction)", year: 2026, in: Income{Employment: 150000},
		income: 25737.90, social: 11857.10, tol: 0.01},
	// Computed as above: pension 85,000 (no INSS): discount 16,754.34; base
	// 68,245.66 → 7,862.90; reduction 8,429.73 − 0.095575 × 85,000 =
	// 305.86 → 7,557.04.
	{name: "2026 pension 85000 (reduction near its end)", year: 2026, in: Income{Pension: 85000},
		income: 7557.04, social: zero, tol: 0.01},
}
