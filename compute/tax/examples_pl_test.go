package tax

import "testing"

// Poland. The Ministry of Finance publishes the schedule (podatki.gov.pl
// "Skala podatkowa": 12 % minus 3 600 zł up to 120 000 zł; 10 800 zł + 32 %
// of the excess). No worked example of the Ministry or of ZUS with an
// employee's figures for 2024 or 2025 was found in the stored copies searched
// (see the report on branch wt-taxE): the first cases are rows of the
// statutory table itself; every other case is computed by hand strictly from
// that schedule, art. 22, 26, 30a, 30b and 30h u.p.d.o.f., art. 16, 19 and 22
// of the social insurance act, art. 79 and 81 of the health care act and the
// ZUS 30-fold limit, with Ordynacja podatkowa art. 63 rounding to full złoty.
func TestExamplesPL(t *testing.T) { runExamples(t, "pl", examplesPL) }

var examplesPL = []example{
	// Statutory table row: art. 27 ust. 1 u.p.d.o.f. (Dz.U. 2024 poz. 226),
	// repeated on podatki.gov.pl "Skala podatkowa" / "Dochody z pracy"
	// (https://www.podatki.gov.pl/pit/abc-pit/skala-podatkowa/), in force
	// unchanged in 2024 and 2025: on a base of 120 000 zł the tax is
	// "10 800 zł" (the second row reads "10 800 zł + 32 % nadwyżki ponad
	// 120 000 zł"). Pension income, to isolate the scale: no ZUS social
	// contributions and no koszty uzyskania przychodów on it.
	{name: "2024 statutory table row: base 120000 → 10800 (pension)", src: table, year: 2024, in: Income{Pension: 120000},
		income: 10800},
	// Same statutory row for 2025, through self-employed profit on the
	// skala (taken after the entrepreneur's own ZUS, which is not modelled).
	{name: "2025 statutory table row: base 120000 → 10800 (self-employed)", src: table, year: 2025, in: Income{SelfEmployment: 120000},
		income: 10800},
	// Statutory table, first row, and podatki.gov.pl "kwota wolna od
	// podatku 30 000 zł": 12 % × 30 000 = 3 600 − kwota zmniejszająca
	// podatek 3 600 = 0 zł.
	{name: "2025 tax-free amount: base 30000 → 0 (pension)", src: table, year: 2025, in: Income{Pension: 30000},
		income: zero},
	// Computed from the podatki.gov.pl schedule; no published worked
	// example found. 2024 wages 60 000: ZUS 13,71 % = 8 226,00; health
	// 9 % × 51 774 = 4 659,66; base 60 000 − 8 226 − 3 000 = 48 774 ×
	// 12 % = 5 852,88 − 3 600 = 2 252,88 → 2 253 zł.
	{name: "2024 wages 60000", year: 2024, in: Income{Employment: 60000},
		income: 2253, social: 8226 + 4659.66, capital: zero},
	// Computed from the schedule; no published worked example found. 2025
	// wages 300 000: ZUS 260 190 × 13,71 % = 35 672,05 + 39 810 × 2,45 %
	// = 975,35 → 36 647,39; health 9 % × 263 352,61 = 23 701,73; base
	// 260 352,61 → 260 353: 10 800 + 32 % × 140 353 = 55 712,96 → 55 713.
	{name: "2025 wages 300000 (32 % band, ZUS limit)", year: 2025, in: Income{Employment: 300000},
		income: 55713, social: 36647.39 + 23701.73, tol: 0.02},
	// Computed from art. 30a ust. 1 u.p.d.o.f.; no published worked example
	// found. 2024: dividends 10 000 + interest 5 000 at 19 % = 2 850 zł.
	{name: "2024 dividends 10000 + interest 5000 (19 %)", year: 2024, in: Income{Dividends: 10000, Interest: 5000},
		income: zero, social: zero, capital: 2850},
	// Computed from the schedule and art. 30h; no published worked example
	// found. 2025 wages 1 500 000: ZUS 35 672,05 + 1 239 810 × 2,45 % =
	// 30 375,35 → 66 047,39; base 1 430 952,61 → 1 430 953: PIT 14 400 +
	// 32 % × 1 310 953 − 3 600 = 430 304,96 → 430 305; danina 4 % ×
	// 430 953 = 17 238,12 → 17 238.
	{name: "2025 wages 1500000 (danina solidarnościowa)", year: 2025, in: Income{Employment: 1500000},
		income: 430305 + 17238},
	// Computed from the schedule; no published worked example found. 2024
	// self-employed profit 100 000 (skala): 12 % × 100 000 − 3 600 = 8 400;
	// health 9 % = 9 000.
	{name: "2024 self-employed 100000 (skala)", year: 2024, in: Income{SelfEmployment: 100000},
		income: 8400, social: 9000},
	// Statutory table row, art. 27 ust. 1 u.p.d.o.f., unchanged in 2026: on
	// a base of 120 000 zł the tax is "10 800 zł" (pension income).
	{name: "2026 statutory table row: base 120000 → 10800 (pension)", src: table, year: 2026, in: Income{Pension: 120000},
		income: 10800},
	// Computed from the 2026 schedule: wages 100 000 below the 282 600 zł
	// limit: ZUS 13,71 % = 13 710; health 9 % × 86 290 = 7 766,10; base
	// 100 000 − 13 710 − 3 000 = 83 290 × 12 % = 9 994,80 − 3 600 → 6 395 zł.
	{name: "2026 wages 100000", year: 2026, in: Income{Employment: 100000},
		income: 6395, social: 13710 + 7766.10},
	// Computed with the 2026 30-fold limit (282 600 zł, 30 × 9 420 zł):
	// wages 300 000: ZUS 13,71 % × 282 600 + 2,45 % × 17 400 = 39 170,76;
	// health 9 % × 260 829,24 = 23 474,63; base 257 829 → 10 800 + 32 % ×
	// 137 829 = 54 905,28 → 54 905 zł.
	{name: "2026 wages 300000 above the 30-fold limit", year: 2026, in: Income{Employment: 300000},
		income: 54905, social: 39170.76 + 23474.63},
}
