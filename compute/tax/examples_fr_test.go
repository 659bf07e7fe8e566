package tax

import "testing"

func TestExamplesFR(t *testing.T) { runExamples(t, "fr", examplesFR) }

var examplesFR = []example{
	// AUTHORITY EXAMPLE. DILA (service-public.fr), "Quel est le barème de
	// l'impôt sur le revenu ?" (F1419), version for the barème 2025
	// applied to revenus 2024 (verified 10/04/2025), example "Pour un
	// célibataire", https://www.service-public.fr/particuliers/vosdroits/F1419:
	// célibataire (1 part), revenu net imposable 30 000 €, no réduction or
	// déduction: (29 315 − 11 497) × 11 % = 1 959,98 €; (30 000 − 29 315)
	// × 30 % = 205,50 €; impôt brut 2 165,48 €. Above the décote limit
	// (1 964 €), so the impôt is 2 165,48 rounded to the nearest euro:
	// 2 165 €. The RNI is given as self-employment income, which
	// this file takes as net taxable profit with no contributions.
	{name: "2024 RNI 30000 (service-public F1419 célibataire)", src: official, year: 2024, in: Income{SelfEmployment: 30000},
		income: 2165},
	// AUTHORITY FIGURE (per part). Same F1419 page, example "couple marié
	// ou pacsé sans enfant, revenu net imposable 90 000 €": quotient
	// familial 45 000 €; 1 959,98 + (45 000 − 29 315) × 30 % = 4 705,50;
	// impôt brut per part 6 665,48 €. The barème is applied per part
	// (CGI art. 197 I 1), so a célibataire with RNI 45 000 € has the same
	// impôt brut; no décote at that level → 6 665 €. The household in the
	// publication is a couple; only the per-part figure is used.
	{name: "2024 RNI 45000 (F1419 per-part figure)", src: official, year: 2024, in: Income{SelfEmployment: 45000},
		income: 6665},
	// AUTHORITY FIGURE (per part). Same F1419 page, example "couple marié
	// ou pacsé avec 1 enfant (2,5 parts), revenu net imposable 90 000 €":
	// quotient familial 36 000 €; 1 959,98 + (36 000 − 29 315) × 30 % =
	// 2 005,50; impôt brut per part 3 965,48 €. For a célibataire with
	// RNI 36 000 € that is the impôt brut; no décote → 3 965 €.
	{name: "2024 RNI 36000 (F1419 per-part figure)", src: official, year: 2024, in: Income{SelfEmployment: 36000},
		income: 3965},
	// Partly computed. The F1419 page gives the per-part impôt brut on a
	// quotient of 20 000 € (935,33 €) for a multi-part household; the
	// décote for a célibataire is computed here from CGI art. 197 I 4:
	// 889 − 45,25 % × 935,33 = 465,76; net 469,57 → 470 €.
	{name: "2024 RNI 20000 with décote", year: 2024, in: Income{SelfEmployment: 20000},
		income: 470},
	// impots.gouv.fr PFU: 12,8 % + 17,2 % = 30 % of 3 000 € = 900 €.
	{name: "2024 capital income 3000 (PFU)", year: 2024, in: Income{Interest: 1000, Dividends: 1000, CapitalGains: 1000},
		income: zero, capital: 900},
	// Urssaf 2024 employee rates on 40 000 € (< PASS 46 368 €): vieillesse
	// 6,90 % + 0,40 %, Agirc-Arrco 3,15 % + CEG 0,86 %, CSG 9,2 % and CRDS
	// 0,5 % on 98,25 % → 8 336,10 €. Net imposable 32 803,60; 10 %
	// déduction 3 280,36; RNI 29 523 → 1 959,98 + 62,40 = 2 022,38 → 2 022 €.
	{name: "2024 salary 40000", year: 2024, in: Income{Employment: 40000},
		income: 2022, social: 8336.10},
	// CGI art. 158 5 a (abattement 10 %, 450 €–4 399 €), CSS L136-8 (CSG
	// 8,3 % dont 5,9 % déductible), CRDS 0,5 %, CASA 0,3 %: pension 20 000 €
	// → RNI 16 938, impôt brut 598,51 fully cancelled by the décote.
	{name: "2024 pension 20000", year: 2024, in: Income{Pension: 20000},
		income: zero, social: 1820},

	// Income year 2025 (revenus 2025, taxed in 2026): barème of the loi de
	// finances pour 2026 (loi n° 2026-103, art. 4), 11 600 / 29 579 /
	// 84 577 / 181 917 €, décote 897 € − 45,25 %; PASS 2025 47 100 €.
	//
	// AUTHORITY EXAMPLE. DILA (service-public.fr), F1419, version for the
	// barème 2026 applied to revenus 2025, example "Pour un célibataire",
	// https://www.service-public.fr/particuliers/vosdroits/F1419:
	// célibataire (1 part), revenu net imposable 30 000 €: (29 579 −
	// 11 600) × 11 % = 1 977,69 €; (30 000 − 29 579) × 30 % = 126,30 €;
	// impôt brut 2 103,99 €. Above the décote limit (897 / 45,25 % =
	// 1 982 €), so the impôt is 2 104 €. The RNI is given as
	// self-employment income (net taxable profit, no contributions).
	{name: "2025 RNI 30000 (service-public F1419 célibataire)", src: official, year: 2025, in: Income{SelfEmployment: 30000},
		income: 2104},
	// AUTHORITY FIGURE (per part). Same F1419 page, example "couple marié
	// ou pacsé sans enfant, revenu net imposable 90 000 €": quotient
	// familial 45 000 €; 1 977,69 + (45 000 − 29 579) × 30 % = 4 626,30;
	// impôt brut per part 6 603,99 €, the impôt brut of a célibataire with
	// RNI 45 000 € (CGI art. 197 I 1); no décote → 6 604 €.
	{name: "2025 RNI 45000 (F1419 per-part figure)", src: table, year: 2025, in: Income{SelfEmployment: 45000},
		income: 6604},
	// Computed from the barème: RNI 36 000 €: 1 977,69 + (36 000 −
	// 29 579) × 30 % = 1 926,30 → 3 903,99 → 3 904 €.
	{name: "2025 RNI 36000 (computed)", year: 2025, in: Income{SelfEmployment: 36000},
		income: 3904},
	// Computed: RNI 300 000 €: 1 977,69 + (84 577 − 29 579) × 30 % =
	// 16 499,40 + (181 917 − 84 577) × 41 % = 39 909,40 + (300 000 −
	// 181 917) × 45 % = 53 137,35 → 111 523,84 → 111 524 €; CEHR (CGI
	// art. 223 sexies) 3 % × (300 000 − 250 000) = 1 500 € → 113 024 €.
	{name: "2025 RNI 300000 (45 % band and CEHR, computed)", year: 2025, in: Income{SelfEmployment: 300000},
		income: 113024},
	// Computed, salary 40 000 € (< PASS 47 100 €): contributions as in 2024,
	// 8 336,10 €. Net imposable 40 000 − 7 196,40 deductible = 32 803,60;
	// 10 % déduction 3 280,36 (between 509 and 14 555 €); RNI 29 523 →
	// (29 523 − 11 600) × 11 % = 1 971,53; décote 897 − 45,25 % × 1 971,53
	// = 4,88; 1 966,65 → 1 967 €.
	{name: "2025 salary 40000 (computed)", year: 2025, in: Income{Employment: 40000},
		income: 1967, social: 8336.10},
	// Computed, salary 60 000 € (above PASS): vieillesse 6,90 % × 47 100 =
	// 3 249,90 + 0,40 % × 60 000 = 240; Agirc-Arrco 3,15 % × 47 100 =
	// 1 483,65 + 8,64 % × 12 900 = 1 114,56; CEG 0,86 % × 47 100 = 405,06
	// + 1,08 % × 12 900 = 139,32; CET 0,14 % × 60 000 = 84; CSG déductible
	// 6,681 % × 60 000 = 4 008,60; CSG non déductible 2,358 % = 1 414,80;
	// CRDS 0,49125 % = 294,75 → 12 434,64 €. Deductible 10 725,09; net
	// imposable 49 274,91; 10 % = 4 927,49; RNI 44 347 → 1 977,69 +
	// (44 347 − 29 579) × 30 % = 4 430,40 → 6 408,09 → 6 408 €.
	{name: "2025 salary 60000 (above PASS, computed)", year: 2025, in: Income{Employment: 60000},
		income: 6408, social: 12434.64},
	// Computed: PFU 12,8 % × 3 000 = 384; prélèvements sociaux 17,2 % on
	// the interest and dividends received in 2025 (produits de placement,
	// CSG 10,6 % only from 1 January 2026) = 344, and 18,6 % on the 2025
	// gain (revenus du patrimoine, LFSS 2026 art. 12) = 186 → 914 €.
	{name: "2025 capital income 3000 (PFU, CSG 10,6 % on gains)", year: 2025, in: Income{Interest: 1000, Dividends: 1000, CapitalGains: 1000},
		income: zero, capital: 914},
	// Computed: pension 20 000 €, CSG 8,3 % + CRDS 0,5 % + CASA 0,3 % =
	// 1 820 €; abattement 10 % of 18 820 = 1 882 (454–4 439 €); RNI 16 938
	// → (16 938 − 11 600) × 11 % = 587,18, wholly cancelled by the décote
	// (897 − 265,70 = 631,30).
	{name: "2025 pension 20000 (computed)", year: 2025, in: Income{Pension: 20000},
		income: zero, social: 1820},
}
