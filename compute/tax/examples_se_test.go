package tax

import "testing"

// Sweden. Skatteverket publishes, for each income year, the skiktgräns and
// the brytpunkt (the income below which no statlig skatt is due for a person
// under 66): 598 500 / 615 300 kr for 2024 and 625 800 / 643 100 kr for 2025.
// The two brytpunkt cases reproduce those published figures, and two 2024
// cases reproduce Pensionsmyndigheten's published limits of the allmän
// pensionsavgift (highest fee base 614 500 kr and fee 43 000 kr; lowest
// income 24 238 kr); the other cases are computed by hand strictly from IL
// 63 kap. 3 §, 65 kap. 5 § and 7 § and the allmän pensionsavgift rules with
// Skatteverket's amounts (no published worked example with these figures was
// found).
func TestExamplesSE(t *testing.T) { runExamples(t, "se", examplesSE) }

var examplesSE = []example{
	// Skatteverket, belopp och procent 2024: brytpunkt 615 300 kr. Wages
	// 615 300: grundavdrag 0,293 × 57 300 = 16 788,90 → 16 800; taxable
	// 598 500 = skiktgräns → statlig skatt 0. One hundred kronor more is
	// taxed at 20 % (20 kr). Pensionsavgift 7 % of 614 934 (8,07 × 76 200)
	// = 43 045,38 → 43 000 kr.
	{name: "2024 wages at the published brytpunkt 615300", src: table, year: 2024, in: Income{Employment: 615300},
		income: zero, social: 43000, capital: zero},
	{name: "2024 wages 615400 (100 kr above the brytpunkt)", year: 2024, in: Income{Employment: 615400},
		income: 20},
	// Skatteverket, belopp och procent 2025: brytpunkt 643 100 kr =
	// skiktgräns 625 800 + grundavdrag 0,293 × 58 800 = 17 228,40 → 17 300.
	{name: "2025 wages at the published brytpunkt 643100", src: table, year: 2025, in: Income{Employment: 643100},
		income: zero},
	// Computed from the 2025 schedule; no published worked example found.
	// Wages 700 000: taxable 682 700; statlig skatt (682 700 − 625 800) ×
	// 20 % = 11 380; pensionsavgift 7 % × 650 442 (8,07 × 80 600) =
	// 45 530,94 → 45 500.
	{name: "2025 wages 700000", year: 2025, in: Income{Employment: 700000},
		income: 11380, social: 45500},
	// Computed from the 2024 schedule; no published worked example found.
	// Wages 800 000: taxable 783 200 → (783 200 − 598 500) × 20 % = 36 940.
	{name: "2024 wages 800000", year: 2024, in: Income{Employment: 800000},
		income: 36940, social: 43000},
	// Authority figure: Pensionsmyndigheten, "Så beräknas din pension –
	// basbelopp, beräkningsfaktorer och värderegler", table "Belopp (kronor)
	// för intjänande till pension 2024"
	// (https://www.pensionsmyndigheten.se/forsta-din-pension/om-pensionssystemet/sa-beraknas-din-pension-basbelopp-berakningsfaktorer-och-varderegler):
	// "Den högsta inkomst som utgör underlag för allmän pensionsavgift"
	// 614 500 kr a year, with "76 200 × 8,07 = 614 934; 614 934 × 7 % =
	// 43 045 kronor ≈ …" (the highest fee after rounding); the same table
	// gives the highest pensionsgrundande inkomst 571 500 (7,5 ibb), and
	// 614 500 − 571 500 = 43 000 kr is that highest fee. Wages 614 500:
	// 7 % = 43 015, rounded to the nearest hundred → 43 000 kr.
	{name: "2024 wages 614500 (Pensionsmyndigheten: highest fee base, fee 43000)", src: table, year: 2024, in: Income{Employment: 614500},
		social: 43000, income: zero},
	// Authority figure: same Pensionsmyndigheten table, "Lägsta inkomst för
	// intjänande till allmän pension" 24 238 kr for 2024 (42,3 % of the
	// prisbasbelopp 57 300 = 24 237,90), the limit below which no allmän
	// pensionsavgift is charged. Wages 24 200 are below it: no fee.
	{name: "2024 wages 24200 (below Pensionsmyndigheten's lower limit 24238)", src: table, year: 2024, in: Income{Employment: 24200},
		social: zero, income: zero},
	// Computed from the 2024 schedule; no published worked example found.
	// Wages 20 000 < 42,3 % × 57 300 = 24 237,90: no pensionsavgift; the
	// grundavdrag covers the income.
	{name: "2024 wages 20000 (below the pensionsavgift floor)", year: 2024, in: Income{Employment: 20000},
		income: zero, social: zero},
	// Computed from IL 65 kap. 7 §; no published worked example found.
	// 2025: interest 10 000 + dividends 20 000 + gains 5 000 at 30 % =
	// 10 500 kr.
	{name: "2025 capital income 35000 (30 %)", year: 2025, in: Income{Interest: 10000, Dividends: 20000, CapitalGains: 5000},
		income: zero, social: zero, capital: 10500},
	// Skatteverket, belopp och procent 2026: brytpunkt 660 400 kr =
	// skiktgräns 643 000 + grundavdrag 0,293 × 59 200 = 17 345,60 → 17 400:
	// no statlig skatt at the brytpunkt.
	{name: "2026 wages at the published brytpunkt 660400", src: table, year: 2026, in: Income{Employment: 660400},
		income: zero},
	// Computed from the 2026 amounts; no published worked example found.
	// Wages 800 000: taxable 782 600 → (782 600 − 643 000) × 20 % = 27 920;
	// pensionsavgift 7 % × 673 038 (8,07 × 83 400) = 47 112,66 → 47 100.
	{name: "2026 wages 800000", year: 2026, in: Income{Employment: 800000},
		income: 27920, social: 47100},
	// Computed: wages 25 000 < 42,3 % × 59 200 = 25 041,60: no
	// pensionsavgift, and the grundavdrag (25 100) covers the income;
	// interest 10 000 at 30 % = 3 000.
	{name: "2026 wages 25000 + interest 10000", year: 2026, in: Income{Employment: 25000, Interest: 10000},
		income: zero, social: zero, capital: 3000},
}
