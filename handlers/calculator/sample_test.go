package calculator_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"fiplan/handlers/calculator"
	"fiplan/handlers/internal/testserver"
)

// historicalBody is a retiree's plan with the given historical object.
func historicalBody(historical string) string {
	return `{"startYear":2026,"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"stockShare":0.5,"output":"summary","historical":` + historical + `}`
}

// The Trinity study's conditions: January starts from 1926 to 1995, so 41
// windows of 30 years (1926 to 1966), withdrawals a twelfth a month. The
// answer states the sample it ran: its years, start months, timing and
// first and last starts.
func TestCalculatorHistoricalSampleTrinity(t *testing.T) {
	h := testserver.New(t)
	r := calc(t, h, historicalBody(`{"dataset":"shiller-monthly","from":1926,"to":1995,"startMonths":"january","withdrawalTiming":"monthly"}`))
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	bt := r.Data()["historical"].(map[string]any)
	want := map[string]any{"from": 1926.0, "to": 1995.0, "startMonths": "january", "withdrawalTiming": "monthly", "periods": 41.0,
		"firstStartYear": 1926.0, "firstStartMonth": 1.0, "lastStartYear": 1966.0, "lastStartMonth": 1.0}
	for k, v := range want {
		if bt[k] != v {
			t.Errorf("%s: %v, want %v (%s)", k, bt[k], v, r.Raw)
		}
	}
	// Every start month instead: 12 x 40 + 1 windows, Jan 1926 to Jan 1966.
	r = calc(t, h, historicalBody(`{"dataset":"shiller-monthly","from":1926,"to":1995}`))
	bt = r.Data()["historical"].(map[string]any)
	if bt["periods"] != 481.0 || bt["startMonths"] != "all" || bt["withdrawalTiming"] != "start-of-year" {
		t.Errorf("every start month: %v", bt)
	}
	// The annual record bounds by calendar years alike.
	r = calc(t, h, historicalBody(`{"from":1950,"to":1999}`))
	bt = r.Data()["historical"].(map[string]any)
	if bt["periods"] != 21.0 || bt["firstStartYear"] != 1950.0 || bt["lastStartYear"] != 1970.0 || bt["firstStartMonth"] != nil {
		t.Errorf("annual 1950-1999: %v", bt)
	}
}

// A sample the record cannot answer is refused with the field at fault.
func TestCalculatorHistoricalSampleRefused(t *testing.T) {
	h := testserver.New(t)
	for _, c := range []struct{ historical, field string }{
		{`{"from":1990,"to":1980}`, "historical.from"},
		{`{"from":1990,"to":2010,"years":30}`, "historical.years"},
		{`{"from":1900}`, "historical.from"},
		{`{"to":2030}`, "historical.to"},
		{`{"dataset":"shiller-monthly","from":1850}`, "historical.from"},
		{`{"withdrawalTiming":"monthly"}`, "historical.withdrawalTiming"},
		// The monthly data end in June 2023: no 10-year window ends by
		// December 2023 from a 2014 start month.
		{`{"dataset":"shiller-monthly","from":2014,"to":2023,"years":10}`, "historical.to"},
		{`{"startMonths":"march"}`, "historical.startMonths"},
		{`{"withdrawalTiming":"weekly"}`, "historical.withdrawalTiming"},
	} {
		failsOn(t, calc(t, h, historicalBody(c.historical)), "VALIDATION_ERROR", c.field)
	}
}

// The goal's highest safe rate replays the same sample: monthly
// withdrawals from January starts over the Trinity years answer their own
// rate, and it meets the target there.
func TestCalculatorHistoricalSampleGoal(t *testing.T) {
	h := testserver.New(t)
	body := `{"startYear":2026,"currentAge":65,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"stockShare":0.5,"output":"summary","goals":{"targetSuccessRate":1},"historical":%s}`
	all := calc(t, h, fmt.Sprintf(body, `{"dataset":"shiller-monthly"}`))
	trinity := calc(t, h, fmt.Sprintf(body, `{"dataset":"shiller-monthly","from":1926,"to":1995,"startMonths":"january","withdrawalTiming":"monthly"}`))
	if all.Status != 200 || trinity.Status != 200 {
		t.Fatalf("%s\n%s", all.Raw, trinity.Raw)
	}
	a := num(t, all.Data()["goals"].(map[string]any)["maxWithdrawalRate"])
	b := num(t, trinity.Data()["goals"].(map[string]any)["maxWithdrawalRate"])
	if a == b {
		t.Fatalf("the goal ignores the sample: %v both", a)
	}
}

// A sample is charged by the windows it replays: the Trinity years'
// 41 January windows of 30 years with monthly withdrawals (MonthlyPayCost
// each) and 13 backtests of the rate search, within the request's 1 unit;
// every start month of the whole record: the plan's backtest over its
// 1,110 60-year windows and 13 backtests of 1,470 30-year windows, 5
// units.
func TestCalculatorHistoricalSampleIsChargedByItsWindows(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "1000/1m"))
	pro := testserver.Bearer(h.Token("carol", "pro", ""))
	body := `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"goals":{"targetSuccessRate":0.95},"historical":%s}`
	if got := calculator.Units(int(math.Ceil(14 * 41 * 30 * calculator.MonthlyPayCost * calculator.BacktestYear))); got != 1 {
		t.Fatalf("Units = %d, want 1", got)
	}
	remaining := 1000
	for _, c := range []struct {
		historical string
		units      int
	}{
		{`{"dataset":"shiller-monthly","from":1926,"to":1995,"startMonths":"january","withdrawalTiming":"monthly"}`, 1},
		{`{"dataset":"shiller-monthly"}`, 5},
	} {
		r := h.Do("POST", "/api/v1/calculator", fmt.Sprintf(body, c.historical), pro...)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", c.historical, r.Status, r.Raw)
		}
		remaining -= c.units
		if got := r.Header["Ratelimit-Remaining"]; got != strconv.Itoa(remaining) {
			t.Fatalf("%s: RateLimit-Remaining %q, want %d (a %d-unit request)", c.historical, got, remaining, c.units)
		}
	}
}
