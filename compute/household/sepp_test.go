package household_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"fiplan/compute/household"
)

// The payment of each method (Notice 2022-6, section 2.01): the single
// life table of 1.401(a)(9)-9(b) gives 36.2 years at 50; the rate is the
// 5% always allowed (no mid-term rate is recorded).
func TestSEPPPayment(t *testing.T) {
	s := loadUS(t).SEPP
	if s == nil {
		t.Fatal("the US rules have no sepp")
	}
	if s.Rate() != 0.05 {
		t.Fatalf("rate %v, want the 5%% floor", s.Rate())
	}
	for _, c := range []struct {
		m    household.SEPPMethod
		bal  float64
		age  int
		want float64
		tag  string
	}{
		{household.SEPPRMD, 400000, 50, 400000 / 36.2, computed},
		// 400,000 x 0.05 / (1 - 1.05^-36.2)
		{household.SEPPAmortization, 400000, 50, 24124.89, computed},
		{household.SEPPRMD, 500000, 55, 500000 / 31.6, computed},
	} {
		checkTag(t, c.tag)
		if got := s.Payment(c.m, c.bal, c.age); !near(got, c.want, 0.01) {
			t.Errorf("%s %v at %d: %.2f, want %.2f [%s]", c.m, c.bal, c.age, got, c.want, c.tag)
		}
	}
	// fixed annuitization: 400,000 over the annuity factor at 50, by the
	// mortality rates of 1.401(a)(9)-9(e), payments at the end of each year
	if !s.Has(household.SEPPAnnuitization) {
		t.Fatal("annuitization without the mortality table")
	}
	checkTag(t, computed)
	if got := s.Payment(household.SEPPAnnuitization, 400000, 50); !near(got, 400000/annuityAt50(t, 0.05), 0.01) || !near(got, 25218.33, 0.01) {
		t.Errorf("annuitization at 50 and 5%%: %.2f, want 25218.33 (factor 15.8615) [computed]", got)
	}
	// at 4% the factor is 18.1568: the figure cited for Notice 2022-6's
	// example of a 50-year-old, recomputed here, not read from the notice
	four := *s
	four.RateFloor, four.MidTerm = 0.04, nil
	if got := 400000 / four.Payment(household.SEPPAnnuitization, 400000, 50); !near(got, 18.1568, 0.00005) {
		t.Errorf("annuity factor at 50 and 4%%: %.4f, want 18.1568 [computed]", got)
	}
	// the payment is fixed on the first balance: a younger owner gets less
	if a, b := s.Payment(household.SEPPAnnuitization, 1, 45), s.Payment(household.SEPPAnnuitization, 1, 55); !(a < b) {
		t.Errorf("annuitization at 45 %.6f not below at 55 %.6f", a, b)
	}
}

// annuityAt50 recomputes the annuity factor at 50 from the table in the
// data, as the notice defines it (the sum over each later year of the
// chance to be alive at its end, discounted).
func annuityAt50(t *testing.T, rate float64) float64 {
	m := loadUS(t).Tables["mortality-2022"]
	alive, f := 1.0, 0.0
	for k := 1; k < 200; k++ {
		alive *= 1 - m.At(50+k-1)
		f += alive / math.Pow(1+rate, float64(k))
	}
	return f
}

// The mortality rates of 1.401(a)(9)-9(e) are those the regulation's own
// Single Life Table was calculated from: the life expectancy they give
// (half a year plus the chances to be alive at each later birthday) is
// within 0.1 year of the table at every age to 110, which a slip in the
// transcription of any rate would break.
func TestSEPPMortalityRatesMakeTheSingleLifeTable(t *testing.T) {
	r := loadUS(t)
	m, life := r.Tables["mortality-2022"], r.Tables["single-life"]
	if len(m.Values) != 120 || m.At(1) != 0.000441 || m.At(65) != 0.007884 || m.At(120) != 0.4 || m.At(130) != 0.4 {
		t.Fatalf("mortality table: %d rates, at 1 %v, 65 %v, 120 %v [table]", len(m.Values), m.At(1), m.At(65), m.At(120))
	}
	checkTag(t, computed)
	worst := 0.0
	for x := 1; x <= 110; x++ {
		e, alive := 0.5, 1.0
		for a := x; alive > 1e-12; a++ {
			alive *= 1 - m.At(a)
			e += alive
		}
		if d := math.Abs(e - life.At(x)); d >= 0.1 {
			t.Errorf("age %d: life expectancy %.3f from the rates, %.1f in the table [computed]", x, e, life.At(x))
		} else {
			worst = max(worst, d)
		}
	}
	t.Logf("largest gap to the Single Life Table, ages 1 to 110: %.3f", worst)
}

