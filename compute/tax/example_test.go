package tax_test

import (
	"fmt"
	"os"

	"fiplan/compute/tax"
)

// A UK employee's 2024/25 tax on £30,000 of wages: income tax at 20% above
// the £12,570 Personal Allowance, and Class 1 National Insurance at 8%
// above the primary threshold. The engine reads the country file the
// server embeds; each line names the rule that made it.
func ExampleCalculate() {
	b, err := os.ReadFile("../../embed/tax/countries/gb.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := tax.Parse(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	var r tax.Result
	if err := tax.Calculate(s, 2024, &tax.Income{Employment: 30000}, "", &r); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %d: income tax %.2f, social %.2f, total %.2f (%.1f%%)\n",
		r.Country, r.Year, r.IncomeTax, r.SocialContributions, r.TotalTax, 100*r.EffectiveRate)
	for _, l := range r.Breakdown() {
		fmt.Printf("%s %s: %.2f on %.2f\n", l.Rule, l.Label, l.Amount, l.Base)
	}
	// Output:
	// GB 2024: income tax 3486.00, social 1394.40, total 4880.40 (16.3%)
	// ni-class1 below primary threshold: 0.00 on 12570.00
	// ni-class1 main rate 8%: 1394.40 on 17430.00
	// it Personal Allowance: 12570.00 on 30000.00
	// it basic rate 20%: 3486.00 on 17430.00
}
