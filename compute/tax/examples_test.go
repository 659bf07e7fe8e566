package tax

import "testing"

// Worked examples. Each case cites the publication it comes from; amounts
// are checked to the cent (or to the unit the authority rounds to).

func TestExamplesUS(t *testing.T) {
	runExamples(t, "us", []example{
		// IRS, 2024 Instructions for Form 1040, 2024 Tax Table, row "45,000–45,050",
		// single column: $5,171 (taxable income $45,025 = wages 59,625 − standard
		// deduction 14,600). FICA: IRS Publication 15 (2024) §9, 6.2% + 1.45%.
		{name: "2024 wages 59625 (Tax Table row 45,000-45,050)", year: 2024, in: Income{Employment: 59625},
			income: 5171, social: 4561.31, capital: zero, total: 9732.31},
		// IRS, 2024 Form 1040 Instructions, Tax Computation Worksheet Section A,
		// single, taxable income 100,525–191,950: × 24% − $6,957.50.
		// 135,400 × 0.24 − 6,957.50 = 25,538.50 → $25,539.
		{name: "2024 wages 150000 (Tax Computation Worksheet 24%)", year: 2024, in: Income{Employment: 150000},
			income: 25539, social: 11475, capital: zero},
		// Worksheet Section A, single, 191,950–243,725: × 32% − $22,313.50;
		// 235,400 × 0.32 − 22,313.50 = 53,014.50 → $53,015. OASDI capped at the
		// $168,600 wage base (SSA 2024 fact sheet); Additional Medicare Tax 0.9%
		// over $200,000 (Form 8959 line 7).
		{name: "2024 wages 250000 (32% bracket, wage base, Additional Medicare)", year: 2024, in: Income{Employment: 250000},
			income: 53015, social: 10453.20 + 3625 + 450},
		// Qualified Dividends and Capital Gain Tax Worksheet (2024 Form 1040
		// instructions): ordinary taxable 35,400 from the Tax Table (row
		// 35,400–35,450: $4,019); dividends 20,000: 11,625 at 0% up to $47,025,
		// 8,375 at 15% = 1,256.25; total 5,275.25 → $5,275.
		{name: "2024 wages 50000 + qualified dividends 20000 (QDCG worksheet)", year: 2024, in: Income{Employment: 50000, Dividends: 20000},
			income: 5275, social: 3825},
		// Schedule SE (2024): 50,000 × 92.35% = 46,175; × 15.3% = 7,064.78;
		// deduction for half (line 13) 3,532.39; taxable 50,000 − 3,532.39 −
		// 14,600 = 31,867.61, Tax Table row 31,850–31,900: $3,593.
		{name: "2024 self-employed 50000 (Schedule SE)", year: 2024, in: Income{SelfEmployment: 50000},
			income: 3593, social: 7064.78, tol: 0.01},
		// Rev. Proc. 2024-40 brackets with the OBBBA $15,750 standard deduction:
		// taxable 120,000, worksheet × 24% − $7,153.00 = $21,647.
		{name: "2025 wages 135750 (24% bracket, OBBBA standard deduction)", year: 2025, in: Income{Employment: 135750},
			income: 21647, social: 10384.88, tol: 0.01},
	})
}

func TestExamplesGB(t *testing.T) {
	runExamples(t, "gb", []example{
		// GOV.UK "Income Tax rates and Personal Allowances" 2024/25: 20% on
		// 12,571–50,270; NI Class 1 8% between £12,570 and £50,270 (HMRC Rates
		// and thresholds for employers 2024 to 2025).
		{name: "2024 wages 30000", year: 2024, in: Income{Employment: 30000},
			income: 3486, social: 1394.40, capital: zero},
		// HMRC Personal Savings Allowance factsheet, example 2: income £20,000
		// and £1,500 interest: £1,000 tax-free, £500 at 20% (= £100).
		{name: "2024 wages 20000 + interest 1500 (PSA example 2)", year: 2024, in: Income{Employment: 20000, Interest: 1500},
			income: 1486 + 100},
		// HMRC PSA factsheet, example 4: income £60,000, interest £1,100: a
		// higher-rate taxpayer gets £500, £600 at 40% (= £240).
		{name: "2024 wages 60000 + interest 1100 (PSA example 4)", year: 2024, in: Income{Employment: 60000, Interest: 1100},
			income: 7540 + 3892 + 240, social: 3016 + 194.60},
		// GOV.UK "Tax on dividends": £500 allowance, 8.75% in the basic rate
		// band; salary £12,570 uses the Personal Allowance, dividends 12,000:
		// 11,500 × 8.75% = £1,006.25.
		{name: "2024 salary 12570 + dividends 12000", year: 2024, in: Income{Employment: 12570, Dividends: 12000},
			income: 1006.25, social: zero},
		// GOV.UK Income Tax rates: Personal Allowance goes down by £1 for every
		// £2 above £100,000: 110,000 → allowance 7,570, taxable 102,430.
		{name: "2024 wages 110000 (allowance taper)", year: 2024, in: Income{Employment: 110000},
			income: 7540 + 25892, social: 3016 + 1194.60},
		// Scottish Government "Scottish Income Tax 2024 to 2025": starter 19% to
		// £14,876, basic 20% to £26,561, intermediate 21% to £43,662.
		{name: "2024 Scotland wages 30000", year: 2024, region: "SCT", in: Income{Employment: 30000},
			income: 438.14 + 2337 + 722.19, social: 1394.40},
		// GOV.UK "Self-employed National Insurance rates": Class 4 6% on profits
		// between £12,570 and £50,270 (2024 to 2025).
		{name: "2024 self-employed 30000 (Class 4)", year: 2024, in: Income{SelfEmployment: 30000},
			income: 3486, social: 1045.80},
		// GOV.UK "Capital Gains Tax rates" 2025/26: £3,000 allowance, 18% within
		// the unused basic rate band: taxable income 17,430, gains 17,000 all
		// within the remaining 20,270 of the band → £3,060.
		{name: "2025 wages 30000 + gains 20000", year: 2025, in: Income{Employment: 30000, CapitalGains: 20000},
			income: 3486, capital: 3060},
	})
}

