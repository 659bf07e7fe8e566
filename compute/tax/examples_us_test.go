package tax

import "testing"

func TestExamplesUS(t *testing.T) { runExamples(t, "us", examplesUS) }

var examplesUS = []example{
	// IRS, 2024 Tax Table (https://www.irs.gov/pub/irs-prior/i1040tt--2024.pdf),
	// row "45,000–45,050", single column: $5,171 (taxable income $45,025 =
	// wages 59,625 − standard deduction 14,600). FICA computed by us from IRS
	// Publication 15 (2024) §9, 6.2% + 1.45%.
	{name: "2024 wages 59625 (Tax Table row 45,000-45,050)", src: table, year: 2024, in: Income{Employment: 59625},
		income: 5171, social: 4561.31, capital: zero, total: 9732.31},
	// IRS, 2024 Tax Table (Form 1040 and 1040-SR Tax and Earned Income Credit
	// Tables, https://www.irs.gov/pub/irs-prior/i1040tt--2024.pdf), single
	// column, row "12,000–12,050": $1,211 (just above the 10%/12% boundary
	// at $11,600). Taxable income 12,000 = wages 26,600 − standard
	// deduction 14,600 (Rev. Proc. 2023-34 §3.15).
	{name: "2024 wages 26600 (IRS Tax Table row 12,000-12,050)", src: table, year: 2024, in: Income{Employment: 26600},
		income: 1211},
	// IRS 2024 Tax Table (as above), single, row "47,150–47,200": $5,432, the
	// row where the 22% rate starts; taxable 47,150 = wages 61,750 − 14,600.
	{name: "2024 wages 61750 (IRS Tax Table row 47,150-47,200)", src: table, year: 2024, in: Income{Employment: 61750},
		income: 5432},
	// IRS 2024 Tax Table (as above), single, row "50,000–50,050": $6,059;
	// taxable 50,000 = wages 64,600 − 14,600.
	{name: "2024 wages 64600 (IRS Tax Table row 50,000-50,050)", src: table, year: 2024, in: Income{Employment: 64600},
		income: 6059},
	// IRS, 2025 Tax Table (Publication 1040 (2025), Tax and Earned Income
	// Credit Tables, https://www.irs.gov/pub/irs-pdf/i1040tt.pdf), single,
	// row "20,250–20,300": $2,195. Taxable 20,250 = wages 36,000 − the 2025
	// standard deduction 15,750 (P.L. 119-21 §70102).
	{name: "2025 wages 36000 (IRS Tax Table row 20,250-20,300)", src: table, year: 2025, in: Income{Employment: 36000},
		income: 2195},
	// IRS 2025 Tax Table (as above), single, row "59,550–59,600": $8,021;
	// taxable 59,550 = wages 75,300 − 15,750.
	{name: "2025 wages 75300 (IRS Tax Table row 59,550-59,600)", src: table, year: 2025, in: Income{Employment: 75300},
		income: 8021},
	// The cases below are computed by us from IRS worksheets and rates (no
	// published figure for these inputs), and are labelled so.
	//
	// Computed from the IRS 2024 Form 1040 Instructions, Tax Computation Worksheet Section A,
	// single, taxable income 100,525–191,950: × 24% − $6,957.50.
	// 135,400 × 0.24 − 6,957.50 = 25,538.50 → $25,539.
	{name: "2024 wages 150000 (Tax Computation Worksheet 24%)", year: 2024, in: Income{Employment: 150000},
		income: 25539, social: 11475, capital: zero},
	// Computed from Worksheet Section A, single, 191,950–243,725: × 32% − $22,313.50;
	// 235,400 × 0.32 − 22,313.50 = 53,014.50 → $53,015. OASDI capped at the
	// $168,600 wage base (SSA 2024 fact sheet); Additional Medicare Tax 0.9%
	// over $200,000 (Form 8959 line 7).
	{name: "2024 wages 250000 (32% bracket, wage base, Additional Medicare)", year: 2024, in: Income{Employment: 250000},
		income: 53015, social: 10453.20 + 3625 + 450},
	// Computed with the Qualified Dividends and Capital Gain Tax Worksheet
	// (2024 Form 1040 instructions): ordinary taxable 35,400 from the Tax Table (row
	// 35,400–35,450: $4,019); dividends 20,000: 11,625 at 0% up to $47,025,
	// 8,375 at 15% = 1,256.25; total 5,275.25 → $5,275.
	{name: "2024 wages 50000 + qualified dividends 20000 (QDCG worksheet)", year: 2024, in: Income{Employment: 50000, Dividends: 20000},
		income: 5275, social: 3825},
	// Computed with Schedule SE (2024): 50,000 × 92.35% = 46,175; × 15.3% = 7,064.78;
	// deduction for half (line 13) 3,532.39; taxable 50,000 − 3,532.39 −
	// 14,600 = 31,867.61, Tax Table row 31,850–31,900: $3,593.
	{name: "2024 self-employed 50000 (Schedule SE)", year: 2024, in: Income{SelfEmployment: 50000},
		income: 3593, social: 7064.78, tol: 0.01},
	// Computed from Rev. Proc. 2024-40 brackets with the OBBBA $15,750 standard deduction:
	// taxable 120,000, worksheet × 24% − $7,153.00 = $21,647.
	{name: "2025 wages 135750 (24% bracket, OBBBA standard deduction)", year: 2025, in: Income{Employment: 135750},
		income: 21647, social: 10384.88, tol: 0.01},
	// IRS, Rev. Proc. 2025-32 (https://www.irs.gov/pub/irs-drop/rp-25-32.pdf),
	// 2026 tax rate table for single filers (Table 3, p. 10), prints the tax
	// at each bracket threshold: "$41,024 plus 32% of the excess over
	// $201,775", "$58,448 plus 35% of the excess over $256,225",
	// "$192,979.25 plus 37% of the excess over $640,600". Wages are the
	// threshold plus the 2026 standard deduction of $16,100 (p. 18); above
	// $100,000 of taxable income no Tax Table applies, so the printed figure
	// is the tax (rounded to the dollar on Form 1040).
	{name: "2026 wages 217875 (Rev. Proc. 2025-32 Table 3 at $201,775)", src: table, year: 2026, in: Income{Employment: 217875},
		income: 41024},
	{name: "2026 wages 272325 (Rev. Proc. 2025-32 Table 3 at $256,225)", src: table, year: 2026, in: Income{Employment: 272325},
		income: 58448},
	{name: "2026 wages 656700 (Rev. Proc. 2025-32 Table 3 at $640,600)", src: table, year: 2026, in: Income{Employment: 656700},
		income: 192979},
	// Computed: the same 2026 wages 217,875 pay OASDI on the $184,500 wage
	// base (SSA 2026 fact sheet) 11,439.00, Medicare 1.45% 3,159.19 and
	// Additional Medicare 0.9% of 17,875 = 160.88 (Form 8959): 14,759.07.
	{name: "2026 wages 217875 FICA (wage base $184,500)", year: 2026, in: Income{Employment: 217875},
		social: 14759.07, tol: 0.01},
	// Computed from Rev. Proc. 2025-32 with the Tax Table method: wages
	// 60,000 − 16,100 = taxable 43,900, row 43,900–43,950 midpoint 43,925:
	// 1,240 + 12% × 31,525 = 5,023. FICA 7.65% = 4,590.
	{name: "2026 wages 60000 (Tax Table method)", year: 2026, in: Income{Employment: 60000},
		income: 5023, social: 4590, capital: zero},
	// Computed with the Qualified Dividends and Capital Gain Tax Worksheet:
	// ordinary taxable 50,000 − 16,100 = 33,900 (row midpoint 33,925:
	// 1,240 + 12% × 21,525 = 3,823); dividends and gains 40,000 stacked from
	// 33,900: 15,550 at 0% up to $49,450, 24,450 at 15% = 3,667.50; total
	// 7,490.50 → $7,491. No NIIT (MAGI 90,000).
	{name: "2026 wages 50000 + dividends 30000 + gains 10000 (QDCG worksheet)", year: 2026, in: Income{Employment: 50000, Dividends: 30000, CapitalGains: 10000},
		income: 7491, social: 3825},
}
