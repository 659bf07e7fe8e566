package tax

import "testing"

func TestExamplesGB(t *testing.T) { runExamples(t, "gb", examplesGB) }

var examplesGB = []example{
	// Computed from GOV.UK "Income Tax rates and Personal Allowances" 2024/25: 20% on
	// 12,571–50,270; NI Class 1 8% between £12,570 and £50,270 (HMRC Rates
	// and thresholds for employers 2024 to 2025).
	{name: "2024 wages 30000", year: 2024, in: Income{Employment: 30000},
		income: 3486, social: 1394.40, capital: zero},
	// HMRC (GOV.UK), "Tax on dividends", https://www.gov.uk/tax-on-dividends,
	// worked example for the 2024 to 2025 tax year: £3,000 dividends and
	// £29,570 wages, total income £32,570; Personal Allowance £12,570 leaves
	// £20,000 that may be taxed; no tax on the first £500 of dividends
	// (Dividend Allowance); 8.75% on the other £2,500 (= £218.75). The wages
	// part of that £20,000 (£17,000) is at the 20% basic rate (= £3,400).
	// (The authority's text was read through a quotation of the page; the
	// same example with the same figures appears in earlier years' versions.)
	{name: "2024 wages 29570 + dividends 3000 (GOV.UK Tax on dividends example)", src: official, year: 2024, in: Income{Employment: 29570, Dividends: 3000},
		income: 3400 + 218.75, capital: zero},
	// HMRC Personal Savings Allowance factsheet (2016; the £1,000/£500
	// allowances and the 20%/40% rates are unchanged in 2024/25), example 2: income £20,000
	// and £1,500 interest: £1,000 tax-free, £500 at 20% (= £100). The tax on
	// the £20,000 income (£1,486) is computed by us from the 2024/25 rates.
	{name: "2024 wages 20000 + interest 1500 (PSA example 2)", year: 2024, in: Income{Employment: 20000, Interest: 1500},
		income: 1486 + 100},
	// HMRC PSA factsheet, example 4: income £60,000, interest £1,100: a
	// higher-rate taxpayer gets £500, £600 at 40% (= £240). Tax and NI on the
	// £60,000 are computed by us from the 2024/25 rates.
	{name: "2024 wages 60000 + interest 1100 (PSA example 4)", year: 2024, in: Income{Employment: 60000, Interest: 1100},
		income: 7540 + 3892 + 240, social: 3016 + 194.60},
	// Computed from GOV.UK "Tax on dividends": £500 allowance, 8.75% in the basic rate
	// band; salary £12,570 uses the Personal Allowance, dividends 12,000:
	// 11,500 × 8.75% = £1,006.25.
	{name: "2024 salary 12570 + dividends 12000", year: 2024, in: Income{Employment: 12570, Dividends: 12000},
		income: 1006.25, social: zero},
	// Computed from GOV.UK Income Tax rates: Personal Allowance goes down by £1 for every
	// £2 above £100,000: 110,000 → allowance 7,570, taxable 102,430.
	{name: "2024 wages 110000 (allowance taper)", year: 2024, in: Income{Employment: 110000},
		income: 7540 + 25892, social: 3016 + 1194.60},
	// Computed from Scottish Government "Scottish Income Tax 2024 to 2025": starter 19% to
	// £14,876, basic 20% to £26,561, intermediate 21% to £43,662.
	{name: "2024 Scotland wages 30000", year: 2024, region: "SCT", in: Income{Employment: 30000},
		income: 438.14 + 2337 + 722.19, social: 1394.40},
	// Computed from GOV.UK "Self-employed National Insurance rates": Class 4 6% on profits
	// between £12,570 and £50,270 (2024 to 2025).
	{name: "2024 self-employed 30000 (Class 4)", year: 2024, in: Income{SelfEmployment: 30000},
		income: 3486, social: 1045.80},
	// Computed from GOV.UK "Capital Gains Tax rates" 2025/26: £3,000 allowance, 18% within
	// the unused basic rate band: taxable income 17,430, gains 17,000 all
	// within the remaining 20,270 of the band → £3,060.
	{name: "2025 wages 30000 + gains 20000", year: 2025, in: Income{Employment: 30000, CapitalGains: 20000},
		income: 3486, capital: 3060},
	// HMRC prints for 2026 to 2027 a Personal Allowance of £12,570 and a
	// Class 1 primary threshold of £12,570 (Rates and thresholds for
	// employers 2026 to 2027): wages of exactly £12,570 owe neither.
	{name: "2026 wages 12570 (Personal Allowance and primary threshold)", src: table, year: 2026, in: Income{Employment: 12570},
		income: zero, social: zero, capital: zero},
	// Computed from GOV.UK "Tax on dividends" with the 2026/27 dividend
	// ordinary rate of 10.75% (Budget 2025): taxable wages 17,430 × 20% =
	// 3,486; dividends 5,000 − £500 allowance = 4,500 × 10.75% = 483.75; NI
	// 8% × 17,430 = 1,394.40.
	{name: "2026 wages 30000 + dividends 5000 (ordinary rate 10.75%)", year: 2026, in: Income{Employment: 30000, Dividends: 5000},
		income: 3486 + 483.75, social: 1394.40},
	// Computed from the 2026/27 rates: taxable wages 47,430 → 7,540 +
	// 9,730 × 40% = 3,892; dividends sit above the basic rate band: 9,500
	// after the allowance × 35.75% = 3,396.25; NI 3,016 + 2% × 9,730.
	{name: "2026 wages 60000 + dividends 10000 (upper rate 35.75%)", year: 2026, in: Income{Employment: 60000, Dividends: 10000},
		income: 11432 + 3396.25, social: 3016 + 194.60},
	// Computed from the Scottish Government's 2026 to 2027 bands (starter
	// 19% to £16,537, basic 20% to £29,526, intermediate 21% to £43,662):
	// taxable 27,430 → 3,967 × 19% + 12,989 × 20% + 10,474 × 21% =
	// 753.73 + 2,597.80 + 2,199.54.
	{name: "2026 Scotland wages 40000", year: 2026, region: "SCT", in: Income{Employment: 40000},
		income: 5551.07, social: 2194.40},
}
