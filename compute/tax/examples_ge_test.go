package tax

import "testing"

// Georgia. No worked example published by the Revenue Service of Georgia was
// found in the search; every case is computed by hand from the Tax Code of
// Georgia (Art. 81 rates, Art. 82) and the Law on Funded Pensions (Art. 3).
// A second search (rs.ge, infohub.rs.ge, pensions.ge, Georgian and English)
// found only third-party payroll examples (1,000 GEL gross: pension 20, tax
// 196), which agree with the engine but are not the authority's.
func TestExamplesGE(t *testing.T) { runExamples(t, "ge", examplesGE) }

var examplesGE = []example{
	// Computed from the Tax Code schedule, no published worked example found:
	// pension 2% × 24,000 = 480; PIT 20% × (24,000 − 480) = 4,704 GEL.
	{name: "2024 salary 24000", year: 2024, in: Income{Employment: 24000},
		income: 4704, social: 480, capital: zero},
	// Computed from the schedule: pension 1,200; PIT 20% × (60,000 − 1,200 +
	// gains 5,000) = 12,760; dividends and interest 5% × 3,000 = 150 GEL.
	{name: "2025 salary 60000 + dividends, interest, gains", year: 2025,
		in:     Income{Employment: 60000, Dividends: 2000, Interest: 1000, CapitalGains: 5000},
		income: 12760, social: 1200, capital: 150},
	// Computed from the schedule: business profit 40,000 × 20% = 8,000 GEL.
	{name: "2025 self-employed 40000", year: 2025, in: Income{SelfEmployment: 40000},
		income: 8000, social: zero},

	// 2026: the Tax Code (Art. 81, 82) and the Law on Funded Pensions (Art. 3)
	// are unchanged; computed from the schedule, no published worked example
	// found: pension 2% × 36,000 = 720; PIT 20% × (36,000 − 720) = 7,056 GEL.
	{name: "2026 salary 36000", year: 2026, in: Income{Employment: 36000},
		income: 7056, social: 720, capital: zero},
	// Computed: pension 1,200; PIT 20% × (60,000 − 1,200 + 5,000) = 12,760;
	// dividends and interest 5% × 3,000 = 150 GEL.
	{name: "2026 salary 60000 + dividends, interest, gains", year: 2026,
		in:     Income{Employment: 60000, Dividends: 2000, Interest: 1000, CapitalGains: 5000},
		income: 12760, social: 1200, capital: 150},
	// Computed: business profit 40,000 × 20% = 8,000 GEL, no employee pension.
	{name: "2026 self-employed 40000", year: 2026, in: Income{SelfEmployment: 40000},
		income: 8000, social: zero},
}
