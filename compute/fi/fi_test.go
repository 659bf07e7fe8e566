package fi

import (
	"math"
	"math/rand/v2"
	"testing"
)

// base is a plain accumulation case with no inflation: easy to check by hand.
func base() Input {
	in := Defaults()
	in.CurrentAge = 30
	in.LifeExpectancy = 95
	in.StartYear = 2025
	in.AnnualIncome = 100_000
	in.AnnualExpenses = 50_000
	in.CurrentSavings = 10_000
	in.InflationRate = 0
	in.ExpectedReturn = 0.05
	return in
}

func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// The balance with year-end saving S on principal P is the future value of an
// ordinary annuity. The reference is summed term by term here, not taken from
// FutureValue.
func TestAnnuityFutureValue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		p, s, r float64
	}{
		{0, 10_000, 0.05},
		{25_000, 12_000, 0.07},
		{100_000, 0, 0.04},
		{5_000, 20_000, 0},
		{50_000, 8_000, -0.02},
	}
	for _, c := range cases {
		in := base()
		in.CurrentSavings = c.p
		in.ExpectedReturn = c.r
		in.FixedContribution = true
		in.Contribution = c.s
		in.WithdrawalRate = 1e-4 // FI number far out of reach: accumulation throughout
		in.AnnualExpenses = 1e9
		_, rows := Project(&in, nil)
		for k, row := range rows[:40] {
			want := c.p * math.Pow(1+c.r, float64(k+1))
			for j := 0; j <= k; j++ {
				want += c.s * math.Pow(1+c.r, float64(k-j))
			}
			if !near(row.EndBalance, want, 1e-9) {
				t.Fatalf("%+v year %d: balance %.4f, annuity FV %.4f", c, k+1, row.EndBalance, want)
			}
			if got := FutureValue(c.p, c.s, c.r, k+1); !near(got, want, 1e-9) {
				t.Fatalf("%+v FutureValue(%d) = %.4f, want %.4f", c, k+1, got, want)
			}
		}
	}
}

// yearsClosed is the textbook years-to-FI formula in real terms.
func yearsClosed(fi, p, s, r float64) float64 {
	return math.Log((fi*r+s)/(p*r+s)) / math.Log(1+r)
}

// Years to FI in real terms against n = ln((FI r + S)/(P r + S)) / ln(1+r):
// with 3% inflation and nominal (1+r)(1.03)-1, the timeline is the real-terms
// closed form, and the first whole year at or past n is yearsToFI.
func TestYearsToFIClosedForm(t *testing.T) {
	t.Parallel()
	cases := []struct {
		income, expenses, savings, real, wr float64
	}{
		{100_000, 50_000, 0, 0.05, 0.04},
		{80_000, 60_000, 30_000, 0.04, 0.04},
		{60_000, 30_000, 100_000, 0.06, 0.035},
		{150_000, 45_000, 250_000, 0.03, 0.04},
		{50_000, 45_000, 0, 0.07, 0.05},
	}
	for _, c := range cases {
		in := base()
		in.InflationRate = 0.03
		in.ExpectedReturn = (1+c.real)*1.03 - 1
		in.AnnualIncome, in.AnnualExpenses, in.CurrentSavings = c.income, c.expenses, c.savings
		in.WithdrawalRate = c.wr
		s, _ := Project(&in, nil)
		fiNum := c.expenses / c.wr
		n := yearsClosed(fiNum, c.savings, c.income-c.expenses, c.real)
		if !near(s.FINumber, fiNum, 1e-12) {
			t.Errorf("%+v: FI number %.2f, want %.2f", c, s.FINumber, fiNum)
		}
		if want := int(math.Ceil(n)); s.YearsToFI != want {
			t.Errorf("%+v: yearsToFI %d, closed form n = %.4f (want %d)", c, s.YearsToFI, n, want)
		}
		if got := YearsToTarget(fiNum, c.savings, c.income-c.expenses, c.real); !near(got, n, 1e-12) {
			t.Errorf("%+v: YearsToTarget %.6f, want %.6f", c, got, n)
		}
		if s.FIAge != in.CurrentAge+s.YearsToFI || s.FIYear != in.StartYear+s.YearsToFI {
			t.Errorf("%+v: FI age/year %d/%d inconsistent with %d years", c, s.FIAge, s.FIYear, s.YearsToFI)
		}
	}
}

