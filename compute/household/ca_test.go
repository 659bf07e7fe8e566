package household

import (
	"math"
	"testing"

	"fiplan/compute/tax"
)

// caRules decodes Canada's wrapper file.
func caRules(t *testing.T) *Rules {
	t.Helper()
	return parseWrapperFile(t, "ca")
}

// RRIF minimums: the balance on 1 January times CRA's prescribed factor for
// the holder's age on 1 January; the table is keyed by the age reached in
// the year, one more.
func TestCARRIFMinimum(t *testing.T) {
	r := caRules(t)
	w := r.Wrapper("ca-rrsp")
	if w.RMD == nil {
		t.Fatal("ca-rrsp has no required minimum")
	}
	if got := ByBirth(w.RMD.ByBirth, 1960); got != 72 {
		t.Errorf("minimums start in the year the holder turns %v, want 72", got)
	}
	tab := r.Tables[w.RMD.Table]
	cases := []struct {
		tag, what string
		age       int // reached in the year
		balance   float64
		want      float64
	}{
		{"table", "71 on 1 January (factor .0528)", 72, 100000, 5280},
		{"table", "72 on 1 January (factor .0540)", 73, 100000, 5400},
		{"table", "79 on 1 January (factor .0658)", 80, 250000, 16450},
		{"table", "94 on 1 January (factor .1879)", 95, 100000, 18790},
		{"table", "95 or older on 1 January (factor .2000)", 96, 100000, 20000},
		{"table", "99 on 1 January (factor .2000)", 100, 100000, 20000},
		{"computed", "the year the RRSP matures: no minimum yet", 71, 100000, 0},
		{"computed", "empty account", 80, 0, 0},
	}
	for _, c := range cases {
		if got := tab.Minimum(c.age, c.balance); !approx(got, c.want, 0.005) {
			t.Errorf("%s (%s): minimum %.2f, want %.2f", c.what, c.tag, got, c.want)
		}
	}
}

func TestCARRSPAndTFSALimits(t *testing.T) {
	r := caRules(t)
	rrsp, tfsa := r.Wrapper("ca-rrsp").Contrib, r.Wrapper("ca-tfsa").Contrib
	for _, c := range []struct {
		what string
		con  Contrib
		year int
		want float64
	}{
		{"RRSP dollar limit 2024", rrsp, 2024, 31560},
		{"RRSP dollar limit 2025", rrsp, 2025, 32490},
		{"RRSP dollar limit 2026", rrsp, 2026, 33810},
		{"TFSA dollar limit 2024", tfsa, 2024, 7000},
		{"TFSA dollar limit 2026", tfsa, 2026, 7000},
	} {
		if got, ok := c.con.LimitFor(c.year, 40, 1); !ok || got != c.want {
			t.Errorf("table: %s %v, want %v", c.what, got, c.want)
		}
	}
	// Computed: both limits are indexed after the last year on file.
	if got, _ := rrsp.LimitFor(2028, 40, 1.05); !approx(got, 33810*1.05, 1e-6) {
		t.Errorf("computed: RRSP limit 2028 at 5%% growth %v", got)
	}
	if rrsp.EarnedShare != 0.18 || !rrsp.PreTax || rrsp.ToAge != 72 {
		t.Errorf("RRSP: earnedShare %v preTax %v toAge %v, want 0.18, true, 72", rrsp.EarnedShare, rrsp.PreTax, rrsp.ToAge)
	}
	if tfsa.FromAge != 18 || tfsa.PreTax {
		t.Errorf("TFSA: fromAge %v preTax %v, want 18, false", tfsa.FromAge, tfsa.PreTax)
	}
	if w := r.Wrapper("ca-rrsp"); w.Access.Penalty != 0 || w.Access.Locked || w.Withdrawal.Taxed != TaxedIncome {
		t.Errorf("RRSP withdrawals are taxed income at any age without a penalty: %+v %+v", w.Access, w.Withdrawal)
	}
}

