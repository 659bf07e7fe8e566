package household

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"fiplan/compute/tax"
)

// SEPP are a country's rules on substantially equal periodic payments: a
// series of yearly payments from a wrapper before its access age, free of
// the wrapper's early charge while the series is kept (the US exception of
// IRC 72(t)(2)(A)(iv), computed as Notice 2022-6 allows). The series runs
// for Years whole years or until the owner reaches the wrapper's access
// age, whichever is later; taking more from the account, or converting from
// it, before then modifies the series: the charge the payments escaped is
// due in the year of the modification, with Interest for each year
// deferred.
type SEPP struct {
	// Wrappers are the wrapper ids that may pay a series.
	Wrappers []string `json:"wrappers"`
	// RateFloor is the interest rate always allowed; MidTermShare times the
	// newest recorded federal mid-term rate (MidTerm) is allowed when it is
	// higher. The engine takes the highest rate allowed, the largest payment.
	RateFloor    float64     `json:"rateFloor"`
	MidTermShare float64     `json:"midTermShare"`
	MidTerm      []MonthRate `json:"midTerm,omitempty"`
	// Table names the Rules table of life expectancies by age (the single
	// life table); Mortality, when set, the table of the probability of
	// death within the year by age the annuitization method needs (the
	// last age's rate holds after it; "" : that method is not in the
	// data).
	Table     string `json:"table"`
	Mortality string `json:"mortality,omitempty"`
	Years     int    `json:"years"`
	// Interest is the yearly rate on the charge of a modified series, from
	// the year of each payment to the modification.
	Interest    float64      `json:"interest"`
	InterestSrc []tax.Source `json:"interestSrc"`
	Src         []tax.Source `json:"src"`

	life, mort *Table
}

// MonthRate is a rate published for a month ("2026-11").
type MonthRate struct {
	Month string       `json:"month"`
	Rate  float64      `json:"rate"`
	Src   []tax.Source `json:"src"`
}

// SEPPMethod is how a series' payment is computed.
type SEPPMethod uint8

// The methods of Notice 2022-6.
const (
	// SEPPRMD: each year the balance at the start of the year over the
	// life expectancy at the year's age.
	SEPPRMD SEPPMethod = iota
	// SEPPAmortization: the first year's balance amortized over the life
	// expectancy at the first age at the rate allowed, then fixed.
	SEPPAmortization
	// SEPPAnnuitization: the first year's balance over the annuity factor
	// of the mortality table at the rate allowed, then fixed.
	SEPPAnnuitization
)

var seppNames = [...]string{"rmd", "amortization", "annuitization"}

func (m SEPPMethod) String() string { return seppNames[m] }

// ParseSEPPMethod reads a method's name.
func ParseSEPPMethod(name string) (SEPPMethod, bool) {
	i, ok := index(seppNames[:], name)
	return SEPPMethod(i), ok
}

// Series is a plan's series of periodic payments: from account Account
// (an index of Plan.Accounts), by Method, from the owner's age FromAge.
type Series struct {
	Account int
	Method  SEPPMethod
	FromAge int
}

// Rate is the interest rate the fixed methods use: the floor, or the share
// of the newest mid-term rate when higher.
func (s *SEPP) Rate() float64 {
	r := s.RateFloor
	if n := len(s.MidTerm); n > 0 {
		r = max(r, s.MidTermShare*s.MidTerm[n-1].Rate)
	}
	return r
}

// Has reports whether method m can be computed from the data.
func (s *SEPP) Has(m SEPPMethod) bool { return m != SEPPAnnuitization || s.mort != nil }

// Pays reports whether a wrapper may pay a series.
func (s *SEPP) Pays(w *Wrapper) bool { return w != nil && slices.Contains(s.Wrappers, w.ID) }

// Payment is the yearly payment of method m for a balance at age (the
// age reached in the year); 0 when the method is not in the data.
func (s *SEPP) Payment(m SEPPMethod, balance float64, age int) float64 {
	n := s.life.At(age)
	if balance <= 0 || n <= 0 {
		return 0
	}
	switch m {
	case SEPPRMD:
		return balance / n
	case SEPPAmortization:
		r := s.Rate()
		return balance * r / (1 - math.Pow(1+r, -n))
	}
	if s.mort == nil {
		return 0
	}
	return balance / s.annuityFactor(age)
}

// annuityFactor is the present value at the rate allowed of 1 a year paid
// at the end of each year to a person of age while they live, by the
// mortality table's rates of death.
func (s *SEPP) annuityFactor(age int) float64 {
	v := 1 / (1 + s.Rate())
	f, alive, d := 0.0, 1.0, 1.0
	for k := 0; k < maxAnnuityYears && alive > 1e-12; k++ {
		alive *= 1 - s.mort.At(age+k)
		d *= v
		f += d * alive
	}
	return f
}

// maxAnnuityYears bounds the annuity factor's sum (a table whose last
// rate is 0 would never end).
const maxAnnuityYears = 200

