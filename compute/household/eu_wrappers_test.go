package household

import (
	"strings"
	"testing"

	"fiplan/compute/tax"
)

// wrapperExample is a worked example of one wrapper, run through a small
// household, tagged by where its figures come from: "official" (the
// authority's own worked example), "table" (a figure the authority
// publishes) or "computed" (worked by hand from the statute's rules).
type wrapperExample struct {
	wrapper, tag, what string
	run                func(t *testing.T)
}

// wrapperCountries are the wrapper files every wrapper of which has a
// registered worked example. The list only grows.
var wrapperCountries = []string{"ch", "de", "fr", "nl"}

// wrapperExamples registers the worked examples of the continental
// wrappers, counted by TestWrapperExamples:
//
//	go test -run TestWrapperExamples -v ./compute/household/
var wrapperExamples = []wrapperExample{
	{"de-ruerup", "computed", "Höchstbetrag 2026 less the statutory pension contributions", exRuerupLimit},
	{"de-ruerup", "computed", "locked before 62, then taxed as the DE tax file taxes pensions", exRuerupAccess},
	{"de-bav", "computed", "§ 3 Nr. 63 EStG: 8 % of the 2026 ceiling, employer included", exBAVLimit},
	{"de-aktienfonds", "computed", "Teilfreistellung: 30 % of the gain is free", exAktienfonds},
	{"de-aktienfonds", "computed", "Vorabpauschale: 70 % of the Basiszins, taxed the next January", exVorabpauschale},
	{"nl-lijfrente", "computed", "jaarruimte 2025: 30 % of wages above the franchise, capped", exLijfrenteRoom},
	{"nl-lijfrente", "computed", "revisierente before the AOW age, none from it", exLijfrenteAccess},
	{"ch-3a", "table", "maximum 3a deduction 2026 for an employee with a pension fund", ex3aLimit},
	{"ch-3a", "computed", "capital of 100,000 taxed apart in the city of Zürich, 2026", ex3aCapitalTax},
	{"ch-3a", "table", "the separate schedule agrees with the CH tax file's 2026 tariffs", ex3aScheduleMatchesTaxFile},
	{"ch-bvg", "computed", "vested benefits and 3a of one year taxed together; locked before 60", exBVGTogether},
	{"fr-pea", "computed", "PFU before five years, prélèvements sociaux alone after", exPEAHeld},
	{"fr-pea", "computed", "payments stop at the 150,000 ceiling", exPEACeiling},
	{"fr-assurance-vie", "computed", "after eight years: 4,600 allowance, 7.5 % and 17.2 %", exAssuranceVie},
	{"fr-assurance-vie", "computed", "opened ten years before the plan: the eight-year schedule from its first year", exAssuranceVieOpened},
	{"fr-assurance-vie", "computed", "before eight years: 12.8 % and 17.2 %, not the 18.6 % of other gains", exAssuranceVieBefore},
	{"fr-pea", "computed", "opened four years before the plan: 18.6 % alone from its second year", exPEAOpened},
	{"fr-per", "computed", "plafond, lock to 64, capital part at the barème and gain at the PFU", exPER},
}

func TestWrapperExamples(t *testing.T) {
	n := map[string]int{}
	for _, ex := range wrapperExamples {
		if ex.tag != "official" && ex.tag != "table" && ex.tag != "computed" {
			t.Errorf("%s: tag %q", ex.wrapper, ex.tag)
		}
		n[ex.wrapper]++
		t.Run(ex.wrapper+"/"+ex.what, ex.run)
	}
	for _, cc := range wrapperCountries {
		r := parseWrapperFile(t, cc)
		for i := range r.Wrappers {
			id := r.Wrappers[i].ID
			if n[id] == 0 {
				t.Errorf("%s: no worked example registered", id)
			}
			t.Logf("%-18s %d examples", id, n[id])
		}
	}
}

