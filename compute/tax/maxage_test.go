package tax

import (
	"math"
	"strings"
	"testing"
)

// maxAgeSystem has two versions of one allowance, as Sweden's grundavdrag:
// 1 000 for a filer of at most 66 at the end of the year (or of unknown
// age), 3 000 from 67; and on a joint return a credit of 50 when one filer
// is from 60 to 66, both bounds in one condition.
const maxAgeSystem = `{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},
"years":[{"year":2024,"rules":[
 {"id":"it","category":"income","src":[{"doc":"d","sec":"1"}],
  "layers":[{"base":{"parts":{"employment":1,"pension":1}},"bands":[{"from":0,"rate":0.2}]}],
  "deductions":[{"label":"young","amount":1000,"when":{"maxAge":66}},
   {"label":"old","amount":3000,"when":{"minAge":67}}],
  "credits":[{"label":"band","amount":50,"when":{"filing":"joint","minAge":60,"maxAge":66}}]}
]}]}`

func TestMaxAge(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(maxAgeSystem))
	if err != nil {
		t.Fatal(err)
	}
	if !s.AgeRules() {
		t.Error("AgeRules() = false with a maxAge condition")
	}
	for _, c := range []struct {
		name string
		in   Income
		want float64
	}{
		// unknown age: within every maxAge, below every minAge: 20% of 9 000
		{"single, age unknown", Income{Pension: 10000}, 1800},
		{"single, 66", Income{Pension: 10000, Age: 66}, 1800},
		// 67: the older allowance only, 20% of 7 000
		{"single, 67", Income{Pension: 10000, Age: 67}, 1400},
		// the band credit is for joint returns only
		{"single, 62", Income{Pension: 10000, Age: 62}, 1800},
		// joint 70/62: the young allowance holds for the partner, the old
		// for the taxpayer (each condition asks for some filer): 20% of
		// 6 000, less the credit of 50 for the partner within 60..66
		{"joint 70/62", Income{Pension: 10000, Joint: true, Age: 70, PartnerAge: 62}, 1150},
		// joint 70/59: both allowances, but nobody within 60..66 for the
		// credit: 20% of 6 000
		{"joint 70/59", Income{Pension: 10000, Joint: true, Age: 70, PartnerAge: 59}, 1200},
		// joint 72/68: neither at most 66: the old allowance only
		{"joint 72/68", Income{Pension: 10000, Joint: true, Age: 72, PartnerAge: 68}, 1400},
		// joint 70/0: the partner's unknown age is at most 66 but under 60
		{"joint 70/unknown", Income{Pension: 10000, Joint: true, Age: 70}, 1200},
	} {
		var r Result
		if err := Calculate(s, 2024, &c.in, "", &r); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(r.IncomeTax-c.want) > 1e-9 {
			t.Errorf("%s: income tax %.2f, want %.2f", c.name, r.IncomeTax, c.want)
		}
	}
}

// maxAge is decoded strictly like minAge.
func TestMaxAgeStrict(t *testing.T) {
	t.Parallel()
	for name, r := range map[string][2]string{
		"maxAge 0":            {`"when":{"maxAge":66}`, `"when":{"maxAge":0}`},
		"maxAge too high":     {`"when":{"maxAge":66}`, `"when":{"maxAge":131}`},
		"minAge above maxAge": {`"when":{"filing":"joint","minAge":60,"maxAge":66}`, `"when":{"filing":"joint","minAge":67,"maxAge":66}`},
		"maxAge in perPerson": {`"when":{"minAge":67}`, `"perPerson":{"maxAge":66}`},
	} {
		j := strings.Replace(maxAgeSystem, r[0], r[1], 1)
		if j == maxAgeSystem {
			t.Fatalf("%s: nothing replaced", name)
		}
		if _, err := Parse([]byte(j)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}
