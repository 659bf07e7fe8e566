package tax

import "testing"

// Denmark. Rates and amounts: Skattestyrelsen "Skattesatser og
// beløbsgrænser" (skat.dk) for 2024 and 2025, Skatteministeriet's
// "Satser og beløbsgrænser i personskatteloven" (skm.dk) for 2026,
// personskatteloven §§ 5–10 and 8a, ligningsloven §§ 9 J and 9 K;
// Frederiksberg's kommuneskat 24,57 % (Frederiksberg Kommune for 2024,
// Danmarks Statistik PSKAT for 2025; 2026 not modelled) and Copenhagen's
// 23,50 % (PSKAT 2025) and 23,39 % (2026, Ritzau's report of the budget
// agreement). No Skattestyrelsen
// worked example with these figures was found; each case is computed by hand
// strictly from those published schedules.
//
// 2026 (personskattereform): bundskat 12,01 % of personlig indkomst (after
// AM-bidrag) + positive net capital income, less personfradrag 54 100;
// mellemskat 7,5 % of personlig indkomst + net capital income above
// 55 000, over 641 200; topskat 7,5 % of personlig indkomst over 777 900;
// toptopskat 5 % of personlig indkomst over 2 592 700; aktieindkomst 27 %
// up to 79 400, 42 % above.
func TestExamplesDK(t *testing.T) { runExamples(t, "dk", examplesDK) }