// Rules without a mortality table refuse the annuitization method, naming
// the field.
func TestSEPPAnnuitizationNeedsTheTable(t *testing.T) {
	b, err := os.ReadFile("../../embed/tax/wrappers/us.json")
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`"mortality": "mortality-2022",`), nil, 1)
	r, err := household.ParseRules(b)
	if err != nil {
		t.Fatal(err)
	}
	if r.SEPP.Has(household.SEPPAnnuitization) || r.SEPP.Payment(household.SEPPAnnuitization, 400000, 50) != 0 {
		t.Fatal("annuitization without a mortality table")
	}
	p := seppPlan(t, 50, 52, household.SEPPAnnuitization, 300000, 10000, 30000)
	p.SEPPRules = r.SEPP
	var fe *household.FieldError
	if err := household.Check(&p); !errors.As(err, &fe) || fe.Field != "bridge.sepp[0].method" {
		t.Errorf("%v, want a field error on bridge.sepp[0].method", err)
	}
	bad := bytes.Replace(b, []byte(`"table": "single-life",`), []byte(`"table": "single-life", "mortality": "uniform-lifetime",`), 1)
	if _, err := household.ParseRules(bad); err == nil {
		t.Error("a table of life expectancies taken as mortality rates")
	}
}

// seppPlan is a retiree of age with an IRA of ira and a taxable account of
// taxable, drawing a series by m from from.
func seppPlan(t *testing.T, age, from int, m household.SEPPMethod, ira, taxable, spend float64) household.Plan {
	u := newUS(t)
	p := u.plan([]household.Person{{Age: age, LifeExpectancy: 90, RetirementAge: age}},
		u.account("ira", "us-ira", 0, ira, 0), u.account("t", "taxable", 0, taxable, 0))
	p.Expenses, p.Retirement = spend, spend
	p.SEPPRules = u.r.SEPP
	p.SEPP = []household.Series{{Account: 0, Method: m, FromAge: from}}
	return p
}

// A series from 50 pays every year to 59 (59 1/2 is reached in the year
// of 60 at the earliest, the engine's ages being whole), free of the 10%,
// and stops at 60; one from 57 runs its five years, to 61.
func TestSEPPRunsItsYears(t *testing.T) {
	for _, c := range []struct {
		from, last int
	}{{50, 59}, {57, 61}} {
		p := seppPlan(t, 50, c.from, household.SEPPAmortization, 600000, 2_000_000, 30000)
		r := runUS(t, &p)
		pay := 0.0
		for i, x := range r.Extra {
			age := r.Rows[i].Age
			paying := age >= c.from && age <= c.last
			if (x.SEPP > 0) != paying {
				t.Errorf("from %d: age %d pays %.2f", c.from, age, x.SEPP)
			}
			if paying && x.Tax.Penalties != 0 {
				t.Errorf("from %d: age %d charged %.2f on a series", c.from, age, x.Tax.Penalties)
			}
			if paying {
				if pay == 0 {
					pay = x.SEPP
				} else if !near(x.SEPP, pay, 0.01) {
					t.Errorf("from %d: age %d pays %.2f, the fixed payment is %.2f", c.from, age, x.SEPP, pay)
				}
				if a := r.Accounts(i)[0]; a.SEPP != x.SEPP || a.Withdrawals < a.SEPP {
					t.Errorf("from %d: age %d: the account's sepp %.2f, withdrawals %.2f, the row's %.2f", c.from, age, a.SEPP, a.Withdrawals, x.SEPP)
				}
			}
		}
		if want := p.SEPPRules.Payment(household.SEPPAmortization, 600000, c.from); c.from == 50 && !near(pay, want, 0.01) {
			t.Errorf("first payment %.2f, want %.2f", pay, want)
		}
	}
}

