package calculator_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fiplan/handlers/internal/testserver"
)

// householdCSVBody is a couple in the US with five accounts, both
// claiming Social Security, converting up to the 12% band, and a scenario.
const householdCSVBody = `{"currentAge":52,"annualIncome":110000,"annualExpenses":60000,"startYear":2026,"targetRetirementAge":58,
  "partner":{"age":50,"annualIncome":60000,"retirementAge":58},
  "accounts":[{"id":"cash","type":"cash","balance":30000},{"id":"k401","type":"us-401k","balance":500000,"annualContribution":23000},
    {"id":"roth","type":"us-roth-ira","balance":80000},{"id":"brokerage","type":"taxable","balance":300000,"costBasis":200000},
    {"id":"her-401k","type":"us-401k","owner":"partner","balance":200000,"annualContribution":15000}],
  "pensions":[{"kind":"us-social-security","fromAge":67,"amount":30000},{"kind":"us-social-security","owner":"partner","fromAge":67,"amount":18000}],
  "conversions":{"upToRate":0.12},"tax":{"country":"US"},
  "scenarios":[{"name":"=lean","annualExpenses":50000}]}`

// A household CSV answer carries the household's columns, and every cell
// of a row says what the JSON answer's row says.
func TestCalculatorCSVHousehold(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	status, ctype, raw := calcAccept(t, h, "text/csv", householdCSVBody)
	if status != 200 || ctype != "text/csv; charset=utf-8" {
		t.Fatalf("%d %s %.300s", status, ctype, raw)
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	d := calc(t, h, householdCSVBody).Data()
	rows := rowsOf(t, d)
	var ids []string
	for _, a := range rows[0]["accounts"].([]any) {
		ids = append(ids, a.(map[string]any)["id"].(string))
	}
	if len(ids) < 5 || !slices.Equal(ids[:5], []string{"cash", "k401", "roth", "brokerage", "her-401k"}) {
		t.Fatalf("accounts %v", ids)
	}
	want := strings.Split("scenario,year,age,startBalance,contributions,growth,withdrawals,events,pension,endBalance,realEndBalance,fiProgress,retired,tax,"+
		"partnerAge,employment,pensions,incomeTax,socialContributions,capitalTax,penalties,wealthTax,residence,overLimit,requiredWithdrawals,conversions,shortfall,pensionSplit,vorabpauschale,"+
		"yield,spousal,survivor,healthPremiums,healthCredit,healthSurcharge,sepp,seppRecapture,meansTested", ",")
	for _, id := range ids {
		for _, f := range []string{"startBalance", "contributions", "growth", "withdrawals", "conversions", "endBalance"} {
			want = append(want, id+"."+f)
		}
	}
	if !slices.Equal(recs[0], want) {
		t.Fatalf("header\n%v\nwant\n%v", recs[0], want)
	}
	scen := rowsOf(t, d["scenarios"].([]any)[0].(map[string]any))
	if len(recs) != 1+len(rows)+len(scen) || recs[1+len(rows)][0] != "'=lean" {
		t.Fatalf("%d records for %d+%d rows; scenario cell %q", len(recs), len(rows), len(scen), recs[1+len(rows)][0])
	}
	// The first retired year that converts: taxes, conversions and every
	// account's cells against the JSON row.
	i := slices.IndexFunc(rows, func(r map[string]any) bool { return r["retired"] == true && r["conversions"] != nil })
	if i < 0 {
		t.Fatal("no retired year converts")
	}
	row, rec := rows[i], recs[1+i]
	cell := func(col string) string { return rec[slices.Index(want, col)] }
	same := func(col string, v any) {
		t.Helper()
		exp := 0.0
		if v != nil {
			exp = num(t, v)
		}
		if got, err := strconv.ParseFloat(cell(col), 64); err != nil || got != exp {
			t.Fatalf("row %d %s: CSV %q, JSON %v", i, col, cell(col), v)
		}
	}
	tx := row["tax"].(map[string]any)
	inc := row["income"].(map[string]any)
	for col, v := range map[string]any{"age": row["age"], "partnerAge": row["partnerAge"], "endBalance": row["endBalance"],
		"employment": inc["employment"], "pensions": inc["pensions"], "tax": tx["total"], "incomeTax": tx["incomeTax"],
		"socialContributions": tx["socialContributions"], "capitalTax": tx["capitalTax"], "penalties": tx["penalties"],
		"overLimit": row["overLimit"], "requiredWithdrawals": row["requiredWithdrawals"], "conversions": row["conversions"], "shortfall": row["shortfall"]} {
		same(col, v)
	}
	if cell("wealthTax") != "" {
		t.Fatalf("row %d: a US residence's wealthTax cell %q", i, cell("wealthTax"))
	}
	if cell("residence") != "US" || cell("retired") != "true" || num(t, row["conversions"]) <= 0 {
		t.Fatalf("row %d: residence %q, retired %q, conversions %v", i, cell("residence"), cell("retired"), row["conversions"])
	}
	for _, a := range row["accounts"].([]any) {
		a := a.(map[string]any)
		for _, f := range []string{"startBalance", "contributions", "growth", "withdrawals", "conversions", "endBalance"} {
			same(a["id"].(string)+"."+f, a[f])
		}
	}
}

// A one-pot plan's CSV keeps its columns: no household column appears.
func TestCalculatorCSVOnePotColumns(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	_, _, raw := calcAccept(t, h, "text/csv", `{"currentAge":50,"annualIncome":80000,"annualExpenses":40000,"lifeExpectancy":52,"startYear":2026,"tax":{"country":"GB"}}`)
	head, _, _ := strings.Cut(string(raw), "\r\n")
	if head != "scenario,year,age,startBalance,contributions,growth,withdrawals,events,pension,endBalance,realEndBalance,fiProgress,retired,tax" ||
		strings.Count(string(raw), "\r\n") != 3 {
		t.Fatalf("one-pot CSV:\n%s", raw)
	}
}

// A Canadian couple of 70 with one pension splits it: the JSON row and the
// CSV cell say how much moved to the partner's return.
func TestHouseholdPensionSplit(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":70,"lifeExpectancy":73,"targetRetirementAge":70,"annualIncome":0,"annualExpenses":20000,"startYear":2026,"expectedReturn":0,"inflationRate":0,
  "partner":{"age":70,"lifeExpectancy":73},"accounts":[{"id":"cash","type":"cash","balance":100000}],
  "pensions":[{"fromAge":65,"amount":60000}],"tax":{"country":"CA","region":"ON","year":2026}}`
	r := calc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	row := rowsOf(t, r.Data())[0]
	if got := num(t, row["pensionSplit"]); got != 30000 {
		t.Errorf("pensionSplit %v, want 30000", got)
	}
	status, _, raw := calcAccept(t, h, "text/csv", body)
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil || status != 200 {
		t.Fatalf("%d %v", status, err)
	}
	if col := slices.Index(recs[0], "pensionSplit"); col < 0 || recs[1][col] != "30000" {
		t.Errorf("CSV pensionSplit column %d: %v", col, recs[1])
	}
}

// A US early retiree of 50 takes an IRA series by amortization: the rows
// say the payment on the IRA and the year's total, free of the 10%, in
// JSON and CSV alike, until 59 1/2.
func TestHouseholdSEPPInRows(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":50,"lifeExpectancy":70,"annualIncome":0,"annualExpenses":40000,"targetRetirementAge":50,"startYear":2026,"tax":{"country":"US"},` +
		`"accounts":[{"id":"ira","type":"us-ira","balance":400000},{"id":"brokerage","type":"taxable","balance":600000}],` +
		`"bridge":{"sepp":[{"account":"ira","method":"amortization","fromAge":50}]}}`
	r := calc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	rows := rowsOf(t, r.Data())
	// 400,000 x 0.05 / (1 - 1.05^-36.2): the single life table's 36.2 years at 50
	if got := num(t, rows[0]["sepp"]); got != 24124.89 {
		t.Errorf("first sepp %v, want 24124.89", got)
	}
	ira := rows[0]["accounts"].([]any)[0].(map[string]any)
	if got := num(t, ira["sepp"]); got != 24124.89 {
		t.Errorf("the IRA's sepp %v, want 24124.89", got)
	}
	for i, row := range rows {
		paying := i <= 9
		if _, ok := row["sepp"]; ok != paying {
			t.Errorf("row %d (age %v): sepp %v", i, row["age"], row["sepp"])
		}
		if tx := row["tax"].(map[string]any); paying && num(t, tx["penalties"]) != 0 {
			t.Errorf("row %d: penalties %v on a series", i, tx["penalties"])
		}
	}
	status, _, raw := calcAccept(t, h, "text/csv", body)
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil || status != 200 {
		t.Fatalf("%d %v", status, err)
	}
	if col := slices.Index(recs[0], "sepp"); col < 0 || recs[1][col] != "24124.89" || recs[1][col+1] != "" && recs[1][col+1] != "0" {
		t.Errorf("CSV sepp column %d: %v", col, recs[1])
	}
}

