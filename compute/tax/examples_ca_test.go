package tax

import (
	"errors"
	"math"
	"testing"
)

// No CRA publication found works a full annual return through for a single
// employee, so the income tax cases are computed by hand, line by line, from the CRA's
// published forms and rate tables for the year (Schedule 1 and the Federal
// Worksheet, Form ON428, CPP and EI rate pages), as each comment says. The
// forms round each line to the cent, hence a tolerance of one or two cents.
func TestExamplesCA(t *testing.T) { runExamples(t, "ca", examplesCA) }

// The 2024 year models Ontario and Quebec only: another province answers
// ErrRegion rather than federal tax alone, and Ontario and Quebec still
// compute.
func TestCA2024Regions(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "ca")
	var r Result
	for _, rg := range []string{"AB", "BC", "NU"} {
		if err := Calculate(s, 2024, &Income{Employment: 60000}, rg, &r); !errors.Is(err, ErrRegion) {
			t.Errorf("2024 %s: %v, want ErrRegion", rg, err)
		}
	}
	for _, rg := range []string{"ON", "QC"} {
		if err := Calculate(s, 2024, &Income{Employment: 60000}, rg, &r); err != nil {
			t.Fatalf("2024 %s: %v", rg, err)
		}
		if r.RegionalTax <= 0 {
			t.Errorf("2024 %s: regional tax %.2f, want the province's tax", rg, r.RegionalTax)
		}
	}
	if err := Calculate(s, 2025, &Income{Employment: 60000}, "AB", &r); err != nil {
		t.Errorf("2025 AB: %v", err)
	}
	if got := s.LocalRegion(2024); got != "ON" {
		t.Errorf("2024 comparison region %q, want ON", got)
	}
}

// In Quebec the federal income tax is the basic federal tax (after the
// non-refundable and dividend tax credits) less the refundable abatement of
// 16.5% of it: the abatement line is 16.5% of the federal tax before it, and
// federal tax without a region has no abatement.
func TestCAQuebecAbatement(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "ca")
	for _, y := range s.Years() {
		for _, in := range []Income{{Employment: 30000}, {Employment: 150000, Dividends: 20000}, {SelfEmployment: 80000, Interest: 5000}, {Pension: 40000, CapitalGains: 30000}} {
			var r Result
			if err := Calculate(s, y, &in, "QC", &r); err != nil {
				t.Fatalf("%d QC: %v", y, err)
			}
			abated := 0.0
			for _, l := range r.Breakdown() {
				if l.Rule == "fed-qc-abatement" && l.Kind == KindCredit {
					abated -= l.Amount
				}
			}
			if basic := r.IncomeTax + abated; math.Abs(abated-0.165*basic) > 0.01 {
				t.Errorf("%d QC %+v: abatement %.2f, want 16.5%% of basic federal tax %.2f", y, in, abated, basic)
			}
			var nat Result
			if err := Calculate(s, y, &in, "", &nat); err != nil {
				t.Fatal(err)
			}
			for _, l := range nat.Breakdown() {
				if l.Rule == "fed-qc-abatement" {
					t.Errorf("%d without a region: abatement line %v", y, l)
				}
			}
		}
	}
}

