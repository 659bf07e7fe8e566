package tax

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// whenSystem has a single and a joint variant of one rule (20% from 10 000
// single, from 20 000 joint), an age deduction of 1 000 per filer aged 65,
// a credit of 100 when some filer is 70, a layer on interest that only a
// joint return fills, and a social rule with no condition. Region A has
// its own rule that says nothing of filing; region B's rule does.
const whenSystem = `{"country":"XX","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},
"regions":[{"code":"A","name":"a"},{"code":"B","name":"b"}],
"years":[{"year":2024,"rules":[
 {"id":"soc","category":"social","src":[{"doc":"d","sec":"0"}],
  "layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.05}]}]},
 {"id":"it","when":{"filing":"single"},"category":"income","src":[{"doc":"d","sec":"1"}],
  "layers":[{"base":{"parts":{"employment":1,"pension":1}},"bands":[{"from":0,"rate":0},{"from":10000,"rate":0.2}]}],
  "deductions":[{"label":"age","amount":1000,"perPerson":{"minAge":65}}],
  "credits":[{"label":"old age","amount":100,"when":{"minAge":70}}]},
 {"id":"it","when":{"filing":"joint"},"category":"income","src":[{"doc":"d","sec":"2"}],
  "layers":[{"base":{"parts":{"employment":1,"pension":1}},"bands":[{"from":0,"rate":0},{"from":20000,"rate":0.2}]},
   {"id":"int","when":{"filing":"joint"},"base":{"parts":{"interest":1}},"bands":[{"from":0,"rate":0.1}]}],
  "deductions":[{"label":"age","amount":1000,"perPerson":{"minAge":65}}],
  "credits":[{"label":"old age","amount":100,"when":{"minAge":70}}]},
 {"id":"ra","category":"regional","regions":["A"],"src":[{"doc":"d","sec":"3"}],
  "layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.01}]}]},
 {"id":"rb","category":"regional","regions":["B"],"src":[{"doc":"d","sec":"4"}],
  "layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.01}]}],
  "deductions":[{"label":"joint allowance","amount":5000,"when":{"filing":"joint"}}]}
]}]}`

func TestConditions(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(whenSystem))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		in     Income
		income float64
	}{
		// 30 000 single: 20% of 20 000
		{"single, age unknown", Income{Employment: 30000}, 4000},
		// 64 is under the threshold
		{"single, 64", Income{Employment: 30000, Age: 64}, 4000},
		// one filer of 65: 1 000 off, 20% of 19 000
		{"single, 65", Income{Employment: 30000, Age: 65}, 3800},
		// 70: 3 800 less the credit of 100
		{"single, 70", Income{Employment: 30000, Age: 70}, 3700},
		// a partner's age does not count on a single return
		{"single, partner 80 ignored", Income{Employment: 30000, PartnerAge: 80}, 4000},
		// joint 30 000: 20% of 10 000
		{"joint, ages unknown", Income{Employment: 30000, Joint: true}, 2000},
		// joint, one of 66: 20% of 9 000
		{"joint 66/64", Income{Employment: 30000, Joint: true, Age: 66, PartnerAge: 64}, 1800},
		// joint, both 65 or more and one 70: 20% of 8 000, less 100
		{"joint 66/71", Income{Employment: 30000, Joint: true, Age: 66, PartnerAge: 71}, 1500},
		// the interest layer only on a joint return: 10% of 5 000 on top
		{"joint with interest", Income{Employment: 30000, Interest: 5000, Joint: true}, 2500},
		{"single with interest", Income{Employment: 30000, Interest: 5000}, 4000},
	}
	for _, c := range cases {
		var r Result
		if err := Calculate(s, 2024, &c.in, "", &r); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(r.IncomeTax-c.income) > 1e-6 || math.Abs(r.SocialContributions-1500) > 1e-6 {
			t.Errorf("%s: income tax %.2f (want %.2f), social %.2f (want 1500)", c.name, r.IncomeTax, c.income, r.SocialContributions)
		}
		// the rule that does not apply has no total and no lines
		n := 0
		for _, x := range r.RuleTotals() {
			if x.Rule == "it" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d totals for rule it, want 1", c.name, n)
		}
		due, err := Due(s, 2024, &c.in, "", nil)
		if err != nil || due != r.TotalTax {
			t.Errorf("%s: Due %.2f %v, Calculate %.2f", c.name, due, err, r.TotalTax)
		}
	}
}

