package tax

import "testing"

// Australia: year 2024 = income year 2024-25, 2025 = 2025-26, 2026 = 2026-27.
func TestExamplesAU(t *testing.T) { runExamples(t, "au", examplesAU) }

var examplesAU = []example{
	// ATO "Medicare levy reduction for low-income earners" (updated 11 June
	// 2025, https://www.ato.gov.au/individuals-and-families/medicare-and-
	// private-health-insurance/medicare-levy/medicare-levy-reduction/
	// medicare-levy-reduction-for-low-income-earners), example: Angie, single, taxable income $29,000 in 2024–25 →
	// Medicare levy reduced to $177.80 (10% × (29,000 − 27,222)).
	// Income tax computed from the ATO 2024–25 resident rates schedule
	// (16c for each $1 over $18,200 = $1,728) less the $700 LITO (ITAA 1997
	// s 61-115) = $1,028; no published worked example for the tax part.
	{name: "2024 Angie taxable 29000 (ATO Medicare levy reduction example)", src: official, year: 2024, in: Income{Employment: 29000},
		income: 1028, social: 177.80, capital: zero},
	// Computed from the ATO 2024–25 resident rates schedule; no published
	// worked example found: $40,000 → 16% × 21,800 = $3,488; LITO $700 −
	// 5% × (40,000 − 37,500) = $575; tax $2,913; Medicare levy 2% = $800
	// (above the $34,027 upper threshold).
	{name: "2024 wages 40000 (LITO taper 5c)", year: 2024, in: Income{Employment: 40000},
		income: 2913, social: 800},
	// Computed from the ATO 2024–25 schedule ("$51,638 plus 45c for each $1
	// over $190,000"): $200,000 → 51,638 + 4,500 = $56,138; levy $4,000.
	{name: "2024 wages 200000 (top bracket)", year: 2024, in: Income{Employment: 200000},
		income: 56138, social: 4000, total: 60138},
	// Computed from the ATO 2025–26 schedule ("$4,288 plus 30c for each $1
	// over $45,000"): $100,000 → 4,288 + 16,500 = $20,788; LITO nil above
	// $66,667; levy $2,000.
	{name: "2025 wages 100000", year: 2025, in: Income{Employment: 100000},
		income: 20788, social: 2000},
	// Computed from the ATO 2025–26 schedule and the CGT discount page (50%
	// of a gain on an asset held 12 months or more is included): wages
	// 60,000 + gain 10,000 → taxable 65,000 → 4,288 + 6,000 = 10,288; LITO
	// 325 − 1.5% × 20,000 = $25 → $10,263; levy 2% × 65,000 = $1,300.
	{name: "2025 wages 60000 + discounted capital gain 10000", year: 2025, in: Income{Employment: 60000, CapitalGains: 10000},
		income: 10263, social: 1300, capital: zero},
	// Computed from the Medicare Levy Act 1986 s 7 shade-in with the $27,222
	// threshold: taxable 30,000 → 10% × 2,778 = $277.80 (below 2% = $600);
	// tax 16% × 11,800 = 1,888 − LITO 700 = $1,188.
	{name: "2025 wages 30000 (Medicare levy shade-in)", year: 2025, in: Income{Employment: 30000},
		income: 1188, social: 277.80},
	// Computed from the 2026–27 resident rates (ITRA 1986 Sch 7 as amended
	// by the Treasury Laws Amendment (More Cost of Living Relief) Act 2025:
	// 15c for each $1 over $18,200 to $45,000); no published worked example
	// found: $40,000 → 15% × 21,800 = $3,270 − LITO (700 − 5% × 2,500 =
	// 575) = $2,695; Medicare levy 2% = $800.
	{name: "2026 wages 40000 (15% band, LITO taper)", year: 2026, in: Income{Employment: 40000},
		income: 2695, social: 800},
	// Computed: $100,000 → 4,020 + 30% × 55,000 = $20,520; levy $2,000.
	{name: "2026 wages 100000", year: 2026, in: Income{Employment: 100000},
		income: 20520, social: 2000},
	// Computed: $200,000 → 51,370 + 45% × 10,000 = $55,870; levy $4,000.
	{name: "2026 wages 200000 (top bracket)", year: 2026, in: Income{Employment: 200000},
		income: 55870, social: 4000, total: 59870},
	// Computed with the Medicare levy shade-in at the $27,222 threshold:
	// $30,000 → levy 10% × 2,778 = $277.80; tax 15% × 11,800 = 1,770 −
	// LITO 700 = $1,070.
	{name: "2026 wages 30000 (Medicare levy shade-in)", year: 2026, in: Income{Employment: 30000},
		income: 1070, social: 277.80},
}
