package tax

import (
	"math"
	"testing"
)

// US returns by age and filing: the additional standard deduction at 65
// (IRC §63(f)), the 2025-2028 deduction for seniors (IRC §151(d)(5)(C) as
// added by P.L. 119-21 §70103; Schedule 1-A Part V) and married filing
// jointly. No IRS worked example covers these inputs, so every case is our
// arithmetic on the IRS figures, shown beside it. Tax Table amounts are the
// tax at the middle of the $50 row, rounded to the dollar, as the table is
// built (the single examples of examples_us_test.go read the same rule off
// the printed table).
var examplesUSFiling = []example{
	// A 67-year-old single retiree, 2024: pension 40,000; standard deduction
	// 14,600 + additional 1,950 (Rev. Proc. 2023-34 §3.15); taxable 23,450,
	// row 23,450-23,500: 1,160 + 12% × (23,475 − 11,600) = 2,585. No senior
	// deduction before 2025.
	{name: "2024 single 67, pension 40000", year: 2024, in: Income{Pension: 40000, Age: 67},
		income: 2585, social: zero},
	// The same at 64: taxable 25,400, row 25,400-25,450: 1,160 + 12% ×
	// 13,825 = 2,819.
	{name: "2024 single 64, pension 40000", year: 2024, in: Income{Pension: 40000, Age: 64},
		income: 2819},
	// A 67-year-old single retiree, 2025: pension 60,000 + interest 5,000 =
	// AGI 65,000, under 75,000, so the whole 6,000 senior deduction;
	// 15,750 + 2,000 + 6,000 = 23,750; taxable 41,250, row 41,250-41,300:
	// 1,192.50 + 12% × (41,275 − 11,925) = 4,714.50 → 4,715.
	{name: "2025 single 67, pension 60000 + interest 5000", year: 2025, in: Income{Pension: 60000, Interest: 5000, Age: 67},
		income: 4715, social: zero},
	// The same of unknown age: taxable 49,250, row 49,250-49,300: 1,192.50 +
	// 12% × 36,550 + 22% × (49,275 − 48,475) = 5,754.50 → 5,755.
	{name: "2025 single age unknown, pension 60000 + interest 5000", year: 2025, in: Income{Pension: 60000, Interest: 5000},
		income: 5755},
	// 2025 single 70, pension 100,000: senior deduction 6,000 − 6% × 25,000 =
	// 4,500; taxable 100,000 − 15,750 − 2,000 − 4,500 = 77,750 (Tax Table row
	// 77,750-77,800, middle 77,775): 1,192.50 + 4,386 + 22% × 29,300 =
	// 12,024.50 → 12,025.
	{name: "2025 single 70, pension 100000 (senior deduction phased)", year: 2025, in: Income{Pension: 100000, Age: 70},
		income: 12025},
	// 2025 single 70, pension 200,000: the senior deduction is gone above
	// 175,000; taxable 200,000 − 17,750 = 182,250 (Tax Computation
	// Worksheet): 1,192.50 + 4,386 + 22% × 54,875 + 24% × 78,900 = 36,587.
	{name: "2025 single 70, pension 200000 (no senior deduction)", year: 2025, in: Income{Pension: 200000, Age: 70},
		income: 36587},
	// A 67-year-old single retiree, 2026 (Rev. Proc. 2025-32): pension 60,000
	// + interest 5,000; 16,100 + 2,050 + 6,000 = 24,150; taxable 40,850, row
	// 40,850-40,900: 1,240 + 12% × (40,875 − 12,400) = 4,657.
	{name: "2026 single 67, pension 60000 + interest 5000", year: 2026, in: Income{Pension: 60000, Interest: 5000, Age: 67},
		income: 4657},

	// Married filing jointly, ages unknown, 2024: wages 100,000; taxable
	// 70,800, row 70,800-70,850: 2,320 + 12% × (70,825 − 23,200) = 8,035.
	{name: "2024 joint wages 100000", year: 2024, in: Income{Employment: 100000, Joint: true},
		income: 8035, social: 7650},
	// A 66/64 couple, 2025: pension 70,000 + wages 50,000 + qualified
	// dividends 10,000, AGI 130,000. Deductions 31,500 + 1,600 (one spouse
	// 65) + 6,000 (one senior, AGI under 150,000) = 39,100. QDCG worksheet:
	// ordinary taxable 80,900 by the Tax Table (row 80,900-80,950): 2,385 +
	// 12% × (80,925 − 23,850) = 9,234; dividends within the 0% band (90,900 ≤
	// 96,700). Wages 50,000 × 7.65% = 3,825.
	{name: "2025 joint 66/64, pension 70000 + wages 50000 + dividends 10000", year: 2025,
		in:     Income{Pension: 70000, Employment: 50000, Dividends: 10000, Joint: true, Age: 66, PartnerAge: 64},
		income: 9234, social: 3825},
	// The same couple of unknown ages: ordinary taxable 88,500 (row
	// 88,500-88,550): 2,385 + 12% × 64,675 = 10,146; dividends 98,500 − 96,700
	// = 1,800 at 15% = 270; 10,416.
	{name: "2025 joint ages unknown, pension 70000 + wages 50000 + dividends 10000", year: 2025,
		in:     Income{Pension: 70000, Employment: 50000, Dividends: 10000, Joint: true},
		income: 10416},
	// The 66/64 couple in 2026: 32,200 + 1,650 + 6,000 = 39,850; ordinary
	// taxable 80,150 (row 80,150-80,200): 2,480 + 12% × (80,175 − 24,800) =
	// 9,125; dividends at 0% (90,150 ≤ 98,900).
	{name: "2026 joint 66/64, pension 70000 + wages 50000 + dividends 10000", year: 2026,
		in:     Income{Pension: 70000, Employment: 50000, Dividends: 10000, Joint: true, Age: 66, PartnerAge: 64},
		income: 9125, social: 3825},
	// Both spouses 70, 2025, pension 180,000: each 6,000 less 6% × 30,000 =
	// 4,200, 8,400 for the two (Schedule 1-A lines 35-37); 31,500 + 3,200 +
	// 8,400 = 43,100; taxable 136,900 (Tax Computation Worksheet): 2,385 +
	// 8,772 + 22% × 39,950 = 19,946.
	{name: "2025 joint 70/70, pension 180000 (senior deduction phased per person)", year: 2025,
		in:     Income{Pension: 180000, Joint: true, Age: 70, PartnerAge: 70},
		income: 19946},
	// A joint return, 2024, wages 300,000 + interest 300,000: taxable
	// 570,800, Rev. Proc. 2023-34 Table 1: 111,357 + 35% × (570,800 −
	// 487,450) = 140,529.50 → 140,530; NIIT 3.8% × min(300,000, 600,000 −
	// 250,000) = 11,400. Additional Medicare Tax 0.9% × (300,000 − 250,000) =
	// 450; Medicare 4,350; with no partner share given, OASDI on one wage
	// base: 6.2% × 168,600 = 10,453.20.
	{name: "2024 joint wages 300000 + interest 300000 (NIIT, Additional Medicare at 250,000)", year: 2024,
		in:     Income{Employment: 300000, Interest: 300000, Joint: true},
		income: 151930, social: 10453.20 + 4350 + 450},
	// The same with the partner earning 150,000 of the wages: OASDI on each
	// spouse's own wages, 2 × 6.2% × 150,000 = 18,600 (each under the
	// 168,600 wage base); the rest is unchanged.
	{name: "2024 joint wages 150000 + 150000 + interest 300000 (OASDI per earner)", year: 2024,
		in:     Income{Employment: 300000, Interest: 300000, Joint: true, PartnerEmployment: 150000},
		income: 151930, social: 18600 + 4350 + 450},
	// Self-employed partner: wages 120,000 (taxpayer) and the partner's
	// self-employment profit 100,000, 2025. OASDI: 6.2% × 120,000 = 7,440,
	// and 12.4% × 92,350 = 11,451.40 on the partner's own wage base;
	// Medicare 1.45% × 120,000 + 2.9% × 92,350 = 1,740 + 2,678.15.
	{name: "2025 joint wages 120000 + partner self-employed 100000 (OASDI per earner)", year: 2025,
		in:     Income{Employment: 120000, SelfEmployment: 100000, Joint: true, PartnerSelfEmployment: 100000},
		social: 7440 + 11451.40 + 1740 + 2678.15},
	// Texas levies no income tax, so a joint return there is the federal
	// one: wages 100,000, taxable 68,500 (row 68,500-68,550): 2,385 + 12% ×
	// (68,525 − 23,850) = 7,746.
	{name: "2025 joint in TX", year: 2025, region: "TX", in: Income{Employment: 100000, Joint: true},
		income: 7746, regional: zero},
	// A one-earner couple at 150,000 in New York, 2026: the federal joint
	// return (Rev. Proc. 2025-32: 150,000 − 32,200 = 117,800; 10% × 24,800 +
	// 12% × 76,000 + 22% × 17,000 = 15,340), not two single filers, and New
	// York's married-filing-jointly schedule (Tax Law §601(a); standard
	// deduction $16,050, §614): 133,950; 3.9% × 17,150 + 4.4% × 6,450 +
	// 5.15% × 4,300 + 5.4% × 106,050 = 6,900.80; New York AGI 150,000 is over
	// $107,650, so the supplemental tax (§601(d); IT-201's tax computation
	// worksheet for married filing jointly, taxable income up to $161,550)
	// adds the 5.4% rate's recapture, 5.4% × 133,950 − 6,900.80 = 332.50, in
	// the part (150,000 − 107,650) / 50,000 = 0.847: 281.63, so 7,182.43.
	// Social Security and Medicare on 150,000: 9,300 + 2,175.
	{name: "2026 joint in NY, one earner 150,000", year: 2026, region: "NY", in: Income{Employment: 150000, Joint: true},
		income: 15340, social: 11475, regional: 7182.43},
	// California's joint brackets, deduction and credit are twice the single
	// ones (R&TC §17041(a)(1), §17073.5, §17054): 2025, wages 120,000:
	// 120,000 − 11,412 = 108,588; 1% × 22,158 + 2% × 30,370 + 4% × 30,376 +
	// 6% × 25,684 = 3,585.06; − 2 × 153 = 3,279.06.
	{name: "2025 joint in CA, wages 120,000", year: 2025, region: "CA", in: Income{Employment: 120000, Joint: true},
		regional: 3279.06},
	// Massachusetts' joint return (M.G.L. c. 62 §3(B)(b); Form 1 line 2a):
	// the married exemption 8,800; one earner, contributions deduction 2,000
	// (line 11a): 5% of (80,000 − 2,000 − 8,800) = 3,460.
	{name: "2025 joint in MA, one earner 80,000", year: 2025, region: "MA", in: Income{Employment: 80000, Joint: true},
		regional: 3460},
	// Two retirees of 72 and 79, pensions 18,200: exemptions 8,800 + 2 × 700
	// (line 2b) leave 8,000 at 5% = 400; the limited income credit (§5,
	// Form 1 line 29) holds the tax to 10% of AGI over 16,400 = 180.
	{name: "2025 joint in MA, retirees 72 and 79, pensions 18,200", year: 2025, region: "MA",
		in: Income{Pension: 18200, Joint: true, Age: 72, PartnerAge: 79}, regional: 180},
	// A single filer of 77 with pension 40,000: 40,000 − 4,400 − 700 = 34,900 at 5% = 1,745.
	{name: "2026 single in MA, 77, pension 40,000", year: 2026, region: "MA", in: Income{Pension: 40000, Age: 77}, regional: 1745},
}

