package household_test

import (
	"fmt"
	"os"

	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// A UK 55-year-old who stops work now, with a SIPP and an ISA, spending
// £30,000 a year: the engine draws the accounts in the default order, taxes
// each year's SIPP draws (a quarter of each tax-free) under that year's UK
// rules, and reports the plan's FI figures (the FI number is grossed up for
// the tax on the draws), its lifetime tax and each account after year one
// (the engine adds a taxable account for any surplus).
func ExampleRun() {
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		return b
	}
	rules, err := household.ParseRules(read("../../embed/tax/wrappers/gb.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	sys, err := tax.Parse(read("../../embed/tax/countries/gb.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := household.Plan{
		People: []household.Person{{Age: 55, LifeExpectancy: 90, RetirementAge: 55}},
		Accounts: []household.Account{
			{ID: "sipp", Type: "gb-sipp", Balance: 550000, CostBasis: -1, Wrapper: rules.Wrapper("gb-sipp")},
			{ID: "isa", Type: "gb-isa", Balance: 350000, CostBasis: -1, Wrapper: rules.Wrapper("gb-isa")},
		},
		Expenses:       30000,
		Return:         0.05,
		Inflation:      0.02,
		WithdrawalRate: 0.04,
		StartYear:      2026,
		Residences:     []household.Residence{{Country: "GB", System: sys, Year: 2026}},
	}
	var w household.Work
	var r household.Result
	if err := household.Run(&p, &w, &r); err != nil {
		fmt.Println(err)
		return
	}
	s := r.Summary
	fmt.Printf("FI number %.0f, reached %v, runs out %v\n", s.FINumber, s.Reached, s.RunsOut)
	fmt.Printf("%d years, first year's draw %.0f, lifetime tax %.0f (today's money)\n", s.Years, r.Rows[0].Withdrawals, r.LifetimeTax)
	for i, id := range r.IDs {
		fmt.Printf("%s: %.0f after year one\n", id, r.Accounts(0)[i].End)
	}
	// Output:
	// FI number 858938, reached true, runs out false
	// 35 years, first year's draw 32336, lifetime tax 57208 (today's money)
	// sipp: 543547 after year one
	// isa: 367500 after year one
	// taxable: 0 after year one
}
