package plan

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fiplan/compute/fi"
	place "fiplan/compute/geo"
	"fiplan/compute/tax"
)

func loadSystem(t testing.TB, cc string) *tax.System {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../embed/tax/countries", cc+".json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := tax.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rates converts at fixed test rates: 1 USD is 0.8 GBP and 0.9 EUR.
func rates(amount float64, from, to string) (float64, bool) {
	per := map[string]float64{"USD": 1, "GBP": 0.8, "EUR": 0.9}
	f, ok1 := per[from]
	g, ok2 := per[to]
	return amount / f * g, ok1 && ok2
}

func testInputs() *Inputs {
	cities := []place.City{
		{ID: "lisbon-pt", Name: "Lisbon", Single: place.Lines{900, 300, 200, 50, 100, 30, 60}, Family: place.Lines{1800, 800, 500, 120, 200, 30, 200}},
		{ID: "porto-pt", Name: "Porto", Single: place.Lines{700, 280, 180, 40, 90, 30, 60}, Family: place.Lines{1400, 700, 400, 100, 180, 30, 200}},
	}
	place.Prepare(cities)
	m := map[string]*place.City{}
	for i := range cities {
		m[cities[i].ID] = &cities[i]
	}
	return &Inputs{Cities: m, Convert: rates, History: History{Series: flatHistory(1928, 97), Dataset: "annual", First: 1928, Last: 2024}}
}

func flatHistory(first, n int) fi.Series {
	var s fi.Series
	for i := range n {
		s.Years = append(s.Years, first+i)
		stock := 0.1
		if i%7 == 3 {
			stock = -0.25
		}
		s.Stocks = append(s.Stocks, stock)
		s.Bonds = append(s.Bonds, 0.04)
		s.Inflation = append(s.Inflation, 0.03)
	}
	return s
}

func basePlan() Plan {
	in := fi.Defaults()
	in.CurrentAge, in.AnnualIncome, in.AnnualExpenses, in.StartYear = 35, 90000, 45000, 2026
	return Plan{Base: in}
}

func TestRunWithoutTaxIsTheEngine(t *testing.T) {
	t.Parallel()
	p := basePlan()
	sc := p.Base
	sc.AnnualExpenses = 35000
	p.Scenarios = []Scenario{{Name: "frugal", Input: sc}}
	var r Result
	if err := Run(&p, testInputs(), &Options{Step: 1}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Currency != "USD" || r.Taxed || len(r.Plans) != 2 || r.Plans[1].Name != "frugal" {
		t.Fatalf("result %+v", r)
	}
	for k, in := range []*fi.Input{&p.Base, &sc} {
		want, rows := fi.Project(in, nil)
		got := &r.Plans[k]
		if got.Summary != want || len(got.Rows) != len(rows) || got.FINumber != want.FINumber {
			t.Fatalf("plan %d differs from fi.Project", k)
		}
		for i := range rows {
			if rows[i] != got.Rows[i] {
				t.Fatalf("plan %d row %d: %+v, want %+v", k, i, got.Rows[i], rows[i])
			}
		}
	}
	if r.MonteCarlo != nil || r.Backtest != nil || r.Goals != nil || r.Plans[0].Milestones != nil {
		t.Fatal("computed what was not asked")
	}
	if _, ok := r.DepletionAge(); ok {
		t.Fatal("a plan whose money lasts has a depletion age")
	}
}

func TestRunStepZeroKeepsNoRows(t *testing.T) {
	t.Parallel()
	p := basePlan()
	p.Tax = &Tax{System: loadSystem(t, "gb"), Withdrawal: tax.Pension}
	var r Result
	if err := Run(&p, testInputs(), &Options{Step: 0, Milestones: true}, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Plans[0].Rows) != 0 || len(r.Plans[0].RowTax) != 0 || len(r.Plans[0].Milestones) != 0 || r.Plans[0].Summary.Years != 60 {
		t.Fatalf("rows %d, taxes %d, milestones %d, years %d", len(r.Plans[0].Rows), len(r.Plans[0].RowTax), len(r.Plans[0].Milestones), r.Plans[0].Summary.Years)
	}
}

func TestRunTaxGrossesSpendingUp(t *testing.T) {
	t.Parallel()
	p := basePlan()
	gb := loadSystem(t, "gb")
	p.Tax = &Tax{System: gb, Withdrawal: tax.Pension}
	var r Result
	if err := Run(&p, testInputs(), &Options{Step: 1}, &r); err != nil {
		t.Fatal(err)
	}
	pr := &r.Plans[0]
	if r.Currency != "GBP" || r.Tax.Country != "GB" || r.Tax.Year != gb.Latest() || r.Tax.Withdrawal != tax.Pension {
		t.Fatalf("tax use %+v in %s", r.Tax, r.Currency)
	}
	in := tax.Income{Employment: 90000}
	due, err := tax.Due(gb, gb.Latest(), &in, "", nil)
	if err != nil || math.Abs(pr.Taxes.IncomeTax-due) > 1e-9 {
		t.Fatalf("income tax %v, want %v (%v)", pr.Taxes.IncomeTax, due, err)
	}
	// the gross retirement income leaves the spending after the tax of the
	// year retirement starts: its rules, its figures moved by the plan's
	// inflation (the UK thresholds are frozen to 2030, then indexed)
	g := pr.Taxes.GrossSpending
	out := tax.Income{Pension: g}
	c := r.Tax.Year + pr.Summary.RetirementAge - p.Base.CurrentAge
	y := gb.At(c)
	var sc tax.Scale
	y.Scale(c, &tax.Path{Start: r.Tax.Year, Inflation: p.Base.InflationRate}, &sc)
	left, _ := y.Due(&out, "", nil, &sc)
	if math.Abs(g-left-45000) > 0.01 || pr.Input().RetirementExpenses != g || pr.Input().AnnualIncome != 90000-due {
		t.Fatalf("gross %v leaves %v after tax, want 45000", g, g-left)
	}
	if pr.FINumber != 45000/p.Base.WithdrawalRate || math.Abs(pr.Summary.FINumber-g/p.Base.WithdrawalRate) > 1e-6 {
		t.Fatalf("FI numbers %v and %v", pr.FINumber, pr.Summary.FINumber)
	}
	if len(pr.RowTax) != len(pr.Rows) {
		t.Fatalf("%d row taxes for %d rows", len(pr.RowTax), len(pr.Rows))
	}
	// The first working year's tax is today's, at that year's end prices.
	if want := due * (1 + p.Base.InflationRate); math.Abs(pr.RowTax[0]-want) > 1e-6 {
		t.Fatalf("first row's tax %v, want %v", pr.RowTax[0], want)
	}
	for i, row := range pr.Rows {
		if row.Retired && row.Withdrawals+row.Pension > 0 && pr.RowTax[i] <= 0 {
			t.Fatalf("drawdown row %d untaxed", i)
		}
	}
}

func TestRunTaxInAnotherCurrency(t *testing.T) {
	t.Parallel()
	p := basePlan()
	p.Currency = "EUR"
	p.Tax = &Tax{System: loadSystem(t, "gb"), Withdrawal: tax.Pension}
	var eur, gbp Result
	if err := Run(&p, testInputs(), &Options{}, &eur); err != nil {
		t.Fatal(err)
	}
	// The same plan in pounds: 0.8/0.9 of every amount.
	q := basePlan()
	q.Base.AnnualIncome, q.Base.AnnualExpenses = 90000*0.8/0.9, 45000*0.8/0.9
	q.Tax = p.Tax
	if err := Run(&q, testInputs(), &Options{}, &gbp); err != nil {
		t.Fatal(err)
	}
	if got, want := eur.Plans[0].Taxes.IncomeTax*0.8/0.9, gbp.Plans[0].Taxes.IncomeTax; math.Abs(got-want) > 1e-6 {
		t.Fatalf("income tax in EUR %v converts to %v, want %v", eur.Plans[0].Taxes.IncomeTax, got, want)
	}
	p.Currency = "JPY"
	err := Run(&p, testInputs(), &Options{}, &eur)
	checkField(t, err, "currency", "no reference rate")
}

func checkField(t *testing.T, err error, field, msg string) {
	t.Helper()
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != field || !strings.Contains(fe.Message, msg) || !strings.Contains(fe.Error(), field) {
		t.Fatalf("error %v, want %s: ...%s...", err, field, msg)
	}
}

func TestRunRefusesBadTax(t *testing.T) {
	t.Parallel()
	us := loadSystem(t, "us")
	for _, tc := range []struct {
		tax        Tax
		field, msg string
	}{
		{Tax{System: us, Year: 1990}, "tax.year", "US has the tax years "},
		{Tax{System: us, Region: "XX"}, "tax.region", `unknown region "XX" for US; known: `},
		{Tax{System: loadSystem(t, "gb"), Region: "XX"}, "tax.region", `unknown region "XX" for GB`},
	} {
		p := basePlan()
		p.Tax = &tc.tax
		var r Result
		checkField(t, Run(&p, testInputs(), &Options{}, &r), tc.field, tc.msg)
	}
	p := basePlan()
	p.Tax = &Tax{System: us, Year: 2025, Region: "ny"}
	var r Result
	if err := Run(&p, testInputs(), &Options{}, &r); err != nil || r.Tax.Region != "NY" || r.Tax.Year != 2025 {
		t.Fatalf("a region in lower case: %v, region %q", err, r.Tax.Region)
	}
	p.Tax = &Tax{System: us, Year: us.Latest(), Region: "CA"}
	if !us.Covers(us.Latest(), "CA") {
		checkField(t, Run(&p, testInputs(), &Options{}, &r), "tax.region", "only in the tax years")
	}
	// a plan from 2025 lives on into years that do not model California
	p.Tax = &Tax{System: us, Year: 2025, Region: "CA"}
	if us.Covers(2025, "CA") && !us.Covers(us.Latest(), "CA") {
		checkField(t, Run(&p, testInputs(), &Options{}, &r), "tax.region", "not in all from 2025")
	}
}

func TestRunCities(t *testing.T) {
	t.Parallel()
	in := testInputs()
	p := basePlan()
	p.Place = Place{CityID: "lisbon-pt", Household: 2}
	own := p.Base
	own.RetirementExpenses = 30000
	p.Scenarios = []Scenario{
		{Name: "base city", Input: p.Base},
		{Name: "own spending", Input: own, Place: Place{OwnExpenses: true}},
		{Name: "porto alone", Input: p.Base, Place: Place{CityID: "porto-pt", Household: 1}},
	}
	var r Result
	if err := Run(&p, in, &Options{}, &r); err != nil {
		t.Fatal(err)
	}
	budget := in.Cities["lisbon-pt"].Budget(2)
	lisbon2 := budget.Total()
	for k, want := range []struct {
		city string
		n    int
	}{{"lisbon-pt", 2}, {"lisbon-pt", 2}, {"", 0}, {"porto-pt", 1}} {
		c := r.Plans[k].City
		if want.city == "" {
			if c != nil || r.Plans[k].Input().RetirementExpenses != 30000 {
				t.Fatalf("plan %d: city %+v, spending %v", k, c, r.Plans[k].Input().RetirementExpenses)
			}
			continue
		}
		if c == nil || c.City.ID != want.city || c.Household != want.n || c.Yearly != 12*float64(c.MonthlyUSD) || r.Plans[k].Taxes.Spending != c.Yearly {
			t.Fatalf("plan %d: city %+v", k, c)
		}
	}
	if r.Plans[0].City.MonthlyUSD != lisbon2 {
		t.Fatalf("monthly %d, want %d", r.Plans[0].City.MonthlyUSD, lisbon2)
	}
	for _, tc := range []struct {
		base       Place
		sc         Place
		field, msg string
	}{
		{Place{CityID: "nowhere"}, Place{}, "cityId", `no city "nowhere"`},
		{Place{CityID: "lisbon-pt"}, Place{CityID: "nowhere"}, "scenarios[0].cityId", `no city "nowhere"`},
		{Place{}, Place{CityID: "lisbon-pt", OwnExpenses: true}, "scenarios[0].cityId", "not both"},
		{Place{Household: 2}, Place{}, "householdSize", "only with a cityId"},
		{Place{}, Place{Household: 3}, "scenarios[0].householdSize", "only with a cityId"},
	} {
		p := basePlan()
		p.Place = tc.base
		p.Scenarios = []Scenario{{Name: "s", Input: p.Base, Place: tc.sc}}
		checkField(t, Run(&p, in, &Options{}, &r), tc.field, tc.msg)
	}
	p = basePlan()
	p.Currency = "JPY"
	p.Place = Place{CityID: "lisbon-pt"}
	checkField(t, Run(&p, in, &Options{}, &r), "currency", "city's budget")
}

func TestRunUnreachableSpending(t *testing.T) {
	t.Parallel()
	p := basePlan()
	p.Tax = &Tax{System: loadSystem(t, "gb"), Withdrawal: tax.Pension}
	sc := p.Base
	sc.RetirementExpenses = math.Inf(1)
	p.Scenarios = []Scenario{{Name: "lavish", Input: sc}}
	var r Result
	checkField(t, Run(&p, testInputs(), &Options{}, &r), "scenarios[0].retirementExpenses", "no retirement income")
	p.Base.AnnualExpenses = math.Inf(1)
	p.Scenarios = nil
	checkField(t, Run(&p, testInputs(), &Options{}, &r), "tax", "no retirement income")
}

func TestRunRefusesTooManyScenarios(t *testing.T) {
	t.Parallel()
	p := basePlan()
	p.Scenarios = make([]Scenario, fi.MaxScenarios+1)
	var r Result
	checkField(t, Run(&p, testInputs(), &Options{}, &r), "scenarios", "at most")
}

func TestRunAdmitComesAfterTheChecks(t *testing.T) {
	t.Parallel()
	refused := errors.New("refused")
	calls := 0
	admit := func() error { calls++; return refused }
	p := basePlan()
	p.Place = Place{CityID: "nowhere"}
	var r Result
	o := &Options{Step: 1, MonteCarlo: &fi.MonteCarlo{Simulations: 10, Seed: 1}, Admit: admit}
	checkField(t, Run(&p, testInputs(), o, &r), "cityId", "no city")
	if calls != 0 {
		t.Fatal("a plan that cannot be answered was admitted")
	}
	p.Place = Place{}
	if err := Run(&p, testInputs(), o, &r); err != refused || calls != 1 {
		t.Fatalf("Run = %v after %d admissions, want the admission's error", err, calls)
	}
}

func TestRunEverything(t *testing.T) {
	t.Parallel()
	in := testInputs()
	p := basePlan()
	p.Base.CurrentSavings = 100000
	target := 0.9
	mc := fi.MonteCarlo{Simulations: 200, Seed: 3, ReturnStdDev: 0.12, InflationStdDev: 0.04}
	o := &Options{Step: 5, Milestones: true, MonteCarlo: &mc, Window: 30, Backtest: true, Sequences: true,
		FIByAge: 50, TargetRate: &target, MaxContribution: 1e9, MaxWithdrawalRate: 0.2}
	var r Result
	if err := Run(&p, in, o, &r); err != nil {
		t.Fatal(err)
	}
	var wantMC fi.MCResult
	var s fi.Scratch
	fi.Simulate(&p.Base, &mc, &s, &wantMC)
	if r.MonteCarlo == nil || r.MonteCarlo.SuccessRate != wantMC.SuccessRate || len(r.MonteCarlo.Bands) != len(wantMC.Bands) {
		t.Fatalf("Monte Carlo %+v, want %+v", r.MonteCarlo, wantMC)
	}
	// not retired today: the whole plan over its horizon (60 years)
	bt := fi.PlanBacktest(&p.Base, in.History.Series, 60)
	if r.Backtest == nil || r.Backtest.BacktestResult != bt || r.Backtest.WindowYears != 60 || r.Backtest.History.Dataset != "annual" || r.Backtest.Sequences == nil {
		t.Fatalf("backtest %+v, want %+v", r.Backtest, bt)
	}
	saving, ok := fi.SavingFor(&p.Base, 50, 1e9)
	rate, capped := fi.MaxWithdrawalRate(&p.Base, in.History.Series, 30, 0.9, 0.2)
	g := r.Goals
	if g == nil || g.Saving != saving || g.SavingOK != ok || g.MaxRate != rate || g.RateCapped != capped || !g.RateAsked || g.WindowYears != 30 || g.FIByAge != 50 {
		t.Fatalf("goals %+v", g)
	}
	if len(r.Plans[0].Milestones) == 0 {
		t.Fatal("no milestones")
	}
	// Asked again without them, the result holds none of the earlier call's.
	if err := Run(&p, in, &Options{Step: 1}, &r); err != nil {
		t.Fatal(err)
	}
	if r.MonteCarlo != nil || r.Backtest != nil || r.Goals != nil || len(r.Plans[0].Milestones) != 0 {
		t.Fatal("a reused result kept figures of the call before")
	}
}

func TestDepletionAge(t *testing.T) {
	t.Parallel()
	p := basePlan()
	p.Base.CurrentAge, p.Base.AnnualIncome, p.Base.AnnualExpenses, p.Base.CurrentSavings, p.Base.TargetRetirementAge = 60, 0, 80000, 300000, 60
	var r Result
	if err := Run(&p, testInputs(), &Options{Step: 1, Milestones: true}, &r); err != nil {
		t.Fatal(err)
	}
	age, ok := r.DepletionAge()
	if !ok || age != r.Plans[0].Summary.DepletionAge || age <= 60 {
		t.Fatalf("depletion age %d %v", age, ok)
	}
	var depleted bool
	for _, m := range r.Plans[0].Milestones {
		if strings.Contains(m.Label, "depleted") {
			depleted = r.Plans[0].Rows[m.Row].Age == age
		}
	}
	if !depleted {
		t.Fatalf("no milestone at the depletion age %d: %+v", age, r.Plans[0].Milestones)
	}
}

// Milestones, over random plans and steps: every milestone is a selected
// row, in order; the first and last selected rows are one; a row is one
// exactly when it is the first, the last, a tenth birthday or the age of
// FI, retirement or depletion; and its labels say which, in that order.
func TestMilestonesProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		in := fi.Defaults()
		in.CurrentAge = 18 + rng.IntN(70)
		in.LifeExpectancy = in.CurrentAge + 1 + rng.IntN(120-in.CurrentAge)
		in.AnnualIncome = rng.Float64() * 200000
		in.AnnualExpenses = rng.Float64() * 100000
		in.CurrentSavings = rng.Float64() * 2e6
		if rng.IntN(3) == 0 {
			in.TargetRetirementAge = in.CurrentAge + rng.IntN(30)
		}
		sum, rows := fi.Project(&in, nil)
		step := rng.IntN(12)
		ms := Milestones(nil, rows, &sum, step)
		want := 0
		for i, row := range rows {
			if !KeepRow(i, len(rows), step) {
				continue
			}
			var labels []string
			if i == 0 {
				labels = append(labels, "start")
			}
			if row.Age%10 == 0 {
				labels = append(labels, "age "+itoa(row.Age))
			}
			for _, m := range []struct {
				age   int
				label string
			}{{sum.FIAge, "fi"}, {sum.RetirementAge, "retirement"}, {sum.DepletionAge, "depleted"}} {
				if m.age >= 0 && m.age == row.Age {
					labels = append(labels, m.label)
				}
			}
			if i == len(rows)-1 {
				labels = append(labels, "end")
			}
			if len(labels) == 0 {
				continue
			}
			if want >= len(ms) || ms[want].Row != i || ms[want].Label != strings.Join(labels, ", ") {
				t.Fatalf("step %d: milestone %d is %+v, want row %d %q", step, want, ms, i, strings.Join(labels, ", "))
			}
			want++
		}
		if want != len(ms) {
			t.Fatalf("step %d: %d milestones, want %d", step, len(ms), want)
		}
		if step > 0 && len(rows) > 0 && (ms[0].Row != 0 || ms[len(ms)-1].Row != len(rows)-1) {
			t.Fatalf("step %d: the first and last rows are not milestones: %+v", step, ms)
		}
	}
}

