package household

import (
	"fmt"
	"sort"

	"fiplan/compute/tax"
)

// Schedule is a tax charged on wrapper withdrawals apart from the income
// tax: Switzerland's separate tax on capital benefits from pension
// savings, France's flat levies on the gains of a PEA or an assurance-vie
// held long enough. Its amounts are in the wrapper country's currency of
// today and move with prices, as a tax system's thresholds do.
type Schedule struct {
	// Category is where the tax is reported: "income" or "capital".
	Category string `json:"category"`
	// Parts are added together: each its own bands and scale (the
	// federal tax and the cantonal one).
	Parts []Part `json:"parts"`
	// Frozen: the amounts are fixed in money (France's 4,600 allowance),
	// not moved with prices.
	Frozen  bool         `json:"frozen,omitempty"`
	Notes   string       `json:"notes,omitempty"`
	Src     []tax.Source `json:"src"`
	capital bool
}

// Part is one tax of a schedule: Scale times the bands' tax of the base.
type Part struct {
	Label string `json:"label"`
	// Scale multiplies the bands' tax (a canton's and commune's
	// multipliers); 0 is 1.
	Scale float64 `json:"scale,omitempty"`
	// Bands are marginal rates from each amount on, ascending from 0.
	Bands []Band       `json:"bands"`
	Src   []tax.Source `json:"src,omitempty"`
}

// Band is the marginal rate from an amount on. At, when set, is the tax
// at From as the authority's tariff states it (its rounded amounts);
// else the bands below add up to it.
type Band struct {
	From float64  `json:"from"`
	Rate float64  `json:"rate"`
	At   *float64 `json:"at,omitempty"`
}

// Separate is how a wrapper's withdrawals meet a schedule.
type Separate struct {
	// Schedule names the Rules schedule.
	Schedule string `json:"schedule"`
	// On is "amount" (all of a withdrawal) or "gains" (its gain at
	// average cost; the cost part is then taxed by withdrawals.taxed:
	// as income for "income", free otherwise).
	On string `json:"on"`
	// HeldYears, when > 0: the schedule applies once the account has been
	// held this many years (counted from the year it was opened); before,
	// withdrawals are taxed by Before when set, else by withdrawals.taxed
	// alone.
	HeldYears int `json:"heldYears,omitempty"`
	// Before names the schedule that taxes withdrawals (on the same base)
	// before HeldYears (an assurance-vie's gains before eight years: the
	// 12,8 % levy and its own prélèvements sociaux).
	Before string `json:"before,omitempty"`
	sched  *Schedule
	before *Schedule
	gains  bool
}

// Tax is the schedule's tax on base (today's money of its currency).
func (s *Schedule) Tax(base float64) float64 {
	if base <= 0 {
		return 0
	}
	t := 0.0
	for i := range s.Parts {
		p := &s.Parts[i]
		x := 0.0
		for k := range p.Bands {
			b := &p.Bands[k]
			if base <= b.From {
				break
			}
			if b.At != nil {
				x = *b.At
			}
			hi := base
			if k+1 < len(p.Bands) {
				hi = min(base, p.Bands[k+1].From)
			}
			x += (hi - b.From) * b.Rate
		}
		if p.Scale > 0 {
			x *= p.Scale
		}
		t += x
	}
	return t
}

// Resolved is the schedule Separate names (set by ParseRules).
func (s *Separate) Resolved() *Schedule { return s.sched }