func TestExamplesDE(t *testing.T) {
	runExamples(t, "de", []example{
		// §32a Abs. 1 EStG 2024 (BGBl. 2024 I Nr. 386): zvE 50,000 (self-employed
		// 50,036 − Sonderausgaben-Pauschbetrag 36): z = 3.2995,
		// (181.19·z + 2,397)·z + 991.21 = 10,872.68 → 10,872 €; Soli 0 (below the
		// 18,130 € Freigrenze, §3 Abs. 3 SolZG).
		{name: "2024 zvE 50000", year: 2024, in: Income{SelfEmployment: 50036},
			income: 10872, social: zero},
		// §32a 2024 zone 4: 0.42·100,000 − 10,636.31 = 31,363.69 → 31,363 €;
		// §4 SolZG: Soli ≤ 11.9% × (31,363 − 18,130) = 1,574.72 €.
		{name: "2024 zvE 100000 with Soli Milderungszone", year: 2024, in: Income{SelfEmployment: 100036},
			income: 31363 + 1574.72},
		// §32a Abs. 1 EStG ab 2025 (BGBl. 2024 I Nr. 449): zvE 40,000:
		// z = 2.2557, (176.64·z + 2,397)·z + 1,015.13 = 7,320.82 → 7,320 €.
		{name: "2025 zvE 40000", year: 2025, in: Income{SelfEmployment: 40036},
			income: 7320},
		// §32a 2025 zone 5: 0.45·300,000 − 19,246.67 = 115,753.33 → 115,753 €;
		// Soli 5.5% = 6,366.41 € (above the Milderungszone).
		{name: "2025 zvE 300000", year: 2025, in: Income{SelfEmployment: 300036},
			income: 115753 + 6366.41},
		// §20 Abs. 9, §32d Abs. 1 EStG, §4 SolZG: interest 5,000 − 1,000
		// Sparer-Pauschbetrag = 4,000 × 25% = 1,000 €, Soli 55 €.
		{name: "2024 interest 5000 (Abgeltungsteuer)", year: 2024, in: Income{Interest: 5000},
			income: zero, capital: 1055},
		// Employee shares 2024 (§158 SGB VI 9.3%, §341 SGB III 1.3%, §241/242a
		// SGB V 7.3% + 0.85%, §55 SGB XI 1.7% + 0.6%): 60,000 € below both
		// ceilings → 5,580 + 780 + 4,890 + 1,380 = 12,630 €. zvE = 60,000 −
		// 1,230 − 36 − 5,580 − (0.96·4,890 + 1,380) = 47,079 → §32a: 9,838 €.
		{name: "2024 employee 60000", year: 2024, in: Income{Employment: 60000},
			income: 9838, social: 12630},
	})
}

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

func TestExamplesNL(t *testing.T) {
	runExamples(t, "nl", []example{
		// Belastingdienst tarieven 2024 (box 1: 36,97 % tot € 75.518, of which
		// 27,65 % premies tot € 38.098), algemene heffingskorting 2024 (€ 3.362 −
		// 6,63 % boven € 24.813 = € 2.355,10) and arbeidskorting 2024
		// (€ 5.532 − 6,51 % boven € 39.958 = € 5.529,27): 40.000 × 36,97 % −
		// 7.884,37 = € 6.903,63.
		{name: "2024 wages 40000", year: 2024, in: Income{Employment: 40000},
			total: 6903.63},
		// Belastingdienst 2024: arbeidskorting € 968 + 31,433 % × (20.000 −
		// 11.491) = € 3.642,63; AHK € 3.362; 20.000 × 36,97 % − 7.004,63 =
		// € 389,37.
		{name: "2024 wages 20000", year: 2024, in: Income{Employment: 20000},
			total: 389.37},
		// Belastingdienst tarieven 2025 (35,82 % tot € 38.441, 37,48 % tot
		// € 76.817), AHK 2025 € 3.068 − 6,337 % boven € 28.406 = € 1.065,89,
		// arbeidskorting € 5.599 − 6,51 % boven € 43.071 = € 4.496,92:
		// 38.441 × 35,82 % + 21.559 × 37,48 % − 5.562,81 = € 16.287,07.
		{name: "2025 wages 60000", year: 2025, in: Income{Employment: 60000},
			total: 16287.07, social: 38441 * 0.2765},
	})
}
