package tax

import "testing"

// No CRA publication found works a full annual return through for a single
// employee, so the income tax cases are computed by hand, line by line, from the CRA's
// published forms and rate tables for the year (Schedule 1 and the Federal
// Worksheet, Form ON428, CPP and EI rate pages), as each comment says. The
// forms round each line to the cent, hence a tolerance of one or two cents.
func TestExamplesCA(t *testing.T) { runExamples(t, "ca", examplesCA) }

var examplesCA = []example{
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
}