// CPP: 0.6% less a month before 65, 0.7% more a month after, nothing more
// after 70.
func TestCACPPFactor(t *testing.T) {
	b := caRules(t).Benefit("ca-cpp")
	for _, c := range []struct {
		tag   string
		claim float64
		want  float64
	}{
		{"official", 60, 0.64}, // 36% less at 60
		{"official", 65, 1},
		{"official", 70, 1.42}, // 42% more at 70
		{"official", 72, 1.42}, // no advantage past 70
		{"computed", 55, 0.64}, // before 60: taken at 60
		{"computed", 62.5, 1 - 30*0.006},
	} {
		if got := b.Factor(1961, c.claim); !approx(got, c.want, 1e-12) {
			t.Errorf("%s: claim at %v, factor %v, want %v", c.tag, c.claim, got, c.want)
		}
	}
	// Canada.ca, What age to start your CPP retirement pension: a pension of
	// 691.93 a month at 65 is 443 at 60, 493 at 61, 750 at 66, 983 at 70.
	for _, c := range []struct {
		claim float64
		want  float64
	}{{60, 443}, {61, 493}, {64, 642}, {66, 750}, {68, 866}, {70, 983}} {
		if got := math.Round(691.93 * b.Factor(1953, c.claim)); got != c.want {
			t.Errorf("official: 691.93 claimed at %v is %v a month, want %v", c.claim, got, c.want)
		}
	}
}

// OAS: from 65, 0.6% more for each month deferred, up to 36% at 70.
func TestCAOASFactor(t *testing.T) {
	b := caRules(t).Benefit("ca-oas")
	// Canada.ca, When to start your OAS pension: 734.95 a month at 65
	// (July to September 2025) is 787.87 at 66 and 999.53 at 70.
	for _, c := range []struct {
		claim float64
		want  float64
	}{{65, 734.95}, {66, 787.87}, {67, 840.78}, {68, 893.70}, {69, 946.62}, {70, 999.53}} {
		if got := math.Round(734.95*b.Factor(1960, c.claim)*100) / 100; !approx(got, c.want, 0.001) {
			t.Errorf("official: 734.95 deferred to %v is %.2f, want %.2f", c.claim, got, c.want)
		}
	}
	if got := b.Factor(1960, 70); !approx(got, 1.36, 1e-12) {
		t.Errorf("official: factor at 70 %v, want 1.36", got)
	}
	// Computed: no OAS before 65, so a claim at 63 starts at 65, unreduced.
	if got, start := b.Factor(1960, 63), b.Start(1960, 63); got != 1 || start != 65 {
		t.Errorf("computed: claim at 63 starts at %v with factor %v, want 65 and 1", start, got)
	}
}

// The OAS recovery tax: 15% of net world income above the income year's
// threshold, at most the pension.
func TestCAOASRecovery(t *testing.T) {
	rc := caRules(t).Benefit("ca-oas").Recovery
	if rc == nil {
		t.Fatal("ca-oas has no recovery tax")
	}
	cases := []struct {
		tag, what                   string
		year                        int
		income, benefit, infl, want float64
	}{
		// Canada.ca's example: 2017 income of 85,000 over the 74,788
		// threshold repays 15% of 10,212.
		{"official", "Canada.ca example, income year 2017", 2017, 85000, 7000, 1, 1531.80},
		{"table", "2024 threshold 90,997", 2024, 100997, 9000, 1, 1500},
		{"table", "2025 threshold 93,454", 2025, 93454, 9000, 1, 0},
		{"table", "2026 threshold 95,323", 2026, 105323, 9000, 1, 1500},
		{"computed", "below the threshold", 2026, 60000, 9000, 1, 0},
		{"computed", "at most the pension", 2026, 250000, 8800, 1, 8800},
		{"computed", "indexed after 2026", 2030, 95323*1.1 + 1000, 9000, 1.1, 150},
	}
	for _, c := range cases {
		if got := rc.Charge(c.year, c.income, c.benefit, c.infl); !approx(got, c.want, 0.005) {
			t.Errorf("%s (%s): recovery %.2f, want %.2f", c.what, c.tag, got, c.want)
		}
	}
}