// A joint return is refused where the rules do not model one: in a region
// whose own rule says nothing of filing; in a region whose rule does, and
// with no region, it is taxed.
func TestJointCoverage(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(whenSystem))
	if err != nil {
		t.Fatal(err)
	}
	if !s.HasJoint(2024) || s.HasJoint(2023) {
		t.Errorf("HasJoint 2024 %v, 2023 %v", s.HasJoint(2024), s.HasJoint(2023))
	}
	if s.HasJointIn(2024, "A") || !s.HasJointIn(2024, "B") || !s.HasJointIn(2024, "") {
		t.Errorf("HasJointIn A %v, B %v, none %v", s.HasJointIn(2024, "A"), s.HasJointIn(2024, "B"), s.HasJointIn(2024, ""))
	}
	joint := Income{Employment: 30000, Joint: true}
	var r Result
	if err := Calculate(s, 2024, &joint, "A", &r); !errors.Is(err, ErrJoint) {
		t.Errorf("joint in A: %v, want ErrJoint", err)
	}
	if _, err := Due(s, 2024, &joint, "A", nil); !errors.Is(err, ErrJoint) {
		t.Errorf("Due joint in A: %v, want ErrJoint", err)
	}
	if err := Calculate(s, 2024, &joint, "B", &r); err != nil {
		t.Fatal(err)
	}
	// 1% of 30 000 less the joint allowance of 5 000
	if math.Abs(r.RegionalTax-250) > 1e-6 {
		t.Errorf("joint in B: regional %.2f, want 250", r.RegionalTax)
	}
	// a single return in A is taxed as before
	if err := Calculate(s, 2024, &Income{Employment: 30000}, "A", &r); err != nil || r.RegionalTax != 300 {
		t.Errorf("single in A: %v, regional %.2f", err, r.RegionalTax)
	}
	// a system with no joint condition answers ErrJoint for a joint return
	plain := strings.NewReplacer(`"when":{"filing":"joint"},`, ``, `,"when":{"filing":"joint"}`, ``,
		`"filing":"single"`, `"minAge":1`).Replace(whenSystem)
	p, err := Parse([]byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	if p.HasJoint(2024) || !errors.Is(Calculate(p, 2024, &joint, "", &r), ErrJoint) {
		t.Error("no joint rules: HasJoint must be false and a joint return ErrJoint")
	}
}

