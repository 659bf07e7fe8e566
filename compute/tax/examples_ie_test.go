package tax

import "testing"

func TestExamplesIE(t *testing.T) { runExamples(t, "ie", examplesIE) }

var examplesIE = []example{
	// Citizens Information (published by the Citizens Information Board, a
	// statutory body under the Department of Social Protection), "Case study:
	// Calculating your income tax", https://www.citizensinformation.ie/en/
	// money-and-tax/tax/income-tax/case-study-calculating-your-income-tax-case-studies/
	// (2024): Joan, single, €28,000: 28,000 × 20% = 5,600 − credits 3,750 = €1,850;
	// USC €424.62 (60.06 + 274.96 + 89.60). PRSI computed from the gov.ie
	// PRSI Class A rates (no published worked example found): 28,000 ×
	// 4.025% (4% to 30 Sept, 4.1% from 1 Oct 2024) = €1,127.00.
	{name: "2024 wages 28000 (Citizens Information case study)", src: official, year: 2024, in: Income{Employment: 28000},
		income: 1850, social: 424.62 + 1127, capital: zero},
	// Citizens Information case study (2024, as above): €43,200: 42,000 × 20% + 1,200 ×
	// 40% = 8,880 gross tax, less 3,750 credits = €5,130.
	{name: "2024 wages 43200 (Citizens Information case study)", src: official, year: 2024, in: Income{Employment: 43200},
		income: 5130},
	// Revenue, "Separate treatment" (married couples taxed as single people),
	// https://www.revenue.ie/en/life-events-and-personal-circumstances/
	// marital-status/marriage-and-civil-partnerships/separate-treatment.aspx,
	// 2024: Harper, employment income €50,200, credits Single Person €1,875 +
	// Employee €1,875: €42,000 × 20% = €8,400, €8,200 × 40% = €3,280, total
	// €11,680 less €3,750 = tax payable €7,930.
	{name: "2024 wages 50200 (Revenue separate treatment example, Harper)", src: official, year: 2024, in: Income{Employment: 50200},
		income: 7930},
	// Same Revenue page, 2024: Riley, investment income €32,200, Single Person
	// Tax Credit only (no employee credit): €32,200 × 20% = €6,440 less
	// €1,875 = €4,565. We enter the investment income as Irish dividends
	// (Schedule F, taxed at the marginal rates), the one non-employment,
	// non-DIRT income part we model.
	{name: "2024 investment income 32200 (Revenue separate treatment example, Riley)", src: official, year: 2024, in: Income{Dividends: 32200},
		income: 4565},
	// Revenue, "Calculating your Income Tax: Tax rate band": Aoife, single,
	// €4,000 a month in 2024: €700 + €200 = €900 a month before credits,
	// i.e. €10,800 a year; less the 2024 credits 3,750 (Revenue tax credit
	// chart) = €7,050 (annualisation and credits applied by us).
	{name: "2024 wages 48000 (Revenue tax rate band example)", year: 2024, in: Income{Employment: 48000},
		income: 7050},
	// Computed from Revenue's 2025 rates (no published 2025 worked example
	// found): SRCOP €44,000, credits 2,000 + 2,000: 8,800 + 16,000 × 40% −
	// 4,000 = €11,200; USC 60.06 + 15,370 × 2% + 32,618 × 3% = €1,346.00;
	// PRSI 60,000 × 4.125% (4.1% to 30 Sept, 4.2% from 1 Oct 2025) = €2,475.
	{name: "2025 wages 60000 (computed from Revenue schedule)", year: 2025, in: Income{Employment: 60000},
		income: 11200, social: 1346 + 2475},
	// Computed from Revenue's 2025 rates (no published worked example found):
	// self-employed €50,000: 8,800 + 6,000 × 40% − personal 2,000 − earned
	// income credit 2,000 = €7,200; USC 60.06 + 307.40 + 22,618 × 3% =
	// €1,046.00; PRSI Class S 50,000 × 4.125% = €2,062.50.
	{name: "2025 self-employed 50000 (computed from Revenue schedule)", year: 2025, in: Income{SelfEmployment: 50000},
		income: 7200, social: 1046 + 2062.50},
	// Computed from TCA 1997 s.256 and ss.28, 601 (Revenue DIRT and CGT
	// pages): DIRT 33% of €1,000 = €330; CGT (10,000 − 1,270) × 33% =
	// €2,880.90.
	{name: "2024 interest 1000 + gains 10000 (DIRT, CGT)", year: 2024, in: Income{Interest: 1000, CapitalGains: 10000},
		income: zero, social: zero, capital: 330 + 2880.90},
	// USC exemption: aggregate income €13,000 or less pays no USC (TCA
	// s.531AM); PRSI nil at or below €352 a week; tax 2,600 − 3,750 < 0.
	{name: "2024 wages 13000 (USC and PRSI exempt)", year: 2024, in: Income{Employment: 13000},
		income: zero, social: zero},
	// Revenue's 2026 thresholds: no USC where aggregate income is €13,000
	// or less (s.531AM TCA 1997), no employee PRSI at €352 a week or less,
	// and the Single Person and Employee Tax Credits (€2,000 each) exceed
	// 20% of €13,000: wages of €13,000 owe nothing.
	{name: "2026 wages 13000 (USC exemption limit; credits cover the tax)", src: table, year: 2026, in: Income{Employment: 13000},
		income: zero, social: zero},
	// Computed from Budget 2026 (USC 2% band to €28,700; PRSI 4.2% to 30
	// September and 4.35% from 1 October, 4.2375% over the year): income
	// tax 20% × 36,000 − 4,000 = €3,200; USC 60.06 + 333.76 + 3% × 7,300
	// = €612.82; PRSI 4.2375% × 36,000 = €1,525.50.
	{name: "2026 wages 36000 (computed)", year: 2026, in: Income{Employment: 36000},
		income: 3200, social: 612.82 + 1525.50},
	// Computed: 8,800 + 40% × 36,000 − 4,000 = €19,200; USC 60.06 + 333.76
	// + 1,240.32 + 8% × 9,956 = €2,430.62; PRSI 4.2375% × 80,000 = €3,390.
	{name: "2026 wages 80000 (computed)", year: 2026, in: Income{Employment: 80000},
		income: 19200, social: 2430.62 + 3390},
	// Computed, self-employed €100,000 (Class S, earned income credit):
	// income tax 8,800 + 22,400 − 2,000 − 2,000 = €27,200; USC €4,030.62
	// (no surcharge at exactly €100,000); PRSI 4.2375% = €4,237.50.
	{name: "2026 self-employed 100000 (computed)", year: 2026, in: Income{SelfEmployment: 100000},
		income: 27200, social: 4030.62 + 4237.50},
}
