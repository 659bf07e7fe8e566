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
	// England, Wales and Northern Ireland pay the same Income Tax: Wales
	// sets a Welsh rate of 10p in each band (Senedd Welsh rate resolutions
	// for 2024-25, 2025-26 and 2026-27), which added to the UK rates less
	// 10p gives 20%, 40% and 45% as in England and Northern Ireland. Each
	// region is worked for every year from GOV.UK "Income Tax rates and
	// Personal Allowances" (Personal Allowance £12,570, basic rate band
	// £37,700, additional rate from £125,140) and HMRC's "Rates and
	// thresholds for employers" (Class 1 8% from £12,570 to £50,270, 2%
	// above), unchanged from 2024-25 to 2026-27.
	//
	// England 2024: wages £50,270, the top of the basic rate band and the
	// upper earnings limit: 37,700 × 20% = 7,540; NI 37,700 × 8% = 3,016.
	{name: "2024 England wages 50270 (top of the basic rate band)", year: 2024, region: "ENG", in: Income{Employment: 50270},
		income: 7540, social: 3016, capital: zero},
	// England 2025: wages £125,140, where the Personal Allowance is fully
	// withdrawn ((125,140 − 100,000) / 2 = 12,570): 37,700 × 20% + 87,440 ×
	// 40% = 7,540 + 34,976 = 42,516; NI 3,016 + 74,870 × 2% = 4,513.40.
	{name: "2025 England wages 125140 (Personal Allowance withdrawn)", year: 2025, region: "ENG", in: Income{Employment: 125140},
		income: 42516, social: 4513.40},
	// England 2026: a pension of £20,000 pays Income Tax but no NI:
	// 7,430 × 20% = 1,486.
	{name: "2026 England pension 20000", year: 2026, region: "ENG", in: Income{Pension: 20000},
		income: 1486, social: zero},
	// Wales 2024: wages £40,000: 27,430 × 20% = 5,486; NI 27,430 × 8% =
	// 2,194.40.
	{name: "2024 Wales wages 40000 (Welsh rates 10p + UK rates less 10p)", year: 2024, region: "WLS", in: Income{Employment: 40000},
		income: 5486, social: 2194.40},
	// Wales 2025: wages £80,000: 7,540 + 29,730 × 40% = 19,432; NI 3,016 +
	// 29,730 × 2% = 3,610.60.
	{name: "2025 Wales wages 80000 (higher rate)", year: 2025, region: "WLS", in: Income{Employment: 80000},
		income: 19432, social: 3610.60},
	// Wales 2026: self-employed profits £50,000: 37,430 × 20% = 7,486;
	// Class 4 37,430 × 6% = 2,245.80 (GOV.UK "Self-employed National
	// Insurance rates").
	{name: "2026 Wales self-employed 50000 (Class 4)", year: 2026, region: "WLS", in: Income{SelfEmployment: 50000},
		income: 7486, social: 2245.80},
	// Northern Ireland 2024: wages £25,000 + interest £2,000: wages 12,430 ×
	// 20% = 2,486; the starting rate for savings is used up (non-savings
	// taxable income above £5,000), the £1,000 Personal Savings Allowance
	// of a basic rate taxpayer leaves 1,000 × 20% = 200; NI 12,430 × 8% =
	// 994.40.
	{name: "2024 Northern Ireland wages 25000 + interest 2000", year: 2024, region: "NIR", in: Income{Employment: 25000, Interest: 2000},
		income: 2686, social: 994.40},
	// Social Security Contributions and Benefits Act 1992 s.6(3): no
	// primary Class 1 contribution on earnings paid after State Pension
	// age (GOV.UK "Working after State Pension age": you stop paying Class
	// 1 National Insurance). Computed: wages £30,000 at 70 in 2025 owe the
	// Income Tax of anyone (17,430 × 20% = 3,486) and no NI; at 66, the
	// year State Pension age is reached, fiplan charges the year in full
	// (17,430 × 8% = 1,394.40); the Scottish tax on 17,430 is 3,967 × 19%
	// + 12,989 × 20% + 474 × 21% (2026 to 2027 bands).
	{name: "2025 England wages 30000 at 70 (over State Pension age: no Class 1)", year: 2025, region: "ENG", in: Income{Employment: 30000, Age: 70},
		income: 3486, social: zero},
	{name: "2026 Scotland wages 30000 at 66 (the year State Pension age is reached)", year: 2026, region: "SCT", in: Income{Employment: 30000, Age: 66},
		income: 753.73 + 2597.80 + 99.54, social: 1394.40},
	// The Social Security (Contributions) Regulations 2001 reg.91(a): no
	// Class 4 for a year at whose start the earner is over State Pension
	// age (GOV.UK "Self-employed National Insurance rates"). Computed:
	// profits £30,000 at 70 in 2026 owe 17,430 × 20% = 3,486 and no NI.
	{name: "2026 Wales self-employed 30000 at 70 (no Class 4)", year: 2026, region: "WLS", in: Income{SelfEmployment: 30000, Age: 70},
		income: 3486, social: zero},
	// Northern Ireland 2025: wages £12,570 (Personal Allowance, primary
	// threshold) + dividends £2,000: 1,500 above the £500 Dividend Allowance
	// × 8.75% = 131.25; no NI.
	{name: "2025 Northern Ireland wages 12570 + dividends 2000", year: 2025, region: "NIR", in: Income{Employment: 12570, Dividends: 2000},
		income: 131.25, social: zero},
	// Northern Ireland 2026: wages £45,000: 32,430 × 20% = 6,486; NI 32,430
	// × 8% = 2,594.40.
	{name: "2026 Northern Ireland wages 45000", year: 2026, region: "NIR", in: Income{Employment: 45000},
		income: 6486, social: 2594.40},
	// Scotland 2025, computed from the Scottish Government's 2025 to 2026
	// rates and bands (starter 19% £12,571–£15,397, basic 20% to £27,491,
	// intermediate 21% to £43,662, higher 42% to £75,000, advanced 45% to
	// £125,140, top 48%): wages £30,000, taxable 17,430: 2,827 × 19% =
	// 537.13, 12,094 × 20% = 2,418.80, 2,509 × 21% = 526.89 → 3,482.82;
	// NI 1,394.40.
	{name: "2025 Scotland wages 30000", year: 2025, region: "SCT", in: Income{Employment: 30000},
		income: 3482.82, social: 1394.40},
	// Scotland 2025: wages £80,000, taxable 67,430: 537.13 + 2,418.80 +
	// 16,171 × 21% = 3,395.91 + 31,338 × 42% = 13,161.96 + 5,000 × 45% =
	// 2,250 → 21,763.80; NI 3,016 + 29,730 × 2% = 3,610.60.
	{name: "2025 Scotland wages 80000 (advanced rate)", year: 2025, region: "SCT", in: Income{Employment: 80000},
		income: 21763.80, social: 3610.60},
	// Scotland 2024: savings and dividends keep the UK rates and bands.
	// Wages £40,000 (taxable 27,430: 2,306 × 19% = 438.14, 11,685 × 20% =
	// 2,337, 13,439 × 21% = 2,822.19 → 5,597.33) + dividends £3,000: 2,500
	// after the £500 allowance, within the UK basic rate band, × 8.75% =
	// 218.75.
	{name: "2024 Scotland wages 40000 + dividends 3000 (UK dividend rates)", year: 2024, region: "SCT", in: Income{Employment: 40000, Dividends: 3000},
		income: 5597.33 + 218.75, social: 2194.40},
	// Scottish Government, Scottish Budget 2026-27 income tax proposals,
	// table "Differences between Scottish and rUK income tax liabilities,
	// 2026-27" (read as reproduced in the Scottish Parliament's budget
	// briefing, parliament.scot): Scottish income tax payable on annual
	// earnings of £20,000 is £1,446, on £80,000 £21,732 and on £150,000
	// £59,634 (whole pounds, hence the tolerance). Income tax only.
	{name: "2026 Scotland earnings 20000 (Scottish Budget 2026-27 table)", src: table, year: 2026, region: "SCT", in: Income{Employment: 20000},
		income: 1446, tol: 0.5},
	{name: "2026 Scotland earnings 80000 (Scottish Budget 2026-27 table)", src: table, year: 2026, region: "SCT", in: Income{Employment: 80000},
		income: 21732, tol: 0.5},
	{name: "2026 Scotland earnings 150000 (Scottish Budget 2026-27 table)", src: table, year: 2026, region: "SCT", in: Income{Employment: 150000},
		income: 59634, tol: 0.5},
}
