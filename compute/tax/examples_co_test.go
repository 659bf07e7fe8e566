package tax

import "testing"

// Colombia. No DIAN worked example for these years was found in the search;
// the cases are computed by hand from Estatuto Tributario Art. 241 (table in
// UVT), Art. 206 num. 10, Art. 254-1 and Art. 314 with the UVT of DIAN
// Resoluciones 000187/2023 ($47.065) and 000193/2024 ($49.799), and the
// employee contribution rates (Ley 100, Ley 797 Art. 8) with SMMLV
// $1.300.000 (2024) and $1.423.500 (2025). Base and tax rounded to 1.000.
// A second search of the stored corpora (DIAN micrositio renta AG 2024,
// normograma.dian.gov.co oficios, Abecé renta) found guidance but no
// numeric worked example for 2024 or 2025, so none of these is authoritative.
func TestExamplesCO(t *testing.T) { runExamples(t, "co", examplesCO) }

var examplesCO = []example{
	// Computed from the ET schedule, no published worked example found:
	// contributions 8% = 4,800,000 (below 4 SMMLV, no FSP); 55,200,000 −
	// 25% = 41,400,000 < 1.090 UVT (51,300,850): no tax.
	{name: "2024 wages 60M (below 1090 UVT)", year: 2024, in: Income{Employment: 60000000},
		income: zero, social: 4800000},
	// Contributions 8% + FSP 1% = 9,000,000; 91,000,000 − 25% = 68,250,000;
	// 19% × (68,250,000 − 51,300,850) = 3,220,338.50 → 3,220,000.
	{name: "2024 wages 100M (FSP 1%)", year: 2024, in: Income{Employment: 100000000},
		income: 3220000, social: 9000000},
	// 2025: contributions 8% + FSP 1% = 18,000,000; exempt 25% capped at
	// 790 UVT = 39,341,210; base 142,659,000; 28% × (base − 1.700 UVT) +
	// 116 UVT = 22,016,880 → 22,017,000.
	{name: "2025 wages 200M (790 UVT cap)", year: 2025, in: Income{Employment: 200000000},
		income: 22017000, social: 18000000},
	// 2025: contributions 4% + 4% + FSP 2% (above 20 SMMLV) = 40,000,000;
	// general base 320,659,000 + dividends 100,000,000 = 420,659,000: 33% ×
	// (420,659,000 − 4.100 UVT) + 788 UVT = 110,681,035; Art. 254-1 descuento
	// 19% × (100,000,000 − 1.090 UVT) = 8,686,627.10 → 101,994,000.
	{name: "2025 wages 400M + dividends 100M", year: 2025, in: Income{Employment: 400000000, Dividends: 100000000},
		income: 101994000, social: 40000000},
	// ET Art. 314: ganancia ocasional 15% × 50,000,000 = 7,500,000.
	{name: "2024 capital gain 50M", year: 2024, in: Income{CapitalGains: 50000000},
		income: zero, capital: 7500000},

	// 2026: UVT $52.374 (Resolución 000238 de 2025), SMMLV $1.750.905
	// (Decreto 1469 de 2025, kept by Decreto 0159 de 2026); Ley 2381 de 2024
	// suspended, so the Ley 100 / Ley 797 contributions apply. Computed, no
	// DIAN worked example found: 8% = 4,800,000 (5,000,000 a month is below
	// 4 SMMLV, no FSP); 55,200,000 − 25% = 41,400,000 < 1.090 UVT
	// (57,087,660): no tax.
	{name: "2026 wages 60M (below 1090 UVT)", year: 2026, in: Income{Employment: 60000000},
		income: zero, social: 4800000},
	// 8% + FSP 1% = 9,000,000; 91,000,000 − 25% = 68,250,000; 19% ×
	// (68,250,000 − 57,087,660) = 2,120,844.60 → 2,121,000.
	{name: "2026 wages 100M (FSP 1%)", year: 2026, in: Income{Employment: 100000000},
		income: 2121000, social: 9000000},
	// 9% = 18,000,000; exempt 25% × 182,000,000 capped at 790 UVT =
	// 41,375,460; base 140,624,540 → 140,625,000; 28% × (base − 1.700 UVT
	// 89,035,800) + 116 UVT 6,075,384 = 20,520,360 → 20,520,000.
	{name: "2026 wages 200M (790 UVT cap)", year: 2026, in: Income{Employment: 200000000},
		income: 20520000, social: 18000000},
	// 37,500,000 a month is above 20 SMMLV (35,018,100): 4% + 4% + FSP 2% =
	// 45,000,000; general base 405,000,000 − 41,375,460 → 363,625,000, plus
	// dividends 100,000,000 = 463,625,000: 35% × (463,625,000 − 8.670 UVT
	// 454,082,580) + 2.296 UVT 120,250,704 = 123,590,551; Art. 254-1
	// descuento 19% × (100,000,000 − 57,087,660) = 8,153,344.60 →
	// 115,437,206.40 → 115,437,000.
	{name: "2026 wages 450M + dividends 100M", year: 2026, in: Income{Employment: 450000000, Dividends: 100000000},
		income: 115437000, social: 45000000},
	// ET Art. 314: ganancia ocasional 15% × 50,000,000 = 7,500,000.
	{name: "2026 capital gain 50M", year: 2026, in: Income{CapitalGains: 50000000},
		income: zero, capital: 7500000},
}
