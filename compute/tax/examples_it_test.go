package tax

import "testing"

// Italy. No worked example of the Agenzia delle Entrate for these incomes
// was found, so each case is computed by hand strictly from the published
// schedule: art. 11 and art. 13 TUIR (D.Lgs. 216/2023 for 2024, L. 207/2024
// for 2025, L. 199/2025 for 2026), D.L. 3/2020 and the INPS rates. The Agenzia truncates the
// detrazione ratios to four decimals; the engine does not, hence the few
// cents of tolerance, stated per case.
func TestExamplesIT(t *testing.T) { runExamples(t, "it", examplesIT) }

var examplesIT = []example{
	// Computed from the schedule (no published worked example found): INPS
	// 9,19 % × 25.000 = 2.297,50; R = 22.702,50; lorda 23 % = 5.221,58;
	// detrazione 1.910 + 1.190 × 5.297,50/13.000 = 2.394,93 (ratio
	// 0,4075, exact to four decimals); netta 2.826,65.
	{name: "2024 wages 25000", year: 2024, in: Income{Employment: 25000},
		income: 2826.65, social: 2297.50, capital: zero, tol: 0.01},
	// Computed (no published worked example found): INPS 3.676; R =
	// 36.324; lorda 6.440 + 35 % × 8.324 = 9.353,40; detrazione 1.910 ×
	// 13.676/22.000 = 1.187,33; ulteriore detrazione (L. 207/2024 c. 6)
	// 1.000 × 3.676/8.000 = 459,50; netta 7.706,57 (7.706,64 truncated).
	{name: "2025 wages 40000 (ulteriore detrazione)", year: 2025, in: Income{Employment: 40000},
		income: 7706.57, social: 3676, tol: 0.1},
	// Computed (no published worked example found): pension 20.000, lorda
	// 4.600; detrazione 700 + 1.255 × 8.000/19.500 = 1.214,87; netta
	// 3.385,13 (3.385,20 truncated).
	{name: "2024 pension 20000", year: 2024, in: Income{Pension: 20000},
		income: 3385.13, social: zero, tol: 0.1},
	// Computed (no published worked example found): INPS 2025 on 80.000:
	// 55.008 × 9,19 % + 24.992 × 10,19 % = 5.055,24 + 2.546,68 =
	// 7.601,92; R = 72.398,08; lorda 6.440 + 7.700 + 43 % × 22.398,08 =
	// 23.771,17; no detrazione above 50.000 €.
	{name: "2025 wages 80000 (above 50000, INPS 1 % band)", year: 2025, in: Income{Employment: 80000},
		income: 23771.17, social: 7601.92, tol: 0.01},
	// D.L. 66/2014 art. 3: 26 % of 10.000 = 2.600.
	{name: "2025 dividends 10000 (26 %)", year: 2025, in: Income{Dividends: 10000},
		income: zero, capital: 2600},
	// Regions. The MEF (Dipartimento delle Finanze) publishes each
	// region's and municipality's rates, brackets and exemption thresholds
	// but no worked amounts; these cases are computed by hand from them
	// (Lombardia 1,23 / 1,58 / 1,72 / 1,73 %; Milano 0,8 % above 23.000 €;
	// Lazio 1,73 % and 3,33 % above 15.000 €, the 1,6-point maggiorazione
	// not applied up to 28.000 €, 60 € detrazione from 28.001 to 35.000 €;
	// Roma 0,9 % above 12.000 € in 2024 and 14.000 € from 2025) on the
	// IRPEF taxable income of the cases above.
	//
	// Computed: taxable 22.702,50; Lombardia 15.000 × 1,23 % = 184,50 +
	// 7.702,50 × 1,58 % = 121,70 → 306,20; Milano nil (22.702,50 ≤
	// 23.000); total 2.297,50 + 2.826,65 + 306,20.
	{name: "2024 wages 25000 Milano", year: 2024, region: "MI", in: Income{Employment: 25000},
		income: 2826.65, social: 2297.50, total: 5430.35, tol: 0.01},
	// Computed: taxable 36.324; Lombardia 184,50 + 205,40 + 8.324 × 1,72 %
	// = 143,17 → 533,07; Milano 0,8 % × 36.324 = 290,59 (whole income once
	// above the threshold); total 3.676 + 7.706,57 + 823,66.
	{name: "2025 wages 40000 Milano", year: 2025, region: "MI", in: Income{Employment: 40000},
		income: 7706.57, social: 3676, total: 12206.23, tol: 0.1},
	// Computed: taxable 72.398,08; Lombardia 184,50 + 205,40 + 378,40 +
	// 22.398,08 × 1,73 % = 387,49 → 1.155,79; Milano 579,18; total
	// 7.601,92 + 23.771,17 + 1.734,97.
	{name: "2025 wages 80000 Milano", year: 2025, region: "MI", in: Income{Employment: 80000},
		income: 23771.17, social: 7601.92, total: 33108.06, tol: 0.02},
	// Computed: taxable 22.702,50 ≤ 28.000, so Lazio 1,73 % on all =
	// 392,75; Roma 0,9 % = 204,32; total 2.297,50 + 2.826,65 + 597,08.
	{name: "2024 wages 25000 Roma (no maggiorazione up to 28000)", year: 2024, region: "RM", in: Income{Employment: 25000},
		income: 2826.65, social: 2297.50, total: 5721.23, tol: 0.01},
	// Computed: taxable 36.324 > 35.000, no detrazione; Lazio 15.000 ×
	// 1,73 % = 259,50 + 21.324 × 3,33 % = 710,09 → 969,59; Roma 326,92;
	// total 3.676 + 7.706,57 + 1.296,51.
	{name: "2025 wages 40000 Roma", year: 2025, region: "RM", in: Income{Employment: 40000},
		income: 7706.57, social: 3676, total: 12679.08, tol: 0.1},
	// Computed: pension 32.000; IRPEF 6.440 + 1.400 − 700 × 18.000/22.000
	// = 572,73 → 7.267,27; Lazio 259,50 + 17.000 × 3,33 % = 566,10 − 60
	// (28.001-35.000 €) = 765,60; Roma 288; total 8.320,87.
	{name: "2024 pension 32000 Roma (60 € detrazione)", year: 2024, region: "RM", in: Income{Pension: 32000},
		income: 7267.27, social: zero, total: 8320.87, tol: 0.1},
	// Computed: Roma's exemption is 14.000 € from 2025. Pension 13.500;
	// IRPEF 23 % = 3.105 − detrazione 700 + 1.255 × 14.500/19.500 =
	// 1.633,21 → 1.471,79; Lazio 1,73 % = 233,55; Roma nil (13.500 ≤
	// 14.000; it would be 121,50 at 0,9 %).
	{name: "2025 pension 13500 Roma (esente fino a 14000)", year: 2025, region: "RM", in: Income{Pension: 13500},
		income: 1471.79, social: zero, regional: 233.55, total: 1705.34, tol: 0.01},

	// 2026. L. 199/2025 art. 1 c. 3: 23 % up to 28.000 €, 33 % to 50.000 €,
	// 43 % above; detrazioni, trattamento integrativo, somma esente and
	// ulteriore detrazione as in 2025 (L. 207/2024, permanent). INPS
	// (circolare 6/2026): 9,19 % up to 56.224 €, 10,19 % above. Regional
	// rates: Lombardia and Milano unchanged; Lazio (L.R. 20/2025) 1,73 % on
	// the whole income up to 28.000 €, else 1,73 % / 3,33 % with a 60 €
	// detrazione from 28.001 to 30.000 €; Roma 0,9 % above 14.000 €. No
	// worked example of the Agenzia or the MEF for 2026 was found: each
	// case is computed.
	//
	// Computed: INPS 3.676; R = 36.324; lorda 6.440 + 33 % × 8.324 =
	// 9.186,92; detrazione 1.910 × 13.676/22.000 = 1.187,33; ulteriore
	// detrazione 1.000 × 3.676/8.000 = 459,50; netta 7.540,09 (7.540,16
	// with the ratio truncated to 0,6216). Against 2025: 2 % × 8.324 =
	// 166,48 less.
	{name: "2026 wages 40000 (33 % bracket)", year: 2026, in: Income{Employment: 40000},
		income: 7540.09, social: 3676, capital: zero, tol: 0.1},
	// Computed: INPS 56.224 × 9,19 % = 5.166,99 + 23.776 × 10,19 % =
	// 2.422,77 → 7.589,76; R = 72.410,24; lorda 6.440 + 22.000 × 33 % =
	// 7.260 + 22.410,24 × 43 % = 9.636,40 → 23.336,40; no detrazione above
	// 50.000 €.
	{name: "2026 wages 80000 (INPS prima fascia 56224)", year: 2026, in: Income{Employment: 80000},
		income: 23336.40, social: 7589.76, tol: 0.01},
	// Computed: INPS 2.297,50; R = 22.702,50; lorda 23 % = 5.221,58;
	// detrazione 1.910 + 1.190 × 5.297,50/13.000 = 2.394,93; ulteriore
	// detrazione 1.000 (R between 20.000 and 32.000) → 1.826,65.
	{name: "2026 wages 25000 (ulteriore detrazione 1000)", year: 2026, in: Income{Employment: 25000},
		income: 1826.65, social: 2297.50, tol: 0.01},
	// D.L. 66/2014 art. 3: 26 % of 10.000 = 2.600, unchanged.
	{name: "2026 interest 10000 (26 %)", year: 2026, in: Income{Interest: 10000},
		income: zero, capital: 2600},
	// Computed: taxable 22.702,50; Lombardia 184,50 + 7.702,50 × 1,58 % =
	// 121,70 → 306,20; Milano nil (≤ 23.000); total 2.297,50 + 1.826,65 +
	// 306,20.
	{name: "2026 wages 25000 Milano", year: 2026, region: "MI", in: Income{Employment: 25000},
		income: 1826.65, social: 2297.50, regional: 306.20, total: 4430.35, tol: 0.01},
	// Computed: taxable 36.324; Lombardia 184,50 + 205,40 + 8.324 × 1,72 %
	// = 143,17 → 533,07; Milano 0,8 % × 36.324 = 290,59; total 3.676 +
	// 7.540,09 + 823,66.
	{name: "2026 wages 40000 Milano", year: 2026, region: "MI", in: Income{Employment: 40000},
		income: 7540.09, social: 3676, regional: 823.66, total: 12039.75, tol: 0.1},
	// Computed: taxable 22.702,50 ≤ 28.000: Lazio 1,73 % on all = 392,75;
	// Roma 0,9 % = 204,32; total 2.297,50 + 1.826,65 + 597,08.
	{name: "2026 wages 25000 Roma", year: 2026, region: "RM", in: Income{Employment: 25000},
		income: 1826.65, social: 2297.50, regional: 597.08, total: 4721.23, tol: 0.01},
	// Computed: pension 29.500; IRPEF 6.440 + 33 % × 1.500 = 6.935 − 700 ×
	// 20.500/22.000 = 652,27 → 6.282,73; Lazio 259,50 + 14.500 × 3,33 % =
	// 482,85 → 742,35 − 60 (28.001-30.000 €) = 682,35; Roma 265,50; total
	// 7.230,58.
	{name: "2026 pension 29500 Roma (60 € detrazione)", year: 2026, region: "RM", in: Income{Pension: 29500},
		income: 6282.73, regional: 947.85, total: 7230.58, tol: 0.01},
	// Computed: pension 32.000; IRPEF 6.440 + 1.320 − 700 × 18.000/22.000
	// = 572,73 → 7.187,27; Lazio 259,50 + 17.000 × 3,33 % = 825,60 (no
	// detrazione above 30.000 € in 2026; 765,60 in 2024 and 2025); Roma
	// 288; total 8.300,87.
	{name: "2026 pension 32000 Roma (no detrazione above 30000)", year: 2026, region: "RM", in: Income{Pension: 32000},
		income: 7187.27, regional: 1113.60, total: 8300.87, tol: 0.01},
}
