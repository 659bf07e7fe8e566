package calculator_test

import (
	"strings"
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

// costBasis is taken for a wrapper taxed on its gains and refused for one
// that does not follow it.
func TestHouseholdCostBasisOfGainsWrappers(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := func(cc, typ string) string {
		return `{"currentAge":60,"annualIncome":0,"annualExpenses":20000,"lifeExpectancy":63,"expectedReturn":0,"inflationRate":0,` +
			`"accounts":[{"id":"a","type":"` + typ + `","balance":300000,"costBasis":100000}],"tax":{"country":"` + cc + `"}}`
	}
	for _, typ := range []string{"fr-pea", "fr-assurance-vie", "fr-per"} {
		if r := calc(t, h, body("FR", typ)); r.Status != 200 {
			t.Errorf("%s with costBasis: %d %s", typ, r.Status, r.Raw)
		}
	}
	if r := calc(t, h, body("DE", "de-aktienfonds")); r.Status != 200 {
		t.Errorf("de-aktienfonds with costBasis: %d %s", r.Status, r.Raw)
	}
	for _, c := range [][2]string{{"CH", "ch-3a"}, {"NL", "nl-lijfrente"}, {"US", "us-401k"}} {
		testserver.ExpectError(t, calc(t, h, body(c[0], c[1])), 400, "VALIDATION_ERROR")
		if r := calc(t, h, body(c[0], c[1])); !strings.Contains(string(r.Raw), "accounts[0].costBasis") {
			t.Errorf("%s with costBasis: %s, want the field named", c[1], r.Raw)
		}
	}
	// The basis matters: a PEA sold at a third of cost pays the PFU on
	// two thirds of each withdrawal in its first years.
	r := calc(t, h, body("FR", "fr-pea"))
	row := r.Data()["projections"].([]any)[0].(map[string]any)
	tax := row["tax"].(map[string]any)
	if num(t, tax["total"]) <= 0 {
		t.Errorf("first year's tax %v: a PEA with gains under five years pays the PFU", tax)
	}
}

// openedYear counts an assurance-vie's eight years from the account's
// opening: one opened ten years ago pays less tax than one opened today;
// a year after the plan's first is refused, naming the field.
func TestHouseholdOpenedYear(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	body := func(opened string) string {
		return `{"currentAge":60,"annualIncome":0,"annualExpenses":20000,"lifeExpectancy":62,"expectedReturn":0,"inflationRate":0,` +
			`"accounts":[{"id":"av","type":"fr-assurance-vie","balance":300000,"costBasis":100000` + opened + `}],"tax":{"country":"FR","year":2025}}`
	}
	firstTax := func(opened string) float64 {
		r := calc(t, h, body(opened))
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
		row := r.Data()["projections"].([]any)[0].(map[string]any)
		return num(t, row["tax"].(map[string]any)["total"])
	}
	today, old := firstTax(""), firstTax(`,"openedYear":2015`)
	if !(old < today) || old <= 0 {
		t.Errorf("tax opened today %v, opened 2016 %v: want less after eight years", today, old)
	}
	r := calc(t, h, body(`,"openedYear":2027`))
	testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
	if !strings.Contains(string(r.Raw), "accounts[0].openedYear") {
		t.Errorf("opened after the first year: %s, want the field named", r.Raw)
	}
}
