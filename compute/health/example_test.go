package health_test

import (
	"fmt"

	"fiplan/compute/health"
)

func Example() {
	p := health.Portfolio{
		Holdings: []health.Holding{
			{Name: "Active Growth Fund", Value: 60000, AssetClass: health.Equity, ExpenseRatio: 0.0095, HasExpenseRatio: true, Region: health.NorthAmerica},
			{Name: "Total Bond Index", Value: 30000, AssetClass: health.Bond, ExpenseRatio: 0.0005, HasExpenseRatio: true},
			{Name: "Savings", Value: 4000, AssetClass: health.Cash},
		},
		Context: health.Context{
			Age: 40, HasAge: true,
			AnnualExpenses: 40000, HasAnnualExpenses: true,
			RiskTolerance:       health.RiskMedium,
			TargetRetirementAge: 60, HasTargetRetirementAge: true,
		},
	}
	var r health.Result
	health.Score(&p, &r)
	fmt.Println("score", r.Score)
	for _, c := range r.Components {
		fmt.Printf("%s %d/%d\n", c.Name, c.Score, c.Max)
	}
	var buf []byte
	for i := range r.Recommendations() {
		rc := &r.Recs[i]
		buf = health.AppendTitle(buf[:0], rc)
		fmt.Printf("%d. [%s +%d] %s\n", rc.Priority, rc.Component, rc.Impact, buf)
		buf = health.AppendDetail(buf[:0], rc)
		fmt.Printf("   %s\n", buf)
	}
	// Output:
	// score 630
	// diversification 195/250
	// cost_efficiency 133/250
	// risk_alignment 204/250
	// resilience 98/250
	// 1. [cost_efficiency +117] Cut the fee on Active Growth Fund
	//    Active Growth Fund costs 0.95% a year, about $510 a year more than a 0.10% index fund: about $33,628 less after 20 years, compounding at 7% a year.
	// 2. [resilience +96] Build your emergency fund
	//    Cash holdings (no separate emergency fund was given) cover 1.2 months of expenses; 6 is the usual floor: set aside about $16,000 more in cash or a savings account.
	// 3. [resilience +56] Keep investing toward your FI number
	//    Growing at 4% a year after inflation with no further saving, the portfolio reaches 21% of your FI number of $1,000,000 (25 times annual expenses, a 4% withdrawal rate) by your target retirement age. Investing about $26,665 a year (in today's money) for 20 years closes the gap.
	// 4. [diversification +50] Diversify equities across regions
	//    Your equities sit in effectively 1.0 regions, with North America at 100%. A world index fund, or funds for other regions, brings that to at least 2.
	// 5. [risk_alignment +46] Hold more growth assets for your horizon
	//    Growth assets (equities and crypto, half of property, commodities and other) are 64% of the portfolio; the guide for your age, horizon and risk tolerance is 82%, and within 10 points of it earns full points. Moving about $17,080 into broad equity index funds brings it in line.
	// 6. [diversification +5] Spread across more asset classes
	//    The portfolio spans effectively 2.9 asset classes (a class counts fully from 5% of the portfolio) and equity is 64% of it. Holding at least 3, for example equities, bonds and cash, keeps one market fall from hitting everything at once.
}