// Conditions are decoded strictly: unknown keys, filings and ages fail.
func TestConditionsStrict(t *testing.T) {
	t.Parallel()
	bad := map[string][2]string{
		"unknown key in when":      {`"when":{"filing":"joint"}`, `"when":{"filing":"joint","age":3}`},
		"unknown filing":           {`"when":{"filing":"joint"}`, `"when":{"filing":"married"}`},
		"empty when":               {`"when":{"filing":"joint"}`, `"when":{}`},
		"age 0 in when":            {`"when":{"minAge":70}`, `"when":{"minAge":0}`},
		"age too high":             {`"when":{"minAge":70}`, `"when":{"minAge":200}`},
		"filing in perPerson":      {`"perPerson":{"minAge":65}`, `"perPerson":{"minAge":65,"filing":"joint"}`},
		"negative perPerson age":   {`"perPerson":{"minAge":65}`, `"perPerson":{"minAge":-1}`},
		"unknown key in perPerson": {`"perPerson":{"minAge":65}`, `"perPerson":{"age":65}`},
		"pooled in when":           {`"when":{"filing":"joint"}`, `"when":{"filing":"joint","pooled":true}`},
		"pooled not a flag":        {`"perPerson":{"minAge":65}`, `"perPerson":{"minAge":65,"pooled":1}`},
	}
	for name, r := range bad {
		j := strings.Replace(whenSystem, r[0], r[1], 1)
		if j == whenSystem {
			t.Fatalf("%s: nothing replaced", name)
		}
		if _, err := Parse([]byte(j)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// A pooled per-person deduction counts its amount for each filer of the
// age and takes its reduction once from the sum (Virginia's age
// deduction): on the joint rule, 1 000 for each filer of 65 less 10% of
// the couple's income over 20 000; the walker and the compiled evaluator
// agree.
func TestPooledPerPerson(t *testing.T) {
	t.Parallel()
	old := `"deductions":[{"label":"age","amount":1000,"perPerson":{"minAge":65}}],
  "credits":[{"label":"old age","amount":100,"when":{"minAge":70}}]},
 {"id":"ra"`
	pooled := `"deductions":[{"label":"age","of":{"parts":{"employment":1,"pension":1}},
   "segments":[[0,1000,0],[20000,1000,-0.1]],"perPerson":{"minAge":65,"pooled":true}}]},
 {"id":"ra"`
	j := strings.Replace(whenSystem, old, pooled, 1)
	if j == whenSystem {
		t.Fatal("nothing replaced")
	}
	s, err := Parse([]byte(j))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		in     Income
		income float64
	}{
		// 25 000 joint: 20% of 5 000 less the deduction, 1 000 a filer of 65 less 500 once
		{"joint 60/60: none", Income{Employment: 25000, Joint: true, Age: 60, PartnerAge: 60}, 1000},
		{"joint 66/60: 1 000 − 500", Income{Employment: 25000, Joint: true, Age: 66, PartnerAge: 60}, 900},
		{"joint 66/70: 2 000 − 500 (not 2 × 500)", Income{Employment: 25000, Joint: true, Age: 66, PartnerAge: 70}, 700},
		// 31 000: 1 100 off leaves nothing of one filer's 1 000, 900 of two
		{"joint 66/60, 31 000: nothing", Income{Employment: 31000, Joint: true, Age: 66, PartnerAge: 60}, 2200},
		{"joint 66/70, 31 000: 900", Income{Employment: 31000, Joint: true, Age: 66, PartnerAge: 70}, 2020},
		// below 20 000 no filer's age moves a tax that is already nil
		{"joint 66/70, 10 000", Income{Employment: 10000, Joint: true, Age: 66, PartnerAge: 70}, 0},
	}
	for _, c := range cases {
		var r Result
		if err := Calculate(s, 2024, &c.in, "", &r); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if math.Abs(r.IncomeTax-c.income) > 1e-6 {
			t.Errorf("%s: income tax %.2f, want %.2f", c.name, r.IncomeTax, c.income)
		}
		cp, err := s.At(2024).Compiled("", &c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if w := cp.Walks(); w != "" {
			t.Errorf("%s: the compiled path walks: %s", c.name, w)
		}
		if got := cp.DueByCategory(&c.in, nil); math.Abs(got.Income-c.income) > 1e-6 {
			t.Errorf("%s: compiled income tax %.2f, want %.2f", c.name, got.Income, c.income)
		}
	}
}

// Calculate with a joint return or an age does not allocate.
func TestConditionsNoAlloc(t *testing.T) {
	s, err := Parse([]byte(whenSystem))
	if err != nil {
		t.Fatal(err)
	}
	in := Income{Employment: 30000, Interest: 100, Joint: true, Age: 66, PartnerAge: 71}
	var r Result
	if n := testing.AllocsPerRun(100, func() { _ = Calculate(s, 2024, &in, "B", &r) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
