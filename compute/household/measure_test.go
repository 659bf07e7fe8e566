package household

import "testing"

// convertingCouple is a retired couple of 60 with a large 401(k), taxed
// jointly, converting up to the 12% band.
func convertingCouple(t *testing.T) Plan {
	r, s := fixture(t)
	p := single(r, s, 60, 95, account(r, "k", "us-401k", 0, 1200000), account(r, "t", "taxable", 0, 200000))
	p.People = append(p.People, Person{Age: 60, LifeExpectancy: 95})
	p.Joint = true
	p.Return, p.Inflation = 0.06, 0.025
	p.Expenses = 60000
	p.Pensions = []Pension{{Owner: 0, FromAge: 67, Amount: 30000, Benefit: r.Benefit("us-social-security"), Country: "US"}}
	p.Convert, p.ConvertUpTo = true, 0.12
	return p
}

// Paying tax early is not free: the conversions lower the lifetime tax
// summed in today's money, yet cost more once each year's tax is
// discounted at the plan's own return.
func TestLifetimeTaxPresentValue(t *testing.T) {
	t.Parallel()
	p := convertingCouple(t)
	r := run(t, &p)
	if !(r.LifetimeTax < r.Baseline.LifetimeTax) {
		t.Fatalf("conversions should lower the tax in today's money: %.0f vs baseline %.0f", r.LifetimeTax, r.Baseline.LifetimeTax)
	}
	if !(r.LifetimeTaxPV > r.Baseline.LifetimeTaxPV) {
		t.Fatalf("yet cost more in present value: %.0f vs baseline %.0f", r.LifetimeTaxPV, r.Baseline.LifetimeTaxPV)
	}
	if !(r.LifetimeTaxPV < r.LifetimeTax) {
		t.Fatalf("a positive return discounts: PV %.0f, today's money %.0f", r.LifetimeTaxPV, r.LifetimeTax)
	}
}

// Pre-tax money left at the end is not all spendable: the baseline keeps
// 401(k) money whose tax is owed, so its after-tax end wealth is below its
// end balance, and below the converting plan's, which holds Roth money.
func TestAfterTaxEndWealth(t *testing.T) {
	t.Parallel()
	p := convertingCouple(t)
	r := run(t, &p)
	b := &r.Baseline
	if !(b.AfterTaxEnd < b.EndReal-50000) {
		t.Fatalf("the baseline's pre-tax money owes tax: after tax %.0f, end %.0f", b.AfterTaxEnd, b.EndReal)
	}
	if !(b.EndReal > r.Summary.FinalReal) || !(r.AfterTaxEnd > b.AfterTaxEnd) {
		t.Fatalf("before tax the baseline looks richer (%.0f vs %.0f), after tax the conversions are (%.0f vs %.0f)",
			b.EndReal, r.Summary.FinalReal, r.AfterTaxEnd, b.AfterTaxEnd)
	}
	if r.AfterTaxEnd > r.Summary.FinalReal+0.01 {
		t.Fatalf("after-tax wealth above the balance: %.0f > %.0f", r.AfterTaxEnd, r.Summary.FinalReal)
	}
}

// Conversions of given amounts move exactly those amounts (today's money)
// while the balance lasts, and a claim in months is paid from them.
func TestConversionAmountsAndClaimMonths(t *testing.T) {
	t.Parallel()
	p := convertingCouple(t)
	p.Conversions = []float64{50000, 0, 20000}
	r := run(t, &p)
	for i, want := range []float64{50000, 0, 20000, 0} {
		got := r.Extra[i].Converted / pow(1+p.Inflation, i)
		if !near(got, want, 0.01) {
			t.Fatalf("year %d converts %.2f, want %.2f", i, got, want)
		}
	}
	q := convertingCouple(t)
	q.Pensions[0].FromAge, q.Pensions[0].Months = 67, 6
	r2 := run(t, &q)
	full := r.Extra[8].Pensions // 68: paid for the whole year (claimed at 67)
	half := r2.Extra[7].Pensions
	if !(half > 0 && half < r.Extra[7].Pensions) || !(r2.Extra[8].Pensions > full) {
		t.Fatalf("a claim at 67 and 6 months pays half of 67's year (%.0f vs %.0f) and more after (%.0f vs %.0f)", half, r.Extra[7].Pensions, r2.Extra[8].Pensions, full)
	}
}