// The ids the contract names for the continental wrappers exist with the
// kind their statute implies.
func TestContractWrapperIDsContinental(t *testing.T) {
	want := map[string]map[string]Kind{
		"de": {"de-ruerup": KindPension, "de-bav": KindPension},
		"nl": {"nl-lijfrente": KindTaxDeferred},
		"ch": {"ch-3a": KindPension, "ch-bvg": KindPension},
		"fr": {"fr-pea": KindTaxFree, "fr-assurance-vie": KindTaxable, "fr-per": KindPension},
	}
	for cc, ids := range want {
		r := parseWrapperFile(t, cc)
		for id, kind := range ids {
			if w := r.Wrapper(id); w == nil || w.Kind != kind {
				t.Errorf("%s: %v, want a %v wrapper", id, w, kind)
			}
		}
	}
}

// euPlan is one person of age, retired at retire, living in cc under the
// tax year year, with no growth and no inflation so that each year's
// figures can be worked by hand.
func euPlan(t *testing.T, cc string, year, age, le, retire int, income, spend float64, accts ...Account) Plan {
	t.Helper()
	region := ""
	if cc == "ch" {
		region = "ZH"
	}
	return Plan{
		People:         []Person{{Age: age, LifeExpectancy: le, RetirementAge: retire, Income: income}},
		Accounts:       accts,
		Expenses:       spend,
		StartYear:      year,
		Residences:     []Residence{{Country: strings.ToUpper(cc), System: taxSystem(t, cc), Year: year, Region: region}},
		WithdrawalRate: 0.04,
	}
}

// acct is an account of wrapper id.
func acct(r *Rules, id string, bal, basis, contrib, employer float64) Account {
	return Account{ID: id, Type: id, Wrapper: r.Wrapper(id), Balance: bal, CostBasis: basis, Contribution: contrib, Employer: employer}
}

// residenceTax is the whole tax of in under cc's tax file.
func residenceTax(t *testing.T, cc string, year int, in tax.Income) float64 {
	t.Helper()
	region := ""
	if cc == "ch" {
		region = "ZH"
	}
	c, err := tax.DueByCategory(taxSystem(t, cc), year, &in, region)
	if err != nil {
		t.Fatal(err)
	}
	return c.Income + c.Regional + c.Social + c.Capital
}

func exRuerupLimit(t *testing.T) {
	r := parseWrapperFile(t, "de")
	for _, c := range []struct{ wage, want float64 }{
		{60000, 30826 - 0.186*60000},   // 19,666
		{150000, 30826 - 0.186*101400}, // 11,965.60: contributions stop at the ceiling
	} {
		p := euPlan(t, "de", 2026, 40, 42, 42, c.wage, 20000, acct(r, "de-ruerup", 0, -1, 30000, 0))
		res := run(t, &p)
		if got := res.Accounts(0)[0].Contributions; !approx(got, c.want, 0.005) {
			t.Errorf("wage %v: deductible Rürup contributions %v, want %v", c.wage, got, c.want)
		}
		if got := res.Extra[0].OverLimit; !approx(got, 30000-c.want, 0.005) {
			t.Errorf("wage %v: over the limit %v, want %v", c.wage, got, 30000-c.want)
		}
	}
}

func exRuerupAccess(t *testing.T) {
	r := parseWrapperFile(t, "de")
	p := euPlan(t, "de", 2026, 61, 63, 61, 0, 20000, acct(r, "de-ruerup", 500000, -1, 0, 0))
	res := run(t, &p)
	if w := res.Accounts(0)[0].Withdrawals; w != 0 || res.Extra[0].Short <= 0 {
		t.Errorf("at 61: drew %v (short %v), want nothing: locked before 62", w, res.Extra[0].Short)
	}
	w := res.Accounts(1)[0].Withdrawals
	want := residenceTax(t, "de", 2026, tax.Income{Pension: w, Age: 62})
	// the DE file rounds the tax to the euro, which the drawing overshoots
	if x := res.Extra[1]; !approx(x.Tax.Total, want, 0.02) || !approx(w-x.Tax.Total, 20000, 1) {
		t.Errorf("at 62: drew %v taxed %v, want the DE file's pension tax %v and 20,000 left", w, x.Tax.Total, want)
	}
}

