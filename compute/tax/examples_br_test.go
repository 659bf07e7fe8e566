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
}
