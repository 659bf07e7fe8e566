package tax_test

import (
	"fmt"
	"strings"
	"testing"

	"fiplan/compute/tax"
	"fiplan/handlers/internal/testserver"
)

// A joint return is the engine's on the couple's combined income with both
// ages; a single return carries the person's age.
func TestTaxCalculateFiling(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	sys, _ := h.Taxes().ByCountry("US")
	cases := []struct {
		body string
		in   tax.Income
		year int
	}{
		{`{"country":"US","year":2025,"filing":"joint","age":66,"partnerAge":64,
		   "income":{"pension":70000,"dividends":10000},"partnerIncome":{"employment":50000}}`,
			tax.Income{Pension: 70000, Employment: 50000, Dividends: 10000, Joint: true, Age: 66, PartnerAge: 64, PartnerEmployment: 50000}, 2025},
		// two earners: each spouse's wages under their own wage base
		{`{"country":"US","year":2025,"filing":"joint","income":{"employment":150000},"partnerIncome":{"employment":150000,"selfEmployment":20000}}`,
			tax.Income{Employment: 300000, SelfEmployment: 20000, Joint: true, PartnerEmployment: 150000, PartnerSelfEmployment: 20000}, 2025},
		{`{"country":"US","year":2024,"filing":"joint","income":{"employment":100000}}`,
			tax.Income{Employment: 100000, Joint: true}, 2024},
		{`{"country":"US","year":2025,"age":67,"income":{"pension":60000,"interest":5000}}`,
			tax.Income{Pension: 60000, Interest: 5000, Age: 67}, 2025},
		{`{"country":"US","year":2025,"filing":"single","income":{"pension":60000}}`,
			tax.Income{Pension: 60000}, 2025},
	}
	for _, c := range cases {
		r := taxCalc(t, h, c.body)
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", c.body, r.Status, r.Raw)
		}
		var want tax.Result
		region, _ := regionFor(sys, c.year, "", c.in.Joint)
		if err := tax.Calculate(sys, c.year, &c.in, region, &want); err != nil {
			t.Fatal(err)
		}
		sameResult(t, c.body, r.Body["data"].(map[string]any), &want)
	}
	// the 66/64 couple of the engine's examples
	r := taxCalc(t, h, cases[0].body)
	if got := r.Body["data"].(map[string]any)["incomeTax"]; got != 9234.0 {
		t.Errorf("66/64 couple: incomeTax %v, want 9234", got)
	}
}

func TestTaxCalculateFilingValidation(t *testing.T) {
	h := testserver.New(t, testserver.WithRates("off", "off", "off"))
	cases := []struct {
		body, path, says string
	}{
		{`{"country":"US","filing":"married","income":{}}`, "filing", ""},
		{`{"country":"US","filing":"single","partnerIncome":{"pension":1},"income":{}}`, "partnerIncome", "filing joint"},
		{`{"country":"US","partnerIncome":{},"income":{}}`, "partnerIncome", "filing joint"},
		{`{"country":"US","partnerAge":70,"income":{}}`, "partnerAge", "filing joint"},
		{`{"country":"US","age":-1,"income":{}}`, "age", ""},
		{`{"country":"US","age":131,"income":{}}`, "age", ""},
		{`{"country":"US","filing":"joint","partnerAge":200,"income":{}}`, "partnerAge", ""},
		{`{"country":"US","filing":"joint","partnerIncome":{"employment":-5},"income":{}}`, "partnerIncome.employment", ""},
		{`{"country":"US","filing":"joint","partnerIncome":{"wages":5},"income":{}}`, "partnerIncome.wages", ""},
		{`{"country":"DE","filing":"joint","income":{}}`, "filing", "DE 2026 has no rules for a joint return"},
	}
	for _, c := range cases {
		r := taxCalc(t, h, c.body)
		testserver.ExpectError(t, r, 400, "VALIDATION_ERROR")
		path, msg := detailPath(t, r)
		if path != c.path || !strings.Contains(msg, c.says) {
			t.Errorf("%s: %s %q, want %s %q", c.body, path, msg, c.path, c.says)
		}
	}
	// every state takes a joint return: one with no income tax, one whose
	// joint rules are modelled, one taxed by its single-filer rules
	for _, st := range []string{"TX", "CA", "MA"} {
		if r := taxCalc(t, h, `{"country":"US","year":2025,"region":"`+st+`","filing":"joint","income":{"employment":100000}}`); r.Status != 200 {
			t.Errorf("%s joint: %d %s", st, r.Status, r.Raw)
		}
	}
}

// The countries route says which years (and regions) take a joint return,
// and which rules are for which return.
func TestTaxCountriesJointYears(t *testing.T) {
	h := testserver.New(t)
	r := h.Do("GET", "/api/v1/tax/countries", "", testserver.Bearer(h.Token("alice", "free", ""))...)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	for _, x := range r.Body["data"].([]any) {
		c := x.(map[string]any)
		joint := c["jointYears"].([]any)
		if c["code"] == "US" {
			if len(joint) != len(c["years"].([]any)) {
				t.Errorf("US jointYears %v", joint)
			}
			filings := map[any]int{}
			for _, rl := range c["modelled"].(map[string]any)["rules"].([]any) {
				filings[rl.(map[string]any)["filing"]]++
			}
			// the federal income tax, NIIT and Additional Medicare Tax and
			// each state rule have a single and a joint version
			if filings["single"] < 3 || filings["joint"] != filings["single"] || filings["any"] == 0 {
				t.Errorf("US rule filings %v", filings)
			}
			for _, rg := range c["regions"].([]any) {
				g := rg.(map[string]any)
				if fmt.Sprint(g["jointYears"]) != fmt.Sprint(g["years"]) {
					t.Errorf("US region %v: jointYears %v, years %v", g["code"], g["jointYears"], g["years"])
				}
			}
		} else if len(joint) != 0 {
			t.Errorf("%v jointYears %v", c["code"], joint)
		}
	}
}
