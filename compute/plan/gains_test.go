package plan

import (
	"math"
	"testing"

	"fiplan/compute/fi"
	"fiplan/compute/tax"
)

// retiree is a plan drawing down from today: 60 years old, 1,000,000
// invested, 40,000 a year to spend after tax at 4%, no income.
func retiree() Plan {
	in := fi.Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses, in.StartYear = 60, 0, 40000, 2026
	in.CurrentSavings, in.TargetRetirementAge = 1_000_000, 60
	return Plan{Base: in}
}

// A withdrawal from a taxable account returns capital paid in and realises
// the gain on the rest: only that gain is a capital gain. By hand, from
// Portugal's autonomous rate on capital income and gains (28%, art. 72
// CIRS): a pot whose cost basis is the whole balance (the default) has no
// gain to tax in the first year, so 40,000 is withdrawn and the FI number
// is 40,000 / 0.04 = 1,000,000; taxing the whole withdrawal grossed it up
// to 40,000 / 0.72 = 55,555.56 and 1,388,888.89, 39% too high.
func TestCapitalGainsTaxOnlyTheGain(t *testing.T) {
	t.Parallel()
	p := retiree()
	p.Tax = &Tax{System: loadSystem(t, "pt"), Year: 2025, Withdrawal: tax.CapitalGains}
	var r Result
	if err := Run(&p, testInputs(), &Options{Step: 1}, &r); err != nil {
		t.Fatal(err)
	}
	pr := &r.Plans[0]
	if got := pr.Summary.FINumber; math.Abs(got-1_000_000) > 0.01 {
		t.Fatalf("after-tax FI number %.2f, by hand 1,000,000.00", got)
	}
	if g := pr.Taxes.GrossSpending; math.Abs(g-40000) > 0.01 {
		t.Fatalf("gross retirement income %.2f, by hand 40,000.00", g)
	}
	if pr.RowTax[0] != 0 {
		t.Fatalf("first year's tax %.2f on a withdrawal of capital alone", pr.RowTax[0])
	}
	// Later withdrawals carry the gain grown since: their tax is 28% of
	// the gain share of the withdrawal, the share following the pot's cost
	// basis, which each withdrawal reduces in proportion.
	basis := 1_000_000.0
	for i, row := range pr.Rows {
		share := max(0, 1-basis/row.StartBalance)
		if want := 0.28 * share * row.Withdrawals; math.Abs(pr.RowTax[i]-want) > 0.02*max(1, row.Withdrawals/10000) {
			t.Fatalf("row %d (age %d): tax %.2f, want 28%% of the gain share %.4f of %.2f = %.2f", i, row.Age, pr.RowTax[i], share, row.Withdrawals, want)
		}
		basis *= (row.StartBalance - row.Withdrawals) / row.StartBalance
		if i == 10 && share < 0.2 {
			t.Fatalf("after ten years of 7%% growth the gain share is %.4f", share)
		}
	}
}

// With half the pot gain, half of each withdrawal is taxed. By hand:
// Portugal, 28% of the gain: G - 0.28 x 0.5 G = 40,000, G = 46,511.63, FI
// number 1,162,790.70 (whole withdrawal taxed: 1,388,888.89). Germany,
// Abgeltungsteuer 25% and Solidaritätszuschlag 5.5% of it (26.375%) on the
// gain above the 1,000 Sparer-Pauschbetrag (§20 Abs. 9, §32d Abs. 1 EStG):
// G - 0.26375 (0.5 G - 1,000) = 40,000, G = 45,772.64, FI number
// 1,144,315.97 (whole withdrawal taxed: G = 53,971.14, 1,349,278.52).
func TestCapitalGainsHalfTheBasis(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cc          string
		gross, fin  float64
		leanG, fatG float64
	}{
		{"pt", 46511.63, 1162790.70, 28000 / 0.86, 60000 / 0.86},
		{"de", 45772.64, 1144315.97, (28000 - 263.75) / 0.868125, (60000 - 263.75) / 0.868125},
	} {
		p := retiree()
		half := 500_000.0
		p.CostBasis = &half
		p.Tax = &Tax{System: loadSystem(t, c.cc), Year: 2025, Withdrawal: tax.CapitalGains}
		var r Result
		if err := Run(&p, testInputs(), &Options{Step: 1}, &r); err != nil {
			t.Fatal(err)
		}
		pr := &r.Plans[0]
		// The tax is floored to the cent: within half a unit of the gross,
		// 12.5 of the FI number.
		if g := pr.Taxes.GrossSpending; math.Abs(g-c.gross) > 0.5 {
			t.Errorf("%s: gross retirement income %.2f, by hand %.2f", c.cc, g, c.gross)
		}
		if f := pr.Summary.FINumber; math.Abs(f-c.fin) > 12.5 {
			t.Errorf("%s: after-tax FI number %.2f, by hand %.2f", c.cc, f, c.fin)
		}
		if f := pr.Summary.LeanFINumber; math.Abs(f-c.leanG/0.04) > 12.5 {
			t.Errorf("%s: lean FI number %.2f, by hand %.2f", c.cc, f, c.leanG/0.04)
		}
		if f := pr.Summary.FatFINumber; math.Abs(f-c.fatG/0.04) > 12.5 {
			t.Errorf("%s: fat FI number %.2f, by hand %.2f", c.cc, f, c.fatG/0.04)
		}
		// The first year's tax leaves the spending.
		if net := pr.Rows[0].Withdrawals - pr.RowTax[0]; math.Abs(net-40000) > 0.02 {
			t.Errorf("%s: the first year leaves %.2f after tax, want 40,000", c.cc, net)
		}
	}
}

// A plan that saves its way to FI is grossed up for the gain share of the
// pot when drawdown starts, not today's: the contributions are capital,
// the growth on them gain.
func TestCapitalGainsShareAtDrawdown(t *testing.T) {
	t.Parallel()
	p := basePlan()
	p.Base.CurrentSavings = 50000
	p.Tax = &Tax{System: loadSystem(t, "pt"), Year: 2025, Withdrawal: tax.CapitalGains}
	var r Result
	if err := Run(&p, testInputs(), &Options{Step: 1}, &r); err != nil {
		t.Fatal(err)
	}
	pr := &r.Plans[0]
	share, ok := drawdownShare(pr.Rows, 50000)
	if !ok || share < 0.1 || share > 0.9 {
		t.Fatalf("gain share at drawdown %.4f (%v)", share, ok)
	}
	want := pr.Taxes.Spending / (1 - 0.28*share)
	if g := pr.Taxes.GrossSpending; math.Abs(g-want) > 0.5 {
		t.Fatalf("gross retirement income %.2f, want spending / (1 - 28%% x %.4f) = %.2f", g, share, want)
	}
	i := pr.Summary.RetirementAge - pr.Rows[0].Age
	if net := pr.Rows[i].Withdrawals - pr.RowTax[i]; math.Abs(net/pr.Rows[i].Withdrawals*pr.Taxes.GrossSpending-pr.Taxes.Spending) > 1 {
		t.Fatalf("the first drawdown year leaves %.2f of %.2f after tax; the spending is %.2f of %.2f today",
			net, pr.Rows[i].Withdrawals, pr.Taxes.Spending, pr.Taxes.GrossSpending)
	}
}
