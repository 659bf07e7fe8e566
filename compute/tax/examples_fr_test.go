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
}
