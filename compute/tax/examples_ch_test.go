package tax

import "testing"

// The ESTV publishes the tariff and an online calculator but no worked
// example was found in the stored material; these cases are computed by hand
// from the tariff of Art. 36 Abs. 1 DBG as set by the Verordnung über die
// kalte Progression for each tax year (Fedlex SR 642.119.2), the
// Berufskostenverordnung and the AHV/ALV rates, as each comment says.
func TestExamplesCH(t *testing.T) { runExamples(t, "ch", examplesCH) }

var examplesCH = []example{
	// Computed, 2024, wages 80 000: AHV/IV/EO 4240, ALV 880; Berufskosten
	// 3 % × 74 880 = 2246.40; taxable 72 633.60 → 72 600: 603.40 + 154 ×
	// 2.97 = 1060.78 Fr.
	{name: "2024 wages 80000 (computed from the VKP 2024 tariff)", year: 2024, in: Income{Employment: 80000},
		income: 1060.78, social: 5120, capital: zero},
	// Computed, 2025, wages 150 000: AHV/IV/EO 7950, ALV 1.1 % × 148 200 =
	// 1630.20; Berufskosten at the 4000 maximum; taxable 136 419.80 →
	// 136 400: 3268.80 + 276 × 8.80 = 5697.60 Fr.
	{name: "2025 wages 150000 (computed from the VKP 2025 tariff)", year: 2025, in: Income{Employment: 150000},
		income: 5697.60, social: 9580.20},
	// Computed, 2024, wages 30 000: AHV/IV/EO 1590, ALV 330; Berufskosten
	// minimum 2000; taxable 26 080 → 26 000: 110 × 0.77 = 84.70 Fr.
	{name: "2024 wages 30000 (minimum Berufskosten, computed)", year: 2024, in: Income{Employment: 30000},
		income: 84.70, social: 1920},
	// Computed, 2025, interest and dividends 20 000 (ordinary income, Art.
	// 20 DBG): 48 × 0.77 = 36.96 Fr.; gains on private assets tax-free.
	{name: "2025 interest + dividends 20000, gains 50000 (computed)", year: 2025, in: Income{Interest: 10000, Dividends: 10000, CapitalGains: 50000},
		income: 36.96, social: zero, capital: zero},
	// Computed, 2025, interest 17 000: 18 × 0.77 = 13.86 Fr., below the
	// 25-franc collection threshold of Art. 36 DBG → nil.
	{name: "2025 interest 17000 (below 25 Fr., not collected)", year: 2025, in: Income{Interest: 17000},
		income: zero},
}
