package tax

import "testing"

// Panama. No worked example published by the DGI (MEF) was found in the
// search; the cases are computed by hand from Código Fiscal Art. 700 (tarifa
// de personas naturales), Art. 733 and 701(e), and the CSS (9.75%) and seguro
// educativo (1.25%) employee quotas. Searched (stored pages and code, in
// Spanish): dgi.mef.gob.pa worked examples of the personas naturales
// calculation; only private calculators and guides were found. No case below
// counts as an authority example.
func TestExamplesPA(t *testing.T) { runExamples(t, "pa", examplesPA) }

var examplesPA = []example{
	// Computed from Código Fiscal Art. 700, no published worked example found:
	// 15% × (30,000 − 11,000) = 2,850; CSS 2,925 + seguro educativo 375.
	{name: "2024 salary 30000", year: 2024, in: Income{Employment: 30000},
		income: 2850, social: 3300, capital: zero},
	// Art. 700: 5,850 + 25% × (80,000 − 50,000) = 13,350; social 11% =
	// 8,800; dividends 10% × 1,000 and gain 10% × 1,000 = 200.
	{name: "2025 salary 80000 + dividends + gains", year: 2025, in: Income{Employment: 80000, Dividends: 1000, CapitalGains: 1000},
		income: 13350, social: 8800, capital: 200},
	// Art. 700: income up to B/.11,000 is not taxed; social 11% = 1,210.
	{name: "2024 salary 11000 (exempt band)", year: 2024, in: Income{Employment: 11000},
		income: zero, social: 1210},

	// 2026: Art. 700 and the employee quotas are unchanged (Ley 462 de 2025
	// raises only the employer quota). Computed, no DGI worked example found:
	// 15% × (30,000 − 11,000) = 2,850; CSS 2,925 + seguro educativo 375.
	{name: "2026 salary 30000", year: 2026, in: Income{Employment: 30000},
		income: 2850, social: 3300, capital: zero},
	// Art. 700 at the top of the 15% band: 15% × (50,000 − 11,000) = 5,850,
	// the fixed amount the article adds to the 25% band; social 11% = 5,500.
	{name: "2026 salary 50000 (top of the 15% band)", year: 2026, in: Income{Employment: 50000},
		income: 5850, social: 5500},
	// Art. 700: 5,850 + 25% × (80,000 − 50,000) = 13,350; social 8,800;
	// dividends 10% × 1,000 and gain 10% × 1,000 = 200.
	{name: "2026 salary 80000 + dividends + gains", year: 2026, in: Income{Employment: 80000, Dividends: 1000, CapitalGains: 1000},
		income: 13350, social: 8800, capital: 200},
}
