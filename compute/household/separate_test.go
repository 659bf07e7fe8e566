package household

import (
	"strings"
	"testing"

	"fiplan/compute/tax"
)

// A fixture file for the generic fields: a separate schedule on amounts
// and one on gains held five years, a gains exemption, a lifetime cap, and
// limits lowered by wages or counting wages above a floor. Its figures are
// made up, not law.
const sepFixture = `{"country":"XX","documents":{"d":{"publisher":"p","title":"t"}},"notes":[],"benefits":[],"tables":{},
 "schedules":{
  "lump":{"category":"income","src":[{"doc":"d","sec":"s"}],"parts":[
    {"label":"a","scale":0.5,"bands":[{"from":0,"rate":0},{"from":10000,"rate":0.2},{"from":50000,"rate":0.4}]},
    {"label":"b","bands":[{"from":0,"rate":0.05}]}]},
  "flat":{"category":"capital","frozen":true,"src":[{"doc":"d","sec":"s"}],"parts":[
    {"label":"f","bands":[{"from":0,"rate":0},{"from":1000,"rate":0.1}]}]}},
 "wrappers":[
  {"id":"xx-lump","name":"lump","kind":"pension","contributions":{},"access":{"age":60,"locked":true},
   "withdrawals":{"taxed":"none","separate":{"schedule":"lump","on":"amount"}},"src":[{"doc":"d","sec":"s"}]},
  {"id":"xx-held","name":"held","kind":"tax-free","contributions":{"lifetime":50000},"access":{},
   "withdrawals":{"taxed":"gains","separate":{"schedule":"flat","on":"gains","heldYears":5}},"src":[{"doc":"d","sec":"s"}]},
  {"id":"xx-fund","name":"fund","kind":"taxable","contributions":{},"access":{},
   "withdrawals":{"taxed":"gains","gainsExempt":0.3},"src":[{"doc":"d","sec":"s"}]},
  {"id":"xx-wage","name":"wage","kind":"pension","contributions":{"preTax":true,"earnedShare":0.3,"limits":[
    {"year":2026,"amount":20000,"lessWageShare":0.1,"lessWageCap":100000,"earnedAbove":10000}]},
   "access":{"age":60,"locked":true},"withdrawals":{"taxed":"income"},"src":[{"doc":"d","sec":"s"}]}
 ]}`

