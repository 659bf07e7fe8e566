package household

import (
	"math"
	"os"
	"strings"
	"testing"
)

// gbRules decodes the United Kingdom's wrapper file.
func gbRules(t *testing.T) *Rules {
	t.Helper()
	return parseWrapperFile(t, "gb")
}

// parseWrapperFile decodes embed/tax/wrappers/<cc>.json.
func parseWrapperFile(t testing.TB, cc string) *Rules {
	t.Helper()
	b, err := os.ReadFile("../../embed/tax/wrappers/" + cc + ".json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRules(b)
	if err != nil {
		t.Fatalf("%s.json: %v", cc, err)
	}
	if r.Country != strings.ToUpper(cc) {
		t.Fatalf("%s.json holds country %s", cc, r.Country)
	}
	return r
}

// approx reports whether got is within tol of want.
func approx(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// Uncrystallised funds pension lump sums: 25% of each is tax-free while the
// lump sum allowance lasts.
func TestGBPensionTaxFreePart(t *testing.T) {
	w := gbRules(t).Wrapper("gb-sipp").Withdrawal
	if w.Taxed != TaxedIncome {
		t.Fatalf("gb-sipp withdrawals taxed %v, want income", w.Taxed)
	}
	cases := []struct {
		tag, what          string
		amount, used, want float64
	}{
		// GOV.UK, Tax when you get a pension: a whole pension of 60,000,
		// 15,000 taken tax-free, tax taken off the remaining 45,000.
		{"official", "GOV.UK example, pot of 60,000", 60000, 0, 15000},
		// The lump sum allowance caps the tax-free part at 268,275 for life.
		{"computed", "1,200,000 taken at once", 1_200_000, 0, 268275},
		{"computed", "100,000 taken with 260,000 of the allowance used", 100000, 260000, 8275},
		{"computed", "allowance used up", 50000, 268275, 0},
		{"computed", "nothing taken", 0, 0, 0},
	}
	for _, c := range cases {
		if got := w.TaxFree(c.amount, c.used); !approx(got, c.want, 0.005) {
			t.Errorf("%s (%s): tax-free %.2f, want %.2f", c.what, c.tag, got, c.want)
		}
	}
}

// State Pension age by year of birth, each year at the latest age anyone
// born in it reaches (Pensions Act 1995 Sch. 4 para. 1, as amended).
func TestGBStatePensionAge(t *testing.T) {
	b := gbRules(t).Benefit("gb-state-pension")
	cases := []struct {
		born int
		want float64
	}{
		{1950, 66}, // past State Pension age: the first rule stands
		{1955, 66},
		{1959, 66},
		{1960, 66.75}, // table 3: born 6 December 1960 - 5 January 1961, 66 years 9 months
		{1961, 67},
		{1970, 67},
		{1976, 67},
		{1977, 67.75}, // table 4: born 6 December 1977 - 5 January 1978, 6 September 2045
		{1978, 68},
		{1995, 68},
	}
	for _, c := range cases {
		if got := ByBirth(b.NormalAge, c.born); got != c.want {
			t.Errorf("born %d (table): State Pension age %v, want %v", c.born, got, c.want)
		}
	}
}

// Deferring the State Pension: 1% for every 9 weeks, just under 5.8% for 52
// weeks; it cannot be claimed before State Pension age.
func TestGBStatePensionClaim(t *testing.T) {
	b := gbRules(t).Benefit("gb-state-pension")
	if !b.NotBeforeNormal {
		t.Fatal("gb-state-pension must not be claimable before State Pension age")
	}
	// GOV.UK, Delay (defer) your State Pension: 221.20 a week deferred for
	// 52 weeks gives an extra 12.82 a week.
	weekly := 221.20
	if got := weekly * (b.Factor(1958, 67) - 1); math.Round(got*100) != 1282 {
		t.Errorf("official: 52 weeks' deferral adds %.4f a week, want 12.82", got)
	}
	cases := []struct {
		tag, what  string
		born       int
		claim      float64
		start, fac float64
	}{
		{"computed", "claim at State Pension age", 1958, 66, 66, 1},
		{"computed", "claim at 66 by someone whose age is 67", 1970, 66, 67, 1},
		{"computed", "claim at 60: starts at 67, not before", 1970, 60, 67, 1},
		{"computed", "claim at 66.5 with age 66.75: starts at 66.75", 1960, 66.5, 66.75, 1},
		{"computed", "two years' deferral", 1970, 69, 69, 1 + 24*b.DelayedPerMonth},
		{"computed", "past the documented cap of 80", 1958, 85, 85, 1 + (80-66)*12*b.DelayedPerMonth},
	}
	for _, c := range cases {
		if got := b.Start(c.born, c.claim); got != c.start {
			t.Errorf("%s (%s): starts at %v, want %v", c.what, c.tag, got, c.start)
		}
		if got := b.Factor(c.born, c.claim); !approx(got, c.fac, 1e-12) {
			t.Errorf("%s (%s): factor %v, want %v", c.what, c.tag, got, c.fac)
		}
	}
	// The rule a year of deferral stands for: just under 5.8%.
	if got := b.Factor(1958, 67) - 1; got >= 0.058 || got < 0.0577 {
		t.Errorf("official: a year's increase %.5f, want just under 5.8%%", got)
	}
}

// Without NotBeforeNormal a claim between Earliest and the normal age is
// paid from the claim, and with no early reduction in full: the flag is
// what keeps the State Pension from being paid before State Pension age.
func TestBenefitNotBeforeNormalMatters(t *testing.T) {
	b := *gbRules(t).Benefit("gb-state-pension")
	b.NotBeforeNormal = false
	if got := b.Start(1970, 66); got != 66 {
		t.Errorf("without the flag a claim at 66 starts at %v, want 66", got)
	}
}

func TestGBISAAndLISA(t *testing.T) {
	r := gbRules(t)
	isa, lisa := r.Wrapper("gb-isa"), r.Wrapper("gb-lisa")
	// The ISA allowance is frozen at 20,000: not indexed after the last year.
	if got, ok := isa.Contrib.LimitFor(2030, 40, 1.25); !ok || got != 20000 {
		t.Errorf("table: ISA allowance 2030/31 %v, want 20,000 (frozen)", got)
	}
	if isa.Contrib.Group != "gb-isa" || lisa.Contrib.Group != "gb-isa" {
		t.Errorf("the Lifetime ISA shares the ISA allowance: groups %q, %q", isa.Contrib.Group, lisa.Contrib.Group)
	}
	if got, _ := lisa.Contrib.LimitFor(2025, 30, 1); got != 4000 {
		t.Errorf("table: Lifetime ISA limit %v, want 4,000", got)
	}
	if c := lisa.Contrib; c.FromAge != 18 || c.ToAge != 50 {
		t.Errorf("Lifetime ISA payments from %d until %d, want 18 until 50", c.FromAge, c.ToAge)
	}
	// Computed from the rules: 4,000 paid in earns a 1,000 bonus; taken out
	// before 60 the 25% charge on 5,000 is 1,250, leaving 3,750 (250 of the
	// saver's own money lost).
	in := 4000.0
	pot := in * (1 + lisa.Contrib.Bonus)
	charge := pot * lisa.Access.Penalty
	if pot != 5000 || charge != 1250 || pot-charge != 3750 {
		t.Errorf("computed: pot %v, charge %v, left %v; want 5,000, 1,250, 3,750", pot, charge, pot-charge)
	}
	if lisa.Access.Age != 60 || lisa.Access.Locked {
		t.Errorf("Lifetime ISA: access %v locked %v, want 60 with a charge before", lisa.Access.Age, lisa.Access.Locked)
	}
}

func TestGBSIPP(t *testing.T) {
	w := gbRules(t).Wrapper("gb-sipp")
	c := w.Contrib
	if got, _ := c.LimitFor(2026, 45, 1.1); got != 60000 {
		t.Errorf("table: annual allowance 2026/27 %v, want 60,000 (not indexed)", got)
	}
	if !c.PreTax || c.Bonus != 0 || c.EarnedShare != 1 || !c.Employer || !c.EmployerInLimit {
		t.Errorf("contributions %+v: want preTax, no bonus, earnedShare 1, employer within the allowance", c)
	}
	// Finance Act 2022 s. 10: 57 from 6 April 2028; anyone born from 1973
	// reaches 55 after that date.
	for _, tc := range []struct {
		born int
		want float64
	}{{1965, 55}, {1972, 55}, {1973, 57}, {1990, 57}} {
		if got := ByBirth(w.Access.ByBirth, tc.born); got != tc.want {
			t.Errorf("table: born %d, minimum pension age %v, want %v", tc.born, got, tc.want)
		}
	}
	if !w.Access.Locked || w.Access.Penalty != 0 {
		t.Errorf("gb-sipp must be locked before the minimum pension age, not charged: %+v", w.Access)
	}
}

// Birth-year rules out of order would make ByBirth answer wrongly; the
// parser refuses them.
func TestParseRulesRefusesUnorderedBirthRules(t *testing.T) {
	const doc = `"documents":{"d":{"publisher":"p","title":"t"}},"notes":[],"tables":{}`
	files := map[string]string{
		"access": `{"country":"GB",` + doc + `,"benefits":[],"wrappers":[{"id":"gb-x","name":"x","kind":"pension",
			"contributions":{},"access":{"byBirth":[{"bornFrom":1973,"age":57},{"bornFrom":1900,"age":55}]},
			"withdrawals":{"taxed":"income"},"src":[{"doc":"d","sec":"s"}]}]}`,
		"normalAge": `{"country":"GB",` + doc + `,"wrappers":[],"benefits":[{"kind":"gb-x","name":"x",
			"normalAge":[{"bornFrom":1978,"age":68},{"bornFrom":1961,"age":67}],"earliest":66,"latest":80,"taxed":"income","src":[]}]}`,
	}
	for what, f := range files {
		if _, err := ParseRules([]byte(f)); err == nil || !strings.Contains(err.Error(), "ascending") {
			t.Errorf("%s out of order: err %v, want a refusal", what, err)
		}
	}
}

// gbSIPPPlan is one person of age working for wages, paying contrib into a
// SIPP of bal, spending spend, taxed in the UK in 2026, without growth.
func gbSIPPPlan(t *testing.T, age int, wages, contrib, bal, spend float64) Plan {
	t.Helper()
	r := gbRules(t)
	return Plan{
		People:         []Person{{Age: age, LifeExpectancy: age + 3, RetirementAge: age + 3, Income: wages}},
		Accounts:       []Account{acct(r, "gb-sipp", bal, -1, contrib, 0)},
		Expenses:       spend,
		StartYear:      2026,
		Residences:     []Residence{{Country: "GB", System: taxSystem(t, "gb"), Year: 2026}},
		WithdrawalRate: 0.04,
	}
}

// The tapered annual allowance (FA 2004 s 228ZA): 60,000 less 1 for every
// 2 of adjusted income over 260,000 when threshold income is over 200,000,
// never below 10,000. Computed: wages of 300,000 leave 40,000; 400,000
// leave 10,000; 250,000 (adjusted income under 260,000) the full 60,000.
func TestGBTaperedAnnualAllowance(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ wages, want float64 }{{250000, 60000}, {300000, 40000}, {400000, 10000}} {
		p := gbSIPPPlan(t, 40, c.wages, 60000, 0, 30000)
		res := run(t, &p)
		if got := res.Accounts(0)[0].Contributions; !approx(got, c.want, 0.005) || !approx(res.Extra[0].OverLimit, 60000-c.want, 0.005) {
			t.Errorf("wages %v: paid in %v, over %v; want %v allowed", c.wages, got, res.Extra[0].OverLimit, c.want)
		}
	}
}

// The money purchase annual allowance (FA 2004 s 227ZA): after a flexible
// draw, contributions to money purchase pensions are limited to 10,000.
// Computed: a 60-year-old earning 50,000 and spending 90,000 draws from
// the SIPP in 2026, paying in 40,000 that year and 10,000 the next.
func TestGBMoneyPurchaseAnnualAllowance(t *testing.T) {
	t.Parallel()
	p := gbSIPPPlan(t, 60, 50000, 40000, 500000, 90000)
	res := run(t, &p)
	if w := res.Accounts(0)[0].Withdrawals; w <= 0 {
		t.Fatalf("no draw in 2026 (withdrawals %v)", w)
	}
	if got := res.Accounts(0)[0].Contributions; !approx(got, 40000, 0.005) {
		t.Errorf("2026, the year of the draw: paid in %v, want 40,000", got)
	}
	if got := res.Accounts(1)[0].Contributions; !approx(got, 10000, 0.005) || !approx(res.Extra[1].OverLimit, 30000, 0.005) {
		t.Errorf("2027, after the draw: paid in %v over %v, want 10,000 and 30,000 over", got, res.Extra[1].OverLimit)
	}
	// Without a draw the allowance stays 60,000.
	p = gbSIPPPlan(t, 60, 50000, 40000, 500000, 5000)
	res = run(t, &p)
	if got := res.Accounts(1)[0].Contributions; !approx(got, 40000, 0.005) {
		t.Errorf("no draw: 2027 paid in %v, want 40,000", got)
	}
}
