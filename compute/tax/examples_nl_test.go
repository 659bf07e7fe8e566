package tax

import "testing"

// No Belastingdienst rekenvoorbeeld for 2024, 2025 or 2026 was found in the stored
// material. The cases below are computed by hand from the Belastingdienst's
// published rates and credit tables, as each comment says; they test the
// data, not against an authority's own worked figure.
func TestExamplesNL(t *testing.T) { runExamples(t, "nl", examplesNL) }

var examplesNL = []example{
	// Belastingdienst tarieven 2024 (box 1: 36,97 % tot € 75.518, of which
	// 27,65 % premies tot € 38.098), algemene heffingskorting 2024 (€ 3.362 −
	// 6,63 % boven € 24.813 = € 2.355,10) and arbeidskorting 2024
	// (€ 5.532 − 6,51 % boven € 39.958 = € 5.529,27): 40.000 × 36,97 % −
	// 7.884,37 = € 6.903,63.
	{name: "2024 wages 40000 (computed)", year: 2024, in: Income{Employment: 40000},
		total: 6903.63},
	// Belastingdienst 2024: arbeidskorting € 968 + 31,433 % × (20.000 −
	// 11.491) = € 3.642,63; AHK € 3.362; 20.000 × 36,97 % − 7.004,63 =
	// € 389,37.
	{name: "2024 wages 20000 (computed)", year: 2024, in: Income{Employment: 20000},
		total: 389.37},
	// Belastingdienst tarieven 2025 (35,82 % tot € 38.441, 37,48 % tot
	// € 76.817), AHK 2025 € 3.068 − 6,337 % boven € 28.406 = € 1.065,89,
	// arbeidskorting € 5.599 − 6,51 % boven € 43.071 = € 4.496,92:
	// 38.441 × 35,82 % + 21.559 × 37,48 % − 5.562,81 = € 16.287,07.
	{name: "2025 wages 60000 (computed)", year: 2025, in: Income{Employment: 60000},
		total: 16287.07, social: 38441 * 0.2765},
	// Belastingdienst tarieven 2026 (35,75 % tot € 38.883, of which 27,65 %
	// premies; 37,56 % tot € 78.426), AHK 2026 € 3.115 − 6,398 % boven
	// € 29.736 = € 2.458,31, arbeidskorting 2026 € 5.300 + 1,950 % boven
	// € 25.845 = € 5.576,02: 38.883 × 35,75 % + 1.117 × 37,56 % −
	// 8.034,33 = € 6.285,89 (the credits exceed the belastingdeel, so
	// part of them reduces the premiums).
	{name: "2026 wages 40000 (computed)", year: 2026, in: Income{Employment: 40000},
		total: 6285.89},
	// Belastingdienst 2026: arbeidskorting € 996 + 31,009 % × (20.000 −
	// 11.965) = € 3.487,57; AHK € 3.115; 20.000 × 35,75 % − 6.602,57 =
	// € 547,43 (the credits exceed the 8,10 % belastingdeel and reduce
	// the premiums).
	{name: "2026 wages 20000 (computed)", year: 2026, in: Income{Employment: 20000},
		total: 547.43, income: zero},
	// Belastingdienst 2026: 13.900,67 + 39.543 × 37,56 % + 21.574 ×
	// 49,50 % = € 39.432,15; AHK nil above € 78.426; arbeidskorting
	// € 5.685 − 6,51 % × 54.408 = € 2.143,04 → € 37.289,11.
	{name: "2026 wages 100000 (computed)", year: 2026, in: Income{Employment: 100000},
		total: 37289.11},
	// Inkomensafhankelijke bijdrage Zvw on a pension below AOW age, which
	// the pension fund withholds at the lower rate. 2024: 5,32 % tot
	// € 71.628; box 1 30.000 × 36,97 % = € 11.091; AHK € 3.362 − 6,63 % ×
	// (30.000 − 24.813) = € 3.018,10; Zvw 30.000 × 5,32 % = € 1.596:
	// € 9.668,90.
	{name: "2024 pension 30000 with Zvw (computed)", year: 2024, in: Income{Pension: 30000},
		total: 9668.90},
	// 2025: 5,26 % tot € 75.864, so the bijdrage stops at 75.864 × 5,26 %
	// = € 3.990,45; box 1 38.441 × 35,82 % + 38.376 × 37,48 % + 3.183 ×
	// 49,50 % = € 29.728,48; AHK nil: € 33.718,92.
	{name: "2025 pension 80000 with capped Zvw (computed)", year: 2025, in: Income{Pension: 80000},
		total: 33718.92},
	// 2026: 4,85 % tot € 79.409 (Regeling zorgverzekering, Stcrt. 2025,
	// 38055). Pension 30.000: Zvw € 1.455; box 1 30.000 × 35,75 % =
	// € 10.725; AHK € 3.115 − 6,398 % × 264 = € 3.098,11 (more than the
	// 8,10 % belastingdeel, so the rest reduces the premiums): € 9.081,89.
	{name: "2026 pension 30000 with Zvw (computed)", year: 2026, in: Income{Pension: 30000},
		total: 9081.89, income: zero},
	// 2026, pension 100.000: Zvw stops at 79.409 × 4,85 % = € 3.851,34;
	// box 1 € 39.432,15 as for wages of 100.000, AHK nil: € 43.283,49.
	{name: "2026 pension 100000 with capped Zvw (computed)", year: 2026, in: Income{Pension: 100000},
		total: 43283.49},
	// 2026, wages 60.000 and a pension of 30.000: the employer's
	// werkgeversheffing covers the wages, so the pension bears the
	// bijdrage only up to the maximum: (79.409 − 60.000) × 4,85 % =
	// € 941,34. Box 1 on 90.000: 13.900,67 + 14.852,35 + 11.574 × 49,50 %
	// = € 34.482,15; arbeidskorting € 5.685 − 6,51 % × 14.408 = € 4.747,04;
	// AHK nil: € 30.676,45.
	{name: "2026 wages 60000 and pension 30000 (computed)", year: 2026, in: Income{Employment: 60000, Pension: 30000},
		total: 30676.45},
}