// The RMD method recomputes each year from the balance and the year's
// life expectancy.
func TestSEPPRMDRecomputes(t *testing.T) {
	p := seppPlan(t, 52, 52, household.SEPPRMD, 500000, 2_000_000, 30000)
	r := runUS(t, &p)
	life := []float64{34.3, 33.4, 32.5}
	for i, le := range life {
		if a := r.Accounts(i)[0]; !near(a.SEPP, a.Start/le, 0.01) {
			t.Errorf("age %d: %.2f, want %.2f / %.1f", 52+i, a.SEPP, a.Start, le)
		}
	}
}

// Spending the series cannot pay, with nothing else left, draws the IRA
// beyond its series: the series is modified, and the 10% its payments
// escaped falls due with 7% a year of interest (IRC 72(t)(4)).
func TestSEPPModifiedIsRecaptured(t *testing.T) {
	p := seppPlan(t, 50, 50, household.SEPPRMD, 300000, 60000, 40000)
	r := runUS(t, &p)
	owed, broke := 0.0, -1
	for i, x := range r.Extra {
		if x.Recapture > 0 {
			broke = i
			owed = owed*1.07 + 0.1*x.SEPP
			if !near(x.Recapture, owed, 0.01) {
				t.Errorf("age %d: recapture %.2f, want %.2f", r.Rows[i].Age, x.Recapture, owed)
			}
			if x.Tax.Penalties < x.Recapture {
				t.Errorf("age %d: penalties %.2f below the recapture %.2f", r.Rows[i].Age, x.Tax.Penalties, x.Recapture)
			}
			break
		}
		owed = owed*1.07 + 0.1*x.SEPP
	}
	if broke < 0 {
		t.Fatal("the series was never modified")
	}
	for i := broke + 1; i < len(r.Extra); i++ {
		if r.Extra[i].SEPP != 0 || r.Extra[i].Recapture != 0 {
			t.Errorf("age %d after the modification: sepp %.2f recapture %.2f", r.Rows[i].Age, r.Extra[i].SEPP, r.Extra[i].Recapture)
		}
	}
}

func TestSEPPRefused(t *testing.T) {
	u := newUS(t)
	for _, c := range []struct {
		name  string
		edit  func(p *household.Plan)
		field string
	}{
		{"a Roth IRA", func(p *household.Plan) {
			p.Accounts[0] = u.account("roth", "us-roth-ira", 0, 100000, 0)
		}, "bridge.sepp[0].account"},
		{"no such account", func(p *household.Plan) { p.SEPP[0].Account = 5 }, "bridge.sepp[0].account"},
		{"an empty account", func(p *household.Plan) { p.Accounts[0].Balance = 0 }, "bridge.sepp[0].account"},
		{"after the access age", func(p *household.Plan) { p.SEPP[0].FromAge = 60 }, "bridge.sepp[0].fromAge"},
		{"before today", func(p *household.Plan) { p.SEPP[0].FromAge = 49 }, "bridge.sepp[0].fromAge"},
		{"twice", func(p *household.Plan) { p.SEPP = append(p.SEPP, p.SEPP[0]) }, "bridge.sepp[1].account"},
		{"no rules", func(p *household.Plan) { p.SEPPRules = nil }, "bridge.sepp[0]"},
	} {
		p := seppPlan(t, 50, 52, household.SEPPRMD, 300000, 10000, 30000)
		c.edit(&p)
		var fe *household.FieldError
		if err := household.Check(&p); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: %v, want a field error on %s", c.name, err, c.field)
		}
	}
}

func TestSEPPRunAllocatesNothing(t *testing.T) {
	p := seppPlan(t, 50, 50, household.SEPPAmortization, 600000, 100000, 40000)
	var w household.Work
	var r household.Result
	if err := household.Run(&p, &w, &r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(5, func() { _ = household.Run(&p, &w, &r) }); n != 0 {
		t.Errorf("%v allocations a run", n)
	}
}

// The notes no longer say the plan leaves the 72(t) exception aside on an
// account that pays a series.
func TestSEPPNotes(t *testing.T) {
	p := seppPlan(t, 50, 50, household.SEPPRMD, 300000, 10000, 30000)
	with := strings.Join(household.Notes(nil, &p), "\n")
	p.SEPP = nil
	without := strings.Join(household.Notes(nil, &p), "\n")
	if !strings.Contains(without, "not applied by the plan: substantially equal periodic payments") {
		t.Fatalf("notes without a series: %s", without)
	}
	if strings.Contains(with, "not applied by the plan: substantially equal periodic payments") || !strings.Contains(with, "bridge.sepp") {
		t.Errorf("notes with a series: %s", with)
	}
}
