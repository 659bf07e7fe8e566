package tax

import (
	"errors"
	"testing"
)

// The ESTV publishes the tariff and an online calculator but no worked
// example was found in the stored material; these cases are computed by hand
// from the tariff of Art. 36 Abs. 1 DBG as set by the Verordnung über die
// kalte Progression for each tax year (Fedlex SR 642.119.2; for 2026 AS 2025
// 579 as corrected by AS 2025 621), the Berufskostenverordnung and the
// AHV/ALV rates, as each comment says. The 2026 table cases are incomes whose
// taxable amount (after the fixed Versicherungsabzug) equals a row the 2026
// tariff prints.
func TestExamplesCH(t *testing.T) { runExamples(t, "ch", examplesCH) }

// Cantons are modelled from 2025: in 2024 a canton answers ErrRegion, and a
// comparison counts Zürich from 2025 only.
func TestCHCantonYears(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "ch")
	var r Result
	for _, rg := range []string{"ZH", "GE", "TI"} {
		if err := Calculate(s, 2024, &Income{Employment: 80000}, rg, &r); !errors.Is(err, ErrRegion) {
			t.Errorf("2024 %s: %v, want ErrRegion", rg, err)
		}
		if err := Calculate(s, 2025, &Income{Employment: 80000}, rg, &r); err != nil || r.RegionalTax <= 0 {
			t.Errorf("2025 %s: %v, regional %.2f", rg, err, r.RegionalTax)
		}
	}
	if err := Calculate(s, 2025, &Income{Employment: 80000}, "LU", &r); !errors.Is(err, ErrRegion) {
		t.Errorf("2025 LU (not modelled): %v", err)
	}
	if got := s.LocalRegion(2024); got != "" {
		t.Errorf("2024 comparison region %q, want none", got)
	}
	if got := s.LocalRegion(2025); got != "ZH" {
		t.Errorf("2025 comparison region %q, want ZH", got)
	}
	// 2026 models all seven cantons; a canton outside them still answers
	// ErrRegion.
	for _, rg := range []string{"ZH", "ZG", "GE", "VD", "BS", "BE", "TI"} {
		if err := Calculate(s, 2026, &Income{Employment: 80000}, rg, &r); err != nil || r.RegionalTax <= 0 {
			t.Errorf("2026 %s: %v, regional %.2f", rg, err, r.RegionalTax)
		}
	}
	if err := Calculate(s, 2026, &Income{Employment: 80000}, "LU", &r); !errors.Is(err, ErrRegion) {
		t.Errorf("2026 LU (not modelled): %v", err)
	}
	if got := s.LocalRegion(2026); got != "ZH" {
		t.Errorf("2026 comparison region %q, want ZH", got)
	}
}

