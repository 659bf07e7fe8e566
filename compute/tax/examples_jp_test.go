package tax

import "testing"

// Japan: calendar years (2024 = 令和6年分, 2025 = 令和7年分, 2026 = 令和8年分).
func TestExamplesJP(t *testing.T) { runExamples(t, "jp", examplesJP) }

var examplesJP = []example{
	// 国税庁 タックスアンサー No.2260 計算例: 課税される所得金額 700万円 →
	// 700万円 × 0.23 − 63万6千円 = 97万4千円. Business income 7,480,000 −
	// 基礎控除 480,000 (No.1199, 令和6年分) = 7,000,000. 令和6年分 定額減税
	// 30,000 (国税庁 定額減税特設サイト) → 944,000; 復興特別所得税 2.1% →
	// 963,824 → 100円未満切捨て 963,800 (the last two steps computed).
	{name: "2024 business income 7480000 (NTA No.2260 example, taxable 7000000)", src: official, year: 2024, in: Income{SelfEmployment: 7480000},
		income: 963800, social: zero, capital: zero},
	// Same NTA No.2260 example for 令和7年分: 合計所得金額 7,580,000 is above
	// 655万円, so 基礎控除 58万円 (No.1199) → taxable 7,000,000 → 974,000 ×
	// 1.021 = 994,454 → 994,400 (no 定額減税 in 2025).
	{name: "2025 business income 7580000 (NTA No.2260 example, taxable 7000000)", src: official, year: 2025, in: Income{SelfEmployment: 7580000},
		income: 994400},
	// Computed from the NTA schedules; no published worked example found.
	// Salary 3,600,000 (300,000 a month, a standard-remuneration grade):
	// 厚生年金 9.15% = 329,400; 協会けんぽ東京 令和6年度 9.98%/2 = 179,640;
	// 雇用保険 6/1000 = 21,600 → 530,640. 給与所得 3,600,000 × 70% − 80,000
	// = 2,440,000 (No.1410). 所得税: 2,440,000 − 530,640 − 480,000 =
	// 1,429,360 → 1,429,000 × 5% = 71,450 − 定額減税 30,000 = 41,450 × 1.021
	// = 42,320.45 → 42,300. 住民税 (Tokyo): 2,440,000 − 530,640 − 430,000 →
	// 1,479,000; 特別区民税 88,740 − 1,500 = 87,240 → 87,200; 都民税 59,160
	// − 1,000 = 58,160 → 58,100.
	{name: "2024 salary 3600000 Tokyo", year: 2024, region: "13", in: Income{Employment: 3600000},
		income: 42300, social: 530640, capital: zero, total: 42300 + 530640 + 87200 + 58100},
	// Computed from the NTA schedules for 令和7年分; no published worked
	// example found: premiums 329,400 + 9.91%/2 × 3,600,000 = 178,380 +
	// 5.5/1000 = 19,800 → 527,580; 合計所得金額 2,440,000 → 基礎控除 88万円;
	// 2,440,000 − 527,580 − 880,000 = 1,032,420 → 1,032,000 × 5% = 51,600 ×
	// 1.021 = 52,683.6 → 52,600.
	{name: "2025 salary 3600000", year: 2025, in: Income{Employment: 3600000},
		income: 52600, social: 527580},
	// Computed from 国税庁 No.1410 (令和7年分 給与所得控除 minimum 65万円) and
	// No.1199 (基礎控除 95万円 at 合計所得金額 ≤ 132万円): 1,600,000 − 650,000
	// = 950,000 − 950,000 → no income tax. Third parties report that the
	// NTA page 「令和7年度税制改正による所得税の基礎控除の見直し等について」
	// (https://www.nta.go.jp/users/gensen/2025kiso/index.htm) states that a
	// salary up to 160万円 bears no income tax; that page was not available
	// to read, so this stays a computed example.
	{name: "2025 salary 1600000 (no income tax up to 1.6 million)", year: 2025, in: Income{Employment: 1600000},
		income: zero},
	// 国税庁 No.1463 / No.1331 / No.1310: 20.315% (所得税 15%, 復興特別所得税
	// 0.315%, 住民税 5%) on listed-share gains, listed dividends and deposit
	// interest: 600,000 → 91,890 + 30,000 = 121,890.
	{name: "2024 capital income 600000 (20.315%)", year: 2024, in: Income{Interest: 100000, Dividends: 200000, CapitalGains: 300000},
		income: zero, capital: 121890},

	// Same NTA No.2260 example for 令和8年分: 合計所得金額 7,620,000 is above
	// 655万円, so 基礎控除 62万円 (令和8年度税制改正) → taxable 7,000,000 →
	// 974,000 × 1.021 = 994,454 → 994,400.
	{name: "2026 business income 7620000 (NTA No.2260 example, taxable 7000000)", src: official, year: 2026, in: Income{SelfEmployment: 7620000},
		income: 994400, social: zero, capital: zero},
	// Computed for 令和7年分 with the Tokyo resident tax (令和8年度分); no
	// published worked example found. Premiums 527,580 and 所得税 52,600 as
	// above. 住民税: 2,440,000 − 527,580 − 430,000 = 1,482,420 → 1,482,000;
	// 特別区民税 88,920 − 1,500 = 87,420 → 87,400; 都民税 59,280 − 1,000 =
	// 58,280 → 58,200.
	{name: "2025 salary 3600000 Tokyo", year: 2025, region: "13", in: Income{Employment: 3600000},
		income: 52600, social: 527580, regional: 87400 + 58200},
	// Computed for 令和8年分; no published worked example found. Premiums:
	// 厚生年金 9.15% = 329,400; 協会けんぽ東京 令和8年度 9.85%/2 = 177,300;
	// 雇用保険 5/1000 = 18,000 → 524,700. 給与所得 2,440,000; 合計所得金額
	// ≤ 489万円 → 基礎控除 104万円: 2,440,000 − 524,700 − 1,040,000 =
	// 875,300 → 875,000 × 5% = 43,750 × 1.021 = 44,668.75 → 44,600. 住民税
	// (令和9年度分): 2,440,000 − 524,700 − 430,000 → 1,485,000; 特別区民税
	// 89,100 − 1,500 = 87,600; 都民税 59,400 − 1,000 = 58,400.
	{name: "2026 salary 3600000 Tokyo", year: 2026, region: "13", in: Income{Employment: 3600000},
		income: 44600, social: 524700, capital: zero, regional: 87600 + 58400},
	// Computed: salary 1,800,000 (150,000 a month): premiums 14.575% =
	// 262,350. 所得税: 1,800,000 − 74万円 = 1,060,000 < 262,350 + 1,040,000
	// → nil. 住民税 with the 69万円 minimum: 1,110,000 − 262,350 − 430,000 =
	// 417,650 → 417,000; 特別区民税 25,020 − 1,500 → 23,500; 都民税 16,680
	// − 1,000 → 15,600.
	{name: "2026 salary 1800000 Tokyo (resident tax 69万円 minimum)", year: 2026, region: "13", in: Income{Employment: 1800000},
		income: zero, social: 262350, regional: 23500 + 15600},
	// Computed at the end of the 74万円 minimum: 2,200,000 × 30% + 80,000 =
	// 740,000 → 給与所得 1,460,000; premiums 14.575% = 320,650; 1,460,000 −
	// 320,650 − 1,040,000 = 99,350 → 99,000 × 5.105% = 5,053.95 → 5,000.
	{name: "2026 salary 2200000", year: 2026, in: Income{Employment: 2200000},
		income: 5000, social: 320650},
	// 令和8年度税制改正: 給与所得控除 74万円 + 基礎控除 104万円 = 178万円, the
	// salary up to which no income tax is due (before premiums): 1,780,000 −
	// 740,000 − 1,040,000 = 0.
	{name: "2026 salary 1780000 (no income tax up to 1.78 million)", year: 2026, in: Income{Employment: 1780000},
		income: zero},
}