func TestExamplesUSFiling(t *testing.T) { runExamples(t, "us", examplesUSFiling) }

// Joint filing: the US models it in every year and taxes a couple no more
// than one single filer with the same income; a state that taxes income
// taxes a joint return; no other country has joint rules yet.
func TestUSJoint(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	for _, y := range s.Years() {
		if !s.HasJoint(y) {
			t.Errorf("%d: no joint rules", y)
		}
		yr, _ := s.Year(y)
		for _, inc := range []float64{0, 20000, 60000, 150000, 400000, 900000, 3e6} {
			in := Income{Employment: inc * 0.6, Pension: inc * 0.2, Dividends: inc * 0.1, CapitalGains: inc * 0.1}
			var single, joint Result
			if err := Calculate(s, y, &in, "", &single); err != nil {
				t.Fatal(err)
			}
			j := in
			j.Joint, j.Age, j.PartnerAge = true, 70, 66
			if err := Calculate(s, y, &j, "", &joint); err != nil {
				t.Fatal(err)
			}
			if joint.TotalTax > single.TotalTax || joint.TotalTax < 0 {
				t.Errorf("%d income %.0f: joint %.2f, single %.2f", y, inc, joint.TotalTax, single.TotalTax)
			}
			if mm := s.MaxMarginal(yr, ""); joint.MarginalRate > mm+1e-9 {
				t.Errorf("%d income %.0f: joint marginal %.4f above the bound %.4f", y, inc, joint.MarginalRate, mm)
			}
		}
	}
	// Every state models a joint return in every year it is modelled: its
	// own joint rules, or its single-filer rules, which the rule's label
	// says; the federal return is always the joint one.
	in := Income{Employment: 80000, Joint: true}
	for _, y := range []int{2025, 2026} {
		for _, rg := range s.Regions {
			var r, fed Result
			if !s.HasJointIn(y, rg.Code) {
				t.Errorf("%d %s: no joint return", y, rg.Code)
				continue
			}
			if err := Calculate(s, y, &in, rg.Code, &r); err != nil {
				t.Errorf("%d %s joint: %v", y, rg.Code, err)
				continue
			}
			if err := Calculate(s, y, &in, "", &fed); err != nil {
				t.Fatal(err)
			}
			if r.IncomeTax != fed.IncomeTax {
				t.Errorf("%d %s joint: federal income tax %.2f, the federal joint return's %.2f", y, rg.Code, r.IncomeTax, fed.IncomeTax)
			}
		}
	}
	for _, o := range loadAll(t) {
		if o.Country != "US" && o.HasJoint(o.Latest()) {
			t.Errorf("%s has joint rules: add examples for them", o.Country)
		}
	}
}

