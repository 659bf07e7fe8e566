package calculator_test

import (
	"testing"

	"fiplan/handlers/internal/testserver"
)

// A household in Zürich drawing its pillar 3a from 60: the API takes the
// wrapper id, keeps the money locked before 60 and reports the separate
// capital tax with the year's income tax.
func TestHouseholdSwiss3a(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	r := calc(t, h, `{"currentAge":58,"annualIncome":0,"annualExpenses":40000,"lifeExpectancy":64,"targetRetirementAge":58,"expectedReturn":0,"inflationRate":0,`+
		`"accounts":[{"id":"s3a","type":"ch-3a","balance":300000},{"id":"cash","type":"cash","balance":40000}],"tax":{"country":"CH","region":"ZH"}}`)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	rows := r.Data()["projections"].([]any)
	if len(rows) < 3 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, x := range rows[:3] {
		row := x.(map[string]any)
		tax := row["tax"].(map[string]any)
		var drawn float64
		for _, a := range row["accounts"].([]any) {
			if m := a.(map[string]any); m["id"] == "s3a" {
				drawn = num(t, m["withdrawals"])
			}
		}
		switch {
		case i < 2 && (drawn != 0 || num(t, tax["incomeTax"]) != 0):
			t.Errorf("age %d: 3a drew %v, tax %v before 60", 58+i, drawn, tax)
		case i == 2 && (drawn <= 0 || num(t, tax["incomeTax"]) <= 0):
			t.Errorf("age 60: 3a drew %v, income tax %v; want the capital tax", drawn, tax["incomeTax"])
		}
	}
}
