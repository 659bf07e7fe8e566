package tax

import "testing"

// No worked example published by the BMF or another German tax authority for
// 2024 or 2025 was found in the stored material (the BMF Lohnsteuer-
// Prüftabellen give withholding with the Vorsorgepauschale, which is not the
// assessed tax modelled here). All cases below but the 2026 Grundfreibetrag,
// which the statute itself states, are computed by hand from the
// statutes each comment cites (§ 32a EStG, SolZG, SGB contribution rates);
// they test the data, not against an authority's own figure.
func TestExamplesDE(t *testing.T) { runExamples(t, "de", examplesDE) }

var examplesDE = []example{
	// §32a Abs. 1 EStG 2024 (BGBl. 2024 I Nr. 386): zvE 50,000 (self-employed
	// 50,036 − Sonderausgaben-Pauschbetrag 36): z = 3.2995,
	// (181.19·z + 2,397)·z + 991.21 = 10,872.68 → 10,872 €; Soli 0 (below the
	// 18,130 € Freigrenze, §3 Abs. 3 SolZG).
	{name: "2024 zvE 50000 (computed)", year: 2024, in: Income{SelfEmployment: 50036},
		income: 10872, social: zero},
	// §32a 2024 zone 4: 0.42·100,000 − 10,636.31 = 31,363.69 → 31,363 €;
	// §4 SolZG: Soli ≤ 11.9% × (31,363 − 18,130) = 1,574.72 €.
	{name: "2024 zvE 100000 with Soli Milderungszone (computed)", year: 2024, in: Income{SelfEmployment: 100036},
		income: 31363 + 1574.72},
	// §32a Abs. 1 EStG ab 2025 (BGBl. 2024 I Nr. 449): zvE 40,000:
	// z = 2.2557, (176.64·z + 2,397)·z + 1,015.13 = 7,320.82 → 7,320 €.
	{name: "2025 zvE 40000 (computed)", year: 2025, in: Income{SelfEmployment: 40036},
		income: 7320},
	// §32a 2025 zone 5: 0.45·300,000 − 19,246.67 = 115,753.33 → 115,753 €;
	// Soli 5.5% = 6,366.41 € (above the Milderungszone).
	{name: "2025 zvE 300000 (computed)", year: 2025, in: Income{SelfEmployment: 300036},
		income: 115753 + 6366.41},
	// §20 Abs. 9, §32d Abs. 1 EStG, §4 SolZG: interest 5,000 − 1,000
	// Sparer-Pauschbetrag = 4,000 × 25% = 1,000 €, Soli 55 €.
	{name: "2024 interest 5000 (Abgeltungsteuer, computed)", year: 2024, in: Income{Interest: 5000},
		income: zero, capital: 1055},
	// Employee shares 2024 (§158 SGB VI 9.3%, §341 SGB III 1.3%, §241/242a
	// SGB V 7.3% + 0.85%, §55 SGB XI 1.7% + 0.6%): 60,000 € below both
	// ceilings → 5,580 + 780 + 4,890 + 1,380 = 12,630 €. zvE = 60,000 −
	// 1,230 − 36 − 5,580 − (0.96·4,890 + 1,380) = 47,079 → §32a: 9,838 €.
	{name: "2024 employee 60000 (computed)", year: 2024, in: Income{Employment: 60000},
		income: 9838, social: 12630},
	// §32a Abs. 1 Nr. 1 EStG for VZ 2026 (Steuerfortentwicklungsgesetz,
	// BGBl. 2024 I Nr. 449): the Grundfreibetrag is 12.348 €, so zvE 12,348
	// (self-employed 12,384 − Sonderausgaben-Pauschbetrag 36) owes no tax.
	{name: "2026 zvE 12348 (Grundfreibetrag)", src: table, year: 2026, in: Income{SelfEmployment: 12384},
		income: zero, social: zero},
	// §32a 2026 zone 3: zvE 40,000: z = (40,000 − 17,799)/10,000 = 2.2201,
	// (173.10·z + 2,397)·z + 1,034.87 = 7,209.x → 7,209 €; Soli 0.
	{name: "2026 zvE 40000 (computed)", year: 2026, in: Income{SelfEmployment: 40036},
		income: 7209},
	// §32a 2026 zone 4: 0.42·100,000 − 11,135.63 = 30,864.37 → 30,864 €;
	// §4 SolZG: Soli ≤ 11.9% × (30,864 − 20,350 Freigrenze 2026) = 1,251.16 €
	// (below 5.5% = 1,697.52 €).
	{name: "2026 zvE 100000 with Soli Milderungszone (computed)", year: 2026, in: Income{SelfEmployment: 100036},
		income: 30864 + 1251.16},
	// Employee shares 2026 (RV 9.3% and ALV 1.3% up to the 101,400 € BBG;
	// KV 7.3% + 1.45% (average Zusatzbeitrag 2.9%) and PV 1.8% + 0.6% up
	// to 69,750 €): 80,000 € → 7,440 + 1,040 + 6,103.125 + 1,674 =
	// 16,257.125 €. zvE = 80,000 − 1,230 − 36 − 7,440 − (0.96·6,103.125 +
	// 1,674) = 63,761 (the other Vorsorge is crowded out of the 1,900 €
	// limit) → z = 4.5962 → 15,708 €; Soli 0 (below 20,350 €).
	{name: "2026 employee 80000 above the KV ceiling (computed)", year: 2026, in: Income{Employment: 80000},
		income: 15708, social: 16257.125},
	// Statutory pension starting in 2026, 30,000 €: KV 8.75% and PV 4.2% =
	// 3,885 €; taxable share 84% = 25,200 − 102 − 36 − 3,885 = 21,177 →
	// z = 0.3378 → 1,864 €.
	{name: "2026 pension 30000 (Besteuerungsanteil 84%, computed)", year: 2026, in: Income{Pension: 30000},
		income: 1864, social: 3885},
}