func sepRules(t *testing.T) *Rules {
	t.Helper()
	r, err := ParseRules([]byte(sepFixture))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The schedule's tax: each part's bands, scaled, added together.
func TestScheduleTax(t *testing.T) {
	s := sepRules(t).Schedules["lump"]
	// A stated amount at a band's start replaces the sum of the bands
	// below (a tariff's rounded amounts).
	at := 3990.0
	stated := Schedule{Parts: []Part{{Label: "x", Bands: []Band{{From: 0, Rate: 0.1}, {From: 40000, Rate: 0.2, At: &at}}}}}
	if got := stated.Tax(50000); !approx(got, 3990+2000, 1e-9) {
		t.Errorf("stated amount: tax %v, want 5,990", got)
	}
	if got := stated.Tax(30000); !approx(got, 3000, 1e-9) {
		t.Errorf("below the stated band: tax %v, want 3,000", got)
	}
	cases := []struct{ base, want float64 }{
		{0, 0},
		{-5, 0},
		{10000, 500},                          // 0 + 5% of 10,000
		{30000, 0.5*0.2*20000 + 1500},         // 2,000 + 1,500
		{80000, 0.5*(8000+0.4*30000) + 4000},  // 10,000 + 4,000
		{50000, 0.5*0.2*40000 + 0.05*50000.0}, // at the band's edge
	}
	for _, c := range cases {
		if got := s.Tax(c.base); !approx(got, c.want, 1e-9) {
			t.Errorf("computed: tax of %v is %v, want %v", c.base, got, c.want)
		}
	}
}

// Withdrawals under one schedule in a year are taxed together, not each
// on its own; a frozen schedule is not moved with prices.
func TestSepFlowsTogether(t *testing.T) {
	r := sepRules(t)
	lump := r.Schedules["lump"]
	var f sepFlows
	f.add(lump, 30000, 1)
	f.add(lump, 30000, 1)
	inc, capital := f.due(1)
	if want := lump.Tax(60000); !approx(inc, want, 1e-9) || capital != 0 {
		t.Errorf("two withdrawals of 30,000: income %v capital %v, want %v and 0", inc, capital, want)
	}
	if inc <= 2*lump.Tax(30000) {
		t.Errorf("taxed together %v must exceed apart %v under a progressive schedule", inc, 2*lump.Tax(30000))
	}
	// Prices doubled: an indexed schedule taxes 60,000 of the year as
	// 30,000 of today, times 2.
	if inc, _ := f.due(2); !approx(inc, 2*lump.Tax(30000), 1e-9) {
		t.Errorf("indexed at cpi 2: %v, want %v", inc, 2*lump.Tax(30000))
	}
	var g sepFlows
	g.add(r.Schedules["flat"], 11000, 1)
	if _, c := g.due(2); !approx(c, 1000, 1e-9) {
		t.Errorf("frozen allowance at cpi 2: capital %v, want 10%% of 10,000", c)
	}
	// A rate converts the plan's currency into the schedule's and back.
	var h sepFlows
	h.add(lump, 15000, 2)
	if inc, _ := h.due(1); !approx(inc, lump.Tax(30000)/2, 1e-9) {
		t.Errorf("at rate 2: %v, want %v", inc, lump.Tax(30000)/2)
	}
}

// A separate schedule replaces the income tax of the residence: a
// person with no other income pays exactly the schedule's tax on what is
// drawn.
func TestSeparateAmountInHousehold(t *testing.T) {
	r := sepRules(t)
	_, s := fixture(t)
	p := single(r, s, 62, 64, Account{ID: "l", Type: "xx-lump", Wrapper: r.Wrapper("xx-lump"), Balance: 1e6, CostBasis: -1})
	p.Return, p.Inflation, p.Expenses = 0, 0, 40000
	p.People[0].RetirementAge = 62
	res := run(t, &p)
	x := res.Extra[0]
	drawn := res.Accounts(0)[0].Withdrawals
	want := r.Schedules["lump"].Tax(drawn)
	if !approx(x.Tax.Income, want, 0.01) || x.Tax.Capital != 0 {
		t.Errorf("income tax %v, want the schedule's %v on %v drawn", x.Tax.Income, want, drawn)
	}
	// what a round drew past the need is saved in the taxable account
	saved := 0.0
	for _, a := range res.Accounts(0)[1:] {
		saved += a.Contributions
	}
	if !approx(drawn-x.Tax.Total-saved, 40000, 0.02) || saved > overshoot(drawn, 0) {
		t.Errorf("drawn %v less tax %v less %v saved, want the spending of 40,000", drawn, x.Tax.Total, saved)
	}
}

// Gains under a holding period: before it they are capital gains of the
// residence's tax; from it the schedule takes them instead.
func TestSeparateHeldYears(t *testing.T) {
	r := sepRules(t)
	_, s := fixture(t)
	p := single(r, s, 70, 77, Account{ID: "h", Type: "xx-held", Wrapper: r.Wrapper("xx-held"), Balance: 1e6, CostBasis: 0})
	p.Return, p.Inflation, p.Expenses = 0, 0, 150000
	p.People[0].RetirementAge = 70
	res := run(t, &p)
	for y := 0; y < 7; y++ {
		x := res.Extra[y]
		drawn := res.Accounts(y)[0].Withdrawals
		if y < 5 {
			// the rules of the year: prices are flat, so a projected year's
			// figures are as stored
			c, err := s.At(2026+y).DueByCategory(&tax.Income{CapitalGains: drawn, Age: 70 + y}, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := c.Income + c.Regional + c.Social + c.Capital; want <= 0 || !approx(x.Tax.Total, want, 0.01) {
				t.Errorf("year %d: tax %v, want the residence's %v on %v of gains", y, x.Tax.Total, want, drawn)
			}
			continue
		}
		if want := 0.1 * (drawn - 1000); !approx(x.Tax.Total, want, 0.01) || !approx(x.Tax.Capital, want, 0.01) {
			t.Errorf("year %d: capital tax %v (total %v), want 10%% of the gain above 1,000 (%v)", y, x.Tax.Capital, x.Tax.Total, want)
		}
	}
}

// The gains exemption: only the taxed share of a gain reaches the tax
// system, so the same sale pays less than from the plain taxable account.
func TestGainsExempt(t *testing.T) {
	r := sepRules(t)
	var e engine
	a := held{w: r.Wrapper("xx-fund"), funds: funds{bal: 100000, basis: 50000}, rate: 1}
	var f flows
	e.sell(&a, 20000, &f)
	if !approx(f.gains, 0.7*10000, 1e-9) || !approx(a.basis, 40000, 1e-9) {
		t.Errorf("sale of 20,000 at half gain: gains %v basis %v, want 7,000 and 40,000", f.gains, a.basis)
	}
	b := held{funds: funds{bal: 100000, basis: 50000}, rate: 1}
	var g flows
	e.sell(&b, 20000, &g)
	if !approx(g.gains, 10000, 1e-9) {
		t.Errorf("plain taxable account: gains %v, want 10,000", g.gains)
	}
}

// The lifetime cap counts the capital paid in (the cost basis).
func TestLifetimeCap(t *testing.T) {
	r := sepRules(t)
	_, s := fixture(t)
	p := single(r, s, 30, 40, Account{ID: "h", Type: "xx-held", Wrapper: r.Wrapper("xx-held"), Balance: 45000, CostBasis: 42000, Contribution: 6000})
	p.Return, p.Inflation = 0, 0
	p.People[0].RetirementAge, p.People[0].Income = 35, 100000
	res := run(t, &p)
	if c := res.Accounts(0)[0].Contributions; !approx(c, 6000, 1e-9) {
		t.Errorf("year 0: paid in %v, want 6,000 (8,000 of room left)", c)
	}
	if c := res.Accounts(1)[0].Contributions; !approx(c, 2000, 1e-9) || !approx(res.Extra[1].OverLimit, 4000, 1e-9) {
		t.Errorf("year 1: paid in %v over %v, want 2,000 and 4,000", c, res.Extra[1].OverLimit)
	}
	if c := res.Accounts(2)[0].Contributions; c != 0 {
		t.Errorf("year 2: paid in %v past the lifetime cap", c)
	}
}

// Limits lowered by a share of wages up to a cap, and a share of wages
// above a floor.
func TestWageLinkedLimits(t *testing.T) {
	c := sepRules(t).Wrapper("xx-wage").Contrib
	cases := []struct {
		wages, offset, earned float64
	}{
		{50000, 5000, 40000},
		{150000, 10000, 140000}, // the offset stops at the cap
		{8000, 800, 0},          // below the floor nothing is earned
	}
	for _, k := range cases {
		if got := c.wageOffset(2026, k.wages, 1); !approx(got, k.offset, 1e-9) {
			t.Errorf("wages %v: offset %v, want %v", k.wages, got, k.offset)
		}
		if got := c.earnedBase(2026, k.wages, 1); !approx(got, k.earned, 1e-9) {
			t.Errorf("wages %v: earned %v, want %v", k.wages, got, k.earned)
		}
	}
	// Indexed limits move the cap and floor with prices after the last
	// year; this one is not indexed.
	if got := c.wageOffset(2030, 150000, 1.5); !approx(got, 10000, 1e-9) {
		t.Errorf("not indexed: offset %v in 2030, want 10,000", got)
	}
	// In a household: wages 50,000 give min(20,000 - 5,000, 30% of 40,000).
	r := sepRules(t)
	_, s := fixture(t)
	p := single(r, s, 40, 50, Account{ID: "w", Type: "xx-wage", Wrapper: r.Wrapper("xx-wage"), Contribution: 20000, CostBasis: -1})
	p.Return, p.Inflation = 0, 0
	p.People[0].RetirementAge, p.People[0].Income = 45, 50000
	res := run(t, &p)
	if got := res.Accounts(0)[0].Contributions; !approx(got, 12000, 1e-9) {
		t.Errorf("household: paid in %v, want 12,000", got)
	}
}

func TestParseRulesRefusesBadSchedules(t *testing.T) {
	cases := map[string][2]string{
		"unknown schedule": {`"schedule":"lump"`, `"schedule":"nope"`},
		"bad on":           {`"on":"amount"`, `"on":"income"`},
		"bad category":     {`"category":"income"`, `"category":"wealth"`},
		"bands not at 0":   {`{"from":0,"rate":0.05}`, `{"from":1,"rate":0.05}`},
		"rate of 1":        {`{"from":0,"rate":0.05}`, `{"from":0,"rate":1}`},
		"negative held":    {`"heldYears":5`, `"heldYears":-1`},
		"exempt of 1":      {`"gainsExempt":0.3`, `"gainsExempt":1`},
		"unsorted bands":   {`{"from":50000,"rate":0.4}`, `{"from":5000,"rate":0.4}`},
	}
	for what, c := range cases {
		doc := strings.Replace(sepFixture, c[0], c[1], 1)
		if doc == sepFixture {
			t.Fatalf("%s: the fixture has no %s", what, c[0])
		}
		if _, err := ParseRules([]byte(doc)); err == nil {
			t.Errorf("%s: parsed", what)
		}
	}
}