func exBAVLimit(t *testing.T) {
	r := parseWrapperFile(t, "de")
	if got, _ := r.Wrapper("de-bav").Contrib.LimitFor(2026, 40, 1); got != 0.08*101400 {
		t.Errorf("limit 2026 %v, want 8 %% of 101,400", got)
	}
	p := euPlan(t, "de", 2026, 40, 42, 42, 70000, 30000, acct(r, "de-bav", 0, -1, 6000, 3000))
	res := run(t, &p)
	if got := res.Accounts(0)[0].Contributions; !approx(got, 8112, 0.005) {
		t.Errorf("paid in %v, want 8,112: 3,000 of the employer's and 5,112 of the employee's", got)
	}
	if got := res.Extra[0].OverLimit; !approx(got, 888, 0.005) {
		t.Errorf("over the limit %v, want 888", got)
	}
}

func exAktienfonds(t *testing.T) {
	r := parseWrapperFile(t, "de")
	fund := euPlan(t, "de", 2026, 70, 71, 70, 0, 30000, acct(r, "de-aktienfonds", 200000, 100000, 0, 0))
	res := run(t, &fund)
	w := res.Accounts(0)[0].Withdrawals
	taxed := 0.7 * 0.5 * w // half of each sale is gain, 30 % of it free
	// Abgeltungsteuer 25 % and Solidaritätszuschlag 5.5 % of it, after
	// the Sparer-Pauschbetrag of 1,000.
	hand := 0.25 * 1.055 * (taxed - 1000)
	if got := res.Extra[0].Tax.Total; !approx(got, hand, 1) || !approx(got, residenceTax(t, "de", 2026, tax.Income{CapitalGains: taxed, Age: 70}), 0.02) {
		t.Errorf("drew %v: tax %v, want about %v (25 %% + Soli on %v less 1,000)", w, got, hand, taxed)
	}
	plain := euPlan(t, "de", 2026, 70, 71, 70, 0, 30000, Account{ID: "t", Type: "taxable", Balance: 200000, CostBasis: 100000})
	if other := run(t, &plain).Extra[0].Tax.Total; other <= res.Extra[0].Tax.Total {
		t.Errorf("a plain securities account paid %v, not more than the equity fund's %v", other, res.Extra[0].Tax.Total)
	}
}

func exLijfrenteRoom(t *testing.T) {
	r := parseWrapperFile(t, "nl")
	for _, c := range []struct{ wage, want float64 }{
		{60000, 0.30 * (60000 - 19172)}, // 12,248.40
		{200000, 35589},                 // the maximum jaarruimte
		{15000, 0},                      // below the franchise
	} {
		p := euPlan(t, "nl", 2025, 40, 42, 42, c.wage, 10000, acct(r, "nl-lijfrente", 0, -1, 40000, 0))
		res := run(t, &p)
		if got := res.Accounts(0)[0].Contributions; !approx(got, c.want, 0.005) {
			t.Errorf("wage %v: lijfrente premium deducted %v, want %v", c.wage, got, c.want)
		}
	}
}

func exLijfrenteAccess(t *testing.T) {
	r := parseWrapperFile(t, "nl")
	// Born 1966: AOW age 67 years and 3 months, reached in the year of 68
	// as ages count here.
	p := euPlan(t, "nl", 2026, 60, 69, 60, 0, 20000, acct(r, "nl-lijfrente", 400000, -1, 0, 0))
	res := run(t, &p)
	for _, y := range []int{0, 7} {
		w := res.Accounts(y)[0].Withdrawals
		if got := res.Extra[y].Tax.Penalties; w <= 0 || !approx(got, 0.2*w, 0.005) {
			t.Errorf("age %d: drew %v with revisierente %v, want 20 %%", 60+y, w, got)
		}
	}
	w := res.Accounts(8)[0].Withdrawals
	x := res.Extra[8]
	want := residenceTax(t, "nl", 2026, tax.Income{Pension: w, Age: 68})
	if x.Tax.Penalties != 0 || !approx(x.Tax.Total, want, 0.02) {
		t.Errorf("age 68: charge %v, tax %v; want none and box 1 tax %v on %v", x.Tax.Penalties, x.Tax.Total, want, w)
	}
}

