package household

import (
	"testing"

	"fiplan/compute/tax"
)

// pensionCouple is a retired couple of 70 living on generic pensions of
// 60,000 a year between them (indexed), filing jointly in the US from
// 2026, with a cash account that covers nothing but the tax.
func pensionCouple(t *testing.T, infl float64) Plan {
	r, s := fixture(t)
	p := single(r, s, 70, 90, account(r, "c", "cash", 0, 2e6))
	p.People = append(p.People, Person{Age: 70, LifeExpectancy: 90})
	p.People[0].RetirementAge, p.People[1].RetirementAge = 70, 70
	p.Pensions = []Pension{{Owner: 0, FromAge: 70, Amount: 30000, Indexed: true}, {Owner: 1, FromAge: 70, Amount: 30000, Indexed: true}}
	p.Return, p.Inflation, p.Expenses, p.Retirement = 0, infl, 1, 1
	p.Joint = true
	return p
}

// TestSeniorDeductionEndsInPlan: the plan's years are taxed under their
// own tax years, so the deduction for seniors of 2025-2028 stops after
// 2028: with prices flat, the couple's income tax is that of 2026 through
// 2028 and $1,200 more from 2029 (10% of the two $6,000 deductions; see
// compute/tax's TestUSSeniorDeductionEnds). It was charged every year.
func TestSeniorDeductionEndsInPlan(t *testing.T) {
	p := pensionCouple(t, 0)
	res := run(t, &p)
	year := func(c int) float64 { return res.Extra[c-2026].Tax.Income }
	if year(2027) != year(2026) || year(2028) != year(2026) {
		t.Errorf("income tax 2026 %v, 2027 %v, 2028 %v: want the same", year(2026), year(2027), year(2028))
	}
	for _, c := range []int{2029, 2040} {
		if d := year(c) - year(2026); !near(d, 1200, 0.01) {
			t.Errorf("%d: income tax %v, %v more than in 2026; want 1,200", c, year(c), d)
		}
	}
}

// TestFixedThresholdsErodeWithPrices: with prices rising, a figure fixed in
// money is worth less each year. The couple's NIIT threshold of $250,000
// stays in money while their interest keeps its real value: the tax on the
// same real income rises (here from none to some) where it used to be
// flat in real terms.
func TestFixedThresholdsErodeWithPrices(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 50, 80, account(r, "t", "taxable", 0, 0))
	p.People = append(p.People, Person{Age: 50, LifeExpectancy: 80})
	p.People[0].Income, p.People[0].RetirementAge, p.People[1].RetirementAge = 240000, 80, 80
	p.Return, p.Inflation, p.Expenses = 0, 0.03, 100000
	p.Joint = true
	res := run(t, &p)
	// the wages' Medicare surtax threshold, $250,000 a couple, is fixed in
	// money too: 240,000 of real wages cross it after two years of 3%
	first, later := res.Extra[0].Tax.Social/res.Extra[0].Employment, res.Extra[20].Tax.Social/res.Extra[20].Employment
	if !(later > first+0.001) {
		t.Errorf("social contributions %v of wages in 2026, %v in 2046: want more once the fixed threshold is crossed", first, later)
	}
	var cpi float64 = 1
	for y := 0; y < 20; y++ {
		cpi *= 1.03
	}
	in := tax.Income{Employment: 240000, Joint: true, Age: 70, PartnerAge: 70}
	y := s.At(2046)
	var sc tax.Scale
	y.Scale(2046, &tax.Path{Start: 2026, Inflation: 0.03}, &sc)
	d, err := y.DueByCategory(&in, "", &sc)
	if err != nil {
		t.Fatal(err)
	}
	// 0.9% of the wages above 250,000 / 1.03^20 in today's money: the
	// surtax's share of the social contributions
	surtax := 0.009 * (240000 - 250000/cpi)
	if !near(d.Social, 0.0765*240000-0.062*max(0, 240000-184500)+surtax, 1) {
		t.Errorf("2046 social contributions %v (surtax %v)", d.Social, surtax)
	}
}

// TestInclusionBasesFixedInMoney: the share of Social Security benefits
// taxed (IRC 86) is measured against base amounts fixed in money, $32,000
// and $44,000 for a couple, which the engine reads in money of each year:
// a benefit and pension constant in real terms below the bases today
// become partly taxable as prices rise.
func TestInclusionBasesFixedInMoney(t *testing.T) {
	r, s := fixture(t)
	b := r.Benefit("us-social-security")
	if b == nil || b.Inclusion == nil {
		t.Fatal("the fixture's benefit has no inclusion rule")
	}
	p := single(r, s, 70, 95, account(r, "c", "cash", 0, 2e6))
	p.People[0].RetirementAge = 70
	p.Pensions = []Pension{{Owner: 0, FromAge: 70, Amount: 20000, Benefit: b, Country: "US"},
		{Owner: 0, FromAge: 70, Amount: 14000, Indexed: true}}
	p.Return, p.Inflation, p.Expenses, p.Retirement = 0, 0.03, 1, 1
	res := run(t, &p)
	if res.Extra[0].Tax.Income != 0 {
		t.Fatalf("2026: income tax %v, want none below the base", res.Extra[0].Tax.Income)
	}
	if res.Extra[20].Tax.Income <= 0 {
		t.Errorf("2046: income tax %v: the same real income crossed the fixed base and should be partly taxed", res.Extra[20].Tax.Income)
	}
}
