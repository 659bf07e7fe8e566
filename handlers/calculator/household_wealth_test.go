package calculator_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"

	"fiplan/handlers/internal/testserver"
)

// A household living where wealth is taxed shows the year's wealthTax in
// its rows' tax, inside the total; a residence without a wealth tax (the
// US, or Switzerland without a canton) has no such member.
func TestHouseholdWealthTax(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	plan := func(tax, relocations string) string {
		return `{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"startYear":2026,"targetRetirementAge":60,"lifeExpectancy":70,
		  "accounts":[{"id":"cash","type":"cash","balance":50000},{"id":"brokerage","type":"taxable","balance":1500000,"costBasis":1000000}],
		  "tax":` + tax + relocations + `}`
	}
	cases := []struct {
		name, body string
		wealth     []bool // by row: whether the row has wealthTax (the last value repeats)
	}{
		{"NL", plan(`{"country":"NL","year":2026}`, ``), []bool{true}},
		{"CH Zürich", plan(`{"country":"CH","region":"ZH","year":2026}`, ``), []bool{true}},
		// without a canton the default, Zürich's, taxes income and wealth
		{"CH without canton", plan(`{"country":"CH","year":2026}`, ``), []bool{true}},
		{"US", plan(`{"country":"US","year":2026}`, ``), []bool{false}},
		{"US then Norway", plan(`{"country":"US","year":2026}`, `,"relocations":[{"atAge":65,"country":"NO"}]`),
			[]bool{false, false, false, false, false, true}},
	}
	for _, c := range cases {
		r := calc(t, h, c.body)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", c.name, r.Status, r.Raw)
		}
		for i, row := range r.Data()["projections"].([]any) {
			tx := row.(map[string]any)["tax"].(map[string]any)
			want := c.wealth[min(i, len(c.wealth)-1)]
			w, ok := tx["wealthTax"]
			if ok != want {
				t.Fatalf("%s row %d: wealthTax present %v, want %v: %v", c.name, i, ok, want, tx)
			}
			sum := num(t, tx["incomeTax"]) + num(t, tx["socialContributions"]) + num(t, tx["capitalTax"]) + num(t, tx["penalties"])
			if ok {
				if num(t, w) <= 0 {
					t.Fatalf("%s row %d: wealth of 1,55 million pays no wealth tax: %v", c.name, i, tx)
				}
				sum += num(t, w)
			}
			if d := num(t, tx["total"]) - sum; d > 0.011 || d < -0.011 {
				t.Fatalf("%s row %d: total is not the sum of its parts: %v", c.name, i, tx)
			}
		}
	}
}

// The CSV answer's wealthTax column says what the JSON rows say.
func TestHouseholdWealthTaxCSV(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := `{"currentAge":60,"annualIncome":0,"annualExpenses":40000,"startYear":2026,"targetRetirementAge":60,"lifeExpectancy":63,
	  "accounts":[{"id":"brokerage","type":"taxable","balance":900000}],"tax":{"country":"NL","year":2026}}`
	status, _, raw := calcAccept(t, h, "text/csv", body)
	if status != 200 {
		t.Fatalf("%d %s", status, raw)
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "wealthTax")
	rows := calc(t, h, body).Data()["projections"].([]any)
	if col < 0 || len(recs) != 1+len(rows) {
		t.Fatalf("header %v, %d records for %d rows", recs[0], len(recs), len(rows))
	}
	for i, row := range rows {
		want := num(t, row.(map[string]any)["tax"].(map[string]any)["wealthTax"])
		if got, err := strconv.ParseFloat(recs[1+i][col], 64); err != nil || got != want || want <= 0 {
			t.Fatalf("row %d: CSV %q, JSON %v", i, recs[1+i][col], want)
		}
	}
}