// Mr. Money Mustache, "The Shockingly Simple Math Behind Early Retirement"
// (2012): starting from zero, 5% real return, 4% withdrawal rate, the savings
// rate alone fixes the working years: 10% -> 51, 25% -> 32, 50% -> 17,
// 75% -> 7 (his table rounds). The closed form gives 51.4, 31.9, 16.6 and 7.1;
// the timeline, counting whole years, must give the ceilings of those.
func TestShockinglySimpleMath(t *testing.T) {
	t.Parallel()
	table := []struct {
		rate  float64
		years int // as published
	}{{0.10, 51}, {0.25, 32}, {0.50, 17}, {0.75, 7}}
	for _, row := range table {
		in := base()
		in.CurrentAge = 20
		in.LifeExpectancy = 100
		in.CurrentSavings = 0
		in.InflationRate = 0
		in.ExpectedReturn = 0.05
		in.WithdrawalRate = 0.04
		in.AnnualIncome = 100_000
		in.AnnualExpenses = 100_000 * (1 - row.rate)
		n := yearsClosed(in.AnnualExpenses/0.04, 0, 100_000*row.rate, 0.05)
		if int(math.Round(n)) != row.years {
			t.Errorf("savings rate %.0f%%: closed form %.2f does not round to the published %d", row.rate*100, n, row.years)
		}
		s, _ := Project(&in, nil)
		if s.YearsToFI != int(math.Ceil(n)) {
			t.Errorf("savings rate %.0f%%: yearsToFI %d, want ceil(%.2f)", row.rate*100, s.YearsToFI, n)
		}
		if !near(s.SavingsRate, row.rate, 1e-12) {
			t.Errorf("savings rate reported %.4f, want %.2f", s.SavingsRate, row.rate)
		}
	}
}

func TestAlreadyAndNeverFI(t *testing.T) {
	t.Parallel()
	in := base()
	in.CurrentSavings = 2_000_000 // FI number is 1.25M
	s, rows := Project(&in, nil)
	if !s.Reached || s.YearsToFI != 0 || s.FIAge != 30 || s.FIYear != 2025 || s.RetirementAge != 30 {
		t.Fatalf("already FI: %+v", s)
	}
	if !rows[0].Retired || rows[0].Contributions != 0 || rows[0].Withdrawals != 50_000 {
		t.Fatalf("already FI: first row should be a drawdown year: %+v", rows[0])
	}

	in = base()
	in.AnnualIncome = 40_000 // spends more than it earns
	in.CurrentSavings = 0
	s, rows = Project(&in, nil)
	if s.Reached || s.YearsToFI != -1 || s.FIAge != -1 || s.FIYear != -1 || s.RetirementAge != -1 {
		t.Fatalf("never FI: %+v", s)
	}
	if !s.RunsOut || s.DepletionAge != 30 || len(rows) != 65 {
		t.Fatalf("never FI with a deficit runs out at once: %+v", s)
	}

	in = base()
	in.AnnualIncome = 0
	s, _ = Project(&in, nil)
	if s.SavingsRate != 0 || s.Reached {
		t.Fatalf("no income: %+v", s)
	}
}

