package calculator_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"fiplan/data/history"
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
// default: the answer says so, restated from 1961 (the first year with a
// December rate on both sides: the World Bank's yearly mark from 1960,
// H.10's monthly mark from January 1971) to 2024, and the sample's
// windows start in 1960, the first year of German prices, so the 1960s
// cohorts are in it (on H.10's rates alone the restating began in 1972).
func TestBacktestInEurosWithGermanPrices(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, germanCouple(`{"from":1960,"years":30}`))
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
	if cv["prices"] != "DE" || num(t, cv["from"]) != 1961 || num(t, cv["to"]) != 2024 {
		t.Fatalf("conversion %v, want German prices 1961-2024", cv)
	}
	note := cv["note"].(string)
	for _, want := range []string{"World Bank's yearly official rates against the US dollar from 1960", "H.10 monthly average rates from 1971", "Restated 1961-2024"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	if num(t, bt["from"]) != 1960 || num(t, bt["firstStartYear"]) != 1960 || bt["successRate"] == nil {
		t.Fatalf("sample from %v, first start %v, success %v", bt["from"], bt["firstStartYear"], bt["successRate"])
	}
	// The same plan in dollars is another backtest: US prices, no conversion.
	usd := calc(t, h, germanCouple(`{"from":1960,"years":30,"currency":"USD"}`))
	ub := usd.Data()["historical"].(map[string]any)
	if ub["currency"] != "USD" || ub["conversion"] != nil {
		t.Fatalf("in USD: currency %v, conversion %v", ub["currency"], ub["conversion"])
	}
	if ub["medianEndBalanceReal"] == bt["medianEndBalanceReal"] {
		t.Errorf("the median end balance %v is the same in euros and dollars", bt["medianEndBalanceReal"])
	}
}

