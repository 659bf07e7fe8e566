package tax

import "testing"

// Czechia. No worked example with these exact figures is published by the
// Finanční správa; every case below is computed by hand strictly from the
// published schedule (zákon č. 586/1992 Sb. §16, §35ba, §36; zákon č.
// 589/1992 Sb. §7, §5b, §15a; zákon č. 592/1992 Sb. §2, §3a, §9; ČSSZ
// average wage and maximum assessment base for the year), rounded as §16
// ZDP (base down to 100 Kč) and §146 daňového řádu (tax up to the koruna)
// require.
func TestExamplesCZ(t *testing.T) { runExamples(t, "cz", examplesCZ) }

var examplesCZ = []example{
	// Computed from the Finanční správa / ZDP schedule; no published worked
	// example found. 2024: wages 600 000 Kč: base 600 000 × 15 % = 90 000
	// − sleva na poplatníka 30 840 = 59 160 Kč. Social 7,1 % = 42 600,
	// health 4,5 % = 27 000.
	{name: "2024 wages 600000", year: 2024, in: Income{Employment: 600000},
		income: 59160, social: 42600 + 27000, capital: zero},
	// Computed from the schedule; no published worked example found.
	// 2025: 36 × 46 557 = 1 676 052 Kč. Wages 2 000 000: 1 676 052 × 15 %
	// = 251 407,80 + 323 948 × 23 % = 74 508,04 → 325 915,84 − 30 840 =
	// 295 075,84 → 295 076 Kč (rounded up). Social 7,1 % (below the
	// 2 234 736 Kč ceiling) = 142 000; health 4,5 % = 90 000.
	{name: "2025 wages 2000000 (23 % band)", year: 2025, in: Income{Employment: 2000000},
		income: 295076, social: 142000 + 90000},
	// Computed from the schedule; no published worked example found.
	// 2024: wages 2 500 000: 1 582 812 × 15 % = 237 421,80 + 917 188 × 23 %
	// = 210 953,24 → 448 375,04 − 30 840 = 417 535,04 → 417 536 Kč. Social
	// capped at 2 110 416 × 7,1 % = 149 839,54; health 112 500.
	{name: "2024 wages 2500000 (social ceiling)", year: 2024, in: Income{Employment: 2500000},
		income: 417536, social: 149839.54 + 112500, tol: 0.01},
	// Computed from the schedule; no published worked example found.
	// 2024 self-employed profit 500 000: PIT 75 000 − 30 840 = 44 160;
	// social 29,2 % × 55 % × 500 000 = 80 300; health 13,5 % × 50 % ×
	// 500 000 = 33 750.
	{name: "2024 self-employed 500000", year: 2024, in: Income{SelfEmployment: 500000},
		income: 44160, social: 80300 + 33750},
	// Computed from §36 odst. 2 ZDP; no published worked example found.
	// 2025: interest 10 000 + dividends 20 000 at 15 % = 4 500 Kč; no PIT
	// (the sleva cannot go below zero).
	{name: "2025 interest 10000 + dividends 20000 (withholding)", year: 2025, in: Income{Interest: 10000, Dividends: 20000},
		income: zero, social: zero, capital: 4500},
	// Computed from the schedule; no published worked example found.
	// 2025: pension 800 000 exempt up to 36 × 20 800 = 748 800; 51 200
	// taxable × 15 % = 7 680 < 30 840 → 0.
	{name: "2025 pension 800000 (exemption limit)", year: 2025, in: Income{Pension: 800000},
		income: zero, social: zero},
	// Computed from the schedule; no published worked example found.
	// 2026: průměrná mzda 48 967 Kč (nařízení vlády č. 365/2025 Sb.), 36×
	// = 1 762 812 Kč. Wages 2 000 000: 1 762 812 × 15 % = 264 421,80 +
	// 237 188 × 23 % = 54 553,24 → 318 975,04 − 30 840 = 288 135,04 →
	// 288 136 Kč. Social 7,1 % = 142 000 (below 2 350 416); health 90 000.
	{name: "2026 wages 2000000 (23 % band)", year: 2026, in: Income{Employment: 2000000},
		income: 288136, social: 142000 + 90000},
	// Computed from the schedule; no published worked example found.
	// 2026: wages 3 000 000: 264 421,80 + 1 237 188 × 23 % = 284 553,24 →
	// 548 975,04 − 30 840 → 518 136 Kč. Social capped at 48 × 48 967 =
	// 2 350 416 × 7,1 % = 166 879,54; health 135 000.
	{name: "2026 wages 3000000 (social ceiling)", year: 2026, in: Income{Employment: 3000000},
		income: 518136, social: 166879.54 + 135000, tol: 0.01},
	// Computed from the schedule; no published worked example found.
	// 2026: pension 1 200 000 exempt up to 36 × 22 400 = 806 400; 393 600
	// × 15 % = 59 040 − 30 840 = 28 200.
	{name: "2026 pension 1200000 (exemption limit)", year: 2026, in: Income{Pension: 1200000},
		income: 28200, social: zero},
	// Computed from the schedule; no published worked example found.
	// 2026 self-employed profit 1 000 000: PIT 150 000 − 30 840 = 119 160;
	// social 29,2 % × 550 000 = 160 600; health 13,5 % × 500 000 = 67 500.
	{name: "2026 self-employed 1000000", year: 2026, in: Income{SelfEmployment: 1000000},
		income: 119160, social: 160600 + 67500},
}
