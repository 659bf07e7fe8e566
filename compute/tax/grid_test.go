package tax

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// The grid of testdata/gengrid.go (keep the two alike).
var (
	gridLevels = []float64{10_000, 25_000, 60_000, 120_000, 250_000, 1_000_000, 10_000_000}
	gridMixes  = []Income{
		{Employment: 1},
		{Pension: 1},
		{Employment: 0.5, Interest: 0.1, Dividends: 0.15, CapitalGains: 0.25},
		{SelfEmployment: 0.7, Pension: 0.3},
	}
)

// gridChanged lists the lines of the fixture whose figures the data has
// changed since it was made, by the line's head ("US 2026 - single 70"),
// each with the reason. Every other line must compute as it did.
var gridChanged = map[string]string{
	// no Class 1 or Class 4 National Insurance over State Pension age
	"GB 2024 - single 70":   "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2024 ENG single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2024 WLS single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2024 NIR single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2024 SCT single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2025 - single 70":   "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2025 ENG single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2025 WLS single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2025 NIR single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2025 SCT single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2026 - single 70":   "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2026 ENG single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2026 WLS single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2026 NIR single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",
	"GB 2026 SCT single 70": "no National Insurance over State Pension age (SSCBA 1992 s.6(3); Contributions Regulations 2001 reg.91(a))",

	"US 2025 AL single 40": "Alabama deducts the employee's Social Security and Medicare taxes (Code of Alabama §40-18-15(a)(3)) as an itemized deduction, in place of the standard deduction when larger (Form 40 line 11)",
	"US 2025 AL single 70": "Alabama deducts the employee's Social Security and Medicare taxes (Code of Alabama §40-18-15(a)(3)) as an itemized deduction, in place of the standard deduction when larger (Form 40 line 11)",
	"US 2025 AR single 70": "Arkansas' additional personal tax credit of $29 for a taxpayer of 65 or more (A.C.A. §26-51-501)",
	"US 2025 AZ single 70": "Arizona's exemption of $2,100 for a taxpayer of 65 or more (A.R.S. 43-1023(A))",
	"US 2025 CA single 40": "California's exemption credit is $6 less for each $2,500 of federal AGI over $252,203 (R&TC §17054.1)",
	"US 2025 CA single 70": "California's exemption credit is $6 less for each $2,500 of federal AGI over $252,203 (R&TC §17054.1), and its senior exemption credit, the personal credit's amount for a taxpayer of 65 or more (R&TC §17054; Form 540 line 9)",
	"US 2025 CO single 70": "Colorado subtracts up to $24,000 of pensions for a taxpayer of 65 or more (C.R.S. 39-22-104(4)(f))",
	"US 2025 DE single 70": "Delaware's pension exclusion of $12,500 from 60 (of pensions, interest, dividends and gains), its $2,500 additional standard deduction and $110 additional personal credit from 65 (30 Del. C. §§1106(b)(3), 1108(c), 1110(c))",
	"US 2025 GA single 70": "Georgia excludes up to $65,000 of retirement income for a taxpayer of 65 or more (O.C.G.A. 48-7-27(a)(5))",
	"US 2025 ID single 70": "Idaho taxes federal taxable income (Idaho Code 63-3022), with the federal additional standard deduction of $2,000 for a taxpayer of 65 or more (IRC §63(c)(1)(B), (f))",
	"US 2025 IL single 70": "Illinois' additional exemption of $1,000 for a taxpayer of 65 or more (35 ILCS 5/204(d))",
	"US 2025 IN single 70": "Indiana's additional exemptions for a taxpayer of 65 or more: $1,000, and $500 more below $40,000 of federal AGI (IC 6-3-1-3.5(a)(4), (a)(5))",
	"US 2025 IA single 70": "Iowa excludes retirement income from 55 (Iowa Code §422.7(31))",
	"US 2025 KS single 70": "Kansas' additional standard deduction of $850 for a single filer of 65 or more (K.S.A. 79-32,119(b))",
	"US 2025 KY single 70": "Kentucky's $40 personal tax credit for a taxpayer of 65 or more (KRS 141.020(3)(a)4)",
	"US 2025 LA single 70": "Louisiana exempts $12,000 of retirement income for a taxpayer of 65 or more (La. R.S. 47:44.1)",
	"US 2025 MA single 70": "Massachusetts exempts $700 for a taxpayer of 65 or more (M.G.L. c. 62 §3(B)(b); Form 1 line 2b)",
	"US 2025 MD single 70": "Maryland's additional exemption of $1,000 for a taxpayer of 65 or more (Tax-General §10-211(b)(2))",
	"US 2025 MO single 70": "Missouri's standard deduction is the federal one (RSMo 143.131), with the additional standard deduction for a taxpayer of 65 or more (IRC §63(f))",
	"US 2025 MS single 70": "Mississippi's additional exemption of $1,500 for a taxpayer of 65 or more (Miss. Code §27-7-21(f))",
	"US 2025 MT single 70": "Montana taxes federal taxable income (MCA 15-30-2101), with the additional standard deduction for 65 or more and the 2025-2028 deduction for seniors, less its old age subtraction (MCA 15-30-2110(3)(g))",
	"US 2025 ND single 70": "North Dakota taxes federal taxable income (N.D.C.C. §57-38-30.3(2)), with the additional standard deduction for 65 or more and the 2025-2028 deduction for seniors",
	"US 2025 NE single 40": "Nebraska's tax is at most the federal tax before credits (Form 1040N line 27, Federal Tax Liability Worksheet): a return of dividends, gains or pensions taxed little federally pays that",
	"US 2025 NE single 70": "Nebraska's tax is at most the federal tax before credits (Form 1040N line 27, Federal Tax Liability Worksheet): a return of dividends, gains or pensions taxed little federally pays that; and its additional standard deduction of $2,000 for a taxpayer of 65 or more (§77-2716.01; Form 1040N line 6)",
	"US 2025 NJ single 70": "New Jersey's additional exemption of $1,000 for a taxpayer of 65 or more (N.J.S.A. 54A:3-1(b))",
	"US 2025 NM single 70": "New Mexico's standard deduction is the federal one (NMSA §7-2-2), with the additional standard deduction for a taxpayer of 65 or more (IRC §63(f)); its exemptions of Social Security income up to $100,000 of AGI and of up to $8,000 for a taxpayer of 65 or more by income (NMSA §§7-2-5.14, 7-2-5.2)",
	"US 2025 NY single 40": "New York's supplemental tax recaptures the lower brackets above $107,650 of New York AGI (Tax Law §601(d))",
	"US 2025 NY single 70": "New York excludes up to $20,000 of pensions and annuities from 59½ (Tax Law §612(c)(3-a))",
	"US 2025 OH single 40": "Ohio's retirement income credit, $25 to $200 by the retirement income received, at any age, below $100,000 of modified AGI less exemptions (ORC 5747.055(B), (H))",
	"US 2025 OH single 70": "Ohio's senior citizen credit, $50 for a taxpayer of 65 or more, and its retirement income credit, $25 to $200 by the retirement income received, both below $100,000 of modified AGI less exemptions (ORC 5747.055(B), (C), (H))",
	"US 2025 OR single 70": "Oregon's additional standard deduction of $1,200 for a single filer of 65 or more (ORS 316.695(1)(d))",
	"US 2025 VA single 70": "Virginia's age deduction, $12,000 from 65 less adjusted federal AGI (which leaves out the taxed Social Security benefit) over $50,000, and its $800 additional exemption from 65 (Code of Virginia §58.1-322.03(3), (5))",
	"US 2025 VT single 70": "Vermont's additional standard deduction of $1,250 for a taxpayer of 65 or more in 2025 (Form IN-111 line 4)",
	"US 2025 WI single 70": "Wisconsin's additional exemption of $250 for a taxpayer of 65 or more (Wis. Stat. 71.05(23)(b)2)",
	"US 2026 AL single 40": "Alabama deducts the employee's Social Security and Medicare taxes (Code of Alabama §40-18-15(a)(3)) as an itemized deduction, in place of the standard deduction when larger (Form 40 line 11)",
	"US 2026 AL single 70": "Alabama deducts the employee's Social Security and Medicare taxes (Code of Alabama §40-18-15(a)(3)) as an itemized deduction, in place of the standard deduction when larger (Form 40 line 11)",
	"US 2026 AZ single 70": "Arizona's exemption of $2,100 for a taxpayer of 65 or more (A.R.S. 43-1023(A))",
	"US 2026 CO single 70": "Colorado subtracts up to $24,000 of pensions for a taxpayer of 65 or more (C.R.S. 39-22-104(4)(f))",
	"US 2026 DE single 70": "Delaware's pension exclusion of $12,500 from 60 (of pensions, interest, dividends and gains), its $2,500 additional standard deduction and $110 additional personal credit from 65 (30 Del. C. §§1106(b)(3), 1108(c), 1110(c))",
	"US 2026 GA single 70": "Georgia excludes up to $65,000 of retirement income for a taxpayer of 65 or more (O.C.G.A. 48-7-27(a)(5))",
	"US 2026 IL single 70": "Illinois' additional exemption of $1,000 for a taxpayer of 65 or more (35 ILCS 5/204(d))",
	"US 2026 IN single 70": "Indiana's additional exemptions for a taxpayer of 65 or more: $1,000, and $500 more below $40,000 of federal AGI (IC 6-3-1-3.5(a)(4), (a)(5))",
	"US 2026 IA single 70": "Iowa excludes retirement income from 55 (Iowa Code §422.7(31))",
	"US 2026 KS single 70": "Kansas' additional standard deduction of $850 for a single filer of 65 or more (K.S.A. 79-32,119(b))",
	"US 2026 KY single 70": "Kentucky's $40 personal tax credit for a taxpayer of 65 or more (KRS 141.020(3)(a)4)",
	"US 2026 LA single 70": "Louisiana exempts $12,000 of retirement income for a taxpayer of 65 or more (La. R.S. 47:44.1)",
	"US 2026 MA single 70": "Massachusetts exempts $700 for a taxpayer of 65 or more (M.G.L. c. 62 §3(B)(b); Form 1 line 2b)",
	"US 2026 MO single 70": "Missouri's standard deduction is the federal one (RSMo 143.131), with the additional standard deduction for a taxpayer of 65 or more (IRC §63(f))",
	"US 2026 MS single 70": "Mississippi's additional exemption of $1,500 for a taxpayer of 65 or more (Miss. Code §27-7-21(f))",
	"US 2026 MT single 70": "Montana taxes federal taxable income (MCA 15-30-2101), with the additional standard deduction for 65 or more and the 2025-2028 deduction for seniors, less its old age subtraction (MCA 15-30-2110(3)(g))",
	"US 2026 ND single 70": "North Dakota taxes federal taxable income (N.D.C.C. §57-38-30.3(2)), with the additional standard deduction for 65 or more and the 2025-2028 deduction for seniors",
	"US 2026 NE single 40": "Nebraska's tax is at most the federal tax before credits (Form 1040N line 27, Federal Tax Liability Worksheet): a return of dividends, gains or pensions taxed little federally pays that",
	"US 2026 NE single 70": "Nebraska's tax is at most the federal tax before credits (Form 1040N line 27, Federal Tax Liability Worksheet): a return of dividends, gains or pensions taxed little federally pays that",
	"US 2026 NJ single 70": "New Jersey's additional exemption of $1,000 for a taxpayer of 65 or more (N.J.S.A. 54A:3-1(b))",
	"US 2026 NM single 70": "New Mexico's standard deduction is the federal one (NMSA §7-2-2), with the additional standard deduction for a taxpayer of 65 or more (IRC §63(f)); its exemptions of Social Security income up to $100,000 of AGI and of up to $8,000 for a taxpayer of 65 or more by income (NMSA §§7-2-5.14, 7-2-5.2)",
	"US 2026 NY single 40": "New York's supplemental tax recaptures the lower brackets above $107,650 of New York AGI (Tax Law §601(d))",
	"US 2026 NY single 70": "New York excludes up to $20,000 of pensions and annuities from 59½ (Tax Law §612(c)(3-a))",
	"US 2026 OH single 40": "Ohio's retirement income credit, $25 to $200 by the retirement income received, at any age, below $100,000 of modified AGI less exemptions (ORC 5747.055(B), (H))",
	"US 2026 OH single 70": "Ohio's senior citizen credit, $50 for a taxpayer of 65 or more, and its retirement income credit, $25 to $200 by the retirement income received, both below $100,000 of modified AGI less exemptions (ORC 5747.055(B), (C), (H))",
	"US 2026 OR single 70": "Oregon's additional standard deduction of $1,200 for a single filer of 65 or more (ORS 316.695(1)(d))",
	"US 2026 VA single 70": "Virginia's age deduction, $12,000 from 65 less adjusted federal AGI (which leaves out the taxed Social Security benefit) over $50,000, and its $800 additional exemption from 65 (Code of Virginia §58.1-322.03(3), (5))",
	"US 2026 WI single 70": "Wisconsin's additional exemption of $250 for a taxpayer of 65 or more (Wis. Stat. 71.05(23)(b)2)",
}

