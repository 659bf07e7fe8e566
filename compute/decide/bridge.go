package decide

import (
	"math"

	"fiplan/compute/household"
)

// A series of substantially equal periodic payments (the US 72(t)) opens a
// tax-deferred account before its access age without the early charge. The
// contract names no decision for it: it is part of the drawing decision
// (Order), the way the money is reached, and answered beside the orders.

// seppAges is the most first ages a series is tried from, per account and
// method.
const seppAges = 6

// payers are the plan's accounts that may pay a series: a wrapper the
// tax country's rules let pay one, holding money, whose owner is below
// its access age today.
func (s *search) findPayers() []int {
	p := s.p
	r := p.SEPPRules
	if r == nil {
		return nil
	}
	var out []int
	for i := range p.Accounts {
		a := &p.Accounts[i]
		if !r.Pays(a.Wrapper) || (a.Balance <= 0 && a.Contribution <= 0 && a.Employer <= 0) {
			continue
		}
		if owner := &p.People[a.Owner]; float64(owner.Age) < s.accessAge(i) {
			out = append(out, i)
		}
	}
	return out
}

// accessAge is the age at which account i's owner may take its money
// without the charge.
func (s *search) accessAge(i int) float64 {
	p := s.p
	a := &p.Accounts[i]
	access := a.Wrapper.Access.Age
	if len(a.Wrapper.Access.ByBirth) > 0 {
		access = household.ByBirth(a.Wrapper.Access.ByBirth, p.StartYear-p.People[a.Owner].Age)
	}
	return access
}

// seppOf is c's series: its own, or the plan's.
func (s *search) seppOf(c *choice) []household.Series {
	if c.seppSet {
		return c.sepp
	}
	return s.p.SEPP
}

// bridges tries, for each account that may pay a series, no series, then
// each method from each of a few first ages (from its owner's retirement,
// or today, to before the access age), keeping what raises the score.
func (s *search) bridges(c *choice) error {
	if len(s.payers) == 0 {
		return nil
	}
	if !c.seppSet {
		c.sepp, c.seppSet = append([]household.Series(nil), s.p.SEPP...), true
	}
	sc, err := s.score(c)
	if err != nil {
		return err
	}
	for _, i := range s.payers {
		from, to := s.seriesAges(c, i)
		if from > to {
			continue
		}
		stride := max(1, (to-from+seppAges)/seppAges)
		// no series from this account
		if k := seriesAt(c.sepp, i); k >= 0 {
			keep := c.sepp[k]
			if _, err := s.try(c, &sc, func() { c.sepp = append(c.sepp[:k], c.sepp[k+1:]...) }, func() { c.sepp = insertAt(c.sepp, k, keep) }); err != nil {
				return err
			}
		}
		for m := household.SEPPRMD; m <= household.SEPPAnnuitization; m++ {
			if !s.p.SEPPRules.Has(m) {
				continue
			}
			for age := from; age <= to; age += stride {
				q := household.Series{Account: i, Method: m, FromAge: age}
				k := seriesAt(c.sepp, i)
				if k >= 0 && c.sepp[k] == q {
					continue
				}
				var keep household.Series
				change := func() {
					if k >= 0 {
						keep, c.sepp[k] = c.sepp[k], q
					} else {
						c.sepp = append(c.sepp, q)
					}
				}
				undo := func() {
					if k >= 0 {
						c.sepp[k] = keep
					} else {
						c.sepp = c.sepp[:len(c.sepp)-1]
					}
				}
				if _, err := s.try(c, &sc, change, undo); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// seriesAges are the first ages account i (a payer) may start a series
// from under c: from its owner's retirement, or today, to the last whole
// age before its access age and before the owner's life expectancy. A
// series of a payer from these ages, with a method the rules have, one
// per account, is one the engine's Check accepts: the search evaluates
// its series without checking each plan again.
func (s *search) seriesAges(c *choice, i int) (from, to int) {
	owner := &s.p.People[s.p.Accounts[i].Owner]
	retire := owner.RetirementAge
	if s.p.Accounts[i].Owner == 0 && c.retire > 0 {
		retire = c.retire
	}
	from = max(owner.Age, min(retire, owner.LifeExpectancy-1))
	to = int(math.Ceil(s.accessAge(i))) - 1 // the last whole age before access
	return from, min(to, owner.LifeExpectancy-1)
}

// seriesAt is the index of account i's series in list, -1 when none.
func seriesAt(list []household.Series, i int) int {
	for k := range list {
		if list[k].Account == i {
			return k
		}
	}
	return -1
}

func insertAt(list []household.Series, k int, q household.Series) []household.Series {
	list = append(list, household.Series{})
	copy(list[k+1:], list[k:])
	list[k] = q
	return list
}
