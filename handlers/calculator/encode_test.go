package calculator

import (
	"bytes"
	stdjson "encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"fiplan/compute/fi"
	place "fiplan/compute/geo"
	"fiplan/compute/household"
	"fiplan/compute/plan"
	"fiplan/compute/tax"
	"fiplan/data/history"
	"fiplan/data/taxtable"
	"fiplan/handlers/jsonw"
)

// declared is the answer as the declaration says it: calcResponseDoc
// filled from r, every row included, for encoding/json to encode.
func declared(t *testing.T, r *plan.Result) []byte {
	var d docs
	var resp calcResponseDoc
	doc := func(k int) (calcSummaryDoc, []calcYearDoc) {
		p := &r.Plans[k]
		sum := *d.plans[k].summary(r, p)
		rows := []calcYearDoc{}
		for i := range p.Rows {
			if !plan.KeepRow(i, len(p.Rows), r.Step) {
				continue
			}
			y := &p.Rows[i]
			row := calcYearDoc{Year: y.Year, Age: y.Age, StartBalance: cents(y.StartBalance), Contributions: cents(y.Contributions),
				Growth: cents(y.Growth), Withdrawals: cents(y.Withdrawals), Events: cents(y.Events), Pension: cents(y.Pension),
				EndBalance: cents(y.EndBalance), RealEndBalance: cents(y.RealEndBalance), FIProgress: rate(y.FIProgress), Retired: y.Retired}
			if r.Taxed {
				row.Tax = &rowTaxDoc{Total: cents(p.RowTax[i]), number: true}
			}
			if p.Household != nil {
				householdRow(&row, &p.Household.Result, i, r.Taxed)
			}
			rows = append(rows, row)
		}
		return sum, rows
	}
	resp.Currency = r.Currency
	resp.calcSummaryDoc, resp.Projections = doc(0)
	resp.Scenarios = []calcScenarioDoc{}
	for k := 1; k < len(r.Plans); k++ {
		sum, rows := doc(k)
		resp.Scenarios = append(resp.Scenarios, calcScenarioDoc{Name: r.Plans[k].Name, calcSummaryDoc: sum, Projections: rows})
	}
	resp.MonteCarlo, resp.Historical = d.monteCarlo(r), d.backtest(r)
	if r.Household {
		resp.Notes = r.Notes
	}
	b, err := stdjson.Marshal(struct {
		Success bool            `json:"success"`
		Data    calcResponseDoc `json:"data"`
	}{true, resp})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// householdRow fills what a household adds to a declared row.
func householdRow(row *calcYearDoc, h *household.Result, i int, taxed bool) {
	x := &h.Extra[i]
	if taxed {
		t := x.Tax
		row.Tax = &rowTaxDoc{IncomeTax: cents(t.Income), SocialContributions: cents(t.Social), CapitalTax: cents(t.Capital), Penalties: cents(t.Penalties), Total: cents(t.Total)}
		if t.WealthOn {
			w := cents(t.Wealth)
			row.Tax.WealthTax = &w
		}
	}
	if x.PartnerAge >= 0 {
		a := x.PartnerAge
		row.PartnerAge = &a
	}
	row.Income = &incomeDoc{Employment: cents(x.Employment), Pensions: cents(x.Pensions)}
	row.Accounts = []accountDoc{}
	for k, a := range h.Accounts(i) {
		row.Accounts = append(row.Accounts, accountDoc{ID: h.IDs[k], StartBalance: cents(a.Start), Contributions: cents(a.Contributions),
			Growth: cents(a.Growth), Withdrawals: cents(a.Withdrawals), Conversions: cents(a.Conversions), EndBalance: cents(a.End)})
	}
	row.Residence = x.Residence
	row.OverLimit, row.Required, row.Converted, row.Shortfall = cents(x.OverLimit), cents(x.Required), cents(x.Converted), cents(x.Short)
}

// randomPlan is a plan over the whole of what the request accepts.
func randomPlan(rng *rand.Rand, systems []*tax.System, cities []string) (plan.Plan, plan.Options) {
	input := func() fi.Input {
		in := fi.Defaults()
		in.StartYear = 1990 + rng.IntN(60)
		in.CurrentAge = 18 + rng.IntN(80)
		in.LifeExpectancy = in.CurrentAge + 1 + rng.IntN(min(60, 120-in.CurrentAge))
		in.AnnualIncome = math.Round(rng.Float64()*3e5*100) / 100
		in.AnnualExpenses = 1 + rng.Float64()*1.5e5
		in.CurrentSavings = rng.Float64() * 3e6
		in.ExpectedReturn = -0.1 + rng.Float64()*0.3
		in.InflationRate = -0.02 + rng.Float64()*0.12
		in.WithdrawalRate = 0.0001 + rng.Float64()*0.1
		in.IncomeGrowthRate = -0.05 + rng.Float64()*0.1
		in.Strategy = fi.Strategy(rng.IntN(len(fi.StrategyNames())))
		in.CAPE = 5 + rng.Float64()*40
		if rng.IntN(3) == 0 {
			in.TargetRetirementAge = in.CurrentAge + rng.IntN(20)
		}
		if rng.IntN(3) == 0 {
			in.AddPension(fi.Pension{FromAge: 60 + rng.IntN(10), Amount: rng.Float64() * 30000, Indexed: rng.IntN(2) == 0})
		}
		if rng.IntN(3) == 0 {
			in.AddEvent(fi.Event{Age: in.CurrentAge + rng.IntN(30), Amount: -2e5 + rng.Float64()*4e5, Nominal: rng.IntN(2) == 0})
		}
		return in
	}
	p := plan.Plan{Base: input()}
	if rng.IntN(3) == 0 {
		p.Place = plan.Place{CityID: cities[rng.IntN(len(cities))], Household: rng.IntN(9)}
	}
	for i := range rng.IntN(4) {
		sc := plan.Scenario{Name: []string{"frugal", "=bear <&>", "ünïcode", "\u2028x\"y"}[i], Input: input()}
		sc.Input.CurrentAge, sc.Input.LifeExpectancy = p.Base.CurrentAge, p.Base.LifeExpectancy
		if rng.IntN(2) == 0 {
			sc.Place = plan.Place{OwnExpenses: true}
		}
		p.Scenarios = append(p.Scenarios, sc)
	}
	if rng.IntN(2) == 0 {
		p.Tax = &plan.Tax{System: systems[rng.IntN(len(systems))], Withdrawal: tax.Part(rng.IntN(int(tax.NumParts)))}
	}
	o := plan.Options{Step: rng.IntN(8), Window: 10 + rng.IntN(40)}
	if rng.IntN(4) == 0 {
		o.MonteCarlo = &fi.MonteCarlo{Simulations: 1 + rng.IntN(50), Seed: rng.Uint64(), ReturnStdDev: rng.Float64() * 0.3, InflationStdDev: rng.Float64() * 0.1}
	}
	if rng.IntN(3) == 0 {
		o.Backtest, o.Sequences = true, rng.IntN(2) == 0
	}
	return p, o
}

// TestAnswerIsItsDeclaration encodes many generated answers both ways,
// by the calculator's writer (declared values through goccy/go-json, rows
// by append-style code) and by encoding/json from calcResponseDoc, and
// requires the same bytes.
func TestAnswerIsItsDeclaration(t *testing.T) {
	taxes, err := taxtable.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var systems []*tax.System
	for _, cc := range []string{"GB", "US", "DE", "FR", "JP", "NL", "NO"} {
		sys, ok := taxes.ByCountry(cc)
		if !ok {
			t.Fatalf("no %s", cc)
		}
		systems = append(systems, sys)
	}
	past, err := history.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	city := place.City{ID: "x-city", Name: "X <City>", Single: place.Lines{900, 300, 200, 50, 100, 30, 60}, Family: place.Lines{1800, 800, 500, 120, 200, 30, 200}}
	in := &plan.Inputs{Cities: map[string]*place.City{"x-city": &city},
		Convert: func(a float64, from, to string) (float64, bool) { return a * 1.1, true },
		History: plan.History{Series: fi.Series(past), Dataset: "annual", First: past.First(), Last: past.Last()}}
	n := 400
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(7, 11))
	var out jsonw.Writer
	d := newDocs(&out)
	var r plan.Result
	answered := 0
	for i := 0; i < n; i++ {
		p, o := randomPlan(rng, systems, []string{"x-city"})
		if err := plan.Run(&p, in, &o, &r); err != nil {
			continue // a plan the request would refuse
		}
		answered++
		out.Reset()
		if err := d.writeJSON(&r, false); err != nil {
			t.Fatal(err)
		}
		want := declared(t, &r)
		if !bytes.Equal(out.B, want) {
			k := 0
			for k < min(len(out.B), len(want)) && out.B[k] == want[k] {
				k++
			}
			t.Fatalf("plan %d: the writer and the declaration differ at byte %d:\nwriter: %.300s\n  decl: %.300s", i, k, out.B[max(0, k-100):], want[max(0, k-100):])
		}
	}
	if answered < n*3/4 {
		t.Fatalf("only %d of %d generated plans were answered", answered, n)
	}
}