// An Australian pensioner of 67 with 400,000 in a taxable account: the Age
// Pension is on the row (income.meansTested, within pensions), the assets
// test of a homeowner giving 26,954.20 and the income test of a renter
// 28,286.20 (rates of 20 September 2026); the CSV carries the column.
func TestHouseholdAgePensionInRows(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := func(home string) string {
		return `{"currentAge":67,"lifeExpectancy":70,"annualIncome":0,"annualExpenses":30000,"targetRetirementAge":67,"startYear":2026,"inflationRate":0,"tax":{"country":"AU","year":2026},` +
			`"accounts":[{"id":"shares","type":"taxable","balance":400000}]` + home + `}`
	}
	for _, c := range []struct {
		home string
		want float64
	}{{"", 26954.20}, {`,"homeowner":true`, 26954.20}, {`,"homeowner":false`, 28286.20}} {
		r := calc(t, h, body(c.home))
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		in := rowsOf(t, r.Data())[0]["income"].(map[string]any)
		if got := num(t, in["meansTested"]); got != c.want {
			t.Errorf("homeowner %q: meansTested %v, want %v", c.home, got, c.want)
		}
		if p := num(t, in["pensions"]); p < c.want {
			t.Errorf("homeowner %q: pensions %v below the Age Pension", c.home, p)
		}
	}
	status, _, raw := calcAccept(t, h, "text/csv", body(""))
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil || status != 200 {
		t.Fatalf("%d %v", status, err)
	}
	if col := slices.Index(recs[0], "meansTested"); col < 0 || recs[1][col] != "26954.2" && recs[1][col] != "26954.20" {
		t.Errorf("CSV meansTested column %d: %v", col, recs[1])
	}
}

// A Canadian single of 66 with the OAS pension and a small CPP pension is
// paid the GIS, free of tax; homeowner must be a boolean.
func TestHouseholdGISInRows(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":66,"lifeExpectancy":68,"annualIncome":0,"annualExpenses":25000,"targetRetirementAge":66,"startYear":2026,"inflationRate":0,"tax":{"country":"CA","region":"ON","year":2026},` +
		`"accounts":[{"id":"cash","type":"cash","balance":200000}],` +
		`"pensions":[{"fromAge":65,"amount":8900,"kind":"ca-oas"},{"fromAge":65,"amount":6000,"kind":"ca-cpp"}]}`
	r := calc(t, h, body)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	in := rowsOf(t, r.Data())[0]["income"].(map[string]any)
	// 11,256 - 0.5 x 6,000 + 2,062.20 - 0.25 x 4,000 (the CPP the only income)
	if got := num(t, in["meansTested"]); got != 9318.20 {
		t.Errorf("GIS %v, want 9318.20", got)
	}
	bad := calc(t, h, `{"currentAge":66,"annualIncome":0,"annualExpenses":25000,"homeowner":"yes"}`)
	testserver.ExpectError(t, bad, 400, "VALIDATION_ERROR")
}
