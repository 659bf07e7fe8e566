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