func (r *Rules) checkSEPP(s *SEPP) error {
	if s == nil {
		return nil
	}
	if len(s.Wrappers) == 0 || s.RateFloor <= 0 || s.MidTermShare <= 0 || s.Years <= 0 || s.Interest < 0 || len(s.Src) == 0 {
		return fmt.Errorf("needs wrappers, a rate floor, a mid-term share, years and sources")
	}
	for _, id := range s.Wrappers {
		if w := r.Wrapper(id); w == nil || w.Access.Age <= 0 || w.Access.Penalty <= 0 {
			return fmt.Errorf("wrapper %q is not a wrapper with an access age and a charge", id)
		}
	}
	t, ok := r.Tables[s.Table]
	if !ok || !t.Divisor {
		return fmt.Errorf("table %q is not a table of life expectancies", s.Table)
	}
	s.life = &t
	if s.Mortality != "" {
		m, ok := r.Tables[s.Mortality]
		if !ok {
			return fmt.Errorf("mortality %q is not in tables", s.Mortality)
		}
		for _, q := range m.Values {
			if q < 0 || q > 1 {
				return fmt.Errorf("mortality %q: a rate %v outside 0 to 1", s.Mortality, q)
			}
		}
		if m.Divisor || len(m.Values) == 0 {
			return fmt.Errorf("mortality %q is not a table of rates of death", s.Mortality)
		}
		s.mort = &m
	}
	for _, m := range s.MidTerm {
		if m.Rate <= 0 || len(m.Src) == 0 {
			return fmt.Errorf("mid-term rate of %s without a rate or sources", m.Month)
		}
		if err := r.checkSources(m.Src); err != nil {
			return err
		}
	}
	if err := r.checkSources(s.InterestSrc); err != nil {
		return err
	}
	return r.checkSources(s.Src)
}

// seppState is an account's series in a run, beside what a solve changes
// of it (funds.seppOn, funds.seppDone).
type seppState struct {
	pay  float64 // the fixed yearly payment (fixed methods), money of the first year
	owed float64 // the charge the payments escaped, with interest to this year
	from int     // the owner's age at the first payment; 0 not started
}

// series pays each account's periodic payments of the year, taxed as the
// account's withdrawals are, without the early charge, and ends a series
// once it has run its years and the owner has reached the access age (or
// has died: the account then passes on without a charge).
func (e *engine) series(ys *yearState) {
	s := e.p.SEPPRules
	for k := range e.p.SEPP {
		q := &e.p.SEPP[k]
		a := &e.acc[q.Account]
		sp := &a.sepp
		if a.seppDone {
			continue
		}
		if a.owner != e.p.Accounts[q.Account].Owner || !ys.alive[a.owner] {
			a.seppOn, a.seppDone = false, true
			continue
		}
		age := ys.age[a.owner]
		if !a.seppOn {
			if age != q.FromAge {
				continue
			}
			a.seppOn, sp.from = true, age
			sp.pay = s.Payment(q.Method, a.bal, age)
		}
		if age >= sp.from+s.Years && float64(age) >= a.access {
			a.seppOn, a.seppDone = false, true
			continue
		}
		x := sp.pay
		if q.Method == SEPPRMD {
			x = s.Payment(SEPPRMD, a.bal, age)
		}
		x = min(x, a.bal)
		sp.owed = sp.owed*(1+s.Interest) + a.w.Access.Penalty*x
		if x <= 0 {
			continue
		}
		e.taxOut(a, x, &ys.f[a.owner], ys.t)
		a.bal -= x
		a.y.Withdrawals += x
		a.y.SEPP += x
		ys.row.SEPP += x
		ys.inflow += x
	}
}

// modify ends account a's running series before its time: the charge its
// payments escaped, with interest, is due this year.
func (e *engine) modify(a *held, f *flows) {
	a.seppOn, a.seppDone = false, true
	f.penalty += a.sepp.owed
	f.recapture += a.sepp.owed
}

// checkSeries reports the first series of p the engine cannot run.
func checkSeries(p *Plan) error {
	for k := range p.SEPP {
		if field, msg := checkOne(p, k); msg != "" {
			return fieldErr(at("bridge.sepp", k)+field, msg)
		}
	}
	return nil
}

// checkOne reports what is wrong with series k, and the member at fault.
func checkOne(p *Plan, k int) (field, msg string) {
	q := &p.SEPP[k]
	if p.SEPPRules == nil {
		return "", "substantially equal periodic payments are not modelled in the plan's tax country"
	}
	if q.Account < 0 || q.Account >= len(p.Accounts) {
		return ".account", "is not an account of the plan"
	}
	a := &p.Accounts[q.Account]
	if !p.SEPPRules.Pays(a.Wrapper) {
		return ".account", a.ID + " (" + a.Type + ") cannot pay a series: one of " + strings.Join(p.SEPPRules.Wrappers, ", ")
	}
	for j := 0; j < k; j++ {
		if p.SEPP[j].Account == q.Account {
			return ".account", a.ID + " pays one series at most"
		}
	}
	if !p.SEPPRules.Has(q.Method) {
		return ".method", q.Method.String() + " needs the mortality table of the rules, not in the data: use rmd or amortization"
	}
	owner := &p.People[a.Owner]
	access := a.Wrapper.Access.Age
	if len(a.Wrapper.Access.ByBirth) > 0 {
		access = ByBirth(a.Wrapper.Access.ByBirth, p.StartYear-owner.Age)
	}
	if q.FromAge < owner.Age || float64(q.FromAge) >= access || q.FromAge >= owner.LifeExpectancy {
		return ".fromAge", "must be from the owner's age today to before the access age of " + a.ID
	}
	if a.Balance <= 0 && a.Contribution <= 0 && a.Employer <= 0 {
		return ".account", a.ID + " holds no money to pay a series from"
	}
	return "", ""
}