// checkSeparate checks a wrapper's separate tax and the schedule it names.
func (r *Rules) checkSeparate(w *Wrapper) error {
	if g := w.Withdrawal.GainsExempt; g < 0 || g >= 1 {
		return fmt.Errorf("withdrawals.gainsExempt %v is not in [0, 1)", g)
	}
	sp := w.Withdrawal.Separate
	if sp == nil {
		return nil
	}
	s, ok := r.Schedules[sp.Schedule]
	if !ok || s == nil {
		return fmt.Errorf("withdrawals.separate: schedule %q is not in schedules", sp.Schedule)
	}
	if sp.On != "amount" && sp.On != "gains" {
		return fmt.Errorf("withdrawals.separate.on %q is not amount or gains", sp.On)
	}
	if sp.HeldYears < 0 {
		return fmt.Errorf("withdrawals.separate.heldYears %d is negative", sp.HeldYears)
	}
	if err := r.checkSchedule(s); err != nil {
		return fmt.Errorf("schedule %s: %w", sp.Schedule, err)
	}
	sp.sched, sp.gains = s, sp.On == "gains"
	if sp.Before != "" {
		b, ok := r.Schedules[sp.Before]
		if !ok || b == nil || sp.HeldYears == 0 {
			return fmt.Errorf("withdrawals.separate.before: schedule %q is not in schedules, or no heldYears", sp.Before)
		}
		if err := r.checkSchedule(b); err != nil {
			return fmt.Errorf("schedule %s: %w", sp.Before, err)
		}
		sp.before = b
	}
	return nil
}

func (r *Rules) checkSchedule(s *Schedule) error {
	if s.Category != "income" && s.Category != "capital" {
		return fmt.Errorf("category %q is not income or capital", s.Category)
	}
	s.capital = s.Category == "capital"
	if len(s.Parts) == 0 {
		return fmt.Errorf("has no parts")
	}
	for _, p := range s.Parts {
		if len(p.Bands) == 0 || p.Bands[0].From != 0 || p.Scale < 0 {
			return fmt.Errorf("%s: bands must start at 0, scale not negative", p.Label)
		}
		if !sort.SliceIsSorted(p.Bands, func(i, j int) bool { return p.Bands[i].From < p.Bands[j].From }) {
			return fmt.Errorf("%s: bands are not ascending", p.Label)
		}
		for _, b := range p.Bands {
			if b.Rate < 0 || b.Rate >= 1 || (b.At != nil && *b.At < 0) {
				return fmt.Errorf("%s: rate %v is not in [0, 1)", p.Label, b.Rate)
			}
		}
		if err := r.checkSources(p.Src); err != nil {
			return err
		}
	}
	if len(s.Src) == 0 {
		return fmt.Errorf("has no sources")
	}
	return r.checkSources(s.Src)
}

// maxSep bounds the schedules one person's withdrawals meet in a year.
const maxSep = 4

// sepFlows are a person's withdrawals of the year under each schedule, in
// money of the year of the wrapper's currency.
type sepFlows struct {
	n    int
	s    [maxSep]*Schedule
	base [maxSep]float64
	rate [maxSep]float64 // the plan's currency into the schedule's
}

// add counts x (the plan's currency) under s; rate converts it into the
// schedule's currency. Past maxSep schedules, the last slot is shared.
func (f *sepFlows) add(s *Schedule, x, rate float64) {
	i := 0
	for ; i < f.n && f.s[i] != s; i++ {
	}
	if i == f.n {
		if f.n == maxSep {
			i = maxSep - 1
		} else {
			f.n++
			f.s[i], f.rate[i] = s, rate
		}
	}
	f.base[i] += x * rate
}

// due is the year's separate taxes in the plan's currency of the year,
// income and capital apart; cpi is prices against today.
func (f *sepFlows) due(cpi float64) (income, capital float64) {
	for i := 0; i < f.n; i++ {
		s := f.s[i]
		var t float64
		if s.Frozen {
			t = s.Tax(f.base[i]) / f.rate[i]
		} else {
			t = s.Tax(f.base[i]/cpi) * cpi / f.rate[i]
		}
		if s.capital {
			capital += t
		} else {
			income += t
		}
	}
	return income, capital
}