// TestGridAgainstB67a1f6 recomputes the tax of every country's published
// years on the grid the engine of commit b67a1f6 computed
// (testdata/grid_b67a1f6.txt, made by testdata/gengrid.go): a change to
// the files' form or to the walker that moves any published figure fails
// here unless gridChanged names it.
func TestGridAgainstB67a1f6(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/grid_b67a1f6.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	systems := map[string]*System{}
	for _, s := range loadAll(t) {
		systems[s.Country] = s
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	lines, changed := 0, 0
	for sc.Scan() {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		head, want, ok := strings.Cut(text, ": ")
		if !ok {
			t.Fatalf("bad line %q", text)
		}
		got := gridLine(t, systems, head)
		lines++
		if got == want {
			continue
		}
		if why, ok := gridChanged[head]; ok {
			changed++
			t.Logf("%s: changed as intended: %s", head, why)
			continue
		}
		t.Errorf("%s:\n got %s\nwant %s", head, got, want)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 600 {
		t.Fatalf("only %d lines", lines)
	}
	if changed != len(gridChanged) {
		t.Errorf("%d lines changed as intended, %d listed: drop the ones that no longer change", changed, len(gridChanged))
	}
	t.Logf("%d lines, %d changed as intended", lines, changed)
}

// gridLine computes one line of the grid from its head.
func gridLine(t *testing.T, systems map[string]*System, head string) string {
	var cc, region, filing string
	var year, age int
	if _, err := fmt.Sscanf(head, "%s %d %s %s %d", &cc, &year, &region, &filing, &age); err != nil {
		t.Fatalf("bad head %q: %v", head, err)
	}
	if region == "-" {
		region = ""
	}
	s := systems[cc]
	if s == nil {
		t.Fatalf("%s: no such country", head)
	}
	var out []string
	var res Result
	for _, mix := range gridMixes {
		for _, level := range gridLevels {
			in := Income{Employment: mix.Employment * level, SelfEmployment: mix.SelfEmployment * level, Pension: mix.Pension * level,
				Interest: mix.Interest * level, Dividends: mix.Dividends * level, CapitalGains: mix.CapitalGains * level, Age: age}
			if filing == "joint" {
				in.Joint, in.PartnerAge = true, age
				in.PartnerEmployment = 0.4 * in.Employment
			}
			if err := Calculate(s, year, &in, region, &res); err != nil {
				out = append(out, "error")
				continue
			}
			out = append(out, fmt.Sprintf("%.2f/%.2f", res.TotalTax, res.IncomeTax))
		}
	}
	return strings.Join(out, " ")
}