var examplesCA = []example{
	// Computed from Schedule 1 2026 with the CRA's 2026 amounts (14%, the
	// 20.5% band from 58,523, basic personal amount 16,452, age amount
	// 9,208 less 15% of net income above 46,432, pension income amount up
	// to 2,000): a 70-year-old with a pension of 60,000 owes 58,523 × 14%
	// + 1,477 × 20.5% = 8,496.01 less credits (16,452 + 9,208 − 0.15 ×
	// 13,568 + 2,000) × 14% = 3,587.47: $4,908.53 of federal tax, the
	// $4,909 the CRA's figures give.
	{name: "2026 age 70 pension 60000 (age and pension income amounts, computed from Schedule 1)", src: computed, year: 2026,
		in: Income{Pension: 60000, Age: 70}, income: 4908.53, social: zero, tol: 0.01},
	// The same return in 2025 (14.5%, 20.5% from 57,375; basic personal
	// amount 16,129, age amount 9,028 above 45,522): 8,857.50 less
	// (16,129 + 9,028 − 0.15 × 14,478 + 2,000) × 14.5% = 3,622.87: $5,234.63.
	{name: "2025 age 70 pension 60000 (age and pension income amounts, computed from Schedule 1)", src: computed, year: 2025,
		in: Income{Pension: 60000, Age: 70}, income: 5234.63, social: zero, tol: 0.01},
	// At 64 neither amount applies: 8,496.01 − 2,303.28 = $6,192.73.
	{name: "2026 age 64 pension 60000 (no age amount before 65, computed)", src: computed, year: 2026,
		in: Income{Pension: 60000, Age: 64}, income: 6192.73, tol: 0.01},
	// Ontario, computed from Form ON428 2026: 53,891 × 5.05% + 6,109 ×
	// 9.15% = 3,280.47; credits (12,989 + 6,341 − 0.15 × 12,790 + 1,796) ×
	// 5.05% = 969.98: Ontario tax 2,310.49 (no surtax, no reduction), and
	// the Ontario Health Premium of $600.
	{name: "2026 Ontario age 70 pension 60000 (Ontario age and pension income amounts, computed from ON428)", src: computed, year: 2026, region: "ON",
		in: Income{Pension: 60000, Age: 70}, income: 4908.53, regional: 2310.49 + 600, tol: 0.02},
	// Authority figures: the CRA's published maximum annual contributions,
	// owed by anyone whose earnings reach the ceilings (YMPE, YAMPE, maximum
	// insurable earnings). Only socialContributions is checked here.
	// CRA, "CPP contribution rates, maximums and exemptions"
	// (https://www.canada.ca/en/revenue-agency/services/tax/businesses/topics/
	// payroll/payroll-deductions-contributions/canada-pension-plan-cpp/
	// cpp-contribution-rates-maximums-exemptions.html): 2024 maximum employee
	// contribution $3,867.50, self-employed $7,735.00; 2025 $4,034.10 and
	// $8,068.20. CRA, "Second additional CPP contribution (CPP2) rates and
	// maximums": 2024 employee $188.00, self-employed $376.00; 2025 $396.00
	// and $792.00. CRA, "EI premium rates and maximums"
	// (https://www.canada.ca/en/revenue-agency/services/tax/businesses/topics/
	// payroll/payroll-deductions-contributions/employment-insurance-ei/
	// ei-premium-rates-maximums.html): 2024 maximum employee premium
	// $1,049.12; 2025 $1,077.48 (ESDC's 2025 notice works the example "an
	// employee earns $75,000 ... will pay a maximum annual EI premium of
	// $1,077.48").
	{name: "2024 wages 100000 (CRA maximum CPP, CPP2 and EI)", src: table, year: 2024, in: Income{Employment: 100000},
		social: 3867.50 + 188 + 1049.12},
	{name: "2025 wages 100000 (CRA maximum CPP, CPP2 and EI)", src: table, year: 2025, in: Income{Employment: 100000},
		social: 4034.10 + 396 + 1077.48},
	{name: "2024 self-employed 100000 (CRA maximum self-employed CPP and CPP2)", src: table, year: 2024, in: Income{SelfEmployment: 100000},
		social: 7735 + 376},
	{name: "2025 self-employed 100000 (CRA maximum self-employed CPP and CPP2)", src: table, year: 2025, in: Income{SelfEmployment: 100000},
		social: 8068.20 + 792},
	// Computed from CRA 2024 rates (no published worked example found):
	// CPP (60,000 − 3,500) × 5.95% = 3,361.75, of which enhanced 565.00
	// (line 22215) and base 2,796.75; EI 60,000 × 1.66% = 996.00. Net and
	// taxable income 59,435: 55,867 × 15% + 3,568 × 20.5% = 9,111.49; credits
	// (15,705 + 1,433 + 2,796.75 + 996.00) × 15% = 3,139.61 → $5,971.88.
	{name: "2024 wages 60000 (computed from Schedule 1)", year: 2024, in: Income{Employment: 60000},
		income: 5971.88, social: 3361.75 + 996, capital: zero, tol: 0.01},
	// Same person in Ontario, computed from Form ON428 2024: 51,446 × 5.05% +
	// 7,989 × 9.15% = 3,329.02; credits (12,399 + 2,796.75 + 996) × 5.05% =
	// 817.68; Ontario tax 2,511.33, no surtax (below $5,554), no reduction;
	// Ontario Health Premium $600 (taxable income 48,600–72,000).
	{name: "2024 Ontario wages 60000 (computed from ON428)", year: 2024, region: "ON", in: Income{Employment: 60000},
		income: 5971.88, total: 5971.88 + 4357.75 + 2511.33 + 600, tol: 0.02},
	// Computed from CRA 2025 rates and the 27 May 2025 Ways and Means Motion
	// (14.5% for 2025): CPP 67,800 × 5.95% = 4,034.10, CPP2 9,900 × 4% =
	// 396.00, EI 65,700 × 1.64% = 1,077.48. Taxable 100,000 − 678.00 −
	// 396.00 = 98,926: 57,375 × 14.5% + 41,551 × 20.5% = 16,837.33; credits
	// (16,129 + 1,471 + 3,356.10 + 1,077.48) × 14.5% = 3,194.87 → $13,642.46.
	// Ontario (ON428 2025): 52,886 × 5.05% + 46,040 × 9.15% = 6,883.40 −
	// (12,747 + 3,356.10 + 1,077.48) × 5.05% = 6,015.78; surtax 20% ×
	// 305.78 = 61.16; health premium $750 → 6,826.94.
	{name: "2025 Ontario wages 100000 (computed from Schedule 1 and ON428)", year: 2025, region: "ON", in: Income{Employment: 100000},
		income: 13642.46, social: 5507.58, total: 13642.46 + 5507.58 + 6826.94, tol: 0.02},
	// Computed from CRA 2024 rates: wages 200,000, taxable 199,162 (after
	// 650.00 enhanced CPP and 188.00 CPP2). Basic personal amount reduced
	// on the Federal Worksheet: 15,705 − 1,549 × 25,957 / 73,547 = 15,158.31.
	// Tax 33,459.55 + 25,957 × 29% = 40,987.08 − (15,158.31 + 1,433 +
	// 3,217.50 + 1,049.12) × 15% = $40,214.14.
	{name: "2024 wages 200000 (BPA phase-out, computed from Federal Worksheet)", year: 2024, in: Income{Employment: 200000},
		income: 40214.14, social: 3867.50 + 188 + 1049.12, tol: 0.02},
	// Computed from CRA 2024 rates, line 12000 and line 40425: wages 80,000
	// + eligible dividends 5,000 (taxable amount 6,900) + capital gains
	// 10,000 (taxable 5,000); taxable income 91,062: tax 15,595.03; credits
	// (15,705 + 1,433 + 3,217.50 + 1,049.12) × 15% = 3,210.69; dividend
	// tax credit 6,900 × 15.0198% = 1,036.37 → $11,347.97.
	{name: "2024 wages + eligible dividends + gains (computed from Schedule 1)", year: 2024, in: Income{Employment: 80000, Dividends: 5000, CapitalGains: 10000},
		income: 11347.97, capital: zero, tol: 0.02},
	// Computed from CRA 2024 rates and Schedule 8: self-employed 50,000:
	// CPP 46,500 × 11.9% = 5,533.50; deduction (lines 22200 + 22215)
	// 3,231.75; credit base 2,301.75. Taxable 46,768.25 × 15% = 7,015.24 −
	// (15,705 + 2,301.75) × 15% = $4,314.23.
	{name: "2024 self-employed 50000 (computed from Schedule 8)", year: 2024, in: Income{SelfEmployment: 50000},
		income: 4314.23, social: 5533.50, tol: 0.01},
	// Authority figures for 2026: CRA, "Canada Revenue Agency announces
	// maximum pensionable earnings and contributions for 2026" (5 November
	// 2025): maximum employee CPP $4,230.45 and CPP2 $416.00, self-employed
	// $8,460.90 and $832.00; ESDC, "Important notice about maximum insurable
	// earnings for 2026" (https://www.canada.ca/en/employment-social-
	// development/programs/ei/ei-list/ei-employers/premium-reduction-program/
	// 2026-maximum-insurable-earnings.html): maximum employee EI premium
	// $1,123.07 ("if an employee earns $75,000 per year, premiums must be
	// paid only on the first $68,900").
	{name: "2026 wages 100000 (CRA maximum CPP, CPP2 and EI)", src: table, year: 2026, in: Income{Employment: 100000},
		social: 4230.45 + 416 + 1123.07},
	{name: "2026 self-employed 100000 (CRA maximum self-employed CPP and CPP2)", src: table, year: 2026, in: Income{SelfEmployment: 100000},
		social: 8460.90 + 832},
	// Computed from the CRA 2026 indexation table (brackets $58,523 …,
	// basic personal amount $16,452, Canada employment amount $1,501) and
	// the 14% lowest rate: CPP 56,500 × 5.95% = 3,361.75 (enhanced 565.00,
	// base 2,796.75), EI 60,000 × 1.63% = 978.00. Taxable 59,435: 58,523 ×
	// 14% + 912 × 20.5% = 8,380.18 − (16,452 + 1,501 + 2,796.75 + 978.00) ×
	// 14% = 3,041.89 → $5,338.30.
	{name: "2026 wages 60000 (computed from Schedule 1)", year: 2026, in: Income{Employment: 60000},
		income: 5338.30, social: 3361.75 + 978, capital: zero, tol: 0.01},
	// Computed for Ontario 2026 (brackets $53,891 and $107,785, basic
	// personal amount $12,989, surtax over $5,818): CPP 4,230.45 (enhanced
	// 711.00), CPP2 416.00, EI 1,123.07; taxable 98,873. Federal 16,464.97 −
	// (16,452 + 1,501 + 3,519.45 + 1,123.07) × 14% = 13,301.60. Ontario
	// 2,721.50 + 44,982 × 9.15% = 6,837.35 − (12,989 + 3,519.45 +
	// 1,123.07) × 5.05% = 5,946.96; surtax 20% × 128.96 = 25.79; health
	// premium $750 → 6,722.75.
	{name: "2026 Ontario wages 100000 (computed from Schedule 1 and ON428)", year: 2026, region: "ON", in: Income{Employment: 100000},
		income: 13301.60, total: 13301.60 + 5769.52 + 6722.75, tol: 0.02},
	// Computed for 2026: wages 80,000, eligible dividends 5,000 (taxable
	// 6,900), capital gains 10,000 (taxable 5,000); CPP2 216.00; taxable
	// income 90,973: federal 14,845.47 − 3,163.37 − dividend credit 6,900 ×
	// 15.0198% = 1,036.37 → $10,645.73.
	{name: "2026 wages + eligible dividends + gains (computed from Schedule 1)", year: 2026, in: Income{Employment: 80000, Dividends: 5000, CapitalGains: 10000},
		income: 10645.73, capital: zero, tol: 0.02},
	// Provinces and territories other than Ontario (2025 and 2026), each
	// computed independently from the province's form 428 schedule (rates
	// and thresholds as on the CRA rates page, basic personal amount and
	// CPP/EI credits at the first rate, eligible dividend tax credit capped
	// at the provincial tax on the grossed-up dividends), on top of the
	// federal Schedule 1 figures. No CRA or provincial publication prints a
	// full return for these incomes, so all are computed.
	// Computed from the 2025 Alberta schedule (AB428: first rate 8%, basic
	// personal amount $22,323): wages 60,000; taxable income 59,435.00; AB tax
	// on it 4,754.80 less credits → 2,666.50; federal 5,641.47; CPP, CPP2 and EI
	// 4,345.75.
	{name: "2025 Alberta wages 60,000 (computed from AB428)", year: 2025, region: "AB", in: Income{Employment: 60000},
		income: 5641.47, total: 12653.72, tol: 0.03},
	// Computed from the 2026 Alberta schedule (AB428: first rate 8%, basic
	// personal amount $22,769): wages 100,000; taxable income 98,873.00; AB tax
	// on it 8,663.30 less credits → 6,470.38; federal 13,301.60; CPP, CPP2 and
	// EI 5,769.52.
	{name: "2026 Alberta wages 100,000 (computed from AB428)", year: 2026, region: "AB", in: Income{Employment: 100000},
		income: 13301.60, total: 25541.50, tol: 0.03},
	// Computed from the 2026 Alberta schedule (AB428: first rate 8%, basic
	// personal amount $22,769, dividend tax credit 8.12%): wages 250,000 +
	// eligible dividends 20,000 (taxable amount 27,600); taxable income
	// 276,473.00; AB tax on it 30,077.80 less credits → 25,643.76; federal
	// 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Alberta wages 250,000 + eligible dividends 20,000 (computed from AB428)", year: 2026, region: "AB", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 89543.80, tol: 0.03},
	// Computed from the 2025 British Columbia schedule (BC428: first rate 5.06%,
	// basic personal amount $12,932): wages 60,000; taxable income 59,435.00; BC
	// tax on it 3,275.53 less credits → 2,429.86; federal 5,641.47; CPP, CPP2
	// and EI 4,345.75.
	{name: "2025 British Columbia wages 60,000 (computed from BC428)", year: 2025, region: "BC", in: Income{Employment: 60000},
		income: 5641.47, total: 12417.08, tol: 0.03},
	// Computed from the 2026 British Columbia schedule (BC428: first rate 5.6%,
	// basic personal amount $13,216): wages 100,000; taxable income 98,873.00;
	// BC tax on it 6,555.60 less credits → 5,555.52; federal 13,301.60; CPP,
	// CPP2 and EI 5,769.52.
	{name: "2026 British Columbia wages 100,000 (computed from BC428)", year: 2026, region: "BC", in: Income{Employment: 100000},
		income: 13301.60, total: 24626.64, tol: 0.03},
	// Computed from the 2026 British Columbia schedule (BC428: first rate 5.6%,
	// basic personal amount $13,216, dividend tax credit 12%): wages 250,000 +
	// eligible dividends 20,000 (taxable amount 27,600); taxable income
	// 276,473.00; BC tax on it 33,520.83 less credits → 29,208.75; federal
	// 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 British Columbia wages 250,000 + eligible dividends 20,000 (computed from BC428)", year: 2026, region: "BC", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 93108.79, tol: 0.03},
	// Computed from the 2026 British Columbia schedule (BC428: first rate 5.6%,
	// basic personal amount $13,216): wages 30,000; taxable income 29,735.00; BC
	// tax on it 1,665.16 less credits and the B.C. tax reduction → 282.51;
	// federal 1,397.38; CPP, CPP2 and EI 2,065.75.
	{name: "2026 British Columbia wages 30,000 (computed from BC428)", year: 2026, region: "BC", in: Income{Employment: 30000},
		income: 1397.38, total: 3745.64, tol: 0.03},
	// Computed from the 2025 Saskatchewan schedule (SK428: first rate 10.5%,
	// basic personal amount $19,491): wages 60,000; taxable income 59,435.00; SK
	// tax on it 6,360.11 less credits → 3,916.58; federal 5,641.47; CPP, CPP2
	// and EI 4,345.75.
	{name: "2025 Saskatchewan wages 60,000 (computed from SK428)", year: 2025, region: "SK", in: Income{Employment: 60000},
		income: 5641.47, total: 13903.80, tol: 0.03},
	// Computed from the 2026 Saskatchewan schedule (SK428: first rate 10.5%,
	// basic personal amount $20,381): wages 100,000; taxable income 98,873.00;
	// SK tax on it 11,268.49 less credits → 8,641.02; federal 13,301.60; CPP,
	// CPP2 and EI 5,769.52.
	{name: "2026 Saskatchewan wages 100,000 (computed from SK428)", year: 2026, region: "SK", in: Income{Employment: 100000},
		income: 13301.60, total: 27712.13, tol: 0.03},
	// Computed from the 2026 Saskatchewan schedule (SK428: first rate 10.5%,
	// basic personal amount $20,381, dividend tax credit 11%): wages 250,000 +
	// eligible dividends 20,000 (taxable amount 27,600); taxable income
	// 276,473.00; SK tax on it 35,881.85 less credits → 30,218.38; federal
	// 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Saskatchewan wages 250,000 + eligible dividends 20,000 (computed from SK428)", year: 2026, region: "SK", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 94118.42, tol: 0.03},
	// Computed from the 2025 Manitoba schedule (MB428: first rate 10.8%, basic
	// personal amount $15,780): wages 60,000; taxable income 59,435.00; MB tax
	// on it 6,661.46 less credits → 4,548.90; federal 5,641.47; CPP, CPP2 and EI
	// 4,345.75.
	{name: "2025 Manitoba wages 60,000 (computed from MB428)", year: 2025, region: "MB", in: Income{Employment: 60000},
		income: 5641.47, total: 14536.12, tol: 0.03},
	// Computed from the 2026 Manitoba schedule (MB428: first rate 10.8%, basic
	// personal amount $15,780): wages 100,000; taxable income 98,873.00; MB tax
	// on it 11,689.81 less credits → 9,484.18; federal 13,301.60; CPP, CPP2 and
	// EI 5,769.52.
	{name: "2026 Manitoba wages 100,000 (computed from MB428)", year: 2026, region: "MB", in: Income{Employment: 100000},
		income: 13301.60, total: 28555.29, tol: 0.03},
	// Computed from the 2026 Manitoba schedule (MB428: first rate 10.8%, basic
	// personal amount $15,780, dividend tax credit 8%): wages 250,000 + eligible
	// dividends 20,000 (taxable amount 27,600); taxable income 276,473.00; MB
	// tax on it 42,539.80 less credits (basic personal amount reduced above
	// $200,000) → 38,777.81; federal 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Manitoba wages 250,000 + eligible dividends 20,000 (computed from MB428)", year: 2026, region: "MB", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 102677.85, tol: 0.03},
	// Computed from the 2026 Manitoba schedule (MB428: first rate 10.8%, basic
	// personal amount $15,780): wages 330,000; taxable income 328,873.00; MB tax
	// on it 51,657.40 less credits (basic personal amount reduced above
	// $200,000) → 50,549.92; federal 79,567.99; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Manitoba wages 330,000 (computed from MB428)", year: 2026, region: "MB", in: Income{Employment: 330000},
		income: 79567.99, total: 135887.43, tol: 0.03},
	// Computed from the 2025 New Brunswick schedule (NB428: first rate 9.4%,
	// basic personal amount $13,396): wages 60,000; taxable income 59,435.00; NB
	// tax on it 5,960.82 less credits → 4,346.21; federal 5,641.47; CPP, CPP2
	// and EI 4,345.75.
	{name: "2025 New Brunswick wages 60,000 (computed from NB428)", year: 2025, region: "NB", in: Income{Employment: 60000},
		income: 5641.47, total: 14333.43, tol: 0.03},
	// Computed from the 2026 New Brunswick schedule (NB428: first rate 9.4%,
	// basic personal amount $13,664): wages 100,000; taxable income 98,873.00;
	// NB tax on it 11,434.90 less credits → 9,714.09; federal 13,301.60; CPP,
	// CPP2 and EI 5,769.52.
	{name: "2026 New Brunswick wages 100,000 (computed from NB428)", year: 2026, region: "NB", in: Income{Employment: 100000},
		income: 13301.60, total: 28785.21, tol: 0.03},
	// Computed from the 2026 New Brunswick schedule (NB428: first rate 9.4%,
	// basic personal amount $13,664, dividend tax credit 14%): wages 250,000 +
	// eligible dividends 20,000 (taxable amount 27,600); taxable income
	// 276,473.00; NB tax on it 42,626.46 less credits → 37,041.65; federal
	// 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 New Brunswick wages 250,000 + eligible dividends 20,000 (computed from NB428)", year: 2026, region: "NB", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 100941.69, tol: 0.03},
	// Computed from the 2025 Nova Scotia schedule (NS428: first rate 8.79%,
	// basic personal amount $11,744): wages 60,000; taxable income 59,435.00; NS
	// tax on it 7,006.30 less credits → 5,641.68; federal 5,641.47; CPP, CPP2
	// and EI 4,345.75.
	{name: "2025 Nova Scotia wages 60,000 (computed from NS428)", year: 2025, region: "NS", in: Income{Employment: 60000},
		income: 5641.47, total: 15628.89, tol: 0.03},
	// Computed from the 2026 Nova Scotia schedule (NS428: first rate 8.79%,
	// basic personal amount $11,932): wages 100,000; taxable income 98,873.00;
	// NS tax on it 13,518.68 less credits → 12,061.78; federal 13,301.60; CPP,
	// CPP2 and EI 5,769.52.
	{name: "2026 Nova Scotia wages 100,000 (computed from NS428)", year: 2026, region: "NS", in: Income{Employment: 100000},
		income: 13301.60, total: 31132.89, tol: 0.03},
	// Computed from the 2026 Nova Scotia schedule (NS428: first rate 8.79%,
	// basic personal amount $11,932, dividend tax credit 8.85%): wages 250,000 +
	// eligible dividends 20,000 (taxable amount 27,600); taxable income
	// 276,473.00; NS tax on it 48,775.89 less credits → 44,876.39; federal
	// 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Nova Scotia wages 250,000 + eligible dividends 20,000 (computed from NS428)", year: 2026, region: "NS", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 108776.43, tol: 0.03},
	// Computed from the 2025 Prince Edward Island schedule (PE428: first rate
	// 9.5%, basic personal amount $14,650): wages 60,000; taxable income
	// 59,435.00; PE tax on it 6,682.77 less credits → 4,931.85; federal
	// 5,641.47; CPP, CPP2 and EI 4,345.75.
	{name: "2025 Prince Edward Island wages 60,000 (computed from PE428)", year: 2025, region: "PE", in: Income{Employment: 60000},
		income: 5641.47, total: 14919.07, tol: 0.03},
	// Computed from the 2026 Prince Edward Island schedule (PE428: first rate
	// 9.5%, basic personal amount $15,000): wages 100,000; taxable income
	// 98,873.00; PE tax on it 13,005.81 less credits → 11,139.77; federal
	// 13,301.60; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Prince Edward Island wages 100,000 (computed from PE428)", year: 2026, region: "PE", in: Income{Employment: 100000},
		income: 13301.60, total: 30210.89, tol: 0.03},
	// Computed from the 2026 Prince Edward Island schedule (PE428: first rate
	// 9.5%, basic personal amount $15,000, dividend tax credit 10.5%): wages
	// 250,000 + eligible dividends 20,000 (taxable amount 27,600); taxable
	// income 276,473.00; PE tax on it 46,069.43 less credits → 41,305.39;
	// federal 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Prince Edward Island wages 250,000 + eligible dividends 20,000 (computed from PE428)", year: 2026, region: "PE", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 105205.44, tol: 0.03},
	// Computed from the 2025 Newfoundland and Labrador schedule (NL428: first
	// rate 8.7%, basic personal amount $11,067): wages 60,000; taxable income
	// 59,435.00; NL tax on it 6,054.94 less credits → 4,763.18; federal
	// 5,641.47; CPP, CPP2 and EI 4,345.75.
	{name: "2025 Newfoundland and Labrador wages 60,000 (computed from NL428)", year: 2025, region: "NL", in: Income{Employment: 60000},
		income: 5641.47, total: 14750.40, tol: 0.03},
	// Computed from the 2026 Newfoundland and Labrador schedule (NL428: first
	// rate 8.7%, basic personal amount $11,188): wages 100,000; taxable income
	// 98,873.00; NL tax on it 11,869.01 less credits → 10,491.75; federal
	// 13,301.60; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Newfoundland and Labrador wages 100,000 (computed from NL428)", year: 2026, region: "NL", in: Income{Employment: 100000},
		income: 13301.60, total: 29562.87, tol: 0.03},
	// Computed from the 2026 Newfoundland and Labrador schedule (NL428: first
	// rate 8.7%, basic personal amount $11,188, dividend tax credit 6.3%): wages
	// 250,000 + eligible dividends 20,000 (taxable amount 27,600); taxable
	// income 276,473.00; NL tax on it 43,331.37 less credits → 40,215.31;
	// federal 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Newfoundland and Labrador wages 250,000 + eligible dividends 20,000 (computed from NL428)", year: 2026, region: "NL", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 104115.36, tol: 0.03},
	// Computed from the 2025 Yukon schedule (YT428: first rate 6.4%, basic
	// personal amount the federal amount): wages 60,000; taxable income
	// 59,435.00; YT tax on it 3,857.40 less credits → 2,583.18; federal
	// 5,641.47; CPP, CPP2 and EI 4,345.75.
	{name: "2025 Yukon wages 60,000 (computed from YT428)", year: 2025, region: "YT", in: Income{Employment: 60000},
		income: 5641.47, total: 12570.39, tol: 0.03},
	// Computed from the 2026 Yukon schedule (YT428: first rate 6.4%, basic
	// personal amount the federal amount): wages 100,000; taxable income
	// 98,873.00; YT tax on it 7,376.97 less credits → 6,026.92; federal
	// 13,301.60; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Yukon wages 100,000 (computed from YT428)", year: 2026, region: "YT", in: Income{Employment: 100000},
		income: 13301.60, total: 25098.04, tol: 0.03},
	// Computed from the 2026 Yukon schedule (YT428: first rate 6.4%, basic
	// personal amount the federal amount, dividend tax credit 12.02%): wages
	// 250,000 + eligible dividends 20,000 (taxable amount 27,600); taxable
	// income 276,473.00; YT tax on it 28,195.73 less credits (basic personal
	// amount reduced as the federal one) → 23,632.03; federal 58,130.52; CPP,
	// CPP2 and EI 5,769.52.
	{name: "2026 Yukon wages 250,000 + eligible dividends 20,000 (computed from YT428)", year: 2026, region: "YT", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 87532.08, tol: 0.03},
	// Computed from the 2026 Yukon schedule (YT428: first rate 6.4%, basic
	// personal amount the federal amount): wages 200,000; taxable income
	// 198,873.00; YT tax on it 18,262.93 less credits (basic personal amount
	// reduced as the federal one) → 16,936.39; federal 38,876.54; CPP, CPP2 and
	// EI 5,769.52.
	{name: "2026 Yukon wages 200,000 (computed from YT428)", year: 2026, region: "YT", in: Income{Employment: 200000},
		income: 38876.54, total: 61582.45, tol: 0.03},
	// Computed from the 2025 Northwest Territories schedule (NT428: first rate
	// 5.9%, basic personal amount $17,842): wages 60,000; taxable income
	// 59,435.00; NT tax on it 3,708.38 less credits → 2,432.64; federal
	// 5,641.47; CPP, CPP2 and EI 4,345.75.
	{name: "2025 Northwest Territories wages 60,000 (computed from NT428)", year: 2025, region: "NT", in: Income{Employment: 60000},
		income: 5641.47, total: 12419.86, tol: 0.03},
	// Computed from the 2026 Northwest Territories schedule (NT428: first rate
	// 5.9%, basic personal amount $18,199): wages 100,000; taxable income
	// 98,873.00; NT tax on it 7,072.00 less credits → 5,724.35; federal
	// 13,301.60; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Northwest Territories wages 100,000 (computed from NT428)", year: 2026, region: "NT", in: Income{Employment: 100000},
		income: 13301.60, total: 24795.46, tol: 0.03},
	// Computed from the 2026 Northwest Territories schedule (NT428: first rate
	// 5.9%, basic personal amount $18,199, dividend tax credit 11.5%): wages
	// 250,000 + eligible dividends 20,000 (taxable amount 27,600); taxable
	// income 276,473.00; NT tax on it 30,408.65 less credits → 25,887.00;
	// federal 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Northwest Territories wages 250,000 + eligible dividends 20,000 (computed from NT428)", year: 2026, region: "NT", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 89787.04, tol: 0.03},
	// Computed from the 2025 Nunavut schedule (NU428: first rate 4%, basic
	// personal amount $19,274): wages 60,000; taxable income 59,435.00; NU tax
	// on it 2,519.24 less credits → 1,597.05; federal 5,641.47; CPP, CPP2 and EI
	// 4,345.75.
	{name: "2025 Nunavut wages 60,000 (computed from NU428)", year: 2025, region: "NU", in: Income{Employment: 60000},
		income: 5641.47, total: 11584.27, tol: 0.03},
	// Computed from the 2026 Nunavut schedule (NU428: first rate 4%, basic
	// personal amount $19,659): wages 100,000; taxable income 98,873.00; NU tax
	// on it 5,247.08 less credits → 4,275.02; federal 13,301.60; CPP, CPP2 and
	// EI 5,769.52.
	{name: "2026 Nunavut wages 100,000 (computed from NU428)", year: 2026, region: "NU", in: Income{Employment: 100000},
		income: 13301.60, total: 23346.14, tol: 0.03},
	// Computed from the 2026 Nunavut schedule (NU428: first rate 4%, basic
	// personal amount $19,659, dividend tax credit 5.51%): wages 250,000 +
	// eligible dividends 20,000 (taxable amount 27,600); taxable income
	// 276,473.00; NU tax on it 23,352.35 less credits → 20,859.53; federal
	// 58,130.52; CPP, CPP2 and EI 5,769.52.
	{name: "2026 Nunavut wages 250,000 + eligible dividends 20,000 (computed from NU428)", year: 2026, region: "NU", in: Income{Employment: 250000, Dividends: 20000},
		income: 58130.52, total: 84759.57, tol: 0.03},
	// Quebec (region QC): QPP, QPIP and EI at the Quebec rate instead of
	// CPP and EI; federal tax less the refundable Quebec abatement (16.5% of
	// basic federal tax, CRA line 44000); Quebec tax from the TP-1 schedule.
	//
	// Authority figures: Revenu Québec, "Maximum Pensionable Earnings and
	// Québec Pension Plan Contribution Rate" (employee maximum $4,160.00 in
	// 2024, $4,339.20 in 2025; second additional contribution $188 and $396)
	// and "Maximum Insurable Earnings and the Québec Parental Insurance Plan
	// Premium Rate" (employee maximum $464.36 in 2024, $484.12 in 2025);
	// CRA/ESDC EI maximum for workers in Quebec ($834.24 in 2024, $860.67 in
	// 2025). Wages of 100,000 exceed every ceiling (QPIP $94,000 and
	// $98,000). Only socialContributions is checked.
	{name: "2024 Quebec wages 100000 (maximum QPP, QPP2, EI and QPIP)", src: table, year: 2024, region: "QC", in: Income{Employment: 100000},
		social: 4160 + 188 + 834.24 + 464.36},
	{name: "2025 Quebec wages 100000 (maximum QPP, QPP2, EI and QPIP)", src: table, year: 2025, region: "QC", in: Income{Employment: 100000},
		social: 4339.20 + 396 + 860.67 + 484.12},
	// 2026 maxima computed from the announced rates: QPP 71,100 × 6.30% =
	// 4,479.30 (base 5.30% + 1%, Québec fall 2025 update), QPP2 10,400 × 4% =
	// 416.00, QPIP 103,000 × 0.430% = 442.90; EI $895.70 is ESDC's printed
	// maximum for workers in Quebec (68,900 × 1.30%).
	{name: "2026 Quebec wages 110000 (maximum QPP, QPP2, EI and QPIP)", year: 2026, region: "QC", in: Income{Employment: 110000},
		social: 4479.30 + 416 + 895.70 + 442.90},
	// Computed for Quebec 2024, wages 60,000: QPP 56,500 × 6.4% = 3,616.00
	// (enhanced 1%: 565.00, base 3,051.00), EI 60,000 × 1.32% = 792.00, QPIP
	// 60,000 × 0.494% = 296.40. Federal: taxable 59,435: 55,867 × 15% +
	// 3,568 × 20.5% = 9,111.49 − (15,705 + 1,433 + 3,051 + 792 + 296.40) ×
	// 15% = 3,191.61 → basic federal tax 5,919.88, less the abatement 16.5%
	// (976.78) → 4,943.10. Quebec: 60,000 − deduction for workers 1,380 −
	// 565 = 58,055: 51,780 × 14% + 6,275 × 19% = 8,441.45 − 18,056 × 14% =
	// 2,527.84 → 5,913.61.
	{name: "2024 Quebec wages 60000 (computed from Schedule 1 and TP-1)", year: 2024, region: "QC", in: Income{Employment: 60000},
		income: 4943.10, social: 4704.40, regional: 5913.61, total: 15561.11, tol: 0.02},
	// Computed for Quebec 2025, wages 60,000: QPP 3,616.00, EI 60,000 ×
	// 1.31% = 786.00, QPIP 296.40. Federal: 57,375 × 14.5% + 2,060 × 20.5%
	// = 8,741.68 − (16,129 + 1,471 + 3,051 + 786 + 296.40) × 14.5% =
	// 3,151.34 → 5,590.33 × (1 − 16.5%) = 4,667.93. Quebec: 60,000 − 1,420 −
	// 565 = 58,015: 53,255 × 14% + 4,760 × 19% = 8,360.10 − 18,571 × 14% =
	// 2,599.94 → 5,760.16.
	{name: "2025 Quebec wages 60000 (computed from Schedule 1 and TP-1)", year: 2025, region: "QC", in: Income{Employment: 60000},
		income: 4667.93, social: 4698.40, regional: 5760.16, tol: 0.02},
	// Computed for Quebec 2025, self-employed 50,000: QPP 46,500 × 12.8% =
	// 5,952.00, QPIP 50,000 × 0.878% = 439.00. Federal deduction: half the
	// QPP plus the enhanced part of the other half, 2,976 + 465 = 3,441, and
	// the QPIP above the employee rate, 50,000 × 0.384% = 192 (lines 22200,
	// 22215, 22300); taxable 46,367 × 14.5% = 6,723.22 − (16,129 + 46,500 ×
	// 5.4% = 2,511 + 50,000 × 0.494% = 247) × 14.5% = 2,738.62 → 3,984.60 ×
	// 83.5% = 3,327.14. Quebec: 50,000 − 1,420 − 3,633 = 44,947 × 14% =
	// 6,292.58 − 2,599.94 = 3,692.64.
	{name: "2025 Quebec self-employed 50000 (computed from Schedule 1, TP-1 and LE-35)", year: 2025, region: "QC", in: Income{SelfEmployment: 50000},
		income: 3327.14, social: 6391, regional: 3692.64, tol: 0.02},
	// Computed for Quebec 2026, wages 100,000: QPP 71,100 × 6.3% = 4,479.30
	// (enhanced 711.00, base 3,768.30), QPP2 416.00, EI 895.70, QPIP 100,000
	// × 0.43% = 430.00. Federal: taxable 98,873: 58,523 × 14% + 40,350 ×
	// 20.5% = 16,464.97 − (16,452 + 1,501 + 3,768.30 + 895.70 + 430) × 14% =
	// 3,226.58 → 13,238.39 × 83.5% = 11,054.06. Quebec: 100,000 − 1,450 −
	// 1,127 = 97,423: 54,345 × 14% + 43,078 × 19% = 15,793.12 − 18,952 ×
	// 14% = 2,653.28 → 13,139.84.
	{name: "2026 Quebec wages 100000 (computed from Schedule 1 and TP-1)", year: 2026, region: "QC", in: Income{Employment: 100000},
		income: 11054.06, social: 6221, regional: 13139.84, tol: 0.02},
	// Computed for Quebec 2026, wages 80,000 + eligible dividends 5,000
	// (taxable amount 6,900) + capital gains 10,000 (taxable 5,000): QPP
	// 4,479.30, QPP2 5,400 × 4% = 216.00, EI 895.70, QPIP 344.00. Federal:
	// taxable 90,973: 14,845.47 − (16,452 + 1,501 + 3,768.30 + 895.70 + 344)
	// × 14% = 3,214.54 − dividend credit 6,900 × 15.0198% = 1,036.37 →
	// basic federal tax 10,594.56 × 83.5% = 8,846.46. Quebec: 91,900 −
	// 1,450 − 927 = 89,523: 7,608.30 + 35,178 × 19% = 14,292.12 − 2,653.28 −
	// dividend credit 6,900 × 11.7% = 807.30 → 10,831.54.
	{name: "2026 Quebec wages + eligible dividends + gains (computed from Schedule 1 and TP-1)", year: 2026, region: "QC", in: Income{Employment: 80000, Dividends: 5000, CapitalGains: 10000},
		income: 8846.46, regional: 10831.54, capital: zero, tol: 0.02},
}