func ex3aLimit(t *testing.T) {
	r := parseWrapperFile(t, "ch")
	p := euPlan(t, "ch", 2026, 40, 42, 42, 100000, 50000, acct(r, "ch-3a", 0, -1, 10000, 0))
	res := run(t, &p)
	if got := res.Accounts(0)[0].Contributions; got != 7258 || res.Extra[0].OverLimit != 2742 {
		t.Errorf("paid in %v over %v, want 7,258 and 2,742", got, res.Extra[0].OverLimit)
	}
}

func ex3aCapitalTax(t *testing.T) {
	r := parseWrapperFile(t, "ch")
	s := r.Schedules["ch-kapitalleistung-zh"]
	// Federal: the Art. 36 tariff on 100,000 is 1,502.95 + 6.60 per 100
	// francs above 82,100 = 2,684.35; one fifth is 536.87. Zürich: the
	// rate of an annual 5,000 is below the minimum, so 2 % of 100,000 =
	// 2,000 of simple tax, times 95 % + 119 % = 4,280.
	if got := s.Tax(100000); !approx(got, 536.87+4280, 0.005) {
		t.Errorf("tax on 100,000: %v, want 4,816.87", got)
	}
	// Above 428,000 the rate method gives more than 2 %: 600,000 is taxed
	// at the rate of 30,000: 20 x (244 + 4 % of 8,000 + 5 % of 5,200) =
	// 20 x 824 = 16,480 of simple tax.
	fed := (10936.55 + 0.132*(600000-185100)) / 5
	if got := s.Tax(600000); !approx(got, fed+2.14*16480, 0.01) {
		t.Errorf("tax on 600,000: %v, want %v", got, fed+2.14*16480)
	}
	p := euPlan(t, "ch", 2026, 59, 61, 59, 0, 50000, acct(r, "ch-3a", 300000, -1, 0, 0))
	res := run(t, &p)
	if w := res.Accounts(0)[0].Withdrawals; w != 0 {
		t.Errorf("at 59: drew %v, want nothing before 60", w)
	}
	w := res.Accounts(1)[0].Withdrawals
	if x := res.Extra[1]; !approx(x.Tax.Total, s.Tax(w), 0.01) || !approx(x.Tax.Income, s.Tax(w), 0.01) || !approx(w-x.Tax.Total, 50000, 0.02) {
		t.Errorf("at 60: drew %v taxed %+v, want only the separate tax %v", w, x.Tax, s.Tax(w))
	}
}

// ex3aScheduleMatchesTaxFile checks the schedule's bands against the CH
// tax file's 2026 rules: the federal tariff (Art. 36 DBG) and Zürich's
// Grundtarif times the canton's and the city's multipliers.
func ex3aScheduleMatchesTaxFile(t *testing.T) {
	y, err := taxSystem(t, "ch").Year(2026)
	if err != nil {
		t.Fatal(err)
	}
	bands := map[string][]Band{}
	for _, r := range y.Rules {
		if len(r.Layers) == 0 {
			continue
		}
		for _, x := range r.Layers[0].Bands {
			band := Band{From: x.From, Rate: x.Rate}
			if f := x.Formula; f != nil {
				band.Rate = f.B
				if f.C > 0 {
					c := f.C
					band.At = &c
				}
			}
			bands[r.ID] = append(bands[r.ID], band)
		}
	}
	s := parseWrapperFile(t, "ch").Schedules["ch-kapitalleistung-zh"]
	fed, zh := s.Parts[0], s.Parts[1]
	if fed.Scale != 0.2 || len(fed.Bands) != len(bands["dbst"]) {
		t.Fatalf("federal part: scale %v, %d bands; the tax file has %d", fed.Scale, len(fed.Bands), len(bands["dbst"]))
	}
	for i, x := range bands["dbst"] {
		y := fed.Bands[i]
		if y.From != x.From || y.Rate != x.Rate || (x.At == nil) != (y.At == nil) || (x.At != nil && *x.At != *y.At) {
			t.Errorf("federal band %d: %+v, the tax file %+v", i, y, x)
		}
	}
	canton, city := bands["zh"], bands["zh-stadt"]
	if len(canton) < 2 || len(city) != len(canton) {
		t.Fatalf("zh bands %v, city %v", canton, city)
	}
	if m := (canton[1].Rate + city[1].Rate) / 0.02; !approx(zh.Scale, m, 1e-9) {
		t.Errorf("Zürich scale %v, the tax file's multipliers give %v", zh.Scale, m)
	}
	// Each of the Grundtarif's bands from 4 % on appears at twenty times
	// its threshold with its simple rate.
	for _, x := range canton[3:] {
		simple := x.Rate / canton[1].Rate * 0.02
		found := false
		for _, y := range zh.Bands {
			if approx(y.From, 20*x.From, 1e-6) && approx(y.Rate, simple, 1e-9) {
				found = true
			}
		}
		if !found && 20*x.From > 428000 {
			t.Errorf("Zürich band from %v (%v) is not in the schedule at %v", x.From, simple, 20*x.From)
		}
	}
}

