package program_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"fiplan/compute/tax"
	"fiplan/data/program"
	"fiplan/data/taxtable"
)

func f64(v float64) *float64 { return &v }

// eurPerGEL is a rate table for tests: 1 GEL = 0.34 EUR.
type eurPerGEL struct{}

func (eurPerGEL) Convert(x float64, from, to string) (float64, bool) {
	switch {
	case from == to:
		return x, true
	case from == "GEL" && to == "EUR":
		return x * 0.34, true
	case from == "EUR" && to == "GEL":
		return x / 0.34, true
	}
	return 0, false
}

func TestRuleRegime(t *testing.T) {
	cases := []struct {
		name   string
		rule   program.Rule
		cur    string
		fx     program.Rates
		want   tax.RegimeRule
		origin tax.Origin
		labels map[tax.Part]string
	}{
		{"flat on foreign pension",
			program.Rule{Type: program.RuleFlat, Rate: f64(0.07), Incomes: []program.IncomePart{"pension", "dividends"}, Scope: program.ScopeForeign},
			"EUR", nil,
			tax.RegimeRule{Treatment: tax.TreatFlat, Rate: 0.07}, tax.OriginForeign,
			map[tax.Part]string{tax.Pension: "pension (foreign source): flat 7.000000000000001%", tax.Dividends: "dividends (foreign source): flat 7.000000000000001%"}},
		{"flat with a cap",
			program.Rule{Type: program.RuleFlat, Rate: f64(0.24), Currency: "EUR", IncomeCap: f64(600000), Incomes: []program.IncomePart{"employment"}, Scope: program.ScopeAll},
			"EUR", nil,
			tax.RegimeRule{Treatment: tax.TreatFlat, Rate: 0.24, Cap: 600000}, tax.OriginAll,
			map[tax.Part]string{tax.Employment: "employment (all source): flat 24% up to 600000 EUR"}},
		{"exempt domestic interest",
			program.Rule{Type: program.RuleExempt, Incomes: []program.IncomePart{"interest"}, Scope: program.ScopeDomestic},
			"EUR", nil,
			tax.RegimeRule{Treatment: tax.TreatExempt}, tax.OriginDomestic,
			map[tax.Part]string{tax.Interest: "interest (domestic source): exempt"}},
		{"partial exemption between a floor and a cap, with a relief cap",
			program.Rule{Type: program.RulePartialExempt, Fraction: f64(0.3), Currency: "EUR", IncomeFloor: f64(100000), IncomeCap: f64(1e6), ReliefCap: f64(50000), Incomes: []program.IncomePart{"employment"}, Scope: program.ScopeDomestic},
			"EUR", nil,
			tax.RegimeRule{Treatment: tax.TreatPartialExempt, Fraction: 0.3, Floor: 100000, Cap: 1e6, ReliefCap: 50000}, tax.OriginDomestic,
			map[tax.Part]string{tax.Employment: "employment (domestic source): 30% exempt (of the income between 100000 and 1000000 EUR), at most 50000 EUR"}},
		{"partial exemption above a floor",
			program.Rule{Type: program.RulePartialExempt, Fraction: f64(0.5), Currency: "EUR", IncomeFloor: f64(20000), Incomes: []program.IncomePart{"employment"}, Scope: program.ScopeDomestic},
			"EUR", nil,
			tax.RegimeRule{Treatment: tax.TreatPartialExempt, Fraction: 0.5, Floor: 20000}, tax.OriginDomestic,
			map[tax.Part]string{tax.Employment: "employment (domestic source): 50% exempt (of the income above 20000 EUR)"}},
		{"lump sum converted from another currency",
			program.Rule{Type: program.RuleLumpSum, Currency: "GEL", Amount: f64(100000), Incomes: []program.IncomePart{"pension"}, Scope: program.ScopeForeign},
			"EUR", eurPerGEL{},
			tax.RegimeRule{Treatment: tax.TreatLumpSum, Amount: 34000, Label: "lump sum of 34000 EUR"}, tax.OriginForeign,
			map[tax.Part]string{tax.Pension: "pension (foreign source): covered by the lump sum"}},
		{"minimum tax",
			program.Rule{Type: program.RuleMinimumTax, Currency: "EUR", Amount: f64(15000), Incomes: []program.IncomePart{"dividends"}, Scope: program.ScopeForeign},
			"EUR", nil,
			tax.RegimeRule{Treatment: tax.TreatMinimumTax, Amount: 15000, Label: "top-up to the minimum tax of 15000 EUR"}, tax.OriginForeign,
			map[tax.Part]string{tax.Dividends: "dividends (foreign source): counts towards the minimum tax"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.rule.Regime(c.cur, c.fx)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			for p, l := range c.labels {
				want.Parts[p], want.PartLabels[p] = true, l
			}
			if got.Rule != want || got.Origin != c.origin {
				t.Errorf("got %+v %v\nwant %+v %v", got.Rule, got.Origin, want, c.origin)
			}
		})
	}
}