// separate taxes x taken from open account a by its wrapper's schedule
// when it applies this year (t: years since the plan's first; the account
// was held a.heldFor years before), or by the schedule before it; it reports
// whether it did. A schedule on gains takes the gain at average cost, and
// the cost part is income when the wrapper's withdrawals are.
func (e *engine) separate(a *held, x float64, f *flows, t int) bool {
	if a.w == nil || a.w.Withdrawal.Separate == nil {
		return false
	}
	sp := a.w.Withdrawal.Separate
	s := sp.sched
	if t+a.heldFor < sp.HeldYears {
		if s = sp.before; s == nil {
			return false
		}
	}
	if !sp.gains {
		f.sep.add(s, x, a.rate)
		return true
	}
	cost := 0.0
	if a.bal > 0 {
		cost = a.basis * min(1, x/a.bal)
	}
	a.basis -= cost
	f.sep.add(s, max(0, x-cost), a.rate)
	if a.w.Withdrawal.Taxed == TaxedIncome {
		f.pension += min(x, cost)
	}
	return true
}

// TracksCost reports whether the wrapper follows its cost basis (the
// capital paid in) because its gains are taxed apart when taken: a
// wrapper taxed on gains, or one whose separate schedule is on gains.
func (w *Wrapper) TracksCost() bool { return w.tracksCost() }

func (w *Wrapper) tracksCost() bool {
	return w.Withdrawal.Taxed == TaxedGains || (w.Withdrawal.Separate != nil && w.Withdrawal.Separate.On == "gains")
}

// wageOffset is what year's payments out of wages use of the limit
// (LessWageShare of wages up to LessWageCap, in the limit's currency;
// infl indexes the cap after the last year given, as the limit).
func (c *Contrib) wageOffset(year int, wages, infl float64) float64 {
	l := c.limitOf(year)
	if l == nil || l.LessWageShare <= 0 {
		return 0
	}
	cap := l.LessWageCap
	if c.Indexed && year > c.Limits[len(c.Limits)-1].Year {
		cap *= infl
	}
	if cap > 0 {
		wages = min(wages, cap)
	}
	return l.LessWageShare * max(0, wages)
}

// earnedBase is the part of wages EarnedShare counts (in the limit's
// currency): above the year's EarnedAbove.
func (c *Contrib) earnedBase(year int, wages, infl float64) float64 {
	l := c.limitOf(year)
	if l == nil || l.EarnedAbove <= 0 {
		return wages
	}
	above := l.EarnedAbove
	if c.Indexed && year > c.Limits[len(c.Limits)-1].Year {
		above *= infl
	}
	return max(0, wages-above)
}

// limitOf is the limit entry that holds in year (the latest at or before
// it, else the first), or nil without limits.
func (c *Contrib) limitOf(year int) *Limit {
	if len(c.Limits) == 0 {
		return nil
	}
	l := &c.Limits[0]
	for i := range c.Limits {
		if c.Limits[i].Year <= year {
			l = &c.Limits[i]
		}
	}
	return l
}

// tapered is year's limit lim after the taper and, once its owner has
// drawn flexibly (flexed), the limit after a draw; wages and employer are
// the owner's, in the limit's currency; infl indexes the figures after the
// last year given, as the limit.
func (c *Contrib) tapered(year int, lim, wages, employer, infl float64, flexed bool) float64 {
	l := c.limitOf(year)
	if l == nil {
		return lim
	}
	idx := 1.0
	if c.Indexed && year > c.Limits[len(c.Limits)-1].Year {
		idx = infl
	}
	if tp := l.Taper; tp != nil && wages > tp.ThresholdAbove*idx {
		if over := wages + employer - tp.AdjustedAbove*idx; over > 0 {
			lim = max(min(lim, tp.Floor*idx), lim-tp.Rate*over)
		}
	}
	if flexed && l.AfterDraw > 0 {
		lim = min(lim, l.AfterDraw*idx)
	}
	return lim
}

// afterDraw reports whether some year's limit falls once its owner draws.
func (c *Contrib) afterDraw() bool {
	for i := range c.Limits {
		if c.Limits[i].AfterDraw > 0 {
			return true
		}
	}
	return false
}
