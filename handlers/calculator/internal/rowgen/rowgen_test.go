package rowgen

import (
	"strings"
	"testing"
)

func TestGenerate(t *testing.T) {
	src := "package calculator\n\ntype calcYearDoc struct {\n" +
		"\tYear int `json:\"year\" row:\"int\"`\n" +
		"\tGrowth float64 `json:\"growth\" row:\"cents\"`\n" +
		"\tFIProgress float64 `json:\"fiProgress\" row:\"rate\"`\n" +
		"\tRetired bool `json:\"retired\" row:\"bool\"`\n" +
		"\tTax *rowTaxDoc `json:\"tax,omitempty\"`\n" +
		"\tResidence string `json:\"residence,omitempty\"`\n}\n"
	out, err := Generate("response.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`const csvHeader = "scenario,year,growth,fiProgress,retired"`,
		"b = append(b, `{\"year\":`...)",
		"b = jsonw.AppendFixed(b, r.Growth, 2)",
		"b = jsonw.AppendFixed(b, r.FIProgress, 4)",
		"b = append(b, `,\"retired\":true`...)",
		"b = append(b, `,\"tax\":`...)",
		"b = strconv.AppendBool(b, r.Retired)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("generated code lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "Residence") {
		t.Errorf("a field without a row tag was written:\n%s", out)
	}
}

func TestGenerateRefuses(t *testing.T) {
	const tax = "\tTax *rowTaxDoc `json:\"tax,omitempty\"`\n"
	for _, c := range []struct{ name, src, want string }{
		{"not Go", "package", "cannot parse"},
		{"no declaration", "package calculator\n\ntype other struct{}\n", "no struct calcYearDoc"},
		{"no row field", "package calculator\n\ntype calcYearDoc struct {\n\tYear int `json:\"year\"`\n" + tax + "}\n", "no field with a row tag"},
		{"unknown tag", "package calculator\n\ntype calcYearDoc struct {\n\tYear int `json:\"year\" row:\"money\"`\n" + tax + "}\n", `calcYearDoc.Year: row tag "money"`},
		{"tag against type", "package calculator\n\ntype calcYearDoc struct {\n\tAge float64 `json:\"age\" row:\"int\"`\n" + tax + "}\n", `calcYearDoc.Age: row tag "int" on a float64`},
		{"pointer", "package calculator\n\ntype calcYearDoc struct {\n\tAge *int `json:\"age\" row:\"int\"`\n" + tax + "}\n", `calcYearDoc.Age: row tag "int" on a *int`},
		{"no JSON name", "package calculator\n\ntype calcYearDoc struct {\n\tAge int `json:\"-\" row:\"int\"`\n" + tax + "}\n", "calcYearDoc.Age: a row field needs a JSON name"},
		{"no tax", "package calculator\n\ntype calcYearDoc struct {\n\tAge int `json:\"age\" row:\"int\"`\n}\n", "no Tax field"},
	} {
		_, err := Generate("response.go", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// householdSrc declares a row with a household part: an object under a
// parameter, a pointer under a field, a list, and CSV places.
const householdSrc = "package calculator\n\ntype calcYearDoc struct {\n" +
	"\tYear int `json:\"year\" row:\"int\"`\n" +
	"\tTax *taxDoc `json:\"tax,omitempty\" household:\"Tax,if=taxed\"`\n" +
	"\tPartnerAge *int `json:\"partnerAge,omitempty\" household:\"PartnerAge,nonneg\" csv:\"1\"`\n" +
	"\tAccounts []acctDoc `json:\"accounts,omitempty\" household:\"h.Accounts(i),of=household.AccountYear\"`\n" +
	"\tShortfall float64 `json:\"shortfall,omitempty\" household:\"Short\" csv:\"3,short\"`\n" +
	"\tHealth *healthDoc `json:\"health,omitempty\" household:\"Health,nonzero\"`\n" +
	"}\n\ntype taxDoc struct {\n" +
	"\tIncomeTax float64 `json:\"incomeTax\" household:\"Income\" csv:\"2\"`\n" +
	"\tWealthTax *float64 `json:\"wealthTax,omitempty\" household:\"Wealth,if=WealthOn\"`\n" +
	"}\n\ntype acctDoc struct {\n" +
	"\tID string `json:\"id\" household:\"h.IDs[k]\"`\n" +
	"\tEndBalance float64 `json:\"endBalance\" household:\"End\" csv:\"1\"`\n" +
	"}\n\ntype healthDoc struct {\n" +
	"\tPremiums float64 `json:\"premiums\" household:\"Premiums\" csv:\"4,healthPremiums\"`\n" +
	"\tCredit float64 `json:\"credit\" household:\"Credit\"`\n" +
	"}\n"

func TestGenerateHousehold(t *testing.T) {
	out, err := Generate("response.go", []byte(householdSrc))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\"fiplan/compute/household\"",
		"if taxed {\n\t\tb = append(b, `,\"tax\":{\"incomeTax\":`...)\n\t\tb = jsonw.AppendFixed(b, x.Tax.Income, 2)\n\t\tif x.Tax.WealthOn {",
		"if x.PartnerAge >= 0 {",
		"accts := h.Accounts(i)",
		"b = jsonw.AppendString(b, h.IDs[k])",
		"if cents(x.Short) != 0 {",
		"if cents(x.Health.Premiums) != 0 || cents(x.Health.Credit) != 0 {",
		"b = append(b, \",partnerAge\"...)\n\tif taxed {\n\t\tb = append(b, \",incomeTax\"...)\n\t}\n\tb = append(b, \",short,healthPremiums\"...)",
		"if taxed {\n\t\treturn 4\n\t}\n\treturn 3",
		"var csvAccountFields = [...]string{\".endBalance\"}",
		"func appendCSVAccount(b []byte, a *household.AccountYear) []byte {",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("generated code lacks %s:\n%s", want, out)
		}
	}
}

func TestGenerateHouseholdRefuses(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"a CSV place twice", `csv:"3,short"`, `csv:"2,short"`, "csv place 2 where 3 is due"},
		{"a CSV place missing", `csv:"3,short"`, `csv:"5,short"`, "csv place 4 where 3 is due"},
		{"no place", `csv:"3,short"`, `csv:"x"`, `csv tag "x"`},
		{"unknown option", `Health,nonzero`, `Health,often`, `unknown household option "often"`},
		{"unknown parameter", `Tax,if=taxed`, `Tax,if=paid`, "if=paid is neither a parameter"},
		{"a pointer never absent", `PartnerAge,nonneg`, `PartnerAge`, "a *int says when it is absent"},
		{"a list without its type", `h.Accounts(i),of=household.AccountYear`, `h.Accounts(i)`, "a list names its elements' type"},
		{"an optional first member", `household:"Income" csv:"2"`, `household:"Income,if=Paid" csv:"2"`, "the first member of taxDoc is written always"},
		{"a value of the result as a column", `household:"h.IDs[k]"`, `household:"h.IDs[k]" csv:"2"`, "a CSV column is a value of the row"},
		{"a column without a value", `household:"Credit"`, `csv:"5"`, "a csv column needs a household tag"},
		{"nonzero on an int", `PartnerAge,nonneg`, `PartnerAge,nonneg,nonzero`, "nonzero on a *int"},
	} {
		src := strings.Replace(householdSrc, c.old, c.new, 1)
		if src == householdSrc {
			t.Fatalf("%s: %s is not in the source", c.name, c.old)
		}
		_, err := Generate("response.go", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
