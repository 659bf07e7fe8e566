package calculator_test

import (
	"fmt"
	"math"
	"testing"

	"fiplan/handlers/internal/testserver"
)

// A portfolio withdrawal is taxed by default as the country's data says a
// sale from a taxable account is: in Germany under the Abgeltungsteuer on
// its gain, not as a statutory pension (with its 84% taxable share and the
// pensioners' health and care insurance). A retiree whose pot cost what it
// is worth realises no gain in the first year: 40,000 spent at 4% needs
// 1,000,000, where the pension treatment answered 1,336,415.79.
// Elsewhere the default stays pension, and a withdrawalIncome sent wins.
func TestCalculatorWithdrawalIncomeDefaultIsTheCountrys(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	const plan = `{"startYear":2026,"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"targetRetirementAge":60,"output":"summary","tax":{"country":"%s"%s}}`
	for _, c := range []struct {
		country, extra, kind string
		fin                  float64 // 0: not checked
	}{
		{"DE", "", "capitalGains", 1_000_000},
		{"DE", `,"withdrawalIncome":"pension"`, "pension", 0},
		{"GB", "", "pension", 0},
	} {
		r := calc(t, h, fmt.Sprintf(plan, c.country, c.extra))
		if r.Status != 200 {
			t.Fatalf("%s%s: %d %s", c.country, c.extra, r.Status, r.Raw)
		}
		d := r.Data()
		tx, _ := d["tax"].(map[string]any)
		if tx["withdrawalIncome"] != c.kind {
			t.Errorf("%s%s: withdrawalIncome %v, want %s", c.country, c.extra, tx["withdrawalIncome"], c.kind)
		}
		if got := num(t, d["afterTaxFINumber"]); c.fin > 0 && math.Abs(got-c.fin) > 0.01 {
			t.Errorf("%s%s: afterTaxFINumber %.2f, want %.2f", c.country, c.extra, got, c.fin)
		}
		if c.fin == 0 && num(t, d["afterTaxFINumber"]) <= 1_000_000 {
			t.Errorf("%s%s: a pension untaxed: afterTaxFINumber %v", c.country, c.extra, d["afterTaxFINumber"])
		}
	}
}