func itoa(n int) string {
	var b [8]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

func TestKeepRow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n, step int
		want    []int
	}{{5, 0, nil}, {5, 1, []int{0, 1, 2, 3, 4}}, {7, 3, []int{0, 3, 6}}, {8, 3, []int{0, 3, 6, 7}}, {1, 5, []int{0}}} {
		var got []int
		for i := range tc.n {
			if KeepRow(i, tc.n, tc.step) {
				got = append(got, i)
			}
		}
		if len(got) != len(tc.want) {
			t.Fatalf("KeepRow over %d rows, step %d: %v, want %v", tc.n, tc.step, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("KeepRow over %d rows, step %d: %v, want %v", tc.n, tc.step, got, tc.want)
			}
		}
	}
}

func TestParsePart(t *testing.T) {
	t.Parallel()
	for p := tax.Part(0); p < tax.NumParts; p++ {
		if got := ParsePart(p.String()); got != p {
			t.Fatalf("ParsePart(%q) = %v", p.String(), got)
		}
		in := incomeOf(p, 7)
		if in.Total() != 7 {
			t.Fatalf("incomeOf(%v, 7) = %+v", p, in)
		}
	}
	if ParsePart("nonsense") != tax.Pension {
		t.Fatal("an unknown part is not taxed as pension")
	}
}
