package tax

import "testing"

// Croatia. No Porezna uprava worked example with these figures was found;
// each case is computed by hand strictly from the published schedule
// (Zakon o porezu na dohodak čl. 14 and 24 with the statutory default rates,
// or with the City of Zagreb's rates for region ZG; Zakon o doprinosima
// čl. 13; the najviša osnovica of each year's Naredba: 9.360, 10.788 and
// 11.958 eura a month for 2024, 2025 and 2026).
func TestExamplesHR(t *testing.T) { runExamples(t, "hr", examplesHR) }

var examplesHR = []example{
	// 2024 wages 24 000 € (2 000 a month): pension 20 % = 4 800; 19 200 −
	// osobni odbitak 6 720 = 12 480 × 20 % = 2 496 €.
	{name: "2024 wages 24000", year: 2024, in: Income{Employment: 24000},
		income: 2496, social: 4800, capital: zero},
	// 2024 wages 150 000: contributions on the annual ceiling 112 320 × 20 %
	// = 22 464; 127 536 − 6 720 = 120 816: 50 400 × 20 % = 10 080 + 70 416 ×
	// 30 % = 21 124,80 → 31 204,80 €.
	{name: "2024 wages 150000 (contribution ceiling, 30 % band)", year: 2024, in: Income{Employment: 150000},
		income: 31204.80, social: 22464},
	// Zagreb 2024 (23,6 %): 24 000 − 4 800 − 6 720 = 12 480 × 23,6 % =
	// 2 945,28 €.
	{name: "2024 Zagreb wages 24000", year: 2024, region: "ZG", in: Income{Employment: 24000},
		income: 2945.28, social: 4800},
	// 2025 wages 100 000: below the 2025 ceiling (129 456), pension 20 000;
	// 80 000 − 7 200 = 72 800: 60 000 × 20 % = 12 000 + 12 800 × 30 % =
	// 3 840 → 15 840 €.
	{name: "2025 wages 100000", year: 2025, in: Income{Employment: 100000},
		income: 15840, social: 20000},
	// 2025 wages 150 000: contributions on the ceiling 12 × 10 788 =
	// 129 456 × 20 % = 25 891,20; 124 108,80 − 7 200 = 116 908,80: 12 000 +
	// 56 908,80 × 30 % = 17 072,64 → 29 072,64 €.
	{name: "2025 wages 150000 (contribution ceiling)", year: 2025, in: Income{Employment: 150000},
		income: 29072.64, social: 25891.20},
	// ZPD čl. 24 st. 7 (12 %): 2025 interest 1 000 + dividends 2 000 → 360 €.
	{name: "2025 interest 1000 + dividends 2000 (12 %)", year: 2025, in: Income{Interest: 1000, Dividends: 2000},
		income: zero, social: zero, capital: 360},
	// Zagreb 2025 (23 % / 33 %): 100 000 − 20 000 − 7 200 = 72 800: 60 000
	// × 23 % = 13 800 + 12 800 × 33 % = 4 224 → 18 024 €.
	{name: "2025 Zagreb wages 100000", year: 2025, region: "ZG", in: Income{Employment: 100000},
		income: 18024, social: 20000},
	// 2026 wages 24 000: pension 4 800; 19 200 − 7 200 = 12 000 × 20 % =
	// 2 400 €.
	{name: "2026 wages 24000", year: 2026, in: Income{Employment: 24000},
		income: 2400, social: 4800, capital: zero},
	// 2026 wages 150 000: contributions on the ceiling 12 × 11 958 =
	// 143 496 × 20 % = 28 699,20; 121 300,80 − 7 200 = 114 100,80: 12 000 +
	// 54 100,80 × 30 % = 16 230,24 → 28 230,24 €.
	{name: "2026 wages 150000 (contribution ceiling)", year: 2026, in: Income{Employment: 150000},
		income: 28230.24, social: 28699.20},
	// 2026 interest 1 000 + capital gains 4 000 at 12 % → 600 €.
	{name: "2026 interest 1000 + capital gains 4000 (12 %)", year: 2026, in: Income{Interest: 1000, CapitalGains: 4000},
		income: zero, social: zero, capital: 600},
	// Zagreb 2026 (23 % / 33 %): 114 100,80 as above: 13 800 + 54 100,80 ×
	// 33 % = 17 853,264 → 31 653,26 €.
	{name: "2026 Zagreb wages 150000", year: 2026, region: "ZG", in: Income{Employment: 150000},
		income: 31653.26, social: 28699.20, tol: 0.01},
	// Zagreb 2026, below the higher band: 36 000 − 7 200 (pension) − 7 200
	// = 21 600 × 23 % = 4 968 €.
	{name: "2026 Zagreb wages 36000", year: 2026, region: "ZG", in: Income{Employment: 36000},
		income: 4968, social: 7200},
}