var examplesCH = []example{
	// Computed, 2024, wages 80 000: AHV/IV/EO 4240, ALV 880; BVG 6.25 % of
	// the coordinated salary 80 000 − 25 725 = 3392.19 (BVV 2 Art. 5, 2024);
	// Berufskosten 3 % × 74 880 = 2246.40; no Versicherungsabzug in 2024;
	// taxable 69 241.41 → 69 200: 603.40 + 120 × 2.97 = 959.80 Fr.
	{name: "2024 wages 80000 (computed from the VKP 2024 tariff)", year: 2024, in: Income{Employment: 80000},
		income: 959.80, social: 5120, capital: zero},
	// Computed, 2025, wages 150 000: AHV/IV/EO 7950, ALV 1.1 % × 148 200 =
	// 1630.20; BVG 6.25 % of the maximum coordinated salary 90 720 − 26 460
	// = 4016.25; Berufskosten at the 4000 maximum; Versicherungsabzug 1800
	// (with BVG contributions); taxable 130 603.55 → 130 600: 3268.80 + 218
	// × 8.80 = 5187.20 Fr.
	{name: "2025 wages 150000 (computed from the VKP 2025 tariff)", year: 2025, in: Income{Employment: 150000},
		income: 5187.20, social: 9580.20},
	// Computed, 2024, wages 30 000: AHV/IV/EO 1590, ALV 330; BVG 6.25 % ×
	// (30 000 − 25 725) = 267.19; Berufskosten minimum 2000; taxable
	// 25 812.81 → 25 800: 108 × 0.77 = 83.16 Fr.
	{name: "2024 wages 30000 (minimum Berufskosten, computed)", year: 2024, in: Income{Employment: 30000},
		income: 83.16, social: 1920},
	// Computed, 2025, interest and dividends 30 000 (ordinary income, Art.
	// 20 DBG) less the Versicherungsabzug of 2700 for a person without BVG
	// or pillar 3a contributions (Art. 33 Abs. 1bis lit. a DBG): taxable
	// 27 300, 121 × 0.77 = 93.17 Fr.; gains on private assets tax-free.
	{name: "2025 interest + dividends 30000, gains 50000 (computed)", year: 2025, in: Income{Interest: 15000, Dividends: 15000, CapitalGains: 50000},
		income: 93.17, social: zero, capital: zero},
	// Computed, 2025, interest 19 700 less 2700: taxable 17 000, 18 × 0.77 =
	// 13.86 Fr., below the 25-franc collection threshold of Art. 36 DBG →
	// nil.
	{name: "2025 interest 19700 (below 25 Fr., not collected)", year: 2025, in: Income{Interest: 19700},
		income: zero},
	// Computed, 2025, pension 40 000 in Zürich: no BVG contributions, so the
	// higher Versicherungsabzug applies (Kantonales Steueramt Zürich, Form
	// 365 for 2025: 4350 Staatssteuer, 2700 Bundessteuer). Federal taxable
	// 37 300: 138.60 + 41 × 0.88 = 174.68 Fr. Zürich taxable 35 650 →
	// 35 600; simple tax 4900×2% + 4800×3% + 7900×4% + 9600×5% + 1500×6% =
	// 1128.00; × (98 % + 119 %) = 2447.76.
	{name: "2025 Zürich pension 40000 (higher insurance deduction, computed)", year: 2025, region: "ZH", in: Income{Pension: 40000},
		income: 174.68, regional: 2447.76, social: zero},
	// Computed, 2025, wages 20 000 in Zürich (below the BVG Eintrittsschwelle
	// of 22 680): AHV/IV/EO 1060, ALV 220, no BVG, Berufskosten 2000
	// (minimum), Versicherungsabzug without BVG contributions: federal 2700,
	// taxable 14 020, below the tariff's 15 200 → nil; Zürich 4350, taxable
	// 12 370 → 12 300, simple tax 4900×2% + 500×3% = 113.00; × (98 % +
	// 119 %) = 110.74 + 134.47 = 245.21.
	{name: "2025 Zürich wages 20000 (no BVG, higher insurance deduction, computed)", year: 2025, region: "ZH", in: Income{Employment: 20000},
		income: zero, social: 1280, regional: 245.21},

	// Direct federal tax 2026: Art. 36 Abs. 1 DBG as set for 2026 by the EFD
	// (AS 2025 579, corrected by AS 2025 621). Interest bears no deduction
	// but the fixed Versicherungsabzug of 2700 francs (no BVG or pillar 3a
	// contributions; unchanged for 2026), so an income 2700 above a row of
	// the tariff pays the amount printed there.
	// Table, 2026, interest 111 600, taxable 108 900: the tariff prints
	// 3271.75 Fr.
	{name: "2026 interest 111600 (tariff row 108900)", src: table, year: 2026, in: Income{Interest: 111600},
		income: 3271.75, social: zero},
	// Table, 2026, dividends 144 200, taxable 141 500: the tariff prints
	// 6140.55 Fr.
	{name: "2026 dividends 144200 (tariff row 141500)", src: table, year: 2026, in: Income{Dividends: 144200},
		income: 6140.55},
	// Table, 2026, interest 796 700, taxable 794 000: from 794 000 francs
	// the tax is 11,5 % of the whole taxable income, 91 310 Fr.
	{name: "2026 interest 796700 (11.5 % of the whole taxable income)", src: table, year: 2026, in: Income{Interest: 796700},
		income: 91310.00},
	// Computed, 2026, wages 80 000: AHV/IV/EO 4240, ALV 880 (rates unchanged
	// for 2026); BVG 6.25 % × (80 000 − 26 460) = 3346.25 (limits unchanged
	// for 2026); Berufskosten 3 % × 74 880 = 2246.40 (unchanged for 2026);
	// Versicherungsabzug 1800; taxable 67 487.35 → 67 400: 612.00 + 94 ×
	// 2.97 = 891.18 Fr.
	{name: "2026 wages 80000 (computed from the 2026 tariff)", year: 2026, in: Income{Employment: 80000},
		income: 891.18, social: 5120, capital: zero},
	// Computed, 2026, wages 150 000: AHV/IV/EO 7950, ALV 1.1 % × 148 200 =
	// 1630.20; BVG 4016.25 (maximum); Berufskosten at the 4000 maximum;
	// Versicherungsabzug 1800; taxable 130 603.55 → 130 600: 3271.75 + 217
	// × 8.80 = 5181.35 Fr.
	{name: "2026 wages 150000 (computed from the 2026 tariff)", year: 2026, in: Income{Employment: 150000},
		income: 5181.35, social: 9580.20},

	// Cantonal and communal income tax, 2025. The simple tax follows each
	// canton's statutory tariff for a single person as the ESTV tax data for
	// 2025 states it; the multipliers are the canton's and its capital's
	// (Bern's and Vaud's as lowered for 2025, see ch.json). Wage deductions:
	// AHV/IV/EO 5.3 %, ALV 1.1 % up to 148 200, and the canton's flat
	// Berufskosten on the net wage. Capital gains are tax-free. Results are
	// the sum of the unrounded canton and commune parts, to the cent.
	// Zürich also deducts the employee's BVG contributions as modelled (6.25 %
	// of the wage less 26 460, at most 4016.25) and the Versicherungsabzug
	// (Kantonales Steueramt Zürich, Form 365 for 2025: 2900 with BVG
	// contributions, 4350 without).
	// Computed, ZH: wages 60 000.00: AHV/IV/EO 3 180.00, ALV 660.00, BVG 2 096.25,
	// Berufskosten 2 000.00, Versicherungsabzug 2 900.00; taxable 49 163.75 → 49 100.00;
	// simple tax 4900×2% + 4800×3% + 7900×4% + 9600×5% + 11000×6% + 4000×7% = 1 978.00;
	// × (98 % + 119 %) = 1 938.44 + 2 353.82 = 4 292.26.
	{name: "2025 Zürich wages 60000 (computed from the cantonal tariff)", year: 2025, region: "ZH", in: Income{Employment: 60000},
		regional: 4292.26},
	// Computed, ZH: wages 100 000.00: AHV/IV/EO 5 300.00, ALV 1 100.00, BVG 4 016.25,
	// Berufskosten 2 808.00, Versicherungsabzug 2 900.00; taxable 83 875.75 → 83 800.00;
	// simple tax 4900×2% + 4800×3% + 7900×4% + 9600×5% + 11000×6% + 12900×7% + 17400×8% + 8400×9% = 4 749.00;
	// × (98 % + 119 %) = 4 654.02 + 5 651.31 = 10 305.33.
	{name: "2025 Zürich wages 100000 (computed from the cantonal tariff)", year: 2025, region: "ZH", in: Income{Employment: 100000},
		regional: 10305.33},
	// Computed, ZH: wages 200 000.00: AHV/IV/EO 10 600.00, ALV 1 630.20, BVG 4 016.25,
	// Berufskosten 4 000.00, Versicherungsabzug 2 900.00; taxable 176 853.55 → 176 800.00;
	// simple tax 4900×2% + 4800×3% + 7900×4% + 9600×5% + 11000×6% + 12900×7% + 17400×8% + 33600×9% + 33200×10% + 34600×11% = 14 143.00;
	// × (98 % + 119 %) = 13 860.14 + 16 830.17 = 30 690.31.
	{name: "2025 Zürich wages 200000 (computed from the cantonal tariff)", year: 2025, region: "ZH", in: Income{Employment: 200000},
		regional: 30690.31},
	// Computed, ZH: interest and dividends 40 000.00 (no wage deductions),
	// Versicherungsabzug 4 350.00 (no BVG contributions); taxable 35 650.00 → 35 600.00;
	// simple tax 4900×2% + 4800×3% + 7900×4% + 9600×5% + 1500×6% = 1 128.00;
	// × (98 % + 119 %) = 1 105.44 + 1 342.32 = 2 447.76.
	{name: "2025 Zürich interest + dividends 40000, gains 50000 (computed from the cantonal tariff)", year: 2025, region: "ZH", in: Income{Interest: 20000, Dividends: 20000, CapitalGains: 50000},
		regional: 2447.76},
	// Computed, ZG: wages 60 000.00: AHV/IV/EO 3 180.00, ALV 660.00, Berufskosten 2 000.00;
	// personal deduction 12 000; taxable 42 160.00 → 42 100.00;
	// simple tax 1 167.50 + (42 100.00 − 34 900.00) × 5.5 % = 1 563.50;
	// × (82 % + 52.11 %) = 1 282.07 + 814.74 = 2 096.81.
	{name: "2025 Zug wages 60000 (computed from the cantonal tariff)", year: 2025, region: "ZG", in: Income{Employment: 60000},
		regional: 2096.81},
	// Computed, ZG: wages 100 000.00: AHV/IV/EO 5 300.00, ALV 1 100.00, Berufskosten 2 808.00;
	// personal deduction 12 000; taxable 78 792.00 → 78 700.00;
	// simple tax 3 506.50 + (78 700.00 − 74 700.00) × 8 % = 3 826.50;
	// × (82 % + 52.11 %) = 3 137.73 + 1 993.99 = 5 131.72.
	{name: "2025 Zug wages 100000 (computed from the cantonal tariff)", year: 2025, region: "ZG", in: Income{Employment: 100000},
		regional: 5131.72},
	// Computed, ZG: wages 200 000.00: AHV/IV/EO 10 600.00, ALV 1 630.20, Berufskosten 4 000.00;
	// personal deduction 12 000; taxable 171 769.80 → 171 700.00;
	// simple tax 10 326.50 + (171 700.00 − 149 900.00) × 8 % = 12 070.50;
	// × (82 % + 52.11 %) = 9 897.81 + 6 289.94 = 16 187.75.
	{name: "2025 Zug wages 200000 (computed from the cantonal tariff)", year: 2025, region: "ZG", in: Income{Employment: 200000},
		regional: 16187.75},
	// Computed, GE: wages 60 000.00: AHV/IV/EO 3 180.00, ALV 660.00, Berufskosten 1 684.80;
	// taxable 54 475.20;
	// simple tax 3 140.40 + (54 475.20 − 48 309.00) × 13.2 % = 3 954.34;
	// × ((147.5 % × 0.88 + 1 %) + 45.49 %) = 5 172.27 + 1 798.83 = 6 971.10.
	{name: "2025 Geneva wages 60000 (computed from the cantonal tariff)", year: 2025, region: "GE", in: Income{Employment: 60000},
		regional: 6971.10},
	// Computed, GE: wages 100 000.00: AHV/IV/EO 5 300.00, ALV 1 100.00, Berufskosten 1 796.00;
	// taxable 91 804.00;
	// simple tax 6 995.95 + (91 804.00 − 77 518.00) × 14.2 % = 9 024.56;
	// × ((147.5 % × 0.88 + 1 %) + 45.49 %) = 11 804.13 + 4 105.27 = 15 909.40.
	{name: "2025 Geneva wages 100000 (computed from the cantonal tariff)", year: 2025, region: "GE", in: Income{Employment: 100000},
		regional: 15909.40},
	// Computed, GE: wages 200 000.00: AHV/IV/EO 10 600.00, ALV 1 630.20, Berufskosten 1 796.00;
	// taxable 185 973.80;
	// simple tax 20 587.40 + (185 973.80 − 170 764.00) × 15.6 % = 22 960.13;
	// × ((147.5 % × 0.88 + 1 %) + 45.49 %) = 30 031.85 + 10 444.56 = 40 476.41.
	{name: "2025 Geneva wages 200000 (computed from the cantonal tariff)", year: 2025, region: "GE", in: Income{Employment: 200000},
		regional: 40476.41},
	// Computed, GE: interest and dividends 40 000.00 (no wage deductions);
	// taxable 40 000.00;
	// simple tax 2 012.25 + (40 000.00 − 39 320.00) × 12.3 % = 2 095.89;
	// × ((147.5 % × 0.88 + 1 %) + 45.49 %) = 2 741.42 + 953.42 = 3 694.84.
	{name: "2025 Geneva interest + dividends 40000, gains 50000 (computed from the cantonal tariff)", year: 2025, region: "GE", in: Income{Interest: 20000, Dividends: 20000, CapitalGains: 50000},
		regional: 3694.84},
	// Computed, VD: wages 60 000.00: AHV/IV/EO 3 180.00, ALV 660.00, Berufskosten 2 000.00;
	// taxable 54 160.00 → 54 100.00;
	// simple tax 2 550.00 + (54 100.00 − 40 500.00) × 9 % = 3 774.00;
	// × (155 % × 0.96 + 78.5 %) = 5 615.71 + 2 962.59 = 8 578.30.
	{name: "2025 Vaud wages 60000 (computed from the cantonal tariff)", year: 2025, region: "VD", in: Income{Employment: 60000},
		regional: 8578.30},
	// Computed, VD: wages 100 000.00: AHV/IV/EO 5 300.00, ALV 1 100.00, Berufskosten 2 808.00;
	// taxable 90 792.00 → 90 700.00;
	// simple tax 5 763.00 + (90 700.00 − 74 300.00) × 11 % = 7 567.00;
	// × (155 % × 0.96 + 78.5 %) = 11 259.70 + 5 940.10 = 17 199.79.
	{name: "2025 Vaud wages 100000 (computed from the cantonal tariff)", year: 2025, region: "VD", in: Income{Employment: 100000},
		regional: 17199.79},
	// Computed, VD: wages 200 000.00: AHV/IV/EO 10 600.00, ALV 1 630.20, Berufskosten 4 000.00;
	// taxable 183 769.80 → 183 700.00;
	// simple tax 16 511.50 + (183 700.00 − 161 900.00) × 13.5 % = 19 454.50;
	// × (155 % × 0.96 + 78.5 %) = 28 948.30 + 15 271.78 = 44 220.08.
	{name: "2025 Vaud wages 200000 (computed from the cantonal tariff)", year: 2025, region: "VD", in: Income{Employment: 200000},
		regional: 44220.08},
	// Computed, BS: wages 60 000.00: AHV/IV/EO 3 180.00, ALV 660.00, Berufskosten 4 200.00;
	// Sozialabzug 19 500; taxable 32 460.00 → 32 400.00;
	// simple tax 0.00 + (32 400.00 − 0.00) × 21 % = 6 804.00;
	// × (100 %) = 6 804.00 = 6 804.00.
	{name: "2025 Basel-Stadt wages 60000 (computed from the cantonal tariff)", year: 2025, region: "BS", in: Income{Employment: 60000},
		regional: 6804.00},
	// Computed, BS: wages 100 000.00: AHV/IV/EO 5 300.00, ALV 1 100.00, Berufskosten 4 200.00;
	// Sozialabzug 19 500; taxable 69 900.00 → 69 900.00;
	// simple tax 0.00 + (69 900.00 − 0.00) × 21 % = 14 679.00;
	// × (100 %) = 14 679.00 = 14 679.00.
	{name: "2025 Basel-Stadt wages 100000 (computed from the cantonal tariff)", year: 2025, region: "BS", in: Income{Employment: 100000},
		regional: 14679.00},
	// Computed, BS: wages 200 000.00: AHV/IV/EO 10 600.00, ALV 1 630.20, Berufskosten 4 200.00;
	// Sozialabzug 19 500; taxable 164 069.80 → 164 000.00;
	// simple tax 0.00 + (164 000.00 − 0.00) × 21 % = 34 440.00;
	// × (100 %) = 34 440.00 = 34 440.00.
	{name: "2025 Basel-Stadt wages 200000 (computed from the cantonal tariff)", year: 2025, region: "BS", in: Income{Employment: 200000},
		regional: 34440.00},
	// Computed, BE: wages 60 000.00: AHV/IV/EO 3 180.00, ALV 660.00, Berufskosten 2 000.00;
	// taxable 54 160.00 → 54 100.00;
	// simple tax 3300×1.95% + 3300×2.9% + 9800×3.6% + 16000×4.15% + 21700×4.45% = 2 142.50;
	// × (2.975 + 1.54) = 6 373.94 + 3 299.45 = 9 673.39.
	{name: "2025 Bern wages 60000 (computed from the cantonal tariff)", year: 2025, region: "BE", in: Income{Employment: 60000},
		regional: 9673.39},
	// Computed, BE: wages 100 000.00: AHV/IV/EO 5 300.00, ALV 1 100.00, Berufskosten 2 808.00;
	// taxable 90 792.00 → 90 700.00;
	// simple tax 3300×1.95% + 3300×2.9% + 9800×3.6% + 16000×4.15% + 26700×4.45% + 26700×5% + 4900×5.6% = 3 974.40;
	// × (2.975 + 1.54) = 11 823.84 + 6 120.58 = 17 944.42.
	{name: "2025 Bern wages 100000 (computed from the cantonal tariff)", year: 2025, region: "BE", in: Income{Employment: 100000},
		regional: 17944.42},
	// Computed, BE: wages 200 000.00: AHV/IV/EO 10 600.00, ALV 1 630.20, Berufskosten 4 000.00;
	// taxable 183 769.80 → 183 700.00;
	// simple tax 3300×1.95% + 3300×2.9% + 9800×3.6% + 16000×4.15% + 26700×4.45% + 26700×5% + 26700×5.6% + 26700×5.75% + 26700×5.9% + 17800×6.05% = 9 382.65;
	// × (2.975 + 1.54) = 27 913.38 + 14 449.28 = 42 362.66.
	{name: "2025 Bern wages 200000 (computed from the cantonal tariff)", year: 2025, region: "BE", in: Income{Employment: 200000},
		regional: 42362.66},
	// Computed, TI: wages 60 000.00: AHV/IV/EO 3 180.00, ALV 660.00, Berufskosten 3 000.00;
	// taxable 53 160.00 → 53 100.00;
	// simple tax 3 245.50 + (53 100.00 − 52 700.00) × 10.988 % = 3 289.45;
	// × (100 % + 93 %) = 3 289.45 + 3 059.19 = 6 348.64.
	{name: "2025 Ticino wages 60000 (computed from the cantonal tariff)", year: 2025, region: "TI", in: Income{Employment: 60000},
		regional: 6348.64},
	// Computed, TI: wages 100 000.00: AHV/IV/EO 5 300.00, ALV 1 100.00, Berufskosten 3 000.00;
	// taxable 90 600.00 → 90 600.00;
	// simple tax 5 597.05 + (90 600.00 − 73 000.00) × 11.597 % = 7 638.12;
	// × (100 % + 93 %) = 7 638.12 + 7 103.45 = 14 741.58.
	{name: "2025 Ticino wages 100000 (computed from the cantonal tariff)", year: 2025, region: "TI", in: Income{Employment: 100000},
		regional: 14741.58},
	// Computed, TI: wages 200 000.00: AHV/IV/EO 10 600.00, ALV 1 630.20, Berufskosten 3 000.00;
	// taxable 184 769.80 → 184 700.00;
	// simple tax 10 536.60 + (184 700.00 − 113 900.00) × 13.08 % = 19 797.24;
	// × (100 % + 93 %) = 19 797.24 + 18 411.43 = 38 208.67.
	{name: "2025 Ticino wages 200000 (computed from the cantonal tariff)", year: 2025, region: "TI", in: Income{Employment: 200000},
		regional: 38208.67},

	// Cantonal and communal income tax, 2026, for the three cantons the year
	// models. Wage deductions as in 2025 (AHV/IV/EO 5.3 %, ALV 1.1 % up to
	// 148 200, the canton's flat Berufskosten on the net wage); results are
	// the unrounded canton and commune parts summed, to the cent.
	// Computed, ZH (§ 35 StG indexed by 1.3 % for 2026; Kanton 95 %, Stadt 119 %;
	// BVG contributions deducted as in 2025, no Versicherungsabzug in 2026):
	// wages 60 000: AHV/IV/EO 3180, ALV 660, BVG 2096.25, Berufskosten 2000; taxable 52 063.75 → 52 000;
	// simple tax 5000×2% + 4800×3% + 8000×4% + 9700×5% + 11200×6% + 6300×7% = 2162.00;
	// × (95 % + 119 %) = 2053.90 + 2572.78 = 4626.68. Federal: taxable
	// 52 063.75 less the Versicherungsabzug of 1800 = 50 263.75 → 50 200:
	// 229.20 + 67 × 2.64 = 406.08.
	{name: "2026 Zürich wages 60000 (computed from the 2026 tariff)", year: 2026, region: "ZH", in: Income{Employment: 60000},
		regional: 4626.68, income: 406.08},
	// Computed, ZH: wages 100 000: AHV/IV/EO 5300, ALV 1100, BVG 4016.25, Berufskosten 2808; taxable 86 775.75 → 86 700;
	// simple tax 5000×2% + 4800×3% + 8000×4% + 9700×5% + 11200×6% + 13100×7% + 17600×8% + 10300×9% = 4973.00;
	// × (95 % + 119 %) = 4724.35 + 5917.87 = 10 642.22.
	{name: "2026 Zürich wages 100000 (computed from the 2026 tariff)", year: 2026, region: "ZH", in: Income{Employment: 100000},
		regional: 10642.22},
	// Computed, ZH: wages 200 000: AHV/IV/EO 10 600, ALV 1630.20, BVG 4016.25, Berufskosten 4000; taxable 179 753.55 → 179 700;
	// simple tax 5000×2% + 4800×3% + 8000×4% + 9700×5% + 11200×6% + 13100×7% + 17600×8% + 34000×9% + 33700×10% + 35600×11% = 14 392.00;
	// × (95 % + 119 %) = 13 672.40 + 17 126.48 = 30 798.88.
	{name: "2026 Zürich wages 200000 (computed from the 2026 tariff)", year: 2026, region: "ZH", in: Income{Employment: 200000},
		regional: 30798.88},
	// Computed, ZH: interest and dividends 40 000 (no wage deductions);
	// simple tax 5000×2% + 4800×3% + 8000×4% + 9700×5% + 5500×6% = 1379.00;
	// × (95 % + 119 %) = 1310.05 + 1641.01 = 2951.06.
	{name: "2026 Zürich interest + dividends 40000, gains 50000 (computed from the 2026 tariff)", year: 2026, region: "ZH", in: Income{Interest: 20000, Dividends: 20000, CapitalGains: 50000},
		regional: 2951.06},
	// Computed, ZG (Grundtarif 2026 as 2025; Kanton 78 %, Stadt Zug 52 %):
	// wages 60 000: Berufskosten 2000, personal deduction 12 000; taxable 42 160 → 42 100;
	// simple tax 1167.50 + (42 100 − 34 900) × 5.5 % = 1563.50;
	// × (78 % + 52 %) = 1219.53 + 813.02 = 2032.55.
	{name: "2026 Zug wages 60000 (computed from the cantonal tariff)", year: 2026, region: "ZG", in: Income{Employment: 60000},
		regional: 2032.55},
	// Computed, ZG: wages 100 000: Berufskosten 2808, personal deduction 12 000; taxable 78 792 → 78 700;
	// simple tax 3506.50 + (78 700 − 74 700) × 8 % = 3826.50;
	// × (78 % + 52 %) = 2984.67 + 1989.78 = 4974.45.
	{name: "2026 Zug wages 100000 (computed from the cantonal tariff)", year: 2026, region: "ZG", in: Income{Employment: 100000},
		regional: 4974.45},
	// Computed, ZG: wages 200 000: Berufskosten 4000, personal deduction 12 000; taxable 171 769.80 → 171 700;
	// simple tax 10 326.50 + (171 700 − 149 900) × 8 % = 12 070.50;
	// × (78 % + 52 %) = 9414.99 + 6276.66 = 15 691.65.
	{name: "2026 Zug wages 200000 (computed from the cantonal tariff)", year: 2026, region: "ZG", in: Income{Employment: 200000},
		regional: 15691.65},
	// Computed, GE (art. 41 LIPP as indexed by art. 17 RCEPF 2026; impôt de
	// base × (147.5 % × 0.88 + 1 %) + Ville de Genève 45.49 %; no rounding):
	// wages 60 000: frais professionnels 3 % × 56 160 = 1684.80; taxable 54 475.20;
	// impôt de base 3830×7.3% + 2254×8.2% + 2252×9.1% + 2254×10% + 5632×10.9% + 4506×11.3%
	// + 4507×12.3% + 4506×12.8% + 6034.20×13.2% = 3945.4594; × 1.308 + × 0.4549 = 5160.66 + 1794.79 = 6955.45.
	{name: "2026 Geneva wages 60000 (computed from the 2026 barème)", year: 2026, region: "GE", in: Income{Employment: 60000},
		regional: 6955.45},
	// Computed, GE: wages 100 000: frais professionnels at the 1817 maximum; taxable 91 783;
	// impôt de base (as above to 48 441) + 29 289×13.2% + 14 053×14.2% = 9010.619;
	// × 1.308 + × 0.4549 = 11 785.89 + 4098.93 = 15 884.82.
	{name: "2026 Geneva wages 100000 (computed from the 2026 barème)", year: 2026, region: "GE", in: Income{Employment: 100000},
		regional: 15884.82},
	// Computed, GE: wages 200 000: frais professionnels 1817; taxable 185 952.80;
	// impôt de base (to 77 730 as above) + 49 567×14.2% + 43 934×15% + 14 721.80×15.6% = 22 940.3078;
	// × 1.308 + × 0.4549 = 30 005.92 + 10 435.55 = 40 441.47.
	{name: "2026 Geneva wages 200000 (computed from the 2026 barème)", year: 2026, region: "GE", in: Income{Employment: 200000},
		regional: 40441.47},

	// Cantonal and communal income tax, 2026, for Vaud, Basel-Stadt, Bern and
	// Ticino, from the ESTV's tax data for 2026 (tariffs, multipliers and
	// deductions), with Vaud's 5 % reduction of the cantonal tax under the
	// LRIPP. The table cases are incomes equal to a row of the cantonal
	// tariff: the tariff prints the simple tax there, and the result is that
	// printed amount times the published multipliers.
	// Table, BS: interest 232 000 less the Sozialabzug 19 500 = 212 500, a
	// row of § 36 StG (Tarif A): the tariff prints 44 625.00 Fr.; × 100 %.
	{name: "2026 Basel-Stadt interest 232000 (tariff row 212500)", src: table, year: 2026, region: "BS", in: Income{Interest: 232000},
		regional: 44625.00},
	// Table, BS: interest 335 800 − 19 500 = 316 300: the tariff prints 72 910.50 Fr.
	{name: "2026 Basel-Stadt interest 335800 (tariff row 316300)", src: table, year: 2026, region: "BS", in: Income{Interest: 335800},
		regional: 72910.50},
	// Computed, BS (tariff and deductions as in 2025): wages 100 000: AHV/IV/EO 5300,
	// ALV 1100, Berufskosten 4200, Sozialabzug 19 500; taxable 69 900;
	// 69 900 × 21 % = 14 679.00.
	{name: "2026 Basel-Stadt wages 100000 (computed from the cantonal tariff)", year: 2026, region: "BS", in: Income{Employment: 100000},
		regional: 14679.00},
	// Computed from a printed row, VD: interest 108 000, a row of the 2026 barème: impôt de base
	// 9639.00 Fr.; × (155 % × 0.95 + 78.5 %) = 14 193.4275 + 7566.615 = 21 760.04.
	{name: "2026 Vaud interest 108000 (barème row)", year: 2026, region: "VD", in: Income{Interest: 108000},
		regional: 21760.04},
	// Computed from a printed row, VD: interest 40 500, a row of the 2026 barème: impôt de base
	// 2550.00 Fr.; × 2.2575 = 3754.875 + 2001.75 = 5756.63.
	{name: "2026 Vaud interest 40500 (barème row)", year: 2026, region: "VD", in: Income{Interest: 40500},
		regional: 5756.63},
	// Computed, VD: wages 60 000: AHV/IV/EO 3180, ALV 660, frais professionnels 2000;
	// taxable 54 160 → 54 100; impôt de base 2550.00 + (54 100 − 40 500) × 9 % = 3774.00;
	// × (155 % × 0.95 + 78.5 %) = 5557.215 + 2962.59 = 8519.81.
	{name: "2026 Vaud wages 60000 (computed from the 2026 barème)", year: 2026, region: "VD", in: Income{Employment: 60000},
		regional: 8519.81},
	// Computed, VD: wages 100 000: AHV/IV/EO 5300, ALV 1100, frais professionnels 2808;
	// taxable 90 792 → 90 700; impôt de base 5763.00 + (90 700 − 74 300) × 11 % = 7567.00;
	// × 2.2575 = 11 142.4075 + 5940.095 = 17 082.50.
	{name: "2026 Vaud wages 100000 (computed from the 2026 barème)", year: 2026, region: "VD", in: Income{Employment: 100000},
		regional: 17082.50},
	// Computed, VD: wages 200 000: AHV/IV/EO 10 600, ALV 1630.20, frais professionnels 4000;
	// taxable 183 769.80 → 183 700; impôt de base 16 511.50 + (183 700 − 161 900) × 13.5 % = 19 454.50;
	// × 2.2575 = 28 646.75 + 15 271.78 = 43 918.53.
	{name: "2026 Vaud wages 200000 (computed from the 2026 barème)", year: 2026, region: "VD", in: Income{Employment: 200000},
		regional: 43918.53},
	// Computed, BE (Art. 42 StG, bands indexed by 0.6 % for 2026; Kanton 2.975, Stadt 1.54):
	// wages 60 000: AHV/IV/EO 3180, ALV 660, Berufskosten 2000; taxable 54 160 → 54 100;
	// simple tax 3300×1.95% + 3300×2.9% + 9800×3.6% + 16100×4.15% + 21600×4.45% = 2142.20;
	// × (2.975 + 1.54) = 6373.045 + 3298.988 = 9672.03.
	{name: "2026 Bern wages 60000 (computed from the 2026 tariff)", year: 2026, region: "BE", in: Income{Employment: 60000},
		regional: 9672.03},
	// Computed, BE: wages 100 000: AHV/IV/EO 5300, ALV 1100, Berufskosten 2808; taxable 90 792 → 90 700;
	// simple tax 3300×1.95% + 3300×2.9% + 9800×3.6% + 16100×4.15% + 26900×4.45% + 26900×5% + 4400×5.6% = 3969.45;
	// × 4.515 = 11 809.11 + 6112.95 = 17 922.07.
	{name: "2026 Bern wages 100000 (computed from the 2026 tariff)", year: 2026, region: "BE", in: Income{Employment: 100000},
		regional: 17922.07},
	// Computed, BE: wages 200 000: AHV/IV/EO 10 600, ALV 1630.20, Berufskosten 4000; taxable 183 769.80 → 183 700;
	// simple tax 3300×1.95% + 3300×2.9% + 9800×3.6% + 16100×4.15% + 26900×4.45% + 26900×5%
	// + 26900×5.6% + 26900×5.75% + 26900×5.9% + 16700×6.05% = 9373.65;
	// × 4.515 = 27 886.61 + 14 435.42 = 42 322.03.
	{name: "2026 Bern wages 200000 (computed from the 2026 tariff)", year: 2026, region: "BE", in: Income{Employment: 200000},
		regional: 42322.03},
	// Computed from a printed row, TI: interest 12 500, a row of art. 35 LT: the tariff prints
	// 20.00 Fr.; × (100 % + 93 %) = 20.00 + 18.60 = 38.60.
	{name: "2026 Ticino interest 12500 (tariff row)", year: 2026, region: "TI", in: Income{Interest: 12500},
		regional: 38.60},
	// Computed from a printed row, TI: interest 113 900, a row of art. 35 LT: the tariff prints
	// 10 536.60 Fr.; × 1.93 = 10 536.60 + 9799.038 = 20 335.64. The tariff's
	// row amounts are rounded: the 12.47 % band below the row reaches
	// 10 536.70 there (7730.95 + 22 500 × 12.47 %), hence the 0.20 tolerance.
	{name: "2026 Ticino interest 113900 (tariff row)", year: 2026, region: "TI", in: Income{Interest: 113900},
		regional: 20335.64, tol: 0.20},
	// Computed, TI: interest 400 000, above the top row: 46 888.10 + (400 000 − 380 600) × 14 %
	// (14.5 % in 2025) = 49 604.10; × 1.93 = 95 735.91.
	{name: "2026 Ticino interest 400000 (top rate 14 %, computed)", year: 2026, region: "TI", in: Income{Interest: 400000},
		regional: 95735.91},
	// Computed, TI: wages 100 000: AHV/IV/EO 5300, ALV 1100, spese professionali 3000; taxable 90 600;
	// 5597.05 + (90 600 − 73 000) × 11.597 % = 7638.122; × 1.93 = 7638.12 + 7103.45 = 14 741.58.
	{name: "2026 Ticino wages 100000 (computed from the cantonal tariff)", year: 2026, region: "TI", in: Income{Employment: 100000},
		regional: 14741.58},
}
