package tax

import "testing"

// Uruguay. No DGI worked example was found in the search; the cases are
// computed by hand from the IRPF Category II annual scale (Título 7 Art. 37)
// with BPC $6.177 (2024), $6.576 (2025) and $6.864 (2026), the deductions credit (Art. 38:
// 14% / 8%), the personal BPS contributions (15% + FONASA 4.5% + FRL 0.1%)
// and the Category I rates (Art. 26). A second search found the DGI's own
// "¿Cómo se liquida el impuesto correspondiente a las rentas del trabajo?" and
// "Información General" pages, which describe the method without figures;
// no DGI numeric example for 2024 or 2025, so none of these is authoritative.
func TestExamplesUY(t *testing.T) { runExamples(t, "uy", examplesUY) }

var examplesUY = []example{
	// Computed from the DGI schedule, no published worked example found:
	// primary IRPF 10% × (600,000 − 518,868) = 8,113.20; deductions 117,600 ×
	// 14% = 16,464 absorb it.
	{name: "2024 wages 600000 (deductions absorb the tax)", year: 2024, in: Income{Employment: 600000},
		income: zero, social: 117600, capital: zero},
	// 2024 above 180 BPC: primary 22,237.20 + 55,593 + 24% × 88,140 =
	// 98,983.80; deductions 235,200 × 8% = 18,816; IRPF 80,167.80.
	{name: "2024 wages 1200000 (8% deduction rate)", year: 2024, in: Income{Employment: 1200000},
		income: 80167.80, social: 235200},
	// 2025: primary 23,673.60 + 59,184 + 284,083.20 + 25% × 632,640 =
	// 525,100.80; deductions 588,000 × 8% = 47,040; IRPF 478,060.80.
	// Category I: 12% interest + 7% dividends + 12% gains on 10,000 each = 3,100.
	{name: "2025 wages 3000000 + capital income", year: 2025, in: Income{Employment: 3000000, Interest: 10000, Dividends: 10000, CapitalGains: 10000},
		income: 478060.80, social: 588000, capital: 3100},
	// Computed from the schedule with BPC $6.864 (2026), no published
	// worked example found: primary 10% × (700,000 − 576,576) = 12,342.40;
	// deductions 137,200 (15% + 4.5% + 0.1%) × 14% = 19,208 absorb it.
	{name: "2026 wages 700000 (deductions absorb the tax)", year: 2026, in: Income{Employment: 700000},
		income: zero, social: 137200},
	// 2026 above 180 BPC (1,235,520): primary 24,710.40 + 61,776 + 24% ×
	// 264,480 = 149,961.60; deductions 294,000 × 8% = 23,520; IRPF
	// 126,441.60.
	{name: "2026 wages 1500000 (8% deduction rate)", year: 2026, in: Income{Employment: 1500000},
		income: 126441.60, social: 294000, tol: 0.01},
	// 2026: primary 24,710.40 + 61,776 + 296,524.80 + 25% × (4,000,000 −
	// 2,471,040) = 765,251.20; deductions 784,000 × 8% = 62,720; IRPF
	// 702,531.20. Category I: 12% × 20,000 interest + 7% × 20,000 dividends
	// = 3,800.
	{name: "2026 wages 4000000 + capital income", year: 2026, in: Income{Employment: 4000000, Interest: 20000, Dividends: 20000},
		income: 702531.20, social: 784000, capital: 3800, tol: 0.01},
}