func exBVGTogether(t *testing.T) {
	r := parseWrapperFile(t, "ch")
	s := r.Schedules["ch-kapitalleistung-zh"]
	p := euPlan(t, "ch", 2026, 59, 61, 59, 0, 450000, acct(r, "ch-3a", 100000, -1, 0, 0), acct(r, "ch-bvg", 800000, -1, 0, 0))
	res := run(t, &p)
	if w := res.Accounts(0)[1].Withdrawals; w != 0 {
		t.Errorf("at 59: vested benefits drew %v before 60", w)
	}
	a, b := res.Accounts(1)[0].Withdrawals, res.Accounts(1)[1].Withdrawals
	if a != 100000 || b <= 0 {
		t.Fatalf("at 60: 3a %v, vested benefits %v; want both drawn", a, b)
	}
	got := res.Extra[1].Tax.Total
	if !approx(got, s.Tax(a+b), 0.02) {
		t.Errorf("tax %v, want the schedule's %v on both together", got, s.Tax(a+b))
	}
	if apart := s.Tax(a) + s.Tax(b); got <= apart {
		t.Errorf("together %v must exceed apart %v", got, apart)
	}
}

func exPEAHeld(t *testing.T) {
	r := parseWrapperFile(t, "fr")
	p := euPlan(t, "fr", 2025, 60, 67, 60, 0, 20000, acct(r, "fr-pea", 1e6, 0, 0, 0))
	res := run(t, &p)
	for y := 0; y < 7; y++ {
		w := res.Accounts(y)[0].Withdrawals
		x := res.Extra[y]
		if y < 5 {
			// PFU on gains realised in 2025: 12.8 % + 18.6 %.
			want := residenceTax(t, "fr", 2025, tax.Income{CapitalGains: w, Age: 60 + y})
			if !approx(x.Tax.Total, want, 0.02) || !approx(want, 0.314*w, 1) {
				t.Errorf("year %d: tax %v on %v, want the PFU %v", y, x.Tax.Total, w, want)
			}
			continue
		}
		// 18.6 % alone: w - 0.186 w = 20,000.
		if !approx(w, 20000/(1-0.186), 0.02) || !approx(x.Tax.Capital, 0.186*w, 0.02) || !approx(x.Tax.Total, x.Tax.Capital, 1e-9) {
			t.Errorf("year %d: drew %v taxed %+v, want %v at 18.6 %%", y, w, x.Tax, 20000/(1-0.186))
		}
	}
}

func exPEACeiling(t *testing.T) {
	r := parseWrapperFile(t, "fr")
	p := euPlan(t, "fr", 2025, 30, 33, 33, 60000, 10000, acct(r, "fr-pea", 145000, 140000, 20000, 0))
	res := run(t, &p)
	if got := res.Accounts(0)[0].Contributions; got != 10000 || res.Extra[0].OverLimit != 10000 {
		t.Errorf("year 0: paid in %v over %v, want 10,000 and 10,000", got, res.Extra[0].OverLimit)
	}
	if got := res.Accounts(1)[0].Contributions; got != 0 {
		t.Errorf("year 1: paid in %v past the 150,000 ceiling", got)
	}
}