// Monthly data are restated month by month from January 1960 (the World
// Bank's yearly pound, then H.10's monthly one from 1971); before it the
// note says the years keep their US real returns.
func TestMonthlyBacktestInPounds(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":60,"annualIncome":0,"annualExpenses":30000,"currentSavings":900000,"targetRetirementAge":60,
		"tax":{"country":"GB"},"historical":{"dataset":"shiller-monthly","years":30}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	bt := r.Data()["historical"].(map[string]any)
	cv := bt["conversion"].(map[string]any)
	if bt["currency"] != "GBP" || cv["prices"] != "GB" || num(t, cv["from"]) != 1960 || num(t, cv["to"]) != 2023 {
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

// annualAsUserSeries is the embedded annual record as a user's series.
func annualAsUserSeries(t testing.TB) string {
	t.Helper()
	s, err := history.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"name":"US annual","currency":"USD","frequency":"yearly","source":"Damodaran; BLS","licence":"attributed","rows":[`)
	for i := range s.Years {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"year":%d,"stocks":%v,"bonds":%v,"inflation":%v}`, s.Years[i], s.Stocks[i], s.Bonds[i], s.Inflation[i])
	}
	b.WriteString(`]}`)
	return b.String()
}

// A backtest on a user's series runs exactly as on the embedded data: the
// annual record sent back as a series answers the same backtest. Only
// its owner may name it; a signed-out caller and another user are refused
// naming the field, and the answer is never cached for anyone else.
func TestBacktestOnUserSeries(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	alice := testserver.Bearer(h.Token("alice", "free", ""))
	cr := h.Do("POST", "/api/v1/user/series", annualAsUserSeries(t), alice...)
	if cr.Status != 201 {
		t.Fatalf("create: %d %s", cr.Status, cr.Raw)
	}
	id := cr.Data()["id"].(string)
	if cr.Data()["dataset"] != "user:"+id || cr.Data()["first"] != "1928" || cr.Data()["last"] != "2024" {
		t.Fatalf("created %v", cr.Data())
	}
	plan := func(dataset string) string {
		return `{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"currentSavings":1000000,"targetRetirementAge":60,
			"historical":{"dataset":"` + dataset + `","years":30,"sequences":true}}`
	}
	emb := calc(t, h, plan("annual"))
	own := h.Do("POST", "/api/v1/calculator", plan("user:"+id), alice...)
	if emb.Status != 200 || own.Status != 200 {
		t.Fatalf("%d %s / %d %s", emb.Status, emb.Raw, own.Status, own.Raw)
	}
	eb, ob := emb.Data()["historical"].(map[string]any), own.Data()["historical"].(map[string]any)
	if ob["dataset"] != "user:"+id || ob["currency"] != "USD" {
		t.Fatalf("answered dataset %v currency %v", ob["dataset"], ob["currency"])
	}
	delete(eb, "dataset")
	delete(ob, "dataset")
	ej, _ := json.Marshal(eb)
	oj, _ := json.Marshal(ob)
	if string(ej) != string(oj) {
		t.Fatalf("the user series answers another backtest:\nembedded %s\nuser     %s", ej, oj)
	}
	// signed out, and another user
	expectDatasetRefused(t, calc(t, h, plan("user:"+id)))
	bob := testserver.Bearer(h.Token("bob", "free", ""))
	expectDatasetRefused(t, h.Do("POST", "/api/v1/calculator", plan("user:"+id), bob...))
	// a currency other than the series' own
	bad := h.Do("POST", "/api/v1/calculator", strings.Replace(plan("user:"+id), `"years":30`, `"years":30,"currency":"EUR"`, 1), alice...)
	if bad.Status != 400 || !strings.Contains(string(bad.Raw), "historical.currency") {
		t.Errorf("another currency: %d %s", bad.Status, bad.Raw)
	}
	// a malformed name
	if r := calc(t, h, plan("user:nope")); r.Status != 400 || !strings.Contains(string(r.Raw), "historical.dataset") {
		t.Errorf("malformed id: %d %s", r.Status, r.Raw)
	}
	// deleted, the series can no longer be named
	if r := h.Do("DELETE", "/api/v1/user/series/"+id, "", alice...); r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Raw)
	}
	expectDatasetRefused(t, h.Do("POST", "/api/v1/calculator", plan("user:"+id), alice...))
}

func expectDatasetRefused(t *testing.T, r *testserver.Resp) {
	t.Helper()
	if r.Status != 400 || !strings.Contains(string(r.Raw), `"historical.dataset"`) {
		t.Errorf("want 400 naming historical.dataset, got %d %s", r.Status, r.Raw)
	}
}

// The German couple's plan on a series of their own in euros: the
// backtest runs in the series' currency, with nothing restated.
func TestGermanCoupleOnTheirOwnSeries(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	tok := testserver.Bearer(h.Token("anna", "free", ""))
	var b strings.Builder
	b.WriteString(`{"name":"DAX and Bunds","currency":"EUR","frequency":"yearly","source":"own sums","licence":"private","rows":[`)
	for y := 1971; y <= 2024; y++ {
		if y > 1971 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"year":%d,"stocks":%v,"bonds":0.04,"inflation":0.025}`, y, []float64{0.25, -0.15, 0.08, 0.12}[y%4])
	}
	b.WriteString(`]}`)
	cr := h.Do("POST", "/api/v1/user/series", b.String(), tok...)
	if cr.Status != 201 {
		t.Fatalf("%d %s", cr.Status, cr.Raw)
	}
	id := cr.Data()["id"].(string)
	r := h.Do("POST", "/api/v1/calculator", germanCouple(`{"dataset":"user:`+id+`","years":30}`), tok...)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	bt := r.Data()["historical"].(map[string]any)
	if bt["currency"] != "EUR" || bt["conversion"] != nil || bt["dataset"] != "user:"+id ||
		num(t, bt["dataFrom"]) != 1971 || num(t, bt["dataTo"]) != 2024 || num(t, bt["periods"]) != 25 {
		t.Fatalf("backtest %v", bt)
	}
}