// The additional deduction counts once per spouse of 65 or more: a couple
// of 66 and 64 pays what the same couple pays with 1,550 less income, and
// both of 65 pay what they pay with 3,100 less (2024: 1,550 per spouse,
// before the senior deduction, on a taxable income above the Tax Table).
func TestUSAdditionalDeductionPerSpouse(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	due := func(in Income) float64 {
		var r Result
		if err := Calculate(s, 2024, &in, "", &r); err != nil {
			t.Fatal(err)
		}
		return r.IncomeTax
	}
	base := Income{Pension: 150000, Joint: true}
	for _, c := range []struct {
		age, partner int
		off          float64
	}{{66, 64, 1550}, {64, 66, 1550}, {65, 65, 3100}, {0, 0, 0}} {
		in := base
		in.Age, in.PartnerAge = c.age, c.partner
		less := base
		less.Pension -= c.off
		if got, want := due(in), due(less); math.Abs(got-want) > 0.5 {
			t.Errorf("ages %d/%d: %.2f, want %.2f", c.age, c.partner, got, want)
		}
	}
}

// The partner's share of earnings counts only within the combined part:
// more than all of it is all of it, a negative, NaN or infinite share is
// none (as Calculate reads such a part), and on a single return it is
// ignored.
func TestPartnerShareClamped(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	social := func(in Income) float64 {
		var r Result
		if err := Calculate(s, 2025, &in, "", &r); err != nil {
			t.Fatal(err)
		}
		return r.SocialContributions
	}
	all := social(Income{Employment: 250000, Joint: true, PartnerEmployment: 250000})
	if got := social(Income{Employment: 250000, Joint: true, PartnerEmployment: 1e12}); got != all {
		t.Errorf("share above the part: %.2f, want %.2f", got, all)
	}
	none := social(Income{Employment: 250000, Joint: true})
	for _, v := range []float64{-5, math.NaN(), math.Inf(1)} {
		if got := social(Income{Employment: 250000, Joint: true, PartnerEmployment: v}); got != none {
			t.Errorf("share %v: %.2f, want %.2f", v, got, none)
		}
	}
	if got := social(Income{Employment: 250000, PartnerEmployment: 100000}); got != social(Income{Employment: 250000}) {
		t.Errorf("single return with a partner share: %.2f", got)
	}
	// 250,000 split 125,000 each: both under the 176,100 wage base
	if got, want := social(Income{Employment: 250000, Joint: true, PartnerEmployment: 125000}), 0.062*250000+0.0145*250000; math.Abs(got-want) > 0.005 {
		t.Errorf("split wages: %.2f, want %.2f", got, want)
	}
}