func exAssuranceVie(t *testing.T) {
	r := parseWrapperFile(t, "fr")
	p := euPlan(t, "fr", 2025, 60, 70, 60, 0, 20000, acct(r, "fr-assurance-vie", 1e6, 0, 0, 0))
	res := run(t, &p)
	if w := res.Accounts(7)[0].Withdrawals; !approx(res.Extra[7].Tax.Capital, 0.3*w, 0.02) {
		t.Errorf("year 7: tax %+v on %v, want 12.8 %% and 17.2 %% of the gain", res.Extra[7].Tax, w)
	}
	// From eight years: w - 7.5 % (w - 4,600) - 17.2 % w = 20,000.
	want := (20000 - 0.075*4600) / (1 - 0.075 - 0.172)
	for _, y := range []int{8, 9} {
		w := res.Accounts(y)[0].Withdrawals
		if !approx(w, want, 0.02) || !approx(res.Extra[y].Tax.Capital, w-20000, 0.02) {
			t.Errorf("year %d: drew %v taxed %+v, want %v", y, w, res.Extra[y].Tax, want)
		}
	}
}

func exPER(t *testing.T) {
	r := parseWrapperFile(t, "fr")
	for _, c := range []struct{ wage, want float64 }{{50000, 5000}, {500000, 37094}} {
		p := euPlan(t, "fr", 2025, 40, 42, 42, c.wage, 20000, acct(r, "fr-per", 0, -1, 40000, 0))
		if got := run(t, &p).Accounts(0)[0].Contributions; !approx(got, c.want, 0.005) {
			t.Errorf("wage %v: deductible PER payments %v, want %v", c.wage, got, c.want)
		}
	}
	p := euPlan(t, "fr", 2025, 63, 65, 63, 0, 20000, acct(r, "fr-per", 200000, 100000, 0, 0))
	res := run(t, &p)
	if w := res.Accounts(0)[0].Withdrawals; w != 0 {
		t.Errorf("at 63: drew %v before 64", w)
	}
	w := res.Accounts(1)[0].Withdrawals
	x := res.Extra[1]
	// Half of the pot is the deducted payments, half gain.
	income := residenceTax(t, "fr", 2025, tax.Income{Pension: 0.5 * w, Age: 64})
	if !approx(x.Tax.Capital, 0.3*0.5*w, 0.02) || !approx(x.Tax.Total, income+0.15*w, 0.02) {
		t.Errorf("at 64: drew %v taxed %+v, want 30 %% of %v and the barème's %v", w, x.Tax, 0.5*w, income)
	}
}

// exVorabpauschale: 100,000 in an accumulating equity fund growing 7 %,
// the household living on cash. Computed from InvStG § 18: for 2025 the
// Vorabpauschale is 100,000 × 2,53 % × 70 % = 1,771 (under the 7,000 of
// growth), deemed received in January 2026 and taxed then: 70 % of it
// (1,239.70) is a gain of the 2026 return, and the cost basis rises by
// 1,771. For 2026, 107,000 × 3,20 % × 70 % = 2,396.80.
func exVorabpauschale(t *testing.T) {
	r := parseWrapperFile(t, "de")
	p := euPlan(t, "de", 2025, 60, 63, 60, 0, 20000, acct(r, "de-aktienfonds", 100000, 100000, 0, 0),
		Account{ID: "cash", Type: "cash", Balance: 200000, CostBasis: -1})
	p.Return = 0.07
	res := run(t, &p)
	if x := res.Extra[0]; x.Advance != 0 || x.Tax.Total != 0 {
		t.Errorf("2025: %v taxed %+v, want nothing before the first January", x.Advance, x.Tax)
	}
	x := res.Extra[1]
	want := residenceTax(t, "de", 2026, tax.Income{CapitalGains: 0.7 * 1771, Age: 61})
	if !approx(x.Advance, 1771, 0.005) || !approx(x.Tax.Total, want, 0.01) || want <= 0 {
		t.Errorf("2026: Vorabpauschale %v taxed %v, want 1,771 taxed %v", x.Advance, x.Tax.Total, want)
	}
	if got := res.Extra[2].Advance; !approx(got, 2396.80, 0.005) {
		t.Errorf("2027: Vorabpauschale of 2026 %v, want 2,396.80", got)
	}
}