// Every row must balance, and each row must start where the last ended.
func TestRowIdentity(t *testing.T) {
	t.Parallel()
	for _, st := range []Strategy{StrategyConstant, StrategyFixedPercent, StrategyGuytonKlinger, StrategyVPW} {
		in := base()
		in.InflationRate = 0.025
		in.ExpectedReturn = 0.06
		in.Fee = 0.002
		in.IncomeGrowthRate = 0.01
		in.Strategy = st
		in.TargetRetirementAge = 50
		in.AddPension(Pension{FromAge: 67, Amount: 15_000, Indexed: true})
		in.AddPension(Pension{FromAge: 60, Amount: 5_000})
		in.AddEvent(Event{Age: 35, Amount: -60_000})
		in.AddEvent(Event{Age: 45, Amount: 100_000})
		in.AddEvent(Event{Age: 70, Amount: -1e9}) // larger than the portfolio
		rets := []float64{0.2, -0.3, 0.1, 0.05, -0.1, 0.25}
		_, rows := ProjectPath(&in, rets, nil, nil)
		for k, r := range rows {
			sum := r.StartBalance + r.Events + r.Contributions + r.Growth - r.Withdrawals
			if !near(sum, r.EndBalance, 1e-9) {
				t.Fatalf("%v row %d does not balance: %+v (sum %.4f)", st, k, r, sum)
			}
			if k > 0 && r.StartBalance != rows[k-1].EndBalance {
				t.Fatalf("%v row %d starts at %.2f, previous ended at %.2f", st, k, r.StartBalance, rows[k-1].EndBalance)
			}
			if r.EndBalance < 0 || r.Age != 30+k || r.Year != 2025+k {
				t.Fatalf("%v row %d: %+v", st, k, r)
			}
			if r.Retired != (r.Age >= 50) {
				t.Fatalf("%v row %d: retired=%v at age %d with target 50", st, k, r.Retired, r.Age)
			}
		}
		if rows[40].EndBalance != 0 || rows[40].Events >= 0 {
			t.Fatalf("%v: an outlay larger than the portfolio should empty it: %+v", st, rows[40])
		}
	}
}

func TestEventsAndPensions(t *testing.T) {
	t.Parallel()
	in := base()
	in.InflationRate = 0.02
	in.AddEvent(Event{Age: 33, Amount: 10_000})                // today's money
	in.AddEvent(Event{Age: 34, Amount: 10_000, Nominal: true}) // money of that year
	_, rows := Project(&in, nil)
	if want := 10_000 * math.Pow(1.02, 3); !near(rows[3].Events, want, 1e-12) {
		t.Errorf("real event at 33: %.4f, want %.4f", rows[3].Events, want)
	}
	if rows[4].Events != 10_000 {
		t.Errorf("nominal event at 34: %.4f", rows[4].Events)
	}

	// Retired from the start on a portfolio; pensions cut the withdrawals.
	in = base()
	in.CurrentAge = 60
	in.InflationRate = 0.02
	in.CurrentSavings = 2_000_000
	in.RetirementExpenses = 40_000
	in.AddPension(Pension{FromAge: 62, Amount: 10_000, Indexed: true})
	in.AddPension(Pension{FromAge: 65, Amount: 50_000})
	_, rows = Project(&in, nil)
	cpi := func(k int) float64 { return math.Pow(1.02, float64(k)) }
	if !near(rows[1].Withdrawals, 40_000*cpi(1), 1e-12) {
		t.Errorf("age 61 withdrawal %.2f", rows[1].Withdrawals)
	}
	if want := 40_000*cpi(2) - 10_000*cpi(2); !near(rows[2].Withdrawals, want, 1e-12) {
		t.Errorf("age 62 withdrawal %.2f, want %.2f", rows[2].Withdrawals, want)
	}
	// From 65 pensions exceed the need: nothing withdrawn, the surplus reinvested.
	if rows[5].Withdrawals != 0 || !near(rows[5].Contributions, 50_000+10_000*cpi(5)-40_000*cpi(5), 1e-12) {
		t.Errorf("age 65: %+v", rows[5])
	}
	if rows[5].Pension != 50_000+10_000*cpi(5) {
		t.Errorf("age 65 pension %.2f", rows[5].Pension)
	}
}

