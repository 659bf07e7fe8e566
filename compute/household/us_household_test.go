package household_test

import (
	"os"
	"testing"

	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// usTax decodes the embedded US tax file.
func usTax(t *testing.T) *tax.System {
	t.Helper()
	b, err := os.ReadFile("../../embed/tax/countries/us.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tax.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// usPlan is a plan of people taxed under the US rules of 2026 with the
// real US wrappers; accounts name a wrapper id, "cash" or "taxable".
type usPlan struct {
	r   *household.Rules
	sys *tax.System
}

func newUS(t *testing.T) usPlan { return usPlan{loadUS(t), usTax(t)} }

func (u usPlan) account(id, typ string, owner int, bal, contrib float64) household.Account {
	a := household.Account{ID: id, Type: typ, Owner: owner, Balance: bal, CostBasis: -1, Contribution: contrib}
	if typ != "cash" && typ != "taxable" {
		a.Wrapper = u.r.Wrapper(typ)
	}
	return a
}

func (u usPlan) plan(people []household.Person, accts ...household.Account) household.Plan {
	return household.Plan{
		People: people, Accounts: accts, Expenses: 40000, Return: 0.05, Inflation: 0.02, WithdrawalRate: 0.04,
		StartYear: 2026, Joint: len(people) == 2, Converts: []*household.Wrapper{u.r.Wrapper("us-roth-ira")},
		Residences: []household.Residence{{Country: "US", System: u.sys, Year: 2026}},
	}
}

func runUS(t *testing.T, p *household.Plan) *household.Result {
	t.Helper()
	var w household.Work
	var r household.Result
	if err := household.Run(p, &w, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// Elective deferrals to a 401(k) and IRA contributions stay Social
// Security and Medicare wages (IRC 3121(v)(1)(A), 3121(a)); HSA
// contributions through a cafeteria plan do not (IRC 3121(a)(5)(G)). The
// employee's FICA is 6.2% + 1.45% of those wages below the 2026 wage base
// (IRS Pub. 15).
func TestUSDeferralsAreFICAWages(t *testing.T) {
	u := newUS(t)
	for _, c := range []struct {
		name                 string
		typ                  string
		wages, contrib, want float64
		tag                  string
	}{
		{"401(k) deferral", "us-401k", 150000, 23500, 0.0765 * 150000, computed},
		{"IRA contribution", "us-ira", 60000, 7000, 0.0765 * 60000, computed},
		{"HSA through payroll", "us-hsa", 100000, 4400, 0.0765 * (100000 - 4400), computed},
	} {
		checkTag(t, c.tag)
		p := u.plan([]household.Person{{Age: 40, LifeExpectancy: 90, RetirementAge: 65, Income: c.wages}},
			u.account("a", c.typ, 0, 10000, c.contrib))
		p.Expenses = 30000
		r := runUS(t, &p)
		if got := r.Extra[0].Tax.Social; !near(got, c.want, 0.01) {
			t.Errorf("%s: social contributions %.2f, want %.2f [%s]", c.name, got, c.want, c.tag)
		}
		// the income tax is still that of the wages after the deferral
		in := tax.Income{Employment: c.wages - c.contrib, Age: 40}
		d, err := u.sys.At(2026).DueByCategory(&in, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Extra[0].Tax.Income; !near(got, d.Income, 0.01) {
			t.Errorf("%s: income tax %.2f, want %.2f", c.name, got, d.Income)
		}
	}
}

// A plan for two takes the HSA's family limit (Rev. Proc. 2025-19 sec. 3:
// $8,750 for 2026, self-only $4,400), shared by the spouses, each adding
// their own $1,000 catch-up from 55 (IRC 223(b)(3), (b)(5)).
func TestUSHSAFamilyLimit(t *testing.T) {
	u := newUS(t)
	two := []household.Person{{Age: 40, LifeExpectancy: 90, RetirementAge: 60, Income: 120000}, {Age: 56, LifeExpectancy: 90, RetirementAge: 60, Income: 50000}}
	for _, c := range []struct {
		name     string
		people   []household.Person
		accts    []household.Account
		overWant float64
		tag      string
	}{
		{"couple, one HSA at the family limit", two, []household.Account{u.account("h", "us-hsa", 0, 0, 8750)}, 0, official},
		{"single, the self-only limit", two[:1], []household.Account{u.account("h", "us-hsa", 0, 0, 8750)}, 8750 - 4400, official},
		{"couple, two HSAs share the family limit", two, []household.Account{u.account("h", "us-hsa", 0, 0, 6000), u.account("g", "us-hsa", 1, 0, 4000)}, 6000 + 4000 - 8750 - 1000, computed},
		{"couple, the partner's catch-up is theirs", two, []household.Account{u.account("g", "us-hsa", 1, 0, 9750)}, 0, computed},
	} {
		checkTag(t, c.tag)
		p := u.plan(c.people, c.accts...)
		r := runUS(t, &p)
		if got := r.Extra[0].OverLimit; !near(got, c.overWant, 0.01) {
			t.Errorf("%s: over the limit %.2f, want %.2f [%s]", c.name, got, c.overWant, c.tag)
		}
	}
}

// A taxable account's dividends and interest are the year's income: the
// qualified share taxed as qualified dividends, the rest as interest
// (IRC 1(h)(11), 61(a)(4), (7)); the account's own growth is its price
// growth, and what the year leaves of the income after its tax is saved
// back at cost.
func TestUSYieldTaxedYearly(t *testing.T) {
	u := newUS(t)
	tx := u.account("t", "taxable", 0, 200000, 0)
	tx.Yield, tx.QualifiedShare = 0.03, 0.8
	p := u.plan([]household.Person{{Age: 40, LifeExpectancy: 90, RetirementAge: 60, Income: 100000}}, tx)
	p.Expenses = 60000
	r := runUS(t, &p)
	x := &r.Extra[0]
	if !near(x.Yield, 6000, 1e-6) {
		t.Fatalf("yield %.2f, want 6000", x.Yield)
	}
	in := tax.Income{Employment: 100000, Dividends: 4800, Interest: 1200, Age: 40}
	d, err := u.sys.At(2026).DueByCategory(&in, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !near(x.Tax.Income, d.Income+d.Regional, 0.01) {
		t.Errorf("income tax %.2f, want %.2f [computed]", x.Tax.Income, d.Income+d.Regional)
	}
	c := r.Accounts(0)[0]
	if !near(c.Growth, 200000*(0.05-0.03), 1e-6) {
		t.Errorf("growth %.2f, want the price growth %.2f", c.Growth, 200000*0.02)
	}
	saved := 100000 + 6000 - 60000 - x.Tax.Total
	if !near(c.Contributions, saved, 0.01) {
		t.Errorf("saved %.2f, want %.2f", c.Contributions, saved)
	}
}

// ssCouple is a couple with Social Security on each record (amounts at the
// full retirement age, today's money, claimed at the ages given; an amount
// of 0 is a claim on the partner's record alone).
func (u usPlan) ssCouple(age0, le0, claim0 int, pia0 float64, age1, le1, claim1 int, pia1 float64) household.Plan {
	b := u.r.Benefit("us-social-security")
	p := u.plan([]household.Person{{Age: age0, LifeExpectancy: le0, RetirementAge: age0}, {Age: age1, LifeExpectancy: le1, RetirementAge: age1}},
		u.account("c", "cash", 0, 5e6, 0))
	p.Pensions = []household.Pension{{Owner: 0, FromAge: claim0, Amount: pia0, Benefit: b, Country: "US"},
		{Owner: 1, FromAge: claim1, Amount: pia1, Benefit: b, Country: "US"}}
	p.Inflation = 0 // rows in today's money
	return p
}

// The spouse's benefit: one half of the worker's primary insurance amount
// at the spouse's full retirement age, the spouse's own benefit paid
// first; 32.5% of the worker's amount at 62 with a full retirement age of
// 67 (SSA, benefits for your spouse); Mary's own $250 topped up by $150 to
// her $400 spouse's benefit (SSA Pub. 05-10035), yearly here.
func TestUSSpousalBenefit(t *testing.T) {
	u := newUS(t)
	sp := u.r.Benefit("us-social-security").Spousal
	if got := sp.Share * sp.Factor(67, 62); !near(got, 0.325, 1e-9) {
		t.Errorf("spouse's benefit at 62, full age 67: %.4f of the worker's amount, want 0.325 [official]", got)
	}
	if got := sp.Factor(67, 70); got != 1 {
		t.Errorf("spouse's benefit after full age: factor %v, want 1 (no delayed credit) [computed]", got)
	}
	for _, c := range []struct {
		name              string
		p                 household.Plan
		row               int
		spousal, pensions float64
		tag               string
	}{
		// the worker, 66 (born 1960), has claimed a year early (93 1/3%);
		// the spouse, 62 (born 1964), claims on the worker's record alone
		{"at 62", u.ssCouple(62, 90, 62, 0, 66, 90, 66, 24000), 0, 0.325 * 24000, 0.325*24000 + (1-12*5.0/900)*24000, official},
		// both born in 1960 claim at their full retirement age, 67:
		// Mary's 250 a month topped up by 150
		{"Mary", u.ssCouple(66, 90, 67, 250*12, 66, 90, 67, 800*12), 1, 150 * 12, 400*12 + 800*12, official},
		// the spouse's own amount above half the worker's: nothing added
		{"own larger", u.ssCouple(66, 90, 67, 900*12, 66, 90, 67, 800*12), 1, 0, 1700 * 12, computed},
		// the worker has not claimed yet: no spouse's benefit
		{"worker not claimed", u.ssCouple(66, 90, 67, 250*12, 66, 90, 70, 800*12), 1, 0, 250 * 12, computed},
	} {
		checkTag(t, c.tag)
		r := runUS(t, &c.p)
		x := &r.Extra[c.row]
		if !near(x.Spousal, c.spousal, 0.01) || !near(x.Pensions, c.pensions, 0.01) {
			t.Errorf("%s: spousal %.2f pensions %.2f, want %.2f %.2f [%s]", c.name, x.Spousal, x.Pensions, c.spousal, c.pensions, c.tag)
		}
	}
}

// The widow(er)'s benefit: 100% of the deceased's benefit at the
// survivor's full retirement age, 71.5% at 60 (SSA, survivors benefits);
// at least 82.5% of the deceased's primary insurance amount when they had
// claimed early (POMS RS 00615.320); the larger of the two records kept.
func TestUSSurvivorBenefit(t *testing.T) {
	u := newUS(t)
	sv := u.r.Benefit("us-social-security").Survivor
	for _, c := range []struct {
		born  int
		claim float64
		want  float64
		tag   string
	}{
		{1966, 60, 0.715, official},
		{1966, 67, 1, official},
		{1960, 60, 0.715, official},
		{1960, 66 + 8.0/12, 1, official},
		{1966, 58, 0.715, computed}, // before 60: taken at 60
		{1966, 63.5, 1 - 0.285*42/84, computed},
	} {
		checkTag(t, c.tag)
		if got := sv.Factor(c.born, c.claim); !near(got, c.want, 1e-9) {
			t.Errorf("survivor born %d claiming at %v: %.4f, want %.4f [%s]", c.born, c.claim, got, c.want, c.tag)
		}
	}
	for _, c := range []struct {
		name     string
		p        household.Plan
		row      int // the first row after the partner's death
		survivor float64
		tag      string
	}{
		// he (born 1960) claims at 70 (124%) and dies at 75; she (born
		// 1962) has her own 15,000 from 67: she keeps his 37,200
		{"delayed credits kept", u.ssCouple(64, 95, 67, 15000, 66, 75, 70, 30000), 9, 1.24*30000 - 15000, official},
		// he claimed at 62 (70%): she gets 82.5% of his amount
		{"widow(er)'s limit", u.ssCouple(64, 95, 67, 10000, 66, 75, 62, 30000), 9, 0.825*30000 - 10000, official},
		// her own benefit is the larger: nothing added
		{"own larger", u.ssCouple(64, 95, 67, 30000, 66, 75, 67, 20000), 9, 0, computed},
		// he dies at 66 before claiming (full age 66 and 10 months): his
		// full amount, reduced for her claim at 62 (born 1962, survivor
		// full age 67: 60 months early of 84)
		{"died before claiming", u.ssCouple(58, 95, 62, 0, 62, 66, 70, 30000), 4, 30000 * (1 - 0.285*60/84), computed},
	} {
		checkTag(t, c.tag)
		r := runUS(t, &c.p)
		if got := r.Extra[c.row].Survivor; !near(got, c.survivor, 0.01) {
			t.Errorf("%s: survivor %.2f, want %.2f [%s]", c.name, got, c.survivor, c.tag)
		}
		if got := r.Extra[c.row-1].Survivor; got != 0 {
			t.Errorf("%s: survivor %.2f while both live", c.name, got)
		}
	}
}

// The premium tax credit of 2026: the benchmark premium less the
// household's contribution, its income times the applicable percentage
// (Rev. Proc. 2025-25: 2.10% to 9.96%), from 100% to 400% of the 2025
// poverty line ($15,650 for one, $5,500 more each; IRC 36B, Form 8962
// lines 1-11, the percentage of the line truncated to a whole one); none
// above 400% once the enhanced credits end.
func TestUSPremiumTaxCredit(t *testing.T) {
	u := newUS(t)
	h := u.r.Health
	if h == nil || h.Credit == nil || h.FPL == nil {
		t.Fatal("no health rules")
	}
	if got := h.FPL.At(2); got != 21150 {
		t.Errorf("poverty line for two %v, want 21150 [table]", got)
	}
	for _, c := range []struct {
		name                string
		bench, income, line float64
		want                float64
		tag                 string
	}{
		{"200% for one: 6.60%", 9000, 31300, 15650, 9000 - 0.066*31300, computed},
		// Form 8962 Worksheet 2: 191.69% is entered as 191
		{"between 150% and 200%", 8000, 30000, 15650, 8000 - (0.0419+0.0241*(1.91-1.5)/0.5)*30000, computed},
		{"400% exactly: eligible", 20000, 4 * 21150, 21150, 20000 - 0.0996*4*21150, computed},
		{"400.5%: none (401 on the worksheet)", 20000, 4.005 * 21150, 21150, 0, computed},
		{"99.84%: entered as 99, none", 9000, 0.9984 * 15650, 15650, 0, computed},
		{"350% for two: 9.96%", 20000, 3.5 * 21150, 21150, 20000 - 0.0996*3.5*21150, computed},
		{"just above 400%: the cliff", 20000, 4.01 * 21150, 21150, 0, computed},
		{"below the poverty line: none", 9000, 15000, 15650, 0, computed},
		{"contribution above the benchmark", 3000, 60000, 15650, 0, computed},
	} {
		checkTag(t, c.tag)
		if got := h.Credit.Credit(c.bench, c.income, c.line); !near(got, c.want, 0.005) {
			t.Errorf("%s: credit %.2f, want %.2f [%s]", c.name, got, c.want, c.tag)
		}
	}
	// a retired 60-year-old with a pension of 30,000 and a benchmark of
	// 8,000 within 12,000 of health spending
	p := u.plan([]household.Person{{Age: 60, LifeExpectancy: 90, RetirementAge: 55}}, u.account("c", "cash", 0, 2e6, 0))
	p.Inflation = 0
	p.Pensions = []household.Pension{{FromAge: 55, Amount: 30000, Indexed: true}}
	p.Care = &household.Care{Phases: []household.CarePhase{{FromAge: 50, Amount: 12000}}, Benchmark: 8000, Rules: h, Country: "US"}
	r := runUS(t, &p)
	want := h.Credit.Credit(8000, 30000, 15650)
	if x := r.Extra[0].Health; !near(x.Credit, want, 0.01) || x.Premiums != 12000 {
		t.Errorf("row: credit %.2f premiums %.2f, want %.2f 12000", x.Credit, x.Premiums, want)
	}
	if x := r.Extra[5].Health; x.Credit != 0 {
		t.Errorf("at 65 (Medicare): credit %.2f", x.Credit)
	}
}

// Medicare's income-related monthly adjustment amounts of 2026 (CMS):
// Part B and Part D surcharges by the modified adjusted gross income of
// two years earlier, per person enrolled.
func TestUSIRMAA(t *testing.T) {
	u := newUS(t)
	s := u.r.Health.IRMAA
	for _, c := range []struct {
		name   string
		income float64
		joint  bool
		want   float64
		tag    string
	}{
		{"single at the threshold", 109000, false, 0, table},
		{"single, first tier", 120000, false, 12 * (81.20 + 14.50), table},
		{"single, second tier", 150000, false, 12 * (202.90 + 37.50), table},
		{"joint, third tier", 350000, true, 12 * (324.60 + 60.40), table},
		{"single, top tier", 600000, false, 12 * (487.00 + 91.00), table},
		// the top tier starts at its threshold: greater than or equal
		{"single at 500,000: top tier", 500000, false, 12 * (487.00 + 91.00), table},
		{"joint at 750,000: top tier", 750000, true, 12 * (487.00 + 91.00), table},
		{"joint at 410,000: still the third tier", 410000, true, 12 * (324.60 + 60.40), table},
	} {
		checkTag(t, c.tag)
		if got := s.Yearly(c.income, c.joint, 1); !near(got, c.want, 1e-6) {
			t.Errorf("%s: %.2f, want %.2f [%s]", c.name, got, c.want, c.tag)
		}
	}
	p := u.plan([]household.Person{{Age: 66, LifeExpectancy: 90, RetirementAge: 60}}, u.account("c", "cash", 0, 2e6, 0))
	p.Inflation = 0
	p.Pensions = []household.Pension{{FromAge: 60, Amount: 150000, Indexed: true}}
	p.Care = &household.Care{Phases: []household.CarePhase{{FromAge: 50, Amount: 5000}}, Rules: u.r.Health, Country: "US"}
	r := runUS(t, &p)
	if got := r.Extra[1].Health.Surcharge; got != 0 {
		t.Errorf("second year: surcharge %.2f without the income of two years earlier", got)
	}
	if got := r.Extra[2].Health.Surcharge; !near(got, 12*(202.90+37.50), 0.01) {
		t.Errorf("third year: surcharge %.2f, want %.2f", got, 12*(202.90+37.50))
	}
}