var examplesDK = []example{
	// Computed from the skat.dk 2024 schedule; no published worked example
	// found. Wages 400 000: AM-bidrag 32 000; bundskat (368 000 − 49 700)
	// × 12,06 % = 38 386,98; no topskat; no kommuneskat without a region.
	{name: "2024 wages 400000 (state taxes only)", year: 2024, in: Income{Employment: 400000},
		income: 38386.98, social: 32000, capital: zero},
	// Computed from the skat.dk 2024 schedule and Frederiksberg's 24,57 %;
	// no published worked example found. Kommuneskat base 368 000 −
	// beskæftigelsesfradrag 10,65 % × 400 000 = 42 600 − jobfradrag
	// min(4,5 % × 183 900, 2 800) = 2 800 − personfradrag 49 700 = 272 900
	// × 24,57 % = 67 051,53; total 32 000 + 38 386,98 + 67 051,53.
	{name: "2024 wages 400000 Frederiksberg", year: 2024, region: "FRB", in: Income{Employment: 400000},
		income: 38386.98, social: 32000, total: 137438.51},
	// Computed from the skat.dk 2025 schedule; no published worked example
	// found. Wages 800 000: AM 64 000; personlig indkomst 736 000; bundskat
	// 684 400 × 12,01 % = 82 196,44; topskat (736 000 − 611 800) × 15 % =
	// 18 630.
	{name: "2025 wages 800000 (topskat)", year: 2025, in: Income{Employment: 800000},
		income: 82196.44 + 18630, social: 64000},
	// Computed from PSL § 8a and the skat.dk 2025 progressionsgrænse 67 500;
	// no published worked example found. Dividends 100 000: 67 500 × 27 % =
	// 18 225 + 32 500 × 42 % = 13 650 → 31 875.
	{name: "2025 dividends 100000 (aktieindkomst)", year: 2025, in: Income{Dividends: 100000},
		income: zero, social: zero, capital: 31875},
	// Computed from the skat.dk 2024 schedule; no published worked example
	// found. Wages 300 000 + interest 60 000: AM 24 000; bundskat (276 000
	// + 60 000 − 49 700) × 12,06 % = 34 527,78; topskat base 276 000 +
	// (60 000 − 50 500) below 588 900 → 0.
	{name: "2024 wages 300000 + interest 60000", year: 2024, in: Income{Employment: 300000, Interest: 60000},
		income: 34527.78, social: 24000, capital: zero},
	// Computed from the skat.dk 2024 schedule and Frederiksberg's 24,57 %;
	// no published worked example found. Wages 300 000 + interest 60 000:
	// kommuneskat base 276 000 + 60 000 − beskæftigelsesfradrag 10,65 % ×
	// 300 000 = 31 950 − jobfradrag min(4,5 % × 83 900, 2 800) = 2 800 −
	// personfradrag 49 700 = 251 550 × 24,57 % = 61 805,84 (the 42 %
	// capital-income ceiling does not bind: no topskat at this income).
	{name: "2024 wages 300000 + interest 60000 Frederiksberg", year: 2024, region: "FRB", in: Income{Employment: 300000, Interest: 60000},
		income: 34527.78, social: 24000, regional: 61805.84, tol: 0.01},
	// Computed from the skat.dk 2025 schedule and Frederiksberg's 24,57 %
	// (Danmarks Statistik PSKAT); no published worked example found. Wages
	// 400 000: AM 32 000; bundskat (368 000 − 51 600) × 12,01 % =
	// 37 999,64; kommuneskat base 368 000 − beskæftigelsesfradrag 12,3 % ×
	// 400 000 = 49 200 − jobfradrag min(4,5 % × 175 500, 2 900) = 2 900 −
	// 51 600 = 264 300 × 24,57 % = 64 938,51; total 134 938,15.
	{name: "2025 wages 400000 Frederiksberg", year: 2025, region: "FRB", in: Income{Employment: 400000},
		income: 37999.64, social: 32000, regional: 64938.51, total: 134938.15, tol: 0.01},
	// Computed as above. Wages 800 000: AM 64 000; bundskat 82 196,44 +
	// topskat 18 630; kommuneskat base 736 000 − beskæftigelsesfradrag at
	// its maximum 55 600 − 2 900 − 51 600 = 625 900 × 24,57 % =
	// 153 783,63 (24,57 + 12,01 + 15 = 51,58 % stays under the 52,07 %
	// skatteloft); total 318 610,07.
	{name: "2025 wages 800000 Frederiksberg (topskat, beskæftigelsesfradrag at its maximum)", year: 2025, region: "FRB", in: Income{Employment: 800000},
		income: 100826.44, social: 64000, regional: 153783.63, total: 318610.07, tol: 0.01},
	// Computed from the skm.dk 2026 rates; no published worked example
	// found. Wages 400 000: AM 32 000; bundskat (368 000 − 54 100) ×
	// 12,01 % = 37 699,39; personlig indkomst 368 000 is below the
	// mellemskat threshold 641 200.
	{name: "2026 wages 400000 (bundskat only)", year: 2026, in: Income{Employment: 400000},
		income: 37699.39, social: 32000, capital: zero, tol: 0.01},
	// Computed. Wages 800 000: AM 64 000; personlig indkomst 736 000;
	// bundskat 681 900 × 12,01 % = 81 896,19; mellemskat (736 000 −
	// 641 200) × 7,5 % = 7 110; below the topskat threshold 777 900. The
	// same wages paid 18 630 topskat in 2025.
	{name: "2026 wages 800000 (mellemskat)", year: 2026, in: Income{Employment: 800000},
		income: 89006.19, social: 64000, tol: 0.01},
	// Computed. Wages 1 000 000: AM 80 000; personlig indkomst 920 000;
	// bundskat 865 900 × 12,01 % = 103 994,59; mellemskat 278 800 × 7,5 %
	// = 20 910; topskat (920 000 − 777 900) × 7,5 % = 10 657,50; total
	// 135 562,09.
	{name: "2026 wages 1000000 (mellemskat + topskat)", year: 2026, in: Income{Employment: 1000000},
		income: 135562.09, social: 80000, tol: 0.01},
	// Computed. Wages 3 000 000: AM 240 000; personlig indkomst 2 760 000;
	// bundskat 2 705 900 × 12,01 % = 324 978,59; mellemskat 2 118 800 ×
	// 7,5 % = 158 910; topskat 1 982 100 × 7,5 % = 148 657,50; toptopskat
	// (2 760 000 − 2 592 700) × 5 % = 8 365; total 640 911,09.
	{name: "2026 wages 3000000 (toptopskat)", year: 2026, in: Income{Employment: 3000000},
		income: 640911.09, social: 240000, tol: 0.01},
	// Computed. Wages 700 000 + interest 100 000: AM 56 000; bundskat
	// (644 000 + 100 000 − 54 100) × 12,01 % = 82 856,99; mellemskat base
	// 644 000 + (100 000 − 55 000) = 689 000 → (689 000 − 641 200) × 7,5 %
	// = 3 585; topskat is on personlig indkomst alone (644 000 < 777 900).
	{name: "2026 wages 700000 + interest 100000 (capital income in mellemskat only)", year: 2026, in: Income{Employment: 700000, Interest: 100000},
		income: 86441.99, social: 56000, capital: zero, tol: 0.01},
	// Computed from PSL § 8a and the skm.dk 2026 progressionsgrænse 79 400:
	// dividends 100 000 → 79 400 × 27 % = 21 438 + 20 600 × 42 % = 8 652 →
	// 30 090.
	{name: "2026 dividends 100000 (aktieindkomst)", year: 2026, in: Income{Dividends: 100000},
		income: zero, social: zero, capital: 30090},
	// Computed from the skat.dk 2025 schedule and Copenhagen's 23,50 %
	// (Danmarks Statistik PSKAT 2025); no published worked example found.
	// Wages 400 000: AM 32 000; bundskat (368 000 − 51 600) × 12,01 % =
	// 37 999,64; kommuneskat base 368 000 − beskæftigelsesfradrag 12,3 % ×
	// 400 000 = 49 200 − jobfradrag min(4,5 % × 175 500, 2 900) = 2 900 −
	// personfradrag 51 600 = 264 300 × 23,50 % = 62 110,50.
	{name: "2025 wages 400000 Copenhagen", year: 2025, region: "KBH", in: Income{Employment: 400000},
		income: 37999.64, social: 32000, regional: 62110.50, total: 132110.14, tol: 0.01},
	// Computed from Skatteministeriet's 2026 amounts (§ 20 table: personfradrag
	// 54 100, beskæftigelsesfradrag 12,75 % at most 63 300, jobfradrag 4,5 %
	// over 235 200 at most 3 100) and Copenhagen's 23,39 % (Ritzau's report of
	// the 2026 budget agreement, a secondary source); no published worked
	// example found. Wages 400 000: AM 32 000; bundskat 313 900 × 12,01 % =
	// 37 699,39; kommuneskat base 368 000 − 51 000 − 3 100 − 54 100 = 259 800
	// × 23,39 % = 60 767,22.
	{name: "2026 wages 400000 Copenhagen", year: 2026, region: "KBH", in: Income{Employment: 400000},
		income: 37699.39, social: 32000, regional: 60767.22, total: 130466.61, tol: 0.01},
	// Computed as above. Pension 300 000 (no AM-bidrag, no employment
	// deductions): bundskat 245 900 × 12,01 % = 29 532,59; kommuneskat
	// 245 900 × 23,39 % = 57 516,01.
	{name: "2026 pension 300000 Copenhagen", year: 2026, region: "KBH", in: Income{Pension: 300000},
		income: 29532.59, social: zero, regional: 57516.01, total: 87048.60, tol: 0.01},
}