func TestRegimeErrors(t *testing.T) {
	flat := program.Rule{Type: program.RuleFlat, Rate: f64(0.1), Incomes: []program.IncomePart{"pension"}, Scope: program.ScopeForeign}
	lump := program.Rule{Type: program.RuleLumpSum, Currency: "CHF", Amount: f64(1), Incomes: []program.IncomePart{"pension"}, Scope: program.ScopeForeign}
	cases := []struct {
		name  string
		rules []program.Rule
		fx    program.Rates
		want  string
	}{
		{"no rules", nil, nil, "the program has no rules the calculator can apply"},
		{"too many rules", make([]program.Rule, tax.MaxRegimeRules+1), nil, "more rules than the calculator applies"},
		{"unknown type", []program.Rule{{Type: "rebate", Incomes: []program.IncomePart{"pension"}, Scope: program.ScopeAll}}, nil, "rule type rebate is not one the calculator applies"},
		{"unknown scope", []program.Rule{{Type: program.RuleExempt, Incomes: []program.IncomePart{"pension"}, Scope: "offshore"}}, nil, `scope "offshore"`},
		{"unknown income", []program.Rule{{Type: program.RuleExempt, Incomes: []program.IncomePart{"royalties"}, Scope: program.ScopeAll}}, nil, `income part "royalties"`},
		{"another currency without rates", []program.Rule{flat, lump}, nil, "its amounts in CHF cannot be converted to EUR"},
		{"a currency the rates lack", []program.Rule{lump}, eurPerGEL{}, "its amounts in CHF cannot be converted to EUR"},
	}
	for _, c := range cases {
		p := program.Program{ID: "xx-test", Country: "IT", Name: "Test", Rules: c.rules}
		rules, err := p.Regime("EUR", c.fx)
		if err == nil || !strings.Contains(err.Error(), c.want) || rules != nil {
			t.Errorf("%s: %v, %d rules; want an error containing %q", c.name, err, len(rules), c.want)
		}
		sys := &tax.System{Country: "IT", Currency: "EUR"}
		if o := p.Offer(sys, c.fx); o.Why != err.Error() || o.Rules != nil || o.ID != "xx-test" || o.Label != "Test" {
			t.Errorf("%s: offer %+v", c.name, o)
		}
	}
	p := program.Program{ID: "zz-x", Country: "ZZ", Status: program.StatusClosed, Rules: []program.Rule{flat}}
	if o := p.Offer(nil, nil); !strings.HasPrefix(o.Why, "no tax parameters for ZZ") || !o.Closed || o.Rules != nil {
		t.Errorf("without a tax system: %+v", o)
	}
}

