package tax

import "testing"

// Norway. Schedules: Finansdepartementet "Skattesatser 2024" and
// "Skattesatser 2025" (regjeringen.no, the rates adopted by Stortinget),
// skatteloven §§ 6-31, 6-32, 10-11, 10-31 and folketrygdloven § 23-3. No
// Skatteetaten worked example with these figures was found; each case is
// computed by hand strictly from those published schedules.
func TestExamplesNO(t *testing.T) { runExamples(t, "no", examplesNO) }

var examplesNO = []example{
	// Computed from Finansdepartementet "Skattesatser 2024"; no published
	// worked example found. Wages 600 000: trygdeavgift 7,8 % = 46 800;
	// trinnskatt 84 800 × 1,7 % = 1 441,60 + 307 150 × 4,0 % = 12 286 →
	// 13 727,60; alminnelig inntekt 600 000 − minstefradrag 104 450 (cap)
	// − personfradrag 88 250 = 407 300 × 22 % = 89 606.
	{name: "2024 wages 600000", year: 2024, in: Income{Employment: 600000},
		income: 13727.60 + 89606, social: 46800, capital: zero},
	// Computed from "Skattesatser 2025"; no published worked example found.
	// Wages 1 000 000: trygdeavgift 7,7 % = 77 000; trinnskatt 1 507,05 +
	// 15 644 + 33 599,25 + 9 619,20 = 60 369,50; alminnelig 1 000 000 −
	// 92 000 − 108 550 = 799 450 × 22 % = 175 879.
	{name: "2025 wages 1000000 (trinn 4)", year: 2025, in: Income{Employment: 1000000},
		income: 60369.50 + 175879, social: 77000},
	// Computed from "Skattesatser 2024" and ftrl § 23-3; no published worked
	// example found. Wages 80 000: trygdeavgift 7,8 % = 6 240 is limited to
	// 25 % × (80 000 − 69 650) = 2 587,50; minstefradrag 36 800 and
	// personfradrag leave no alminnelig inntekt; below trinn 1.
	{name: "2024 wages 80000 (trygdeavgift opptrapping)", year: 2024, in: Income{Employment: 80000},
		income: zero, social: 2587.50},
	// Computed from sktl § 10-11 and "Skattesatser 2024"; no published
	// worked example found. Dividends 100 000 × 1,72 = 172 000 − unused
	// personfradrag 88 250 = 83 750 × 22 % = 18 425.
	{name: "2024 dividends 100000 only (personfradrag against capital)", year: 2024, in: Income{Dividends: 100000},
		income: zero, social: zero, capital: 18425},
	// Computed from "Skattesatser 2025"; no published worked example found.
	// Wages 600 000 use the whole personfradrag; interest 10 000 + dividends
	// 50 000 × 1,72 = 96 000 × 22 % = 21 120.
	{name: "2025 wages 600000 + interest 10000 + dividends 50000", year: 2025, in: Income{Employment: 600000, Interest: 10000, Dividends: 50000},
		capital: 21120},
	// Finansdepartementet "Skattesatser 2026": no trygdeavgift at or below
	// the lower limit of 99 650 kr; wages of 99 650 kr less minstefradrag
	// (46 % = 45 839) stay under the 114 540 kr personfradrag and under
	// trinn 1 (226 100 kr): no tax at all.
	{name: "2026 wages 99650 (trygdeavgift lower limit)", src: table, year: 2026, in: Income{Employment: 99650},
		income: zero, social: zero, capital: zero},
	// Computed from "Skattesatser 2026" (adopted 2026 rules); no published
	// worked example found: trygdeavgift 7,6 % × 600 000 = 45 600;
	// trinnskatt 1,7 % × 92 200 + 4,0 % × 281 700 = 12 835,40; alminnelig
	// inntekt 600 000 − 95 700 − 114 540 = 389 760 × 22 % = 85 747,20.
	{name: "2026 wages 600000 (trinn 2)", year: 2026, in: Income{Employment: 600000},
		income: 12835.40 + 85747.20, social: 45600},
	// Computed from "Skattesatser 2026": trinnskatt 1 567,40 + 16 270 +
	// 13,7 % × 255 050 + 16,8 % × 487 100 + 17,8 % × 32 800 = 140 450,45;
	// 22 % × (1 500 000 − 95 700 − 114 540) = 283 747,20; trygdeavgift
	// 7,6 % = 114 000.
	{name: "2026 wages 1500000 (trinn 5 at 17,8 %)", year: 2026, in: Income{Employment: 1500000},
		income: 140450.45 + 283747.20, social: 114000},
}
