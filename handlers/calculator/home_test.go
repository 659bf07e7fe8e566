package calculator_test

import (
	"strings"
	"testing"

	"fiplan/handlers/internal/testserver"
)

// germanCouple is a couple retiring in Germany; the backtest runs over
// the sample given.
func germanCouple(historical string) string {
	return `{"currentAge":55,"annualIncome":0,"annualExpenses":42000,"targetRetirementAge":55,"startYear":2026,
		"partner":{"age":55,"annualIncome":0,"retirementAge":55},
		"accounts":[{"id":"taxable","type":"taxable","balance":1100000,"costBasis":900000}],
		"pensions":[{"kind":"generic","amount":14000,"fromAge":67},{"kind":"generic","owner":"partner","amount":9000,"fromAge":67}],
		"tax":{"country":"DE"},"historical":` + historical + `}`
}

// A German couple's plan is backtested in euros with German prices by
// default: the answer says so, restated from 1972 (the first year that
// has the December rates on both sides: H.10's mark from January 1971)
// to 2024; from 1971 the sample holds its windows.
func TestBacktestInEurosWithGermanPrices(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, germanCouple(`{"from":1971,"years":30}`))
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	bt := r.Data()["historical"].(map[string]any)
	if bt["currency"] != "EUR" {
		t.Fatalf("backtest currency %v, want EUR (the plan's)", bt["currency"])
	}
	cv, ok := bt["conversion"].(map[string]any)
	if !ok {
		t.Fatalf("no conversion in %v", bt)
	}
	if cv["prices"] != "DE" || num(t, cv["from"]) != 1972 || num(t, cv["to"]) != 2024 {
		t.Fatalf("conversion %v, want German prices 1972-2024", cv)
	}
	if note := cv["note"].(string); !strings.Contains(note, "H.10") || !strings.Contains(note, "1971") {
		t.Errorf("note %q names neither the rates nor their first year", note)
	}
	if num(t, bt["from"]) != 1971 || num(t, bt["firstStartYear"]) != 1971 || bt["successRate"] == nil {
		t.Fatalf("sample from %v, first start %v, success %v", bt["from"], bt["firstStartYear"], bt["successRate"])
	}
	// The same plan in dollars is another backtest: US prices, no conversion.
	usd := calc(t, h, germanCouple(`{"from":1971,"years":30,"currency":"USD"}`))
	ub := usd.Data()["historical"].(map[string]any)
	if ub["currency"] != "USD" || ub["conversion"] != nil {
		t.Fatalf("in USD: currency %v, conversion %v", ub["currency"], ub["conversion"])
	}
	if ub["medianEndBalanceReal"] == bt["medianEndBalanceReal"] {
		t.Errorf("the median end balance %v is the same in euros and dollars", bt["medianEndBalanceReal"])
	}
}

// Monthly data are restated month by month from January 1971; before it
// the note says the years keep their US real returns.
func TestMonthlyBacktestInPounds(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":60,"annualIncome":0,"annualExpenses":30000,"currentSavings":900000,"targetRetirementAge":60,
		"tax":{"country":"GB"},"historical":{"dataset":"shiller-monthly","years":30}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	bt := r.Data()["historical"].(map[string]any)
	cv := bt["conversion"].(map[string]any)
	if bt["currency"] != "GBP" || cv["prices"] != "GB" || num(t, cv["from"]) != 1971 || num(t, cv["to"]) != 2023 {
		t.Fatalf("currency %v, conversion %v", bt["currency"], cv)
	}
	if !strings.Contains(cv["note"].(string), "1871-2023 keep their US returns in real terms") {
		t.Errorf("note %q", cv["note"])
	}
}

// A currency without exchange rates on record falls back to parity, and
// says so; an unknown one is refused naming the field.
func TestBacktestCurrencyFallbackAndRefusal(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":60,"annualIncome":0,"annualExpenses":30000,"currentSavings":900000,"targetRetirementAge":60,
		"tax":{"country":"CZ"},"historical":{}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	cv := r.Data()["historical"].(map[string]any)["conversion"].(map[string]any)
	if cv["from"] != nil || !strings.Contains(cv["note"].(string), "purchasing-power parity") {
		t.Errorf("CZK conversion %v", cv)
	}
	bad := calc(t, h, `{"currentAge":60,"annualIncome":0,"annualExpenses":30000,"currentSavings":900000,"historical":{"currency":"XQQ"}}`)
	if bad.Status != 400 || !strings.Contains(string(bad.Raw), "historical.currency") {
		t.Errorf("unknown currency: %d %s", bad.Status, bad.Raw)
	}
}