func TestCoastLeanFatBarista(t *testing.T) {
	t.Parallel()
	in := base()
	in.InflationRate = 0.03
	in.ExpectedReturn = 0.08
	in.Fee = 0.005
	in.CurrentSavings = 200_000
	in.RetirementExpenses = 60_000
	s, _ := Project(&in, nil)
	real := (1.08*(1-0.005))/1.03 - 1
	wantCoast := 60_000 / 0.04 / math.Pow(1+real, 65-30)
	if !near(s.CoastFINumber, wantCoast, 1e-12) || s.CoastAge != 65 {
		t.Errorf("coast %.2f at %d, want %.2f at 65", s.CoastFINumber, s.CoastAge, wantCoast)
	}
	if s.LeanFINumber != 0.7*1_500_000 || s.FatFINumber != 1.5*1_500_000 {
		t.Errorf("lean/fat %.0f/%.0f", s.LeanFINumber, s.FatFINumber)
	}
	if want := 60_000 - 200_000*0.04; !near(s.BaristaIncome, want, 1e-12) {
		t.Errorf("barista %.2f, want %.2f", s.BaristaIncome, want)
	}

	// Holding exactly the coast amount and saving nothing reaches FI at 65.
	in.CurrentSavings = s.CoastFINumber * (1 + 1e-9)
	in.FixedContribution, in.Contribution = true, 0
	c, _ := Project(&in, nil)
	if c.FIAge != 65 {
		t.Errorf("coasting from %.2f reaches FI at %d, want 65", in.CurrentSavings, c.FIAge)
	}
	in.CurrentSavings = s.CoastFINumber * 0.99
	if c, _ = Project(&in, nil); c.FIAge == 65 {
		t.Errorf("1%% under the coast number should miss 65")
	}

	in.TargetRetirementAge = 55
	if s, _ = Project(&in, nil); s.CoastAge != 55 {
		t.Errorf("coast age follows the target retirement age: %d", s.CoastAge)
	}
}

// Retiring at a target age before FI draws the spending need down until the
// money runs out.
func TestTargetRetirementRunsOut(t *testing.T) {
	t.Parallel()
	in := base()
	in.CurrentAge = 50
	in.CurrentSavings = 300_000
	in.TargetRetirementAge = 55
	in.ExpectedReturn = 0.04
	s, rows := Project(&in, nil)
	if s.RetirementAge != 55 || !s.RunsOut {
		t.Fatalf("%+v", s)
	}
	d := s.DepletionAge - 50
	if rows[d].Withdrawals >= 50_000 || rows[d].EndBalance != 0 || rows[d-1].Withdrawals != 50_000 {
		t.Fatalf("depletion row %+v, previous %+v", rows[d], rows[d-1])
	}
	if s.DepletionYear != 2025+d {
		t.Fatalf("depletion year %d", s.DepletionYear)
	}
}

func TestProjectZeroAlloc(t *testing.T) {
	in := base()
	in.Strategy = StrategyGuytonKlinger
	in.AddPension(Pension{FromAge: 67, Amount: 20_000, Indexed: true})
	in.AddEvent(Event{Age: 40, Amount: -50_000})
	buf := make([]Year, 0, MaxYears)
	allocs := testing.AllocsPerRun(100, func() {
		sc := in // a scenario: copy and override
		sc.ExpectedReturn = 0.06
		_, buf = Project(&sc, buf[:0])
	})
	if allocs != 0 {
		t.Fatalf("Project allocates %.1f times per call with a sized buffer", allocs)
	}
}

// randomInput draws a sane planning case.
func randomInput(r *rand.Rand) Input {
	in := Defaults()
	in.CurrentAge = 18 + r.IntN(50)
	in.LifeExpectancy = in.CurrentAge + 5 + r.IntN(60)
	in.StartYear = 2025
	in.AnnualIncome = 10_000 + r.Float64()*290_000
	in.AnnualExpenses = 5_000 + r.Float64()*150_000
	in.CurrentSavings = r.Float64() * 1_000_000
	in.ExpectedReturn = -0.02 + r.Float64()*0.14
	in.InflationRate = r.Float64() * 0.06
	in.WithdrawalRate = 0.02 + r.Float64()*0.05
	in.IncomeGrowthRate = r.Float64() * 0.03
	in.Fee = r.Float64() * 0.01
	in.Strategy = Strategy(r.IntN(numStrategies))
	in.CAPE = 10 + r.Float64()*30
	if r.IntN(3) == 0 {
		in.RetirementExpenses = 5_000 + r.Float64()*150_000
	}
	if r.IntN(3) == 0 {
		in.AddPension(Pension{FromAge: 60 + r.IntN(10), Amount: r.Float64() * 30_000, Indexed: r.IntN(2) == 0})
	}
	if r.IntN(3) == 0 {
		in.AddEvent(Event{Age: in.CurrentAge + r.IntN(30), Amount: -100_000 + r.Float64()*300_000})
	}
	return in
}

