package tax

import "testing"

// SPF Finances publishes the scale with a worked example for income year
// 2023 only (Jean, 38.000 €), outside the covered years; these cases are
// computed by hand from each year's SPF Finances scale, art. 51 and 131
// CIR 92 and the ONSS rates, as each comment says.
func TestExamplesBE(t *testing.T) { runExamples(t, "be", examplesBE) }

var examplesBE = []example{
	// Computed, employee 40.000 €: ONSS 13,07 % = 5.228; 34.772 − forfait
	// 5.750 (30 % capped; SPF Finances, revenus 2024) = 29.022: 15.820 ×
	// 25 % + 12.100 × 40 % + 1.102 × 45 % = 9.290,90 − quotité exemptée
	// 10.570 × 25 % = 2.642,50 → 6.648,40. Special contribution: 9 % ×
	// 2.478,95 + 1,3 % × (29.022 − 21.070,96) = 326,47.
	{name: "2024 employee 40000 (computed from SPF schedule)", year: 2024, in: Income{Employment: 40000},
		income: 6648.40, social: 5228 + 326.47, capital: zero, tol: 0.01},
	// Computed, employee 80.000 €: ONSS 10.456; 69.544 − 5.750 = 63.794:
	// 3.955 + 4.840 + 9.180 + 15.474 × 50 % = 25.712 − 2.642,50 =
	// 23.069,50; special contribution at its maximum 731,28.
	{name: "2024 employee 80000 (computed from SPF schedule)", year: 2024, in: Income{Employment: 80000},
		income: 23069.50, social: 10456 + 731.28, tol: 0.01},
	// Computed from art. 269 and art. 21, 14° CIR 92: dividends 2.000 −
	// 833 exempt = 1.167 × 30 % = 350,10; interest 500 × 30 % = 150.
	{name: "2024 dividends 2000 + interest 500 (précompte mobilier)", year: 2024, in: Income{Dividends: 2000, Interest: 500},
		income: zero, social: zero, capital: 500.10},
	// Income year 2025 (exercice d'imposition 2026). No SPF Finances worked
	// example for 2025 was found; computed by hand from the indexed scale
	// 16.320 / 28.800 / 49.840 €, the quotité exemptée 10.910 € (SPF
	// Finances), the 5.930 € forfait maximum and the unindexed special
	// contribution.
	//
	// Computed, employee 50.000 €: ONSS 6.535; 43.465 − 5.930 = 37.535:
	// 4.080 + 12.480 × 40 % = 4.992 + 8.735 × 45 % = 3.930,75 → 13.002,75
	// − 10.910 × 25 % = 2.727,50 → 10.275,25. Special contribution 9 % ×
	// 2.478,95 + 1,3 % × (37.535 − 21.070,96) = 437,14.
	{name: "2025 employee 50000 (computed)", year: 2025, in: Income{Employment: 50000},
		income: 10275.25, social: 6535 + 437.14, capital: zero, tol: 0.01},
	// Computed, employee 100.000 €: ONSS 13.070; 86.930 − 5.930 = 81.000:
	// 4.080 + 4.992 + 21.040 × 45 % = 9.468 + 31.160 × 50 % = 15.580 →
	// 34.120 − 2.727,50 = 31.392,50; special contribution at its maximum
	// 731,28.
	{name: "2025 employee 100000 (50 % band, computed)", year: 2025, in: Income{Employment: 100000},
		income: 31392.50, social: 13070 + 731.28, tol: 0.01},
	// Computed, self-employed profit 30.000 €: forfait 5.930 (30 % capped);
	// 24.070: 4.080 + 7.750 × 40 % = 3.100 → 7.180 − 2.727,50 = 4.452,50.
	{name: "2025 self-employed 30000 (computed)", year: 2025, in: Income{SelfEmployment: 30000},
		income: 4452.50, social: zero},
	// Computed: dividends 10.000 − 833 exempt (kept at 833 €) = 9.167 × 30 %
	// = 2.750,10; interest 2.000 × 30 % = 600.
	{name: "2025 dividends 10000 + interest 2000 (précompte mobilier)", year: 2025, in: Income{Dividends: 10000, Interest: 2000},
		income: zero, social: zero, capital: 3350.10},

	// Income year 2026 (exercice d'imposition 2027). No SPF Finances worked
	// example for 2026 was found; computed by hand from the indexed scale
	// 16.720 / 29.510 / 51.070 €, the quotité exemptée 11.180 € (× 25 % =
	// 2.795 €), the 6.070 € forfait maximum (SPF Finances) and the
	// unindexed special contribution.
	//
	// Computed, employee 50.000 €: ONSS 6.535; 43.465 − 6.070 = 37.395:
	// 4.180 + 12.790 × 40 % = 5.116 + 7.885 × 45 % = 3.548,25 → 12.844,25
	// − 2.795 → 10.049,25. Special contribution 9 % × 2.478,95 + 1,3 % ×
	// (37.395 − 21.070,96) = 223,11 + 212,21 = 435,32.
	{name: "2026 employee 50000 (computed)", year: 2026, in: Income{Employment: 50000},
		income: 10049.25, social: 6535 + 435.32, capital: zero, tol: 0.01},
	// Computed, employee 100.000 €: ONSS 13.070; 86.930 − 6.070 = 80.860:
	// 4.180 + 5.116 + 21.560 × 45 % = 9.702 + 29.790 × 50 % = 14.895 →
	// 33.893 − 2.795 = 31.098; special contribution at its maximum 731,28.
	{name: "2026 employee 100000 (50 % band, computed)", year: 2026, in: Income{Employment: 100000},
		income: 31098, social: 13070 + 731.28, tol: 0.01},
	// Computed, employee 15.000 €: ONSS 1.960,50; 13.039,50 − 30 % =
	// 9.127,65, all in the 25 % band: 2.281,91, below the 2.795 € of the
	// quotité exemptée → no tax; below 18.592,01 € → no special
	// contribution.
	{name: "2026 employee 15000 under the quotité exemptée (computed)", year: 2026, in: Income{Employment: 15000},
		income: zero, social: 1960.50, tol: 0.01},
	// Computed, self-employed profit 30.000 €: forfait 6.070 (30 % capped);
	// 23.930: 4.180 + 7.210 × 40 % = 2.884 → 7.064 − 2.795 = 4.269.
	{name: "2026 self-employed 30000 (computed)", year: 2026, in: Income{SelfEmployment: 30000},
		income: 4269, social: zero},
	// Computed: dividends 10.000 − 833 exempt (frozen) = 9.167 × 30 % =
	// 2.750,10; interest 2.000 × 30 % = 600. Gains on shares are left
	// untaxed (the 2026 solidarity contribution is not modelled).
	{name: "2026 dividends 10000 + interest 2000 + gain 5000 (précompte mobilier)", year: 2026, in: Income{Dividends: 10000, Interest: 2000, CapitalGains: 5000},
		income: zero, social: zero, capital: 3350.10},
}
