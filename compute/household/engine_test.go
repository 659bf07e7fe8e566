package household

import (
	"math"
	"testing"
)

// A retiree with one untaxed cash pot and no tax: every year spends its
// expenses from the pot, which earns inflation: the pot lasts exactly
// balance / spending years in today's money.
func TestCashPotWithoutTax(t *testing.T) {
	r, _ := fixture(t)
	p := single(r, nil, 60, 90, account(r, "c", "cash", 0, 400000))
	p.Residences = []Residence{{}}
	p.People[0].RetirementAge = 60
	res := run(t, &p)
	if got := res.Summary.DepletionAge; got != 70 {
		t.Fatalf("depletion age %d, want 70 (400,000 / 40,000 a year)", got)
	}
	for i, row := range res.Rows[:10] {
		if !near(row.Withdrawals, 40000*math.Pow(1.02, float64(i)), 1e-6) {
			t.Fatalf("year %d drew %v", i, row.Withdrawals)
		}
	}
	if res.LifetimeTax != 0 {
		t.Fatalf("lifetime tax %v without a tax system", res.LifetimeTax)
	}
}

// A 50-year-old who stops work draws the taxable account first; when it
// is empty, the 401(k) is taken with the 10% charge before 59.5 (age 60
// in whole years) and, as it is not open, the row shows the penalty.
func TestEarlyWithdrawalCarriesPenalty(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 50, 80, account(r, "t", "taxable", 0, 60000), account(r, "k", "us-401k", 0, 900000))
	p.People[0].RetirementAge = 50
	res := run(t, &p)
	sawPenalty := false
	for i, row := range res.Rows {
		cells := res.Accounts(i)
		x := res.Extra[i]
		if row.Age < 60 && cells[1].Withdrawals > 0 {
			if x.Tax.Penalties < 0.1*cells[1].Withdrawals-1e-6 {
				t.Fatalf("age %d: 401(k) drew %v before 59.5 with penalties %v", row.Age, cells[1].Withdrawals, x.Tax.Penalties)
			}
			sawPenalty = true
			if left := cells[0].Start - cells[0].Withdrawals; left > 0.01 {
				t.Fatalf("age %d: 401(k) drawn early while the taxable account kept %v", row.Age, left)
			}
		}
		if row.Age >= 60 && x.Tax.Penalties != 0 {
			t.Fatalf("age %d: penalty %v after the access age", row.Age, x.Tax.Penalties)
		}
	}
	if !sawPenalty {
		t.Fatal("the 401(k) was never drawn early: the test proves nothing")
	}
}

// The rule of 55: leaving work at 55 opens the 401(k) without the charge;
// the IRA stays closed until 59.5.
func TestRuleOf55(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 55, 80, account(r, "k", "us-401k", 0, 900000), account(r, "i", "us-ira", 0, 100000))
	p.People[0].RetirementAge = 55
	res := run(t, &p)
	for i, row := range res.Rows {
		if row.Age >= 60 {
			break
		}
		if res.Extra[i].Tax.Penalties != 0 || res.Accounts(i)[1].Withdrawals != 0 {
			t.Fatalf("age %d: penalty %v, IRA drawn %v", row.Age, res.Extra[i].Tax.Penalties, res.Accounts(i)[1].Withdrawals)
		}
		if res.Accounts(i)[0].Withdrawals <= 0 {
			t.Fatalf("age %d: the 401(k) paid nothing", row.Age)
		}
	}
}

// Required minimums: born 1960 or later, they start at 75 with the
// balance at the end of the year before over the table's divisor (24.6 at
// 75), and are taken even when not needed: the excess is saved in the
// taxable account.
func TestRequiredMinimums(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 65, 95, account(r, "k", "us-401k", 0, 2000000), account(r, "t", "taxable", 0, 3000000))
	p.People[0].RetirementAge = 60
	res := run(t, &p)
	if res.Extra[9].Required != 0 || res.Rows[9].Age != 74 {
		t.Fatalf("required %v at %d", res.Extra[9].Required, res.Rows[9].Age)
	}
	want := res.Accounts(10)[0].Start / 24.6
	if got := res.Extra[10].Required; !near(got, want, 0.01) || got == 0 {
		t.Fatalf("required at 75 %v, want %v", got, want)
	}
	if res.Accounts(10)[0].Withdrawals != res.Extra[10].Required {
		t.Fatalf("401(k) drew %v beside a required %v: the taxable account should pay the rest", res.Accounts(10)[0].Withdrawals, res.Extra[10].Required)
	}
	// a 1952 birth starts at 73
	p = single(r, s, 74, 95, account(r, "k", "us-401k", 0, 2000000))
	p.People[0].RetirementAge = 60
	if res = run(t, &p); !near(res.Extra[0].Required, 2000000/25.5, 0.01) {
		t.Fatalf("required at 74 (born 1952) %v, want %v", res.Extra[0].Required, 2000000/25.5)
	}
}

// A Roth conversion ladder: a 45-year-old converts from the IRA up to the
// top of the 12% band each year; each conversion opens without charge
// five tax years later.
func TestConversionLadder(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 45, 90, account(r, "t", "taxable", 0, 250000), account(r, "i", "us-ira", 0, 1200000))
	p.People[0].RetirementAge = 45
	p.Convert, p.ConvertUpTo = true, 0.12
	res := run(t, &p)
	if len(res.IDs) != 3 || res.IDs[2] != "us-roth-ira" {
		t.Fatalf("accounts %v: want the Roth IRA added", res.IDs)
	}
	first := res.Extra[0].Converted
	// single 2026: standard deduction 16,100 + the 12% band's top 50,400
	if first < 60000 || first > 70000 {
		t.Fatalf("converted %v in the first year, want about 66,500", first)
	}
	for i, row := range res.Rows {
		if row.Age < 50 && res.Accounts(i)[2].Withdrawals > 0 {
			t.Fatalf("age %d: Roth drawn %v before the first conversion seasoned", row.Age, res.Accounts(i)[2].Withdrawals)
		}
		if res.Extra[i].Tax.Penalties > 0 && row.Age < 60 {
			t.Fatalf("age %d: penalty %v: the ladder should bridge", row.Age, res.Extra[i].Tax.Penalties)
		}
	}
	if res.Baseline.LifetimeTax <= 0 {
		t.Fatalf("baseline %+v", res.Baseline)
	}
}

// A locked pot cannot be touched before its access age, whatever is left:
// the plan runs out instead.
func TestLockedPotRunsOut(t *testing.T) {
	r, s := fixture(t)
	p := single(r, s, 50, 80, account(r, "c", "cash", 0, 100000), account(r, "s", "us-super", 0, 2000000))
	p.People[0].RetirementAge = 50
	res := run(t, &p)
	if res.Summary.DepletionAge < 50 || res.Summary.DepletionAge >= 60 {
		t.Fatalf("depletion age %d, want in the fifties", res.Summary.DepletionAge)
	}
	for i, row := range res.Rows {
		if row.Age < 60 && res.Accounts(i)[1].Withdrawals > 0 {
			t.Fatalf("age %d: locked pot drawn", row.Age)
		}
	}
}