// fiYears returns years to FI with "never" as a very large number.
func fiYears(in *Input) int {
	s, _ := Project(in, nil)
	if !s.Reached {
		return math.MaxInt
	}
	return s.YearsToFI
}

func TestPropertyMonotone(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 3000; i++ {
		in := randomInput(r)
		n := fiYears(&in)

		more := in // more saving never delays FI
		more.AnnualIncome += 1 + r.Float64()*50_000
		if m := fiYears(&more); m > n {
			t.Fatalf("case %d: more income delays FI %d -> %d: %+v", i, n, m, in)
		}
		fixed := in
		fixed.FixedContribution = true
		fixed.Contribution = r.Float64() * 50_000
		fixedMore := fixed
		fixedMore.Contribution += 1 + r.Float64()*20_000
		if a, b := fiYears(&fixed), fiYears(&fixedMore); b > a {
			t.Fatalf("case %d: larger contribution delays FI %d -> %d", i, a, b)
		}

		higher := in // a higher return never delays FI
		higher.ExpectedReturn += 0.001 + r.Float64()*0.05
		if m := fiYears(&higher); m > n {
			t.Fatalf("case %d: higher return delays FI %d -> %d: %+v", i, n, m, in)
		}

		spend := in // higher expenses never hasten FI
		spend.AnnualExpenses += 1 + r.Float64()*30_000
		if m := fiYears(&spend); m < n {
			t.Fatalf("case %d: higher expenses hasten FI %d -> %d: %+v", i, n, m, in)
		}
	}
}

func checkFinite(t *testing.T, s Summary, rows []Year) {
	t.Helper()
	vals := []float64{s.FINumber, s.LeanFINumber, s.FatFINumber, s.CoastFINumber, s.BaristaIncome,
		s.SavingsRate, s.FinalBalance, s.FinalReal, s.Contributions, s.Withdrawals}
	for _, r := range rows {
		vals = append(vals, r.StartBalance, r.Contributions, r.Growth, r.Withdrawals, r.Events,
			r.Pension, r.EndBalance, r.RealEndBalance, r.FIProgress)
	}
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("value %d is %v: %+v", i, v, s)
		}
	}
	if len(rows) != s.Years || s.Years < 1 || s.Years > MaxYears {
		t.Fatalf("%d rows, summary says %d", len(rows), s.Years)
	}
}

func FuzzProject(f *testing.F) {
	f.Add(30, 95, 80_000.0, 40_000.0, 10_000.0, 0.07, 0.03, 0.04, 0.0, 0.0, 0.0, 0, uint8(0), 65, 10_000.0, 40, -20_000.0)
	f.Add(18, 120, 0.0, 1.0, 0.0, -0.5, 0.2, 0.0001, 0.5, 1e6, 0.4, 30, uint8(2), 18, 1e12, 18, -1e12)
	f.Add(100, 95, 1e9, 1e9, 1e12, 1.0, -0.1, 1.0, -0.5, 0.0, 0.0, 101, uint8(3), 200, 0.0, 0, 0.0)
	f.Fuzz(func(t *testing.T, age, le int, income, expenses, savings, ret, infl, wr, growth, retExp, fee float64,
		target int, strat uint8, penAge int, penAmt float64, evAge int, evAmt float64) {
		in := Input{
			CurrentAge: age, LifeExpectancy: le, StartYear: 2025,
			AnnualIncome: income, AnnualExpenses: expenses, CurrentSavings: savings,
			ExpectedReturn: ret, InflationRate: infl, WithdrawalRate: wr, IncomeGrowthRate: growth,
			RetirementExpenses: retExp, Fee: fee, TargetRetirementAge: target,
			Strategy: Strategy(strat % (numStrategies + 1)), StockShare: 0.6, CAPE: float64(strat),
		}
		in.AddPension(Pension{FromAge: penAge, Amount: penAmt, Indexed: strat%2 == 0})
		in.AddEvent(Event{Age: evAge, Amount: evAmt})
		s, rows := Project(&in, nil)
		checkFinite(t, s, rows)
		if s.Reached != (s.YearsToFI >= 0) || (s.YearsToFI >= 0) != (s.FIAge >= 0) {
			t.Fatalf("inconsistent FI fields: %+v", s)
		}
	})
}
