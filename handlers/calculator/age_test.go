package calculator_test

import (
	"testing"

	"fiplan/compute/tax"
	"fiplan/data/taxtable"
	"fiplan/handlers/internal/testserver"
)

// A US retiree's income is taxed at their age: at 67 the additional
// standard deduction and the senior deduction lower the tax, so the FI
// number after tax is the gross that leaves the spending at that age.
func TestRetireeTaxedAtTheirAge(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	at := func(body string) map[string]any {
		r := calc(t, h, body)
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		return r.Data()
	}
	old := at(`{"currentAge":67,"annualIncome":0,"annualExpenses":60000,"currentSavings":2000000,"targetRetirementAge":67,"tax":{"country":"US","year":2026}}`)
	young := at(`{"currentAge":55,"annualIncome":0,"annualExpenses":60000,"currentSavings":2000000,"targetRetirementAge":55,"tax":{"country":"US","year":2026}}`)
	o, y := num(t, old["afterTaxFINumber"]), num(t, young["afterTaxFINumber"])
	if !(o < y) {
		t.Fatalf("after-tax FI number at 67 %v, at 55 %v: age rules not applied", o, y)
	}
	tbl, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	us, _ := tbl.ByCountry("US")
	mix := tax.Income{Pension: 1, Age: 67}
	g, ok, err := tax.GrossFor(us, 2026, &mix, us.LocalTax.Region, nil, 60000) // the default state
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if gross := num(t, old["tax"].(map[string]any)["grossRetirementIncome"]); gross != float64(int64(g*100+0.5))/100 {
		t.Fatalf("gross retirement income %v, want %v (the tax at 67)", gross, g)
	}
}
