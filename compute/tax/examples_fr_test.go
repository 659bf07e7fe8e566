package tax

import "testing"

func TestExamplesFR(t *testing.T) {
	runExamples(t, "fr", []example{
		// service-public.fr F1419 (barème 2025, revenus 2024): célibataire,
		// revenu net imposable 30 000 € → 1 959,98 + 205,50 = 2 165,48 € → 2 165 €
		// (CGI art. 197; arrondi à l'euro le plus proche).
		{name: "2024 RNI 30000", year: 2024, in: Income{SelfEmployment: 30000},
			income: 2165},
		// service-public.fr F1419: 20 000 € → impôt brut 935,33 €; CGI art. 197
		// I 4: décote 889 − 45,25 % × 935,33 = 465,76; net 469,57 → 470 €.
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
	})
}
