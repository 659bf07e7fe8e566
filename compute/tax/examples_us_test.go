package tax

import (
	"errors"
	"strings"
	"testing"
)

func TestExamplesUS(t *testing.T) { runExamples(t, "us", examplesUS) }

// A state with no income tax adds nothing to the federal total, whatever
// the income.
func TestUSNoTaxStates(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	in := Income{Employment: 90000, SelfEmployment: 20000, Pension: 30000, Interest: 4000, Dividends: 25000, CapitalGains: 250000}
	for _, year := range []int{2025, 2026} {
		var fed Result
		if err := Calculate(s, year, &in, "", &fed); err != nil {
			t.Fatal(err)
		}
		for _, st := range []string{"AK", "FL", "NV", "NH", "SD", "TN", "TX", "WY"} {
			var r Result
			if err := Calculate(s, year, &in, st, &r); err != nil {
				t.Fatal(err)
			}
			if r.RegionalTax != 0 || r.TotalTax != fed.TotalTax || r.MarginalRate != fed.MarginalRate {
				t.Errorf("%d %s: regional %.2f, total %.2f (federal %.2f)", year, st, r.RegionalTax, r.TotalTax, fed.TotalTax)
			}
		}
	}
}

// The comparison region is North Carolina from 2025 and none for 2024,
// which models no state.
func TestUSLocalRegion(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	if got := s.LocalRegion(2024); got != "" {
		t.Errorf("2024: %q", got)
	}
	for _, y := range []int{2025, 2026} {
		if got := s.LocalRegion(y); got != "NC" {
			t.Errorf("%d: %q", y, got)
		}
	}
	var r Result
	if err := Calculate(s, 2024, &Income{Employment: 1}, "NC", &r); !errors.Is(err, ErrRegion) {
		t.Errorf("2024 NC: %v", err)
	}
}

