package household

import "testing"

// The German statutory pension: the Regelaltersgrenze by year of birth
// (§ 235 Abs. 2 SGB VI), 0,3 % less for each month drawn before it from 63
// and 0,5 % more for each month after it (§ 77 Abs. 2 Satz 1 Nr. 2 SGB VI).
func TestDEStatutoryPension(t *testing.T) {
	b := parseWrapperFile(t, "de").Benefit("de-statutory-pension")
	if b == nil {
		t.Fatal("no de-statutory-pension benefit in the DE wrappers file")
	}
	ages := []struct {
		born int
		want float64
	}{
		{1940, 65}, {1947, 65 + 1.0/12}, {1952, 65.5}, {1958, 66}, {1959, 66 + 2.0/12}, {1963, 66 + 10.0/12}, {1964, 67}, {1990, 67},
	}
	for _, c := range ages {
		if got := ByBirth(b.NormalAge, c.born); !approx(got, c.want, 1e-9) {
			t.Errorf("born %d (table, § 235 Abs. 2): Regelaltersgrenze %v, want %v", c.born, got, c.want)
		}
	}
	claims := []struct {
		tag, what  string
		born       int
		claim      float64
		start, fac float64
	}{
		// Deutsche Rentenversicherung: at 63 with a Regelaltersgrenze of 67, 48 months early, 14,4 % less.
		{"official", "from 63, born 1964", 1964, 63, 63, 1 - 0.144},
		{"computed", "at the Regelaltersgrenze", 1990, 67, 67, 1},
		{"computed", "two years late: 24 x 0,5 %", 1990, 69, 69, 1.12},
		{"computed", "born 1960, from 63: 40 months early", 1960, 63, 63, 1 - 40*0.003},
		{"computed", "before 63: starts at 63", 1990, 60, 63, 1 - 0.144},
	}
	for _, c := range claims {
		if got := b.Start(c.born, c.claim); got != c.start {
			t.Errorf("%s (%s): starts at %v, want %v", c.what, c.tag, got, c.start)
		}
		if got := b.Factor(c.born, c.claim); !approx(got, c.fac, 1e-12) {
			t.Errorf("%s (%s): factor %v, want %v", c.what, c.tag, got, c.fac)
		}
	}
	if b.TaxedName != "income" {
		t.Errorf("taxed %q, want income (as the DE tax file taxes pensions)", b.TaxedName)
	}
}