// The OAS pension is 10% higher from 75 (Old Age Security Act s 7(1.1));
// the plan pays the increase from the year the pensioner turns 75.
// Computed: 8,000 a year becomes 8,800.
func TestCAOASAt75(t *testing.T) {
	t.Parallel()
	r := caRules(t)
	p := Plan{
		People:         []Person{{Age: 74, LifeExpectancy: 77, RetirementAge: 60}},
		Accounts:       []Account{{ID: "cash", Type: "cash", Balance: 1e5, CostBasis: -1}},
		Pensions:       []Pension{{Owner: 0, FromAge: 65, Amount: 8000, Kind: "ca-oas", Benefit: r.Benefit("ca-oas"), Country: "CA"}},
		Expenses:       20000,
		StartYear:      2026,
		Residences:     []Residence{{Country: "CA", System: taxSystem(t, "ca"), Year: 2026, Region: "ON"}},
		WithdrawalRate: 0.04,
	}
	res := run(t, &p)
	for y, want := range []float64{8000, 8800, 8800} {
		if got := res.Extra[y].Pensions; !approx(got, want, 1e-9) {
			t.Errorf("age %d: OAS %v, want %v", 74+y, got, want)
		}
	}
}

// Pension income splitting (ITA s 60.03): a couple of 70-year-olds in
// Ontario, one with a pension of 60,000 and the CPP's 10,000, the other
// with nothing. Up to half of the eligible pension income (not the CPP)
// moves to the partner's return, here the whole 30,000 that half allows
// (levelling the incomes would take 35,000). Computed: each return is then
// taxed by the CA file on 40,000 and 30,000.
func TestCAPensionSplitting(t *testing.T) {
	t.Parallel()
	r := caRules(t)
	s := taxSystem(t, "ca")
	p := Plan{
		People:   []Person{{Age: 70, LifeExpectancy: 73, RetirementAge: 60}, {Age: 70, LifeExpectancy: 73, RetirementAge: 60}},
		Accounts: []Account{{ID: "cash", Type: "cash", Balance: 1e5, CostBasis: -1}},
		Pensions: []Pension{
			{Owner: 0, FromAge: 60, Amount: 60000, Indexed: true},
			{Owner: 0, FromAge: 65, Amount: 10000, Kind: "ca-cpp", Benefit: r.Benefit("ca-cpp"), Country: "CA"},
		},
		Expenses:       20000,
		StartYear:      2026,
		Joint:          true,
		Residences:     []Residence{{Country: "CA", System: s, Year: 2026, Region: "ON", Split: r.PensionSplit}},
		WithdrawalRate: 0.04,
	}
	res := run(t, &p)
	x := res.Extra[0]
	due := func(pension float64) float64 {
		c, err := tax.DueByCategory(s, 2026, &tax.Income{Pension: pension, Age: 70}, "ON")
		if err != nil {
			t.Fatal(err)
		}
		return c.Income + c.Regional
	}
	want := due(40000) + due(30000)
	if x.Split != 30000 || !approx(x.Tax.Income, want, 0.01) {
		t.Errorf("split %v, income tax %v; want 30,000 moved and %v", x.Split, x.Tax.Income, want)
	}
	if alone := due(70000); !(want < alone-3000) {
		t.Errorf("split returns %v, one return %v: splitting should save thousands", want, alone)
	}
	// Without the rule the pension stays on its owner's return.
	p.Residences[0].Split = nil
	if x := run(t, &p).Extra[0]; x.Split != 0 || !approx(x.Tax.Income, due(70000), 0.01) {
		t.Errorf("no splitting: split %v, tax %v, want %v", x.Split, x.Tax.Income, due(70000))
	}
}