// Every program of the dataset whose country has tax parameters converts,
// each covered part labelled, and ApplyRegime accepts the result.
func TestEmbeddedProgramsConvert(t *testing.T) {
	tab := loadEmbedded(t)
	taxes, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	calculable := 0
	for _, p := range tab.All() {
		sys, ok := taxes.ByCountry(p.Country)
		o := p.Offer(sys, nil)
		if o.Closed != (p.Status == program.StatusClosed) || o.ID != p.ID || o.Label != p.Name {
			t.Errorf("%s: offer %+v", p.ID, o)
		}
		if !ok || len(p.Rules) == 0 {
			if o.Why == "" {
				t.Errorf("%s: calculable without a tax system or rules", p.ID)
			}
			continue
		}
		if o.Why != "" || len(o.Rules) != len(p.Rules) {
			t.Errorf("%s: %q, %d of %d rules", p.ID, o.Why, len(o.Rules), len(p.Rules))
			continue
		}
		calculable++
		for i, sr := range o.Rules {
			n := 0
			for part, on := range sr.Rule.Parts {
				if on {
					n++
					if !strings.HasPrefix(sr.Rule.PartLabels[part], tax.Part(part).String()+" (") {
						t.Errorf("%s rule %d: label %q", p.ID, i, sr.Rule.PartLabels[part])
					}
				}
			}
			if n != len(p.Rules[i].Incomes) {
				t.Errorf("%s rule %d: %d parts, %d incomes", p.ID, i, n, len(p.Rules[i].Incomes))
			}
		}
		var rg tax.Regime
		o.Regime(&[tax.NumParts]bool{}, &rg)
		var res tax.Result
		in := tax.Income{Employment: 50000, Pension: 40000, Dividends: 10000}
		if _, err := tax.ApplyRegime(sys, sys.Latest(), &in, "", &rg, &res); err != nil {
			t.Errorf("%s: %v", p.ID, err)
		}
	}
	if calculable < 20 {
		t.Errorf("only %d programs convert", calculable)
	}
}

// Over random amounts, rates and fractions every converted figure is
// finite, equal to the rule's own (same currency) or its conversion, and
// every covered part has a label.
func TestRuleRegimeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	types := program.RuleTypes
	scopes := program.Scopes
	for i := range 2000 {
		r := program.Rule{Type: types[rng.IntN(len(types))], Scope: scopes[rng.IntN(len(scopes))], Currency: []string{"EUR", "GEL"}[rng.IntN(2)]}
		for _, in := range program.IncomeParts {
			if rng.IntN(2) == 0 {
				r.Incomes = append(r.Incomes, in)
			}
		}
		amount := func() *float64 {
			if rng.IntN(3) == 0 {
				return nil
			}
			return f64(math.Ldexp(rng.Float64(), rng.IntN(60)))
		}
		r.Rate, r.Fraction, r.Amount, r.IncomeFloor, r.IncomeCap, r.ReliefCap = f64(rng.Float64()), f64(rng.Float64()), amount(), amount(), amount(), amount()
		got, err := r.Regime("EUR", eurPerGEL{})
		if err != nil {
			t.Fatalf("case %d %+v: %v", i, r, err)
		}
		k := 1.0
		if r.Currency == "GEL" {
			k = 0.34
		}
		for _, c := range []struct {
			got float64
			in  *float64
		}{{got.Rule.Amount, r.Amount}, {got.Rule.Floor, r.IncomeFloor}, {got.Rule.Cap, r.IncomeCap}, {got.Rule.ReliefCap, r.ReliefCap}} {
			want := 0.0
			if c.in != nil {
				want = *c.in * k
			}
			if math.IsNaN(c.got) || math.IsInf(c.got, 0) || c.got != want {
				t.Fatalf("case %d %+v: amount %v, want %v", i, r, c.got, want)
			}
		}
		for _, in := range r.Incomes {
			var p tax.Part
			for p = 0; p < tax.NumParts && p.String() != string(in); p++ {
			}
			if !got.Rule.Parts[p] || got.Rule.PartLabels[p] == "" {
				t.Fatalf("case %d: part %s not covered or unlabelled", i, in)
			}
		}
	}
}