// Over a sweep of pension and wage incomes, a return by age and filing
// keeps the properties every return has: more income never lowers the
// total beyond rounding, and the marginal rate stays within the year's
// bound, through the phase-out of the deduction for seniors.
func TestUSFilingProperties(t *testing.T) {
	t.Parallel()
	s := loadSystem(t, "us")
	filers := []Income{{Age: 70}, {Joint: true, Age: 70, PartnerAge: 66}, {Joint: true, Age: 66, PartnerAge: 50}, {Joint: true}}
	for _, year := range s.Years() {
		y, _ := s.Year(year)
		bound := s.MaxMarginal(y, "") + 1e-9
		slack := s.RoundingSlack(y, "") + s.MaxJump(y, "")
		for _, f := range filers {
			prev := -1.0
			for x := 0.0; x <= 400000; x += 2500 {
				in := f
				in.Pension, in.Employment = x*0.7, x*0.3
				var r Result
				if err := Calculate(s, year, &in, "", &r); err != nil {
					t.Fatal(err)
				}
				if r.TotalTax < prev-slack-0.01 {
					t.Errorf("%d %+v at %.0f: total %.2f below %.2f", year, f, x, r.TotalTax, prev)
				}
				if r.MarginalRate > bound || r.MarginalRate < 0 {
					t.Errorf("%d %+v at %.0f: marginal %.4f outside [0, %.4f]", year, f, x, r.MarginalRate, bound)
				}
				prev = r.TotalTax
			}
		}
	}
}
