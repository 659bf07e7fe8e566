package mcp

import (
	"errors"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
)

// The summaries of the saved-plan tools.

var errNotCheckIn = errors.New("the answer is no check-in")

type planBrief struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input struct {
		CurrentAge     int     `json:"currentAge"`
		AnnualExpenses float64 `json:"annualExpenses"`
		CurrentSavings float64 `json:"currentSavings"`
		Currency       string  `json:"currency"`
		Accounts       []struct {
			Balance float64 `json:"balance"`
		} `json:"accounts"`
	} `json:"input"`
}

// String is the plan in a line: a household's savings are its accounts'
// balances (it has no currentSavings), in the plan's currency when it names one.
func (p planBrief) String() string {
	in := &p.Input
	savings, where := in.CurrentSavings, ""
	if len(in.Accounts) > 0 {
		savings = 0
		for _, a := range in.Accounts {
			savings += a.Balance
		}
		where = fmt.Sprintf(" in %d accounts", len(in.Accounts))
	}
	cur := ""
	if in.Currency != "" {
		cur = in.Currency + " "
	}
	return fmt.Sprintf("%q (id %s): age %d, spending %s%s, savings %s%s%s", p.Name, p.ID, in.CurrentAge, cur, num(in.AnnualExpenses), cur, num(savings), where)
}

func plansSummary(out []byte) (string, error) {
	items, total, err := list[planBrief](out)
	if err != nil {
		return "", err
	}
	if total == 0 {
		return "No saved plans.", nil
	}
	names := make([]string, len(items))
	for i, p := range items {
		names[i] = p.String()
	}
	return fmt.Sprintf("%d saved plans; %d here: %s.", total, len(items), firstFew(names)), nil
}

func planSummary1(out []byte) (string, error) {
	var p planBrief
	if err := json.Unmarshal(out, &p); err != nil {
		return "", err
	}
	return "Plan " + p.String() + ".", nil
}

func savedPlanSummary(out []byte) (string, error) {
	var p planBrief
	if err := json.Unmarshal(out, &p); err != nil {
		return "", err
	}
	return "Saved plan " + p.String() + ".", nil
}

func checkInSummary(out []byte) (string, error) {
	var d struct {
		Year         int     `json:"year"`
		Age          int     `json:"age"`
		Currency     string  `json:"currency"`
		Strategy     string  `json:"withdrawalStrategy"`
		Retired      bool    `json:"retired"`
		DrawdownAge  *int    `json:"drawdownAge"`
		Spending     float64 `json:"spending"`
		Portfolio    float64 `json:"portfolio"`
		Rate         float64 `json:"withdrawalRate"`
		DepletionAge *int    `json:"depletionAge"`
		Guardrails   *struct {
			CutBelow   float64 `json:"cutBelowPortfolio"`
			RaiseAbove float64 `json:"raiseAbovePortfolio"`
		} `json:"guardrails"`
		Success struct {
			Historical  *float64 `json:"historical"`
			Windows     int      `json:"historicalWindows"`
			WindowYears int      `json:"windowYears"`
			MonteCarlo  *float64 `json:"monteCarlo"`
		} `json:"successRates"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	if d.Year == 0 || d.Strategy == "" || d.Currency == "" {
		return "", errNotCheckIn
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d, age %d: ", d.Year, d.Age)
	switch {
	case d.DrawdownAge == nil:
		b.WriteString("drawdown never starts within the plan. ")
	case d.Retired:
		fmt.Fprintf(&b, "the %s strategy lets you withdraw %s %s this year, %s of the portfolio of %s. ", d.Strategy, d.Currency, num(d.Spending), pct(d.Rate), num(d.Portfolio))
	default:
		fmt.Fprintf(&b, "drawdown starts at age %d; the %s strategy then lets you withdraw %s %s a year (today's money), %s of the portfolio of %s. ",
			*d.DrawdownAge, d.Strategy, d.Currency, num(d.Spending), pct(d.Rate), num(d.Portfolio))
	}
	if g := d.Guardrails; g != nil {
		fmt.Fprintf(&b, "Guardrails: spending is cut by 10%% if the portfolio falls below %s and raised by 10%% above %s. ", num(g.CutBelow), num(g.RaiseAbove))
	}
	if h := d.Success.Historical; h != nil {
		fmt.Fprintf(&b, "Historical success from today %s (%d windows of %d years)", pct(*h), d.Success.Windows, d.Success.WindowYears)
	} else {
		b.WriteString("No historical window could be tested")
	}
	if m := d.Success.MonteCarlo; m != nil {
		fmt.Fprintf(&b, "; Monte Carlo %s", pct(*m))
	}
	b.WriteString(".")
	if d.DepletionAge != nil {
		fmt.Fprintf(&b, " In the projection the money runs out at age %d.", *d.DepletionAge)
	}
	return b.String(), nil
}

// optimizedSummary reads the decisions chosen for a saved plan.
func optimizedSummary(out []byte) (string, error) {
	var d struct {
		Optimized *struct {
			Feasible  bool     `json:"feasible"`
			Why       string   `json:"why"`
			Objective string   `json:"objective"`
			Value     *float64 `json:"value"`
			Gain      *struct {
				OverPlan     float64 `json:"overPlan"`
				OverBaseline float64 `json:"overBaseline"`
			} `json:"gain"`
			Notes []string `json:"notes"`
		} `json:"optimized"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		return "", err
	}
	o := d.Optimized
	if o == nil {
		return "", errNotOptimized
	}
	if !o.Feasible || o.Value == nil || o.Gain == nil {
		return "Not feasible: " + o.Why + ".", nil
	}
	what := "highest spending a year"
	if o.Objective == "estate" {
		what = "highest after-tax end wealth"
	}
	return fmt.Sprintf("The %s is %s, %s over the plan as asked and %s over the conventional baseline. %s.", what, num(*o.Value),
		num(o.Gain.OverPlan), num(o.Gain.OverBaseline), strings.Join(o.Notes, ". ")), nil
}

var errNotOptimized = errors.New("the answer holds no decisions")

type eventBrief struct {
	Type      string `json:"type"`
	CreatedAt string `json:"createdAt"`
	PlanID    string `json:"planId"`
}

func eventsSummary(out []byte) (string, error) {
	items, total, err := list[eventBrief](out)
	if err != nil {
		return "", err
	}
	if total == 0 {
		return "No events.", nil
	}
	lines := make([]string, len(items))
	for i, e := range items {
		lines[i] = e.Type + " " + e.CreatedAt
		if e.PlanID != "" {
			lines[i] += " (plan " + e.PlanID + ")"
		}
	}
	return fmt.Sprintf("%d events; %d here: %s.", total, len(items), firstFew(lines)), nil
}