// Every state and the District is a region covered for 2025 and 2026 (a
// plan that starts in 2025 is taxed in its state the next year too), and a
// code that is not a state answers ErrRegion in any year.
func TestUSStateCoverage(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	all := strings.Fields("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY")
	in := Income{Employment: 50000, Pension: 20000}
	for _, st := range all {
		if !s.Covers(2025, st) {
			t.Errorf("2025 %s: not covered", st)
		}
		var r Result
		err := Calculate(s, 2026, &in, st, &r)
		if !s.Covers(2026, st) || err != nil {
			t.Errorf("2026 %s: %v", st, err)
		}
	}
	var r Result
	if s.HasRegion("PR") || !errors.Is(Calculate(s, 2025, &in, "PR", &r), ErrRegion) {
		t.Error("PR: a code the file does not know answers ErrRegion")
	}
}

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

	// States (regions). Every case is computed by us from the state's
	// statute and forms as cited in us.json (no state publishes a worked
	// return for these incomes); the arithmetic is on the line above each
	// case. Only regionalTax is checked: the federal lines are those of the
	// examples above. AGI below is federal adjusted gross income as the
	// state reads it; half the self-employment tax is deducted from it
	// where the state starts from federal AGI.
	// AK
	// no state income tax
	{name: "2025 AK employment 80,000", year: 2025, region: "AK", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 AK pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "AK", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 AK capitalGains 500,000", year: 2025, region: "AK", in: Income{CapitalGains: 500000}, regional: zero},
	// FL
	// no state income tax
	{name: "2025 FL employment 80,000", year: 2025, region: "FL", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 FL pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "FL", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 FL capitalGains 500,000", year: 2025, region: "FL", in: Income{CapitalGains: 500000}, regional: zero},
	// NV
	// no state income tax
	{name: "2025 NV employment 80,000", year: 2025, region: "NV", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 NV pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "NV", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 NV capitalGains 500,000", year: 2025, region: "NV", in: Income{CapitalGains: 500000}, regional: zero},
	// NH
	// no state income tax
	{name: "2025 NH employment 80,000", year: 2025, region: "NH", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 NH pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "NH", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 NH capitalGains 500,000", year: 2025, region: "NH", in: Income{CapitalGains: 500000}, regional: zero},
	// SD
	// no state income tax
	{name: "2025 SD employment 80,000", year: 2025, region: "SD", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 SD pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "SD", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 SD capitalGains 500,000", year: 2025, region: "SD", in: Income{CapitalGains: 500000}, regional: zero},
	// TN
	// no state income tax
	{name: "2025 TN employment 80,000", year: 2025, region: "TN", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 TN pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "TN", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 TN capitalGains 500,000", year: 2025, region: "TN", in: Income{CapitalGains: 500000}, regional: zero},
	// TX
	// no state income tax
	{name: "2025 TX employment 80,000", year: 2025, region: "TX", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 TX pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "TX", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 TX capitalGains 500,000", year: 2025, region: "TX", in: Income{CapitalGains: 500000}, regional: zero},
	// WY
	// no state income tax
	{name: "2025 WY employment 80,000", year: 2025, region: "WY", in: Income{Employment: 80000}, regional: zero},
	// no state income tax
	{name: "2026 WY pension 40,000 + interest 5,000 + dividends 20,000", year: 2026, region: "WY", in: Income{Pension: 40000, Interest: 5000, Dividends: 20000}, regional: zero},
	// no state income tax
	{name: "2025 WY capitalGains 500,000", year: 2025, region: "WY", in: Income{CapitalGains: 500000}, regional: zero},
	// WA
	// gains 300,000 − deduction 278,000 = 22,000; 7% to $1M = 1,540
	{name: "2025 WA capitalGains 300,000", year: 2025, region: "WA", in: Income{CapitalGains: 300000}, regional: 1540},
	// gains 250,000 − deduction 278,000 = 0; 7% to $1M = 0
	{name: "2025 WA employment 150,000 + capitalGains 250,000", year: 2025, region: "WA", in: Income{Employment: 150000, CapitalGains: 250000}, regional: zero},
	// gains 1,500,000 − deduction 278,000 = 1,222,000; 7% to $1M, 9.9% above = 91,978
	{name: "2025 WA capitalGains 1,500,000", year: 2025, region: "WA", in: Income{CapitalGains: 1500000}, regional: 91978},
	// 2026 with the 2025 standard deduction carried forward (its 2026 indexed
	// amount unpublished when read): 300,000 − 278,000 = 22,000 at 7% = 1,540
	{name: "2026 WA capitalGains 300,000", year: 2026, region: "WA", in: Income{CapitalGains: 300000}, regional: 1540},
	// IL
	// AGI 60,000; base less retirement income 60,000 − exemption 2,850 = 57,150 × 4.95% = 2,828.93
	{name: "2025 IL employment 60,000", year: 2025, region: "IL", in: Income{Employment: 60000}, regional: 2828.93},
	// AGI 53,000; base less retirement income 13,000 − exemption 2,850 = 10,150 × 4.95% = 502.43
	{name: "2025 IL pension 40,000 + interest 3,000 + dividends 10,000", year: 2025, region: "IL", in: Income{Pension: 40000, Interest: 3000, Dividends: 10000}, regional: 502.43},
	// AGI 260,000; base less retirement income 260,000 − exemption 0 = 260,000 × 4.95% = 12,870
	{name: "2025 IL employment 240,000 + capitalGains 20,000", year: 2025, region: "IL", in: Income{Employment: 240000, CapitalGains: 20000}, regional: 12870},
	// 2026: exemption allowance $2,925 (IL-700-T 2026)
	// AGI 60,000; base less retirement income 60,000 − exemption 2,925 = 57,075 × 4.95% = 2,825.21
	{name: "2026 IL employment 60,000", year: 2026, region: "IL", in: Income{Employment: 60000}, regional: 2825.21},
	// AGI 53,000; base less retirement income 13,000 − exemption 2,925 = 10,075 × 4.95% = 498.71
	{name: "2026 IL pension 40,000 + interest 3,000 + dividends 10,000", year: 2026, region: "IL", in: Income{Pension: 40000, Interest: 3000, Dividends: 10000}, regional: 498.71},
	// PA
	// taxable classes 60,000 (pension excluded) × 3.07% = 1,842
	{name: "2025 PA employment 60,000", year: 2025, region: "PA", in: Income{Employment: 60000}, regional: 1842},
	// taxable classes 18,000 (pension excluded) × 3.07% = 552.6
	{name: "2026 PA pension 40,000 + interest 3,000 + dividends 10,000 + capitalGains 5,000", year: 2026, region: "PA", in: Income{Pension: 40000, Interest: 3000, Dividends: 10000, CapitalGains: 5000}, regional: 552.6},
	// taxable classes 50,000 (pension excluded) × 3.07% = 1,535
	{name: "2026 PA selfEmployment 50,000", year: 2026, region: "PA", in: Income{SelfEmployment: 50000}, regional: 1535},
	// IN
	// AGI 60,000 − exemption 1,000 = 59,000 × 3% = 1,770
	{name: "2025 IN employment 60,000", year: 2025, region: "IN", in: Income{Employment: 60000}, regional: 1770},
	// AGI 60,000 − exemption 1,000 = 59,000 × 2.95% = 1,740.5
	{name: "2026 IN employment 60,000", year: 2026, region: "IN", in: Income{Employment: 60000}, regional: 1740.5},
	// AGI 40,000 − exemption 1,000 = 39,000 × 2.95% = 1,150.5
	{name: "2026 IN pension 30,000 + dividends 10,000", year: 2026, region: "IN", in: Income{Pension: 30000, Dividends: 10000}, regional: 1150.5},
	// CO
	// AGI 60,000 − deduction 15,750 = 44,250 × 4.4% = 1,947
	{name: "2025 CO employment 60,000", year: 2025, region: "CO", in: Income{Employment: 60000}, regional: 1947},
	// AGI 37,000 − deduction 16,100 = 20,900 × 4.4% = 919.6
	{name: "2026 CO pension 35,000 + interest 2,000", year: 2026, region: "CO", in: Income{Pension: 35000, Interest: 2000}, regional: 919.6},
	// AGI 320,000 − deduction 12,000 = 308,000 × 4.4% = 13,552
	{name: "2025 CO employment 320,000", year: 2025, region: "CO", in: Income{Employment: 320000}, regional: 13552},
	// AGI 320,000 − deduction 1,000 = 319,000 × 4.4% = 14,036
	{name: "2026 CO employment 320,000", year: 2026, region: "CO", in: Income{Employment: 320000}, regional: 14036},
	// NC
	// AGI 60,000 − 12,750 = 47,250 × 4.25% = 2,008.13
	{name: "2025 NC employment 60,000", year: 2025, region: "NC", in: Income{Employment: 60000}, regional: 2008.13},
	// AGI 60,000 − 12,750 = 47,250 × 3.99% = 1,885.27
	{name: "2026 NC employment 60,000", year: 2026, region: "NC", in: Income{Employment: 60000}, regional: 1885.28},
	// AGI 55,000 − 12,750 = 42,250 × 3.99% = 1,685.77
	{name: "2026 NC pension 30,000 + dividends 15,000 + capitalGains 10,000", year: 2026, region: "NC", in: Income{Pension: 30000, Dividends: 15000, CapitalGains: 10000}, regional: 1685.78},
	// AZ
	// AGI with 75% of gains 60,000 − 15,750 = 44,250 × 2.5% = 1,106.25
	{name: "2025 AZ employment 60,000", year: 2025, region: "AZ", in: Income{Employment: 60000}, regional: 1106.25},
	// AGI with 75% of gains 50,000 − 16,100 = 33,900 × 2.5% = 847.5
	{name: "2026 AZ dividends 20,000 + capitalGains 40,000", year: 2026, region: "AZ", in: Income{Dividends: 20000, CapitalGains: 40000}, regional: 847.5},
	// AGI with 75% of gains 65,000 − 15,750 = 49,250 × 2.5% = 1,231.25
	{name: "2025 AZ employment 50,000 + capitalGains 20,000", year: 2025, region: "AZ", in: Income{Employment: 50000, CapitalGains: 20000}, regional: 1231.25},
	// GA
	// AGI 60,000 − 12,000 = 48,000 × 5.19% = 2,491.2
	{name: "2025 GA employment 60,000", year: 2025, region: "GA", in: Income{Employment: 60000}, regional: 2491.2},
	// AGI 60,000 − 15,000 = 45,000 × 4.99% = 2,245.5
	{name: "2026 GA employment 60,000", year: 2026, region: "GA", in: Income{Employment: 60000}, regional: 2245.5},
	// AGI 45,000 − 15,000 = 30,000 × 4.99% = 1,497
	{name: "2026 GA pension 40,000 + interest 5,000", year: 2026, region: "GA", in: Income{Pension: 40000, Interest: 5000}, regional: 1497},
	// KY
	// AGI 60,000 − pension exclusion 0 − 3,270 = 56,730 × 4% = 2,269.2
	{name: "2025 KY employment 60,000", year: 2025, region: "KY", in: Income{Employment: 60000}, regional: 2269.2},
	// AGI 45,000 − pension exclusion 31,110 − 3,270 = 10,620 × 4% = 424.8
	{name: "2025 KY pension 40,000 + dividends 5,000", year: 2025, region: "KY", in: Income{Pension: 40000, Dividends: 5000}, regional: 424.8},
	// AGI 21,000 − pension exclusion 20,000 − 3,270 = 0 × 4% = 0
	{name: "2025 KY pension 20,000 + interest 1,000", year: 2025, region: "KY", in: Income{Pension: 20000, Interest: 1000}, regional: zero},
	// 2026: rate 3.5% (KRS 141.020(2)(b)), standard deduction $3,360 (2026
	// withholding formula), pension exclusion still $31,110.
	// AGI 60,000 − pension exclusion 0 − 3,360 = 56,640 × 3.5% = 1,982.4
	{name: "2026 KY employment 60,000", year: 2026, region: "KY", in: Income{Employment: 60000}, regional: 1982.4},
	// AGI 45,000 − pension exclusion 31,110 − 3,360 = 10,530 × 3.5% = 368.55
	{name: "2026 KY pension 40,000 + dividends 5,000", year: 2026, region: "KY", in: Income{Pension: 40000, Dividends: 5000}, regional: 368.55},
	// SE tax 50,000 × 92.35% × 15.3% = 7,064.78, half 3,532.39; AGI 46,467.61
	// − 3,360 = 43,107.61 × 3.5% = 1,508.77
	{name: "2026 KY selfEmployment 50,000", year: 2026, region: "KY", in: Income{SelfEmployment: 50000}, regional: 1508.77},
	// MS
	// income without pension 60,000 − 8,300 = 51,700; over 10,000 at 4.4% = 1,834.8
	{name: "2025 MS employment 60,000", year: 2025, region: "MS", in: Income{Employment: 60000}, regional: 1834.8},
	// income without pension 60,000 − 8,300 = 51,700; over 10,000 at 4% = 1,668
	{name: "2026 MS employment 60,000", year: 2026, region: "MS", in: Income{Employment: 60000}, regional: 1668},
	// income without pension 10,000 − 8,300 = 1,700; over 10,000 at 4% = 0
	{name: "2026 MS pension 50,000 + dividends 10,000", year: 2026, region: "MS", in: Income{Pension: 50000, Dividends: 10000}, regional: zero},
	// LA
	// AGI 60,000 − 12,500 = 47,500 × 3% = 1,425
	{name: "2025 LA employment 60,000", year: 2025, region: "LA", in: Income{Employment: 60000}, regional: 1425},
	// AGI 60,000 − 12,835 = 47,165 × 3% = 1,414.95
	{name: "2026 LA employment 60,000", year: 2026, region: "LA", in: Income{Employment: 60000}, regional: 1414.95},
	// AGI 40,000 − 12,835 = 27,165 × 3% = 814.95
	{name: "2026 LA pension 30,000 + capitalGains 10,000", year: 2026, region: "LA", in: Income{Pension: 30000, CapitalGains: 10000}, regional: 814.95},
	// UT
	// AGI 15,000 × 4.5% = 675; credit 945 − 1.3% × (AGI − 18,213) = 945; tax 0
	{name: "2025 UT employment 15,000", year: 2025, region: "UT", in: Income{Employment: 15000}, regional: zero},
	// AGI 50,000 × 4.5% = 2,250; credit 945 − 1.3% × (AGI − 18,213) = 531.77; tax 1,718.23
	{name: "2025 UT employment 50,000", year: 2025, region: "UT", in: Income{Employment: 50000}, regional: 1718.23},
	// AGI 100,000 × 4.5% = 4,500; credit 945 − 1.3% × (AGI − 18,213) = 0; tax 4,500
	{name: "2025 UT employment 100,000", year: 2025, region: "UT", in: Income{Employment: 100000}, regional: 4500},
	// 2026: 50,000 × 4.45% = 2,225; credit 6% of 16,100 = 966 − 1.3% × (50,000 − 18,213) = 552.77; tax 1,672.23
	{name: "2026 UT employment 50,000", year: 2026, region: "UT", in: Income{Employment: 50000}, regional: 1672.23},
	// IA
	// AGI 60,000 − 15,750 = 44,250 × 3.8% − credit 40 = 1,641.5
	{name: "2025 IA employment 60,000", year: 2025, region: "IA", in: Income{Employment: 60000}, regional: 1641.5},
	// AGI 60,000 − 16,100 = 43,900 × 3.8% − credit 40 = 1,628.2
	{name: "2026 IA employment 60,000", year: 2026, region: "IA", in: Income{Employment: 60000}, regional: 1628.2},
	// AGI 20,000 − 16,100 = 3,900 × 3.8% − credit 40 = 108.2
	{name: "2026 IA pension 20,000", year: 2026, region: "IA", in: Income{Pension: 20000}, regional: 108.2},
	// ID
	// AGI 15,000 − 15,750 = 0; over 4,811 at 5.3% = 0
	{name: "2025 ID employment 15,000", year: 2025, region: "ID", in: Income{Employment: 15000}, regional: zero},
	// AGI 60,000 − 15,750 = 44,250; over 4,811 at 5.3% = 2,090.27
	{name: "2025 ID employment 60,000", year: 2025, region: "ID", in: Income{Employment: 60000}, regional: 2090.27},
	// 2026: AGI 60,000 − the 2026 federal standard deduction 16,100 = 43,900; over 4,811 (2025, carried forward) at 5.3% = 2,071.72
	{name: "2026 ID employment 60,000", year: 2026, region: "ID", in: Income{Employment: 60000}, regional: 2071.72},
	// AGI 40,000 − 15,750 = 24,250; over 4,811 at 5.3% = 1,030.27
	{name: "2025 ID pension 30,000 + dividends 10,000", year: 2025, region: "ID", in: Income{Pension: 30000, Dividends: 10000}, regional: 1030.27},
	// NY
	// AGI 60,000 − 8,000 = 52,000: 8,500 at 4%, 3,200 at 4.5%, 2,200 at 5.25%, 38,100 at 5.5% = 2,695
	{name: "2025 NY employment 60,000", year: 2025, region: "NY", in: Income{Employment: 60000}, regional: 2695},
	// AGI 60,000 − 8,000 = 52,000: 8,500 at 3.9%, 3,200 at 4.4%, 2,200 at 5.15%, 38,100 at 5.4% = 2,643
	{name: "2026 NY employment 60,000", year: 2026, region: "NY", in: Income{Employment: 60000}, regional: 2643},
	// AGI 65,000 − 8,000 = 57,000: 8,500 at 3.9%, 3,200 at 4.4%, 2,200 at 5.15%, 43,100 at 5.4% = 2,913
	{name: "2026 NY pension 30,000 + interest 5,000 + dividends 10,000 + capitalGains 20,000", year: 2026, region: "NY", in: Income{Pension: 30000, Interest: 5000, Dividends: 10000, CapitalGains: 20000}, regional: 2913},
	// The supplemental tax (Tax Law §601(d); IT-201's tax computation worksheets) above $107,650 of
	// New York AGI, computed by us on the 2025 schedule. NYAGI 130,000, taxable 122,000: the schedule gives
	// 4,270.75 on 80,650 + 6% × 41,350 = 6,751.75; the 6% rate's recapture 6% × 122,000 − 6,751.75 = 568.25
	// in the part (130,000 − 107,650) / 50,000 = 0.447: 254.01, so 7,005.76.
	{name: "2025 NY employment 130,000 (supplemental tax phasing in)", year: 2025, region: "NY", in: Income{Employment: 130000}, regional: 7005.76},
	// NYAGI 200,000 is past 157,650 and taxable 192,000 is within the 6% bracket: 6% × 192,000 = 11,520.
	{name: "2025 NY employment 200,000 (all taxable income at 6%)", year: 2025, region: "NY", in: Income{Employment: 200000}, regional: 11520},
	// NYAGI 300,000, taxable 292,000 in the 6.85% bracket and NYAGI past 265,400: the schedule's 17,602.85
	// + 568.25 + the 6.85% rate's incremental benefit (6.85% − 6%) × 215,400 = 1,830.90 = 6.85% × 292,000 = 20,002.
	{name: "2025 NY employment 300,000 (all taxable income at 6.85%)", year: 2025, region: "NY", in: Income{Employment: 300000}, regional: 20002},
	// 2026 (rates 0.1 point lower below 6.85%): NYAGI 240,000, taxable 232,000: schedule 4,190.10 + 5.9% × 134,750
	// + 6.85% × 16,600 = 13,277.45; + 568.25 + (6.85% − 5.9%) × 215,400 = 2,046.30 in the part (240,000 − 215,400)
	// / 50,000 = 0.492: 1,006.78, so 14,852.48.
	{name: "2026 NY employment 240,000 (second recapture phasing in)", year: 2026, region: "NY", in: Income{Employment: 240000}, regional: 14852.48},
	// CA
	// AGI 60,000 − 5,706 = taxable 54,294; Schedule X 1,792.53 − exemption credit 153 = 1,639.53
	{name: "2025 CA employment 60,000", year: 2025, region: "CA", in: Income{Employment: 60000}, regional: 1639.53},
	// 2026, the 2025 indexed brackets, deduction and credit carried forward: as in 2025
	{name: "2026 CA employment 60,000", year: 2026, region: "CA", in: Income{Employment: 60000}, regional: 1639.53},
	// AGI 200,000 − 5,706 = taxable 194,294; Schedule X 14,507.98 − exemption credit 153 = 14,354.98
	{name: "2025 CA employment 200,000", year: 2025, region: "CA", in: Income{Employment: 200000}, regional: 14354.98},
	// AGI 1,200,000 − 5,706 = taxable 1,194,294; Schedule X 127,734.77; the exemption credit is gone above
	// 252,203 + 25 × 2,500 (§17054.1: $6 less for each $2,500 or part): 127,734.77; Mental Health Services
	// Tax 1% of 194,294 = 1,942.94
	{name: "2025 CA employment 1,200,000", year: 2025, region: "CA", in: Income{Employment: 1200000}, regional: 129677.71},
	// AGI 260,000: 7,797 over 252,203 is 4 steps of 2,500 or part, so the credit is 153 − 24 = 129;
	// taxable 254,294: Schedule X, the 200,000 case's 14,507.98 + 9.3% × 60,000 = 20,087.98; − 129 = 19,958.98
	{name: "2025 CA employment 260,000 (exemption credit reduced)", year: 2025, region: "CA", in: Income{Employment: 260000}, regional: 19958.98},
	// AGI 35,000 − 5,706 = taxable 29,294; Schedule X 535.69 − exemption credit 153 = 382.69
	{name: "2025 CA pension 30,000 + interest 5,000", year: 2025, region: "CA", in: Income{Pension: 30000, Interest: 5000}, regional: 382.69},
	// NJ
	// gross income 60,000 − exemption 1,000 = 59,000; 20,000 at 1.4%, 15,000 at 1.75%, 5,000 at 3.5%, 19,000 at 5.525% = 1,767.25
	{name: "2025 NJ employment 60,000", year: 2025, region: "NJ", in: Income{Employment: 60000}, regional: 1767.25},
	// gross income 53,000 − exemption 1,000 = 52,000; 20,000 at 1.4%, 15,000 at 1.75%, 5,000 at 3.5%, 12,000 at 5.525% = 1,380.50
	{name: "2026 NJ pension 40,000 + interest 3,000 + dividends 10,000", year: 2026, region: "NJ", in: Income{Pension: 40000, Interest: 3000, Dividends: 10000}, regional: 1380.5},
	// gross income 9,500 − exemption 1,000 = 8,500; gross income at most 10,000: no tax
	{name: "2025 NJ interest 4,000 + capitalGains 5,500", year: 2025, region: "NJ", in: Income{Interest: 4000, CapitalGains: 5500}, regional: zero},
	// gross income 600,000 − exemption 1,000 = 599,000; 20,000 at 1.4%, 15,000 at 1.75%, 5,000 at 3.5%, 35,000 at 5.525%, 425,000 at 6.37%, 99,000 at 8.97% = 38,604.05
	{name: "2026 NJ employment 600,000", year: 2026, region: "NJ", in: Income{Employment: 600000}, regional: 38604.05},
	// MA
	// AGI 60,000 − FICA deduction 2,000 − exemption 4,400 = 53,600 at 5% = 2,680
	{name: "2025 MA employment 60,000", year: 2025, region: "MA", in: Income{Employment: 60000}, regional: 2680},
	// AGI 65,000 − FICA deduction 0 − exemption 4,400 = 60,600 at 5% = 3,030
	{name: "2025 MA pension 30,000 + interest 5,000 + dividends 10,000 + capitalGains 20,000", year: 2025, region: "MA", in: Income{Pension: 30000, Interest: 5000, Dividends: 10000, CapitalGains: 20000}, regional: 3030},
	// AGI 10,000 − FICA deduction 765 − exemption 4,400 = 4,835 at 5% = 241.75; limited to 10% of AGI over 8,000 = 200
	{name: "2025 MA employment 10,000", year: 2025, region: "MA", in: Income{Employment: 10000}, regional: 200},
	// AGI 1,500,000 − FICA deduction 2,000 − exemption 4,400 = 1,493,600 at 5% = 74,680; surtax 4% of 410,450 = 16,418
	{name: "2025 MA employment 1,500,000", year: 2025, region: "MA", in: Income{Employment: 1500000}, regional: 91098},
	// 2026: surtax threshold $1,107,750. Taxable 1,500,000 − 2,000 − 4,400 =
	// 1,493,600 × 5% = 74,680; surtax 4% × 385,850 = 15,434; total 90,114
	{name: "2026 MA employment 1,500,000", year: 2026, region: "MA", in: Income{Employment: 1500000}, regional: 90114},
	// taxable 60,000 − contributions 2,000 − exemption 4,400 = 53,600 × 5% = 2,680
	{name: "2026 MA employment 60,000", year: 2026, region: "MA", in: Income{Employment: 60000}, regional: 2680},
	// VA
	// AGI 60,000 − 8,750 − 930 = 50,320; 3,000 at 2%, 2,000 at 3%, 12,000 at 5%, 33,320 at 5.75% = 2,635.90
	{name: "2025 VA employment 60,000", year: 2025, region: "VA", in: Income{Employment: 60000}, regional: 2635.9},
	// AGI 45,000 − 8,750 − 930 = 35,320; 3,000 at 2%, 2,000 at 3%, 12,000 at 5%, 18,320 at 5.75% = 1,773.40
	{name: "2026 VA pension 40,000 + dividends 5,000", year: 2026, region: "VA", in: Income{Pension: 40000, Dividends: 5000}, regional: 1773.4},
	// Virginia AGI 11,000 below 11,950: no tax
	{name: "2025 VA employment 11,000", year: 2025, region: "VA", in: Income{Employment: 11000}, regional: zero},
	// AGI 46,467.61 − 8,750 − 930 = 36,787.61; 3,000 at 2%, 2,000 at 3%, 12,000 at 5%, 19,787.61 at 5.75% = 1,857.79
	{name: "2026 VA selfEmployment 50,000", year: 2026, region: "VA", in: Income{SelfEmployment: 50000}, regional: 1857.79},
	// MI
	// income 60,000 − exemption 5,800 = 54,200 at 4.25% = 2,303.50
	{name: "2025 MI employment 60,000", year: 2025, region: "MI", in: Income{Employment: 60000}, regional: 2303.5},
	// income 42,000 − exemption 5,800 = 36,200 at 4.25% = 1,538.50
	{name: "2025 MI pension 40,000 + interest 2,000", year: 2025, region: "MI", in: Income{Pension: 40000, Interest: 2000}, regional: 1538.5},
	// income 50,000 − exemption 5,800 = 44,200 at 4.25% = 1,878.50
	{name: "2025 MI selfEmployment 50,000", year: 2025, region: "MI", in: Income{SelfEmployment: 50000}, regional: 1878.5},
	// 2026: rate 4.25%, exemption $5,900 (Form 446 2026)
	// (60,000 − 5,900) × 4.25% = 2,299.25
	{name: "2026 MI employment 60,000", year: 2026, region: "MI", in: Income{Employment: 60000}, regional: 2299.25},
	// no deduction for half the self-employment tax: (50,000 − 5,900) × 4.25% = 1,874.25
	{name: "2026 MI selfEmployment 50,000", year: 2026, region: "MI", in: Income{SelfEmployment: 50000}, regional: 1874.25},
	// OH
	// AGI 60,000; exemption 2,150; nonbusiness taxable 57,850; schedule 1,216.50 on nonbusiness income
	{name: "2025 OH employment 60,000", year: 2025, region: "OH", in: Income{Employment: 60000}, regional: 1216.5},
	// AGI 60,000; exemption 2,150; nonbusiness taxable 57,850; schedule 1,206.50 on nonbusiness income
	{name: "2026 OH employment 60,000", year: 2026, region: "OH", in: Income{Employment: 60000}, regional: 1206.5},
	// AGI 20,000; exemption 2,400; nonbusiness taxable 17,600; taxable at most 26,050: no tax
	{name: "2025 OH employment 20,000", year: 2025, region: "OH", in: Income{Employment: 20000}, regional: zero},
	// AGI 40,000; exemption 2,400; nonbusiness taxable 37,600; schedule 649.63 on nonbusiness income, less the retirement
	// income credit 200 (pension above 8,000; modified AGI less exemptions below 100,000; income received on retirement, at no set age, ORC 5747.055(B))
	{name: "2026 OH pension 30,000 + dividends 10,000", year: 2026, region: "OH", in: Income{Pension: 30000, Dividends: 10000}, regional: 449.63},
	// AGI 150,000; exemption 1,900; nonbusiness taxable 148,100; schedule 3,878.75 on nonbusiness income
	{name: "2025 OH employment 150,000", year: 2025, region: "OH", in: Income{Employment: 150000}, regional: 3878.75},
	// AGI 383,204.70; exemption 1,900; nonbusiness taxable 0; business income 383,204.70 − deduction 250,000 taxed at 3%; schedule 0 on nonbusiness income; 3% of 131,304.70 = 3,939.14
	{name: "2026 OH selfEmployment 400,000", year: 2026, region: "OH", in: Income{SelfEmployment: 400000}, regional: 3939.14},
	// MN
	// AGI 60,000 − standard deduction 14,950 = 45,050; 32,570 at 5.35%, 12,480 at 6.8% = 2,591.14
	{name: "2025 MN employment 60,000", year: 2025, region: "MN", in: Income{Employment: 60000}, regional: 2591.14},
	// AGI 300,000 − standard deduction 13,118.50 = 286,881.50; 32,570 at 5.35%, 74,420 at 6.8%, 91,640 at 7.85%, 88,251.50 at 9.85% = 22,689.57
	{name: "2025 MN employment 300,000", year: 2025, region: "MN", in: Income{Employment: 300000}, regional: 22689.57},
	// AGI 45,000 − standard deduction 14,950 = 30,050; 30,050 at 5.35% = 1,607.68
	{name: "2025 MN pension 40,000 + interest 5,000", year: 2025, region: "MN", in: Income{Pension: 40000, Interest: 5000}, regional: 1607.68},
	// AGI 1,500,000 − standard deduction 2,990 = 1,497,010; 32,570 at 5.35%, 74,420 at 6.8%, 91,640 at 7.85%, 1,298,380 at 9.85% = 141,887.23; NIIT 1% of 500,000 = 5,000
	{name: "2025 MN capitalGains 1,500,000", year: 2025, region: "MN", in: Income{CapitalGains: 1500000}, regional: 146887.23},
	// 2026 (inflation-adjusted amounts): 42,000 − 15,300 = 26,700 × 5.35% = 1,428.45
	{name: "2026 MN pension 40,000 + interest 2,000", year: 2026, region: "MN", in: Income{Pension: 40000, Interest: 2000}, regional: 1428.45},
	// standard deduction 15,300 − 3% × 93,400 − 10% × 62,200 = 6,278; taxable
	// 393,722: 1,782.09 + 5,176.16 + 7,357.02 + 9.85% × 190,572 = 33,086.61
	{name: "2026 MN employment 400,000", year: 2026, region: "MN", in: Income{Employment: 400000}, regional: 33086.61, tol: 0.01},
	// OR
	// AGI 40,000 − federal tax subtraction 2,675 (federal tax 2,675, limit 8,500) − 2,835 = 34,490; 4,400 at 4.75%, 6,700 at 6.75%, 23,390 at 8.75% = 2,707.88; exemption credit 256
	{name: "2025 OR employment 40,000", year: 2025, region: "OR", in: Income{Employment: 40000}, regional: 2451.88},
	// AGI 120,000 − federal tax subtraction 8,500 (federal tax 17,867, limit 8,500) − 2,835 = 108,665; 4,400 at 4.75%, 6,700 at 6.75%, 97,565 at 8.75% = 9,198.19
	{name: "2025 OR employment 120,000", year: 2025, region: "OR", in: Income{Employment: 120000}, regional: 9198.19},
	// AGI 132,000 − federal tax subtraction 5,100 (federal tax 20,747, limit 5,100) − 2,835 = 124,065; 4,400 at 4.75%, 6,700 at 6.75%, 112,965 at 8.75% = 10,545.69
	{name: "2025 OR employment 132,000", year: 2025, region: "OR", in: Income{Employment: 132000}, regional: 10545.69},
	// AGI 40,000 − federal tax subtraction 1,475 (federal tax 1,475, limit 8,500) − 2,835 = 35,690; 4,400 at 4.75%, 6,700 at 6.75%, 24,590 at 8.75% = 2,812.88; exemption credit 256
	{name: "2025 OR pension 30,000 + dividends 10,000", year: 2025, region: "OR", in: Income{Pension: 30000, Dividends: 10000}, regional: 2556.88},
	// 2026 (withholding formulas): federal tax 5,023 subtracted (limit 8,750);
	// 60,000 − 5,023 − 2,910 = 52,067; 4,550 at 4.75%, 6,850 at 6.75%, 40,667 at
	// 8.75% = 4,236.86 − exemption credit 263 = 3,973.86
	{name: "2026 OR employment 60,000", year: 2026, region: "OR", in: Income{Employment: 60000}, regional: 3973.86},
	// federal tax 19,934 (taxable 113,900), subtraction limited to 5,250 at AGI
	// 130,000; 130,000 − 5,250 − 2,910 = 121,840; 678.50 + 8.75% × 110,440 =
	// 10,342; no exemption credit above $100,000
	{name: "2026 OR employment 130,000", year: 2026, region: "OR", in: Income{Employment: 130000}, regional: 10342},
	// WI
	// Wisconsin income 60,000 − standard deduction 8,706 − 700 = 50,594; 14,680 at 3.5%, 35,914 at 4.4% = 2,094.02
	{name: "2025 WI employment 60,000", year: 2025, region: "WI", in: Income{Employment: 60000}, regional: 2094.02},
	// Wisconsin income 15,000 − standard deduction 13,560 − 700 = 740; 740 at 3.5% = 25.90
	{name: "2025 WI employment 15,000", year: 2025, region: "WI", in: Income{Employment: 15000}, regional: 25.9},
	// Wisconsin income 40,000 − standard deduction 11,106 − 700 = 28,194; 14,680 at 3.5%, 13,514 at 4.4% = 1,108.42
	{name: "2025 WI pension 40,000", year: 2025, region: "WI", in: Income{Pension: 40000}, regional: 1108.42},
	// Wisconsin income 70,000 − standard deduction 7,506 − 700 = 61,794; 14,680 at 3.5%, 36,450 at 4.4%, 10,664 at 5.3% = 2,682.79
	{name: "2025 WI capitalGains 100,000", year: 2025, region: "WI", in: Income{CapitalGains: 100000}, regional: 2682.79},
	// The 2026 Form 1-ES schedule A prints $17,030.62 as the tax at $332,720
	// of taxable income; wages 333,420 have no standard deduction (nil from
	// $136,453) and less the $700 exemption reach it exactly.
	{name: "2026 WI employment 333,420 (Form 1-ES 2026 schedule at $332,720)", src: table, year: 2026, region: "WI", in: Income{Employment: 333420}, regional: 17030.62},
	// standard deduction 13,960 − 12% × 39,880 = 9,174.40; taxable 60,000 − 9,174.40 − 700 =
	// 50,125.60; 528.85 + 4.4% × 35,015.60 = 2,069.54
	{name: "2026 WI employment 60,000", year: 2026, region: "WI", in: Income{Employment: 60000}, regional: 2069.54},
	// MD
	// AGI 60,000 − 3,350 − exemption 3,200 = 53,450; 1,000 at 2%, 1,000 at 3%, 1,000 at 4%, 50,450 at 4.75% = 2,486.38
	{name: "2025 MD employment 60,000", year: 2025, region: "MD", in: Income{Employment: 60000}, regional: 2486.38},
	// 2026, the 2025 standard deduction carried forward: as in 2025, 2,486.38
	{name: "2026 MD employment 60,000", year: 2026, region: "MD", in: Income{Employment: 60000}, regional: 2486.38},
	// AGI 120,000 − 3,350 − exemption 1,600 = 115,050; 1,000 at 2%, 1,000 at 3%, 1,000 at 4%, 97,000 at 4.75%, 15,050 at 5% = 5,450
	{name: "2025 MD employment 120,000", year: 2025, region: "MD", in: Income{Employment: 120000}, regional: 5450},
	// AGI 40,000 − 3,350 − exemption 3,200 = 33,450; 1,000 at 2%, 1,000 at 3%, 1,000 at 4%, 30,450 at 4.75% = 1,536.38
	{name: "2025 MD pension 35,000 + interest 5,000", year: 2025, region: "MD", in: Income{Pension: 35000, Interest: 5000}, regional: 1536.38},
	// AGI 400,000 − 3,350 − exemption 0 = 396,650; 1,000 at 2%, 1,000 at 3%, 1,000 at 4%, 97,000 at 4.75%, 25,000 at 5%, 25,000 at 5.25%, 100,000 at 5.5%, 146,650 at 5.75% = 21,192.38; capital gains surtax 2% of 100,000 = 2,000
	{name: "2025 MD employment 300,000 + capitalGains 100,000", year: 2025, region: "MD", in: Income{Employment: 300000, CapitalGains: 100000}, regional: 23192.38},
	// SC
	// AGI 60,000 − 44% of gains 0 − retirement 0 − 15,000 = 45,000; 14,270 at 3%, 27,170 at 6% = 2,058.30
	{name: "2025 SC employment 60,000", year: 2025, region: "SC", in: Income{Employment: 60000}, regional: 2058.3},
	// AGI 60,000 − 44% of gains 0 − retirement 0 − SCIAD 9,545.45 = 50,454.55; 30,000 at 1.99%, 20,454.55 at 5.21% = 1,662.68
	{name: "2026 SC employment 60,000", year: 2026, region: "SC", in: Income{Employment: 60000}, regional: 1662.68},
	// AGI 50,000 − 44% of gains 8,800 − retirement 3,000 − SCIAD 12,272.73 = 25,927.27; 25,927.27 at 1.99% = 515.95
	{name: "2026 SC pension 30,000 + capitalGains 20,000", year: 2026, region: "SC", in: Income{Pension: 30000, CapitalGains: 20000}, regional: 515.95},
	// AGI 60,000 − 44% of gains 8,800 − retirement 3,000 − 15,000 = 33,200; 14,270 at 3%, 15,370 at 6% = 1,350.30
	{name: "2025 SC pension 30,000 + dividends 10,000 + capitalGains 20,000", year: 2025, region: "SC", in: Income{Pension: 30000, Dividends: 10000, CapitalGains: 20000}, regional: 1350.3},
	// AGI 120,000 − 44% of gains 0 − retirement 0 − SCIAD 0 = 120,000; 30,000 at 1.99%, 90,000 at 5.21% = 5,286
	{name: "2026 SC employment 120,000", year: 2026, region: "SC", in: Income{Employment: 120000}, regional: 5286},
	// CT
	// federal AGI 61,500 − pension subtraction 0 = CT AGI 61,500; − exemption 0 = 61,500; 10,000 at 2%, 40,000 at 4.5%, 11,500 at 5.5% = 2,632.50; add-back and recapture 25; personal credit 7% of 2,657.50 = 186.03
	{name: "2025 CT employment 61,500", year: 2025, region: "CT", in: Income{Employment: 61500}, regional: 2471.48},
	// federal AGI 45,000 − pension subtraction 40,000 = CT AGI 5,000; − exemption 15,000 = 0; no tax
	{name: "2026 CT pension 40,000 + interest 5,000", year: 2026, region: "CT", in: Income{Pension: 40000, Interest: 5000}, regional: zero},
	// federal AGI 81,500 − pension subtraction 0 = CT AGI 81,500; − exemption 0 = 81,500; 10,000 at 2%, 40,000 at 4.5%, 31,500 at 5.5% = 3,732.50; add-back and recapture 125
	{name: "2025 CT employment 41,500 + pension 40,000", year: 2025, region: "CT", in: Income{Employment: 41500, Pension: 40000}, regional: 3857.5},
	// federal AGI 28,000 − pension subtraction 0 = CT AGI 28,000; − exemption 15,000 = 13,000; 10,000 at 2%, 3,000 at 4.5% = 335; personal credit 15% of 335 = 50.25
	{name: "2026 CT employment 28,000", year: 2026, region: "CT", in: Income{Employment: 28000}, regional: 284.75},
	// federal AGI 300,000 − pension subtraction 0 = CT AGI 300,000; − exemption 0 = 300,000; 10,000 at 2%, 40,000 at 4.5%, 50,000 at 5.5%, 100,000 at 6%, 50,000 at 6.5%, 50,000 at 6.9% = 17,450; add-back and recapture 2,300
	{name: "2025 CT employment 300,000", year: 2025, region: "CT", in: Income{Employment: 300000}, regional: 19750},
	// federal AGI 32,000 − pension subtraction 0 = CT AGI 32,000; − exemption 13,000 = 19,000; 10,000 at 2%, 9,000 at 4.5% = 605; personal credit 13% of 605 = 78.65
	{name: "2026 CT employment 32,000", year: 2026, region: "CT", in: Income{Employment: 32000}, regional: 526.35},
	// DE
	// AGI 60,000 − pension exclusion 0 − 3,250 = 56,750; 3,000 at 2.2%, 5,000 at 3.9%, 10,000 at 4.8%, 5,000 at 5.2%, 31,750 at 5.55% = 2,763.13; − personal credit 110
	{name: "2025 DE employment 60,000", year: 2025, region: "DE", in: Income{Employment: 60000}, regional: 2653.13},
	// AGI 40,000 − pension exclusion 2,000 − 3,250 = 34,750; 3,000 at 2.2%, 5,000 at 3.9%, 10,000 at 4.8%, 5,000 at 5.2%, 9,750 at 5.55% = 1,542.13; − personal credit 110
	{name: "2026 DE pension 30,000 + dividends 10,000", year: 2026, region: "DE", in: Income{Pension: 30000, Dividends: 10000}, regional: 1432.13},
	// AGI 74,348.18 − pension exclusion 0 − 3,250 = 71,098.18; 3,000 at 2.2%, 5,000 at 3.9%, 10,000 at 4.8%, 5,000 at 5.2%, 35,000 at 5.55%, 11,098.18 at 6.6% = 3,675.98; − personal credit 110
	{name: "2025 DE selfEmployment 80,000", year: 2025, region: "DE", in: Income{SelfEmployment: 80000}, regional: 3565.98},
	// KS
	// AGI 60,000 − 3,605 − 9,160 = 47,235; 23,000 at 5.2%, 24,235 at 5.58% = 2,548.31
	{name: "2025 KS employment 60,000", year: 2025, region: "KS", in: Income{Employment: 60000}, regional: 2548.31},
	// AGI 35,000 − 3,605 − 9,160 = 22,235; 22,235 at 5.2% = 1,156.22
	{name: "2026 KS pension 30,000 + interest 5,000", year: 2026, region: "KS", in: Income{Pension: 30000, Interest: 5000}, regional: 1156.22},
	// AGI 20,000 − 3,605 − 9,160 = 7,235; 7,235 at 5.2% = 376.22
	{name: "2025 KS employment 20,000", year: 2025, region: "KS", in: Income{Employment: 20000}, regional: 376.22},
	// WV
	// AGI 60,000 − 2,000 = 58,000; 10,000 at 2.22%, 15,000 at 2.96%, 15,000 at 3.33%, 18,000 at 4.44% = 1,964.70
	{name: "2025 WV employment 60,000", year: 2025, region: "WV", in: Income{Employment: 60000}, regional: 1964.7},
	// AGI 60,000 − 2,000 = 58,000; 10,000 at 2.11%, 15,000 at 2.81%, 15,000 at 3.16%, 18,000 at 4.22% = 1,866.10
	{name: "2026 WV employment 60,000", year: 2026, region: "WV", in: Income{Employment: 60000}, regional: 1866.1},
	// AGI 40,000 − 2,000 = 38,000; 10,000 at 2.11%, 15,000 at 2.81%, 13,000 at 3.16% = 1,043.30
	{name: "2026 WV pension 30,000 + capitalGains 10,000", year: 2026, region: "WV", in: Income{Pension: 30000, CapitalGains: 10000}, regional: 1043.3},
	// OK
	// AGI 60,000 − retirement exclusion 0 − 6,350 − 1,000 = 52,650; 1,000 at 0.25%, 1,500 at 0.75%, 1,250 at 1.75%, 1,150 at 2.75%, 2,300 at 3.75%, 45,450 at 4.75% = 2,312.38
	{name: "2025 OK employment 60,000", year: 2025, region: "OK", in: Income{Employment: 60000}, regional: 2312.38},
	// AGI 60,000 − retirement exclusion 0 − 6,350 − 1,000 = 52,650; 1,150 at 2.5%, 2,300 at 3.5%, 45,450 at 4.5% = 2,154.50
	{name: "2026 OK employment 60,000", year: 2026, region: "OK", in: Income{Employment: 60000}, regional: 2154.5},
	// AGI 35,000 − retirement exclusion 10,000 − 6,350 − 1,000 = 17,650; 1,150 at 2.5%, 2,300 at 3.5%, 10,450 at 4.5% = 579.50
	{name: "2026 OK pension 30,000 + dividends 5,000", year: 2026, region: "OK", in: Income{Pension: 30000, Dividends: 5000}, regional: 579.5},
	// AL
	// Form 40 line 11 is the standard deduction or the itemized deductions (Schedule A, whose line 6 is the
	// FICA tax), not both: FICA 4,590 is larger than the standard deduction 2,500 and is taken alone.
	// AGI without pension 60,000 − federal tax 5,075 − FICA 4,590 − 1,500 = 48,835; 500 at 2%, 2,500 at 4%, 45,835 at 5% = 2,401.75
	{name: "2025 AL employment 60,000", year: 2025, region: "AL", in: Income{Employment: 60000}, regional: 2401.75},
	// AGI without pension 20,000 − federal tax 3,823 − standard deduction 3,000 − 1,500 = 11,677; 500 at 2%, 2,500 at 4%, 8,677 at 5% = 543.85
	{name: "2026 AL pension 30,000 + interest 20,000", year: 2026, region: "AL", in: Income{Pension: 30000, Interest: 20000}, regional: 543.85},
	// FICA 2,295 is less than the standard deduction 2,800 ($3,000 less 8 steps of $25 above AGI 26,000), which is taken:
	// AGI without pension 30,000 − federal tax 1,475 − standard deduction 2,800 − 1,500 = 24,225; 500 at 2%, 2,500 at 4%, 21,225 at 5% = 1,171.25
	{name: "2025 AL employment 30,000", year: 2025, region: "AL", in: Income{Employment: 30000}, regional: 1171.25},
	// Retirees (computed from the statutes cited in each rule):
	// NY, 70, pension 30,000 + the taxed part of Social Security 10,000 (exempt, §612(c)(3)):
	// 30,000 − the pension exclusion 20,000 − standard deduction 8,000 = 2,000 at 4% = 80
	{name: "2025 NY retiree 70, pension 30,000 + Social Security 10,000", year: 2025, region: "NY", in: Income{Pension: 30000, SocialSecurity: 10000, Age: 70}, regional: 80},
	// GA, 67, pension 50,000 + dividends 20,000: 70,000 − exclusion 65,000 − standard deduction 12,000 = 0
	{name: "2025 GA retiree 67, pension 50,000 + dividends 20,000", year: 2025, region: "GA", in: Income{Pension: 50000, Dividends: 20000, Age: 67}, regional: zero},
	// GA, 64: no exclusion modelled before 65: 70,000 − 12,000 = 58,000 at 5.19% = 3,010.20
	{name: "2025 GA 64, pension 50,000 + dividends 20,000", year: 2025, region: "GA", in: Income{Pension: 50000, Dividends: 20000, Age: 64}, regional: 3010.20},
	// VA, 70, pension 55,000: age deduction 12,000 − (55,000 − 50,000) = 7,000 (§58.1-322.03(5)); exemptions 930 + 800
	// from 65 (§58.1-322.03(3)); 55,000 − 8,750 − 1,730 − 7,000 = 37,520;
	// 3,000 at 2%, 2,000 at 3%, 12,000 at 5%, 20,520 at 5.75% = 60 + 60 + 600 + 1,179.90 = 1,899.90
	{name: "2025 VA retiree 70, pension 55,000", year: 2025, region: "VA", in: Income{Pension: 55000, Age: 70}, regional: 1899.90},
	// VA, 70, pension 40,000 + the taxed part of Social Security 20,000 (exempt in Virginia): adjusted federal AGI
	// leaves the benefit out (§58.1-322.03(5)), so the age deduction is the whole 12,000: 40,000 − 8,750 − 1,730 −
	// 12,000 = 17,520; 3,000 at 2%, 2,000 at 3%, 12,000 at 5%, 520 at 5.75% = 60 + 60 + 600 + 29.90 = 749.90
	{name: "2025 VA retiree 70, pension 40,000 + Social Security 20,000", year: 2025, region: "VA", in: Income{Pension: 40000, SocialSecurity: 20000, Age: 70}, regional: 749.90},
	// VA, a couple of 70 and 60, pension 85,000: only one spouse qualifies, so the age deduction is his 12,000
	// less the whole joint adjusted federal AGI over 75,000 (§58.1-322.03(5); Form 760's Age Deduction
	// Worksheet divides the reduced sum in two only when both spouses claim): 12,000 − 10,000 = 2,000;
	// 85,000 − 17,500 − 1,860 − 800 − 2,000 = 62,840; 3,000 at 2%, 2,000 at 3%, 12,000 at 5%, 45,840 at 5.75%
	// = 60 + 60 + 600 + 2,635.80 = 3,355.80
	{name: "2025 VA couple 70/60, pension 85,000", year: 2025, region: "VA", in: Income{Pension: 85000, Age: 70, Joint: true, PartnerAge: 60}, regional: 3355.80},
	// the same couple at 95,000: 12,000 − 20,000 leaves no age deduction; 95,000 − 17,500 − 1,860 − 800 = 74,840;
	// 720 + 57,840 at 5.75% = 720 + 3,325.80 = 4,045.80
	{name: "2025 VA couple 70/60, pension 95,000", year: 2025, region: "VA", in: Income{Pension: 95000, Age: 70, Joint: true, PartnerAge: 60}, regional: 4045.80},
	// both of 70, pension 85,000: 2 × 12,000 − 10,000 = 14,000, 7,000 each; 85,000 − 17,500 − 1,860 − 1,600 −
	// 14,000 = 50,040; 720 + 33,040 at 5.75% = 720 + 1,899.80 = 2,619.80
	{name: "2025 VA couple 70/70, pension 85,000", year: 2025, region: "VA", in: Income{Pension: 85000, Age: 70, Joint: true, PartnerAge: 70}, regional: 2619.80},
	// the same couple at 100,000: 24,000 − 25,000 leaves none; 100,000 − 17,500 − 1,860 − 1,600 = 79,040;
	// 720 + 62,040 at 5.75% = 720 + 3,567.30 = 4,287.30
	{name: "2025 VA couple 70/70, pension 100,000", year: 2025, region: "VA", in: Income{Pension: 100000, Age: 70, Joint: true, PartnerAge: 70}, regional: 4287.30},
	// LA, couple of 66 and 68, pension 40,000: 40,000 − 2 × 12,000 − 25,000 = 0
	{name: "2025 LA retired couple, pension 40,000", year: 2025, region: "LA", in: Income{Pension: 40000, Age: 66, Joint: true, PartnerAge: 68}, regional: zero},
	// CO, 66: Colorado taxes federal taxable income (C.R.S. 39-22-104(1.7)), so the additional standard
	// deduction 2,000 and the deduction for seniors 6,000 − 6% × (105,880 − 75,000) = 4,147.20 count; the
	// benefit 15,980 is subtracted whole and the pension subtraction is 24,000 less it (DR 0104AD lines 3-4):
	// 105,880 − 15,750 − 2,000 − 4,147.20 − 15,980 − 8,020 = 59,982.80 at 4.4% = 2,639.24
	{name: "2025 CO retiree 66, pension 89,900 + Social Security 15,980", year: 2025, region: "CO", in: Income{Pension: 89900, SocialSecurity: 15980, Age: 66}, regional: 2639.24},
	// CO, 79: AGI 172,085 − 16,100 − 2,050 − (6,000 − 6% × 97,085 = 174.90) − benefit 13,685 − pension
	// min(27,600, 24,000 − 13,685) = 10,315 → 129,760.10 at 4.4% = 5,709.44
	{name: "2026 CO retiree 79, pension 27,600 + dividends 43,400 + capitalGains 80,600 + interest 6,800 + Social Security 13,685", year: 2026, region: "CO",
		in: Income{Pension: 27600, Dividends: 43400, CapitalGains: 80600, Interest: 6800, SocialSecurity: 13685, Age: 79}, regional: 5709.44},
	// OH, 77: modified AGI 83,000 (the taxed benefit is deducted, ORC 5747.01(A)(5)) − exemption 1,900 = 81,100;
	// 342 + 2.75% × 55,050 = 1,855.88, less the retirement income credit 200 (pension and IRA 49,300, above 8,000)
	// and the senior citizen credit 50, both allowed below 100,000 of modified AGI less exemptions (ORC 5747.055(B), (C), (H))
	{name: "2025 OH retiree 77, pension 49,300 + wages 14,400 + dividends 2,500 + capitalGains 16,800 + Social Security 17,425", year: 2025, region: "OH",
		in: Income{Pension: 49300, Employment: 14400, Dividends: 2500, CapitalGains: 16800, SocialSecurity: 17425, Age: 77}, regional: 1605.88},
	// OH, 69: 39,400 − 2,400 = 37,000; 332 + 2.75% × 10,950 = 633.13, less 200 and 50 = 383.13
	{name: "2026 OH retiree 69, pension 27,400 + dividends 10,200 + interest 1,800", year: 2026, region: "OH",
		in: Income{Pension: 27400, Dividends: 10200, Interest: 1800, Age: 69}, regional: 383.13},
	// OH, 69, pension 27,400 + wages 75,000: modified AGI 102,400 less 1,900 is over 100,000: neither credit;
	// 102,400 − 1,900 = 100,500: 332 + 2.75% × 74,450 = 2,379.38
	{name: "2026 OH 69, pension 27,400 + wages 75,000 (over the credits' limit)", year: 2026, region: "OH",
		in: Income{Pension: 27400, Employment: 75000, Age: 69}, regional: 2379.38},
	// NE: 32,900 − 8,600 = 24,300: 2.46% × 4,030 + 3.51% × 20,090 + 5.01% × 180 = 813.32 less the exemption credit 171 = 642.32,
	// more than the federal tax before credits, 558 (Tax Table row 17,150-17,200), which is the Nebraska tax (Form 1040N line 27,
	// Federal Tax Liability Worksheet)
	{name: "2025 NE employment 14,300 + dividends 11,600 + interest 7,000 (federal tax limit)", year: 2025, region: "NE",
		in: Income{Employment: 14300, Dividends: 11600, Interest: 7000}, regional: 558},
	// OR, joint, wages 210,000: the federal tax subtraction is capped at 8,750, the single filer's figure (ORS 316.800(1)):
	// 210,000 − 8,750 − 5,820 = 195,430; 9,100 at 4.75%, 13,700 at 6.75%, 172,630 at 8.75% = 16,462.13 (no exemption credit over 200,000)
	{name: "2026 OR couple, employment 210,000", year: 2026, region: "OR", in: Income{Employment: 210000, Joint: true, Age: 45, PartnerAge: 45}, regional: 16462.13},
	// HI
	// income other than gains and pension 60,000 − 4,400 − 1,144 = 54,456; gains 0; tax 3,029.86
	{name: "2025 HI employment 60,000", year: 2025, region: "HI", in: Income{Employment: 60000}, regional: 3029.86},
	// income other than gains and pension 60,000 − 8,000 − 1,144 = 50,856; gains 0; tax 2,756.26
	{name: "2026 HI employment 60,000", year: 2026, region: "HI", in: Income{Employment: 60000}, regional: 2756.26},
	// income other than gains and pension 10,000 − 4,400 − 1,144 = 4,456; gains 0; tax 62.38
	{name: "2025 HI pension 40,000 + interest 10,000", year: 2025, region: "HI", in: Income{Pension: 40000, Interest: 10000}, regional: 62.38},
	// income other than gains and pension 80,000 − 8,000 − 1,144 = 70,856; gains 100,000; tax 11,526.26
	{name: "2026 HI employment 80,000 + capitalGains 100,000", year: 2026, region: "HI", in: Income{Employment: 80000, CapitalGains: 100000}, regional: 11526.26},
	// RI
	// AGI 60,000 − standard deduction 10,900 − exemption 5,100 = 44,000; 44,000 at 3.75% = 1,650
	{name: "2025 RI employment 60,000", year: 2025, region: "RI", in: Income{Employment: 60000}, regional: 1650},
	// AGI 60,000 − standard deduction 11,200 − exemption 5,250 = 43,550; 43,550 at 3.75% = 1,633.13
	{name: "2026 RI employment 60,000", year: 2026, region: "RI", in: Income{Employment: 60000}, regional: 1633.13},
	// AGI 270,000 − standard deduction 4,360 − exemption 2,040 = 263,600; 79,900 at 3.75%, 101,750 at 4.75%, 81,950 at 5.99% = 12,738.18
	{name: "2025 RI employment 270,000", year: 2025, region: "RI", in: Income{Employment: 270000}, regional: 12738.18},
	// AGI 50,000 − standard deduction 11,200 − exemption 5,250 = 33,550; 33,550 at 3.75% = 1,258.13
	{name: "2026 RI pension 30,000 + dividends 10,000 + capitalGains 10,000", year: 2026, region: "RI", in: Income{Pension: 30000, Dividends: 10000, CapitalGains: 10000}, regional: 1258.13},
	// ME
	// AGI 60,000 − pension deduction 0 − standard deduction 15,000 − exemption 5,150 = 39,850; 26,800 at 5.8%, 13,050 at 6.75% = 2,435.28
	{name: "2025 ME employment 60,000", year: 2025, region: "ME", in: Income{Employment: 60000}, regional: 2435.28},
	// 2026: 60,000 − 15,000 − 5,150 = 39,850; 27,400 at 5.8%, 12,450 at 6.75% = 2,429.58 (2,429.575)
	{name: "2026 ME employment 60,000", year: 2026, region: "ME", in: Income{Employment: 60000}, regional: 2429.575, tol: 0.01},
	// 2026: 2,000,000, deductions phased out; 27,400 at 5.8%, 37,450 at 6.75%, 1,935,150 at 7.15% = 142,480.30; surcharge 2% of 1,000,000 = 20,000
	{name: "2026 ME employment 2,000,000 (surcharge)", year: 2026, region: "ME", in: Income{Employment: 2000000}, regional: 162480.3},
	// AGI 45,000 − pension deduction 40,000 − standard deduction 15,000 − exemption 5,150 = 0; no tax
	{name: "2025 ME pension 40,000 + interest 5,000", year: 2025, region: "ME", in: Income{Pension: 40000, Interest: 5000}, regional: zero},
	// AGI 150,000 − pension deduction 0 − standard deduction 5,000 − exemption 5,150 = 139,850; 26,800 at 5.8%, 36,650 at 6.75%, 76,400 at 7.15% = 9,490.88
	{name: "2025 ME employment 150,000", year: 2025, region: "ME", in: Income{Employment: 150000}, regional: 9490.88},
	// AGI 150,000 − pension deduction 36,162 − standard deduction 5,000 − exemption 5,150 = 103,688; 26,800 at 5.8%, 36,650 at 6.75%, 40,238 at 7.15% = 6,905.29
	{name: "2025 ME employment 100,000 + pension 50,000", year: 2025, region: "ME", in: Income{Employment: 100000, Pension: 50000}, regional: 6905.29},
	// NE
	// AGI 60,000 − 8,600 = 51,400; 4,030 at 2.46%, 20,090 at 3.51%, 14,750 at 5.01%, 12,530 at 5.2% = 2,194.83; − exemption credit 171
	{name: "2025 NE employment 60,000", year: 2025, region: "NE", in: Income{Employment: 60000}, regional: 2023.83},
	// AGI 40,000 − 8,600 = 31,400; 4,030 at 2.46%, 20,090 at 3.51%, 7,280 at 5.01% = 1,169.03; − exemption credit 171
	{name: "2025 NE pension 30,000 + dividends 10,000", year: 2025, region: "NE", in: Income{Pension: 30000, Dividends: 10000}, regional: 998.03},
	// AGI 12,000 − 8,600 = 3,400; 3,400 at 2.46% = 83.64; − exemption credit 171
	{name: "2025 NE employment 12,000", year: 2025, region: "NE", in: Income{Employment: 12000}, regional: zero},
	// 2026 (Form 1040N-ES): the schedule prints $1,514.58 at $39,900 of
	// taxable income. Wages 60,000 − standard deduction 8,850 = 51,150;
	// 1,514.58 + 11,250 at 4.55% = 2,026.46 − exemption credit 176 = 1,850.46
	{name: "2026 NE employment 60,000", year: 2026, region: "NE", in: Income{Employment: 60000}, regional: 1850.46},
	// AGI 32,000 − 8,850 = 23,150; 4,130 at 2.46%, 19,020 at 3.51% = 769.20 − 176 = 593.20
	{name: "2026 NE pension 30,000 + interest 2,000", year: 2026, region: "NE", in: Income{Pension: 30000, Interest: 2000}, regional: 593.2},
	// NM
	// AGI 60,000 − low- and middle-income exemption 0 − capital gain deduction 0 − 15,750 = 44,250; 5,500 at 1.5%, 11,000 at 3.2%, 17,000 at 4.3%, 10,750 at 4.7% = 1,670.75
	{name: "2025 NM employment 60,000", year: 2025, region: "NM", in: Income{Employment: 60000}, regional: 1670.75},
	// AGI 60,000 − low- and middle-income exemption 0 − capital gain deduction 0 − 16,100 = 43,900; 5,500 at 1.5%, 11,000 at 3.2%, 17,000 at 4.3%, 10,400 at 4.7% = 1,654.30
	{name: "2026 NM employment 60,000", year: 2026, region: "NM", in: Income{Employment: 60000}, regional: 1654.3},
	// AGI 30,000 − low- and middle-income exemption 1,000 − capital gain deduction 2,500 − 16,100 = 10,400; 5,500 at 1.5%, 4,900 at 3.2% = 239.30
	{name: "2026 NM pension 20,000 + capitalGains 10,000", year: 2026, region: "NM", in: Income{Pension: 20000, CapitalGains: 10000}, regional: 239.3},
	// AGI 25,000 − low- and middle-income exemption 1,750 − capital gain deduction 0 − 15,750 = 7,500; 5,500 at 1.5%, 2,000 at 3.2% = 146.50
	{name: "2025 NM employment 25,000", year: 2025, region: "NM", in: Income{Employment: 25000}, regional: 146.5},
	// ND
	// federal taxable income 44,250 − 40% of dividends and gains 0 = 44,250; no tax
	{name: "2025 ND employment 60,000", year: 2025, region: "ND", in: Income{Employment: 60000}, regional: zero},
	// federal taxable income 114,250 − 40% of dividends and gains 20,000 = 94,250; 45,775 at 1.95% = 892.61
	{name: "2025 ND employment 80,000 + dividends 10,000 + capitalGains 40,000", year: 2025, region: "ND", in: Income{Employment: 80000, Dividends: 10000, CapitalGains: 40000}, regional: 892.61},
	// federal taxable income 284,250 − 40% of dividends and gains 0 = 284,250; 196,350 at 1.95%, 39,425 at 2.5% = 4,814.45
	{name: "2025 ND employment 300,000", year: 2025, region: "ND", in: Income{Employment: 300000}, regional: 4814.45},
	// The 2026 ND-1ES rate schedule (single) prints $3,916.09 as the tax at
	// $250,400 of North Dakota taxable income: wages 266,500 less the 2026
	// federal standard deduction 16,100 reach it exactly.
	{name: "2026 ND employment 266,500 (ND-1ES 2026 schedule at $250,400)", src: table, year: 2026, region: "ND", in: Income{Employment: 266500}, regional: 3916.09},
	// federal taxable income 113,900 − 40% of dividends and gains 20,000 = 93,900; 44,325 at 1.95% = 864.34
	{name: "2026 ND employment 80,000 + dividends 10,000 + capitalGains 40,000", year: 2026, region: "ND", in: Income{Employment: 80000, Dividends: 10000, CapitalGains: 40000}, regional: 864.34},
	// federal taxable income 283,900; 200,825 at 1.95%, 33,500 at 2.5% = 4,753.59
	{name: "2026 ND employment 300,000", year: 2026, region: "ND", in: Income{Employment: 300000}, regional: 4753.59},
	// MT
	// taxable other income 44,250, taxable gains 0; 21,100 at 4.7%, 23,150 at 5.9% = 2,357.55
	{name: "2025 MT employment 60,000", year: 2025, region: "MT", in: Income{Employment: 60000}, regional: 2357.55},
	// taxable other income 43,900, taxable gains 0; 43,900 at 4.7% = 2,063.30
	{name: "2026 MT employment 60,000", year: 2026, region: "MT", in: Income{Employment: 60000}, regional: 2063.3},
	// taxable other income 23,900, taxable gains 30,000; 23,900 at 4.7% = 1,123.30; gains tax 970.40
	{name: "2026 MT employment 40,000 + capitalGains 30,000", year: 2026, region: "MT", in: Income{Employment: 40000, CapitalGains: 30000}, regional: 2093.7},
	// taxable other income 4,250, taxable gains 10,000; 4,250 at 4.7% = 199.75; gains tax 300
	{name: "2025 MT pension 20,000 + capitalGains 10,000", year: 2025, region: "MT", in: Income{Pension: 20000, CapitalGains: 10000}, regional: 499.75},
	// VT
	// AGI 60,000 − gain exclusion 0 − 7,650 − 5,300 = 47,050; 47,050 at 3.35% = 1,576.18
	{name: "2025 VT employment 60,000", year: 2025, region: "VT", in: Income{Employment: 60000}, regional: 1576.18},
	// AGI 50,000 − gain exclusion 5,000 − 7,650 − 5,300 = 32,050; 32,050 at 3.35% = 1,073.68
	{name: "2025 VT pension 30,000 + capitalGains 20,000", year: 2025, region: "VT", in: Income{Pension: 30000, CapitalGains: 20000}, regional: 1073.68},
	// AGI 150,000 − gain exclusion 0 − 7,650 − 5,300 = 137,050; 49,400 at 3.35%, 70,300 at 6.6%, 17,350 at 7.6% = 7,613.30
	{name: "2025 VT employment 150,000", year: 2025, region: "VT", in: Income{Employment: 150000}, regional: 7613.3},
	// 2026: Vermont Department of Taxes, 2026 withholding tables (Pub.
	// GB-1210): single brackets over $3,925, $54,675, $126,775, $260,225 less
	// the offset $3,925 (half the standard deduction) give tax brackets
	// 50,750 / 122,850 / 256,300; standard deduction 2 × 3,925 = 7,850;
	// exemption = withholding allowance 5,400. The tables' own add-ons agree:
	// 50,750 × 3.35% = 1,700.13 and + 72,100 × 6.6% = 6,458.73.
	// AGI 60,000 − gain exclusion 0 − 7,850 − 5,400 = 46,750; 46,750 at 3.35% = 1,566.13
	{name: "2026 VT employment 60,000", year: 2026, region: "VT", in: Income{Employment: 60000}, regional: 1566.13},
	// AGI 50,000 − gain exclusion 5,000 − 7,850 − 5,400 = 31,750; 31,750 at 3.35% = 1,063.63
	{name: "2026 VT pension 30,000 + capitalGains 20,000", year: 2026, region: "VT", in: Income{Pension: 30000, CapitalGains: 20000}, regional: 1063.63},
	// AGI 150,000 − 7,850 − 5,400 = 136,750; 50,750 at 3.35% (1,700.125),
	// 72,100 at 6.6% (4,758.60), 13,900 at 7.6% (1,056.40) = 7,515.13
	{name: "2026 VT employment 150,000", year: 2026, region: "VT", in: Income{Employment: 150000}, regional: 7515.13},
	// DC
	// AGI 60,000 − 15,000 = 45,000; 10,000 at 4%, 30,000 at 6%, 5,000 at 6.5% = 2,525
	{name: "2025 DC employment 60,000", year: 2025, region: "DC", in: Income{Employment: 60000}, regional: 2525},
	// AGI 45,000 − 15,000 = 30,000; 10,000 at 4%, 20,000 at 6% = 1,600
	{name: "2025 DC pension 40,000 + interest 5,000", year: 2025, region: "DC", in: Income{Pension: 40000, Interest: 5000}, regional: 1600},
	// AGI 300,000 − 15,000 = 285,000; 10,000 at 4%, 30,000 at 6%, 20,000 at 6.5%, 190,000 at 8.5%, 35,000 at 9.25% = 22,887.50
	{name: "2025 DC employment 300,000", year: 2025, region: "DC", in: Income{Employment: 300000}, regional: 22887.5},
	// 2026: standard deduction $16,100 (2026 D-40ES)
	// 60,000 − 16,100 = 43,900; 400 + 1,800 + 6.5% × 3,900 = 2,453.50
	{name: "2026 DC employment 60,000", year: 2026, region: "DC", in: Income{Employment: 60000}, regional: 2453.5},
	// 35,000 − 16,100 = 18,900; 400 + 6% × 8,900 = 934
	{name: "2026 DC pension 30,000 + interest 5,000", year: 2026, region: "DC", in: Income{Pension: 30000, Interest: 5000}, regional: 934},
	// MO
	// Missouri AGI (gains subtracted) 60,000 − 15,750 − 15% of federal tax 5,075 = 43,488.75; 1,313 at 2%, 1,313 at 2.5%, 1,313 at 3%, 1,313 at 3.5%, 1,313 at 4%, 1,313 at 4.5%, 34,297.75 at 4.7% = 1,868.03
	{name: "2025 MO employment 60,000", year: 2025, region: "MO", in: Income{Employment: 60000}, regional: 1868.03},
	// Missouri AGI (gains subtracted) 35,000 − 15,750 − 25% of federal tax 4,610 = 18,097.50; 1,313 at 2%, 1,313 at 2.5%, 1,313 at 3%, 1,313 at 3.5%, 1,313 at 4%, 1,313 at 4.5%, 8,906.50 at 4.7% = 674.64
	{name: "2025 MO pension 30,000 + dividends 5,000 + capitalGains 50,000", year: 2025, region: "MO", in: Income{Pension: 30000, Dividends: 5000, CapitalGains: 50000}, regional: 674.64},
	// Missouri AGI (gains subtracted) 110,000 − 15,750 − 5% of federal tax 15,655 = 93,467.25; 1,313 at 2%, 1,313 at 2.5%, 1,313 at 3%, 1,313 at 3.5%, 1,313 at 4%, 1,313 at 4.5%, 84,276.25 at 4.7% = 4,217.02
	{name: "2025 MO employment 110,000", year: 2025, region: "MO", in: Income{Employment: 110000}, regional: 4217.02},
	// Missouri AGI (gains subtracted) 24,000 − 15,750 − 35% of federal tax 828 = 7,960.20; 1,313 at 2%, 1,313 at 2.5%, 1,313 at 3%, 1,313 at 3.5%, 1,313 at 4%, 82.20 at 4.5% = 200.65
	{name: "2025 MO employment 24,000", year: 2025, region: "MO", in: Income{Employment: 24000}, regional: 200.65},
	// business income deduction 13,010.93; Missouri AGI (gains subtracted) 65,054.66 − 15,750 − 15% of federal tax 5,766 = 35,428.83; 1,313 at 2%, 1,313 at 2.5%, 1,313 at 3%, 1,313 at 3.5%, 1,313 at 4%, 1,313 at 4.5%, 26,237.83 at 4.7% = 1,489.21
	{name: "2025 MO selfEmployment 70,000", year: 2025, region: "MO", in: Income{SelfEmployment: 70000}, regional: 1489.21},
	// 2026 (withholding formula brackets): 1,348 × (2% + 2.5% + 3% + 3.5% + 4% + 4.5%) = 262.86 to $9,436.
	// AGI 60,000; federal tax 5,023 (Tax Table), 15% = 753.45 deducted;
	// taxable 60,000 − 16,100 − 753.45 = 43,146.55; 262.86 + 4.7% × 33,710.55 = 1,847.26
	{name: "2026 MO employment 60,000", year: 2026, region: "MO", in: Income{Employment: 60000}, regional: 1847.26},
	// Missouri AGI without gains 40,000; federal tax 1,423 (ordinary 13,900, row midpoint
	// 13,925; gains and dividends at 0%), 25% = 355.75; taxable 40,000 − 16,100 − 355.75 =
	// 23,544.25; 262.86 + 4.7% × 14,108.25 = 925.95
	{name: "2026 MO pension 30,000 + dividends 10,000 + capitalGains 20,000", year: 2026, region: "MO", in: Income{Pension: 30000, Dividends: 10000, CapitalGains: 20000}, regional: 925.95},
	// AR
	// net income 60,000 (half of gains, pension over 6,000) − 2,470 = 57,530; 5,600 at 2%, 4,800 at 3%, 10,400 at 3.4%, 31,130 at 3.9% = 1,823.67; − personal credit 29
	{name: "2025 AR employment 60,000", year: 2025, region: "AR", in: Income{Employment: 60000}, regional: 1794.67},
	// net income 49,000 (half of gains, pension over 6,000) − 2,470 = 46,530; 5,600 at 2%, 4,800 at 3%, 10,400 at 3.4%, 20,130 at 3.9% = 1,394.67; − personal credit 29
	{name: "2025 AR pension 40,000 + dividends 5,000 + capitalGains 20,000", year: 2025, region: "AR", in: Income{Pension: 40000, Dividends: 5000, CapitalGains: 20000}, regional: 1365.67},
	// net income 97,471 (half of gains, pension over 6,000) − 2,470 = 95,001; 3.9% of 95,001 − 369 = 3,336.04; − personal credit 29
	{name: "2025 AR employment 97,471", year: 2025, region: "AR", in: Income{Employment: 97471}, regional: 3307.04},
	// net income 200,000 (half of gains, pension over 6,000) − 2,470 = 197,530; 3.9% of 197,530 − 89 = 7,614.67; − personal credit 29
	{name: "2025 AR employment 200,000", year: 2025, region: "AR", in: Income{Employment: 200000}, regional: 7585.67},
	// 2026 (Act 1 of the 2026 First Extraordinary Session): 57,530; 5,600 at 2%, 4,800 at 3%, 10,400 at 3.4%, 31,130 at 3.7% = 1,761.41; − 29
	{name: "2026 AR employment 60,000", year: 2026, region: "AR", in: Income{Employment: 60000}, regional: 1732.41},
	// 2026: 197,530 at 3.7% = 7,308.61 − the 79.90 left of the bracket benefit; − 29
	{name: "2026 AR employment 200,000", year: 2026, region: "AR", in: Income{Employment: 200000}, regional: 7199.71},
}
