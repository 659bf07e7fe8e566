package tax

import "testing"

// Thailand: calendar tax years.
func TestExamplesTH(t *testing.T) { runExamples(t, "th", examplesTH) }

var examplesTH = []example{
	// ---- Authority figures ----
	//
	// The Revenue Department, "อัตราภาษีเงินได้บุคคลธรรมดาสำหรับปีภาษี 2560
	// ที่จะต้องยื่นรายการในปี พ.ศ.2561 เป็นต้นไป" (personal income tax rates for
	// tax year 2017 onwards), https://www.rd.go.th/59670.html. The table is in
	// force for tax years 2024 and 2025 (unchanged since 2017) and gives, for
	// each step of net income (เงินได้สุทธิ), the maximum cumulative tax of the
	// step (ภาษีสะสมสูงสุดของขั้น): 300,000 → 7,500; 500,000 → 27,500;
	// 750,000 → 65,000; 1,000,000 → 115,000; 2,000,000 → 365,000;
	// 5,000,000 → 1,265,000. Each row below feeds the table's net income
	// through a self-employed person (net profit after actual expenses, then
	// the 60,000-baht personal allowance of s 47(1)(a), the only deduction
	// that applies) so that the rate schedule is what the RD figure checks.
	// Whole baht; the RD rounds nothing here.
	{name: "RD table 2024 net income 300000 → 7500", src: table, year: 2024, in: Income{SelfEmployment: 360000},
		income: 7500, social: zero},
	{name: "RD table 2024 net income 500000 → 27500", src: table, year: 2024, in: Income{SelfEmployment: 560000},
		income: 27500},
	{name: "RD table 2024 net income 750000 → 65000", src: table, year: 2024, in: Income{SelfEmployment: 810000},
		income: 65000},
	{name: "RD table 2025 net income 1000000 → 115000", src: table, year: 2025, in: Income{SelfEmployment: 1060000},
		income: 115000},
	{name: "RD table 2025 net income 2000000 → 365000", src: table, year: 2025, in: Income{SelfEmployment: 2060000},
		income: 365000},
	{name: "RD table 2025 net income 5000000 → 1265000", src: table, year: 2025, in: Income{SelfEmployment: 5060000},
		income: 1265000},

	// ---- Computed by us (do not count as authority examples) ----
	//
	// Computed from the Revenue Department schedule above; no published
	// worked example of a salary case was found. Salary 600,000 (50,000 a
	// month): social security 5% of the 15,000 ceiling = 750 × 12 = 9,000;
	// net income 600,000 − 100,000 (expenses, capped) − 60,000 − 9,000 =
	// 431,000 → 7,500 + 13,100 = 20,600.
	{name: "2024 salary 600000", year: 2024, in: Income{Employment: 600000},
		income: 20600, social: 9000, capital: zero},
	// Same schedule: salary 300,000 → net 131,000, inside the exempt first
	// 150,000 → no tax; social security 9,000.
	{name: "2024 salary 300000 (exempt band)", year: 2024, in: Income{Employment: 300000},
		income: zero, social: 9000},
	// Same schedule (cumulative 115,000 baht at 1,000,000, then 25%): salary
	// 1,200,000 → net 1,031,000 → 115,000 + 7,750 = 122,750.
	{name: "2025 salary 1200000", year: 2025, in: Income{Employment: 1200000},
		income: 122750, social: 9000},
	// Same schedule: 30% from 2,000,001 to 5,000,000 (cumulative 365,000 +
	// 900,000 = 1,265,000), 35% above: net profit 6,060,000 − 60,000 =
	// 6,000,000 → 1,265,000 + 350,000 = 1,615,000.
	{name: "2025 self-employed net 6060000 (35% band)", year: 2025, in: Income{SelfEmployment: 6060000},
		income: 1615000, social: zero},
	// Revenue Code s 48(3), s 50(2): 15% final withholding on interest, 10%
	// on dividends; gains on SET-listed shares exempt → 15,000 + 10,000.
	{name: "2024 interest 100000 + dividends 100000 + SET gains", year: 2024, in: Income{Interest: 100000, Dividends: 100000, CapitalGains: 500000},
		income: zero, capital: 25000},
	// RD table (https://www.rd.go.th/59670.html, rates for tax year 2017
	// onwards, not amended for 2026): net income 750,000 → maximum
	// cumulative tax 65,000, fed through a self-employed person as above.
	{name: "RD table 2026 net income 750000 → 65000", src: table, year: 2026, in: Income{SelfEmployment: 810000},
		income: 65000, social: zero},
	// Computed: salary 600,000 (50,000 a month): social security 5% of the
	// 2026 ceiling of 17,500 = 875 × 12 = 10,500; net income 600,000 −
	// 100,000 − 60,000 − 10,500 = 429,500 → 7,500 + 12,950 = 20,450.
	{name: "2026 salary 600000 (17,500-baht SSO ceiling)", year: 2026, in: Income{Employment: 600000},
		income: 20450, social: 10500},
	// Computed: salary 200,000 (16,666.67 a month, below the new ceiling):
	// social security 5% = 10,000; net income 30,000 → no tax.
	{name: "2026 salary 200000 (below the ceiling)", year: 2026, in: Income{Employment: 200000},
		income: zero, social: 10000},
	// Computed: salary 1,200,000 → net 1,029,500 → 115,000 + 25% × 29,500 =
	// 122,375; social security 10,500.
	{name: "2026 salary 1200000", year: 2026, in: Income{Employment: 1200000},
		income: 122375, social: 10500},
}
