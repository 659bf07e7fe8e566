package decide

import (
	"errors"
	"math"
	"strconv"

	"fiplan/compute/household"
)

// run is the whole search: the plan as asked and the baseline valued, the
// retirement age, then from two starts a round over claiming, order and
// conversions and one over claiming and order, the spending found again
// after each, and the better start's conversions polished year by year;
// the answer is the best of the three.
func (s *search) run() (*Answer, error) {
	method := s.req.Method
	if s.req.Objective == Spending {
		// the decisions are searched on the expected path; the target's
		// spending is found for the answer, the plan and the baseline
		s.req.Method = Expected
		defer func() { s.req.Method = method }()
	}
	user, base := s.userChoice(), s.baselineChoice()
	if s.set.Has(Conversions) {
		if err := s.userConversions(&user); err != nil {
			return nil, err
		}
	}
	uv, uok, err := s.value(&user, 0)
	if err != nil {
		return nil, err
	}
	bv, bok, err := s.value(&base, 0)
	if err != nil {
		return nil, err
	}
	cur, cv, cok := user.clone(), uv, uok
	if bok && (!uok || bv > uv) {
		cur, cv, cok = base.clone(), bv, bok
	}
	if s.set.Has(Conversions) && cur.conv == nil {
		cur.conv = make([]float64, s.n)
	}
	if s.set.Has(Order) && cur.orders == nil {
		cur.orders = s.ordersOf(&cur)
	}
	s.cap = MaxRuns - finalRuns
	best, err := s.improve(&cur, cv)
	s.cap = MaxRuns
	if err != nil && !errors.Is(err, errBudget) {
		return nil, err
	}
	fv, fok, err := s.value(&best, 0)
	if err != nil && !errors.Is(err, errBudget) {
		return nil, err
	}
	switch {
	case fok && (!cok || fv >= cv):
	case cok:
		best, fv, fok = cur, cv, cok
	}
	a := &Answer{Feasible: fok, Value: fv, PlanValue: uv, BaselineValue: bv, Decisions: s.set}
	if fok && method != s.req.Method {
		s.worths(a, &best, &user, uv)
		s.req.Method = method
		if err := s.onTarget(a, &best, &user, &base); err != nil {
			return nil, err
		}
		fok = a.Feasible
	}
	if !fok {
		a.Why = s.why(&best)
		return a, nil
	}
	if len(a.Worth) == 0 {
		s.worths(a, &best, &user, uv)
	}
	s.describe(a, &best)
	a.Runs = s.runs + s.targetRuns
	return a, nil
}

// finalRuns are the runs kept, while the decisions are searched, for the
// answer: the chosen decisions' objective, each decision's worth alone and
// the plan's rows.
const finalRuns = 200

// value is c's objective: its highest spending scale's first retirement
// spending (Spending) or its after-tax end wealth at the plan's spending
// (Estate); ok when it meets the target. paths > 0 runs a Monte Carlo
// target on that many paths. For Estate the scale stays c's.
func (s *search) value(c *choice, paths int) (float64, bool, error) {
	if s.req.Objective == Estate {
		o, err := s.evaluate(c)
		if err != nil {
			return 0, false, err
		}
		ok := o.DepletionAge < 0
		if ok && s.req.Method != Expected {
			ok, err = s.meets(c, paths)
		}
		return s.req.endWealth(&o) - penalty*o.Short, ok, err
	}
	sc, err := s.maxScale(c, paths)
	if err != nil || sc < 0 {
		return 0, false, err
	}
	c.scale = sc
	o, err := s.evaluate(c)
	return o.Spending, err == nil, err
}

// spendTolerance is how close, relative to the spending, the highest
// spending is found.
const spendTolerance = 1e-4

// subTolerance is the same on a Monte Carlo target's first paths, whose
// success rate moves in steps of one path.
const subTolerance = 2e-3

// maxScale is the highest spending scale at which c meets the target,
// found by bisection from c's scale; -1 when even spending nothing in
// retirement does not.
func (s *search) maxScale(c *choice, paths int) (float64, error) {
	meets := func(x float64) (bool, error) {
		d := *c
		d.scale = x
		return s.meets(&d, paths)
	}
	hint := c.scale
	if !(hint > 0) || !finite(hint) {
		hint = 1
	}
	lo, hi := 0.0, 0.0
	ok, err := meets(hint)
	if err != nil {
		return 0, err
	}
	step := 0.03
	if ok {
		lo, hi = hint, hint*(1+step)
		for {
			ok, err = meets(hi)
			if err != nil {
				return lo, err
			}
			if !ok {
				break
			}
			lo, hi = hi, hi*2
			if hi > 1e3 {
				return lo, nil
			}
		}
	} else {
		hi, lo = hint, hint*(1-step)
		for {
			ok, err = meets(lo)
			if err != nil {
				return -1, err
			}
			if ok {
				break
			}
			step *= 2
			hi, lo = lo, hint*(1-step)
			if step >= 0.9 {
				if ok, err = meets(0); err != nil || !ok {
					return -1, err
				}
				lo = 0
				break
			}
		}
	}
	tol := spendTolerance
	if paths > 0 {
		tol = subTolerance
	}
	for hi-lo > tol*max(hi, 1e-3) {
		mid := (lo + hi) / 2
		ok, err = meets(mid)
		if err != nil {
			return lo, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// improve searches the decisions from cur, whose objective is cv, and
// returns the best choice found.
func (s *search) improve(cur *choice, cv float64) (choice, error) {
	best := cur.clone()
	if s.set.Has(RetirementAge) {
		if err := s.retirement(&best); err != nil {
			return best, err
		}
		if s.req.Objective == Spending {
			if _, _, err := s.value(&best, s.compare()); err != nil {
				return best, err
			}
		}
	}
	// polish keeps its runs
	limit := s.cap
	starts := max(s.runs, limit-polishRuns*s.convYears)
	if !s.set.Has(Order) || !s.set.Has(Conversions) {
		s.cap = starts
		err := s.rounds(&best, 0)
		s.cap = limit
		if err != nil && !errors.Is(err, errBudget) {
			return best, err
		}
		if err := s.polish(&best); err != nil && !errors.Is(err, errBudget) {
			return best, err
		}
		return best, nil
	}
	// the conversions a drawing order wants, and the order that suits
	// some conversions, are found together only from both ends: the
	// order chosen first (for no conversions, converting from none), and
	// the conversions found first (in the plan's own order, from the best
	// band filling); each start has half the runs left and the better is
	// kept
	s.cap = s.runs + (starts-s.runs)/2
	alt := best.clone()
	err := s.rounds(&best, 0)
	if err != nil && !errors.Is(err, errBudget) {
		return best, err
	}
	s.cap = starts
	if err := s.rounds(&alt, 1); err != nil && !errors.Is(err, errBudget) {
		return best, err
	}
	// the comparison may take from the answer's runs
	s.cap = limit + finalRuns
	if s.better(&alt, &best) {
		best = alt
	}
	s.cap = limit
	if err := s.polish(&best); err != nil && !errors.Is(err, errBudget) {
		return best, err
	}
	return best, nil
}

// polishRuns is the runs per conversion year kept for polish.
const polishRuns = 4

// polish moves the chosen conversions one year at a time by the finest
// steps: the span search moves long spans only at those steps, and a
// band's top in one year is found to a few thousand only this way.
func (s *search) polish(c *choice) error {
	if !s.set.Has(Conversions) || c.conv == nil {
		return nil
	}
	sc, err := s.score(c)
	if err != nil {
		return err
	}
	first := s.firstStep()
	for k := convLevels - polishLevels; k < convLevels; k++ {
		step := first / float64(int(1)<<k)
		for t := 0; t < s.convYears; t++ {
			if err := s.moveSpan(c, &sc, t, t+1, step); err != nil {
				return err
			}
		}
	}
	if s.req.Objective == Spending {
		_, _, err = s.value(c, s.compare())
	}
	return err
}

// polishLevels are the finest levels of the conversion search polish
// moves single years by.
const polishLevels = 2

// better reports whether a's objective is above b's (on the expected path
// for a spending target: the decisions' comparison).
func (s *search) better(a, b *choice) bool {
	if s.req.Objective == Estate {
		x, errA := s.score(a)
		y, errB := s.score(b)
		return errA == nil && errB == nil && x > y
	}
	x, okA, errA := s.value(a, s.compare())
	y, okB, errB := s.value(b, s.compare())
	return errA == nil && errB == nil && okA && (!okB || x > y)
}

// rounds searches c's claiming, order and conversions, then claiming and
// order again for the conversions found, the spending found again after
// each round. Start 0 chooses the order first and converts from none;
// start 1 converts first, from the best of filling the tax bands.
func (s *search) rounds(c *choice, start int) error {
	for round := 0; round < 2; round++ {
		if s.set.Has(Claiming) {
			if err := s.claims(c); err != nil {
				return err
			}
		}
		for _, d := range roundOrder[min(round+start, 1)] {
			if !s.set.Has(d) || (d == Conversions && round > 0) {
				continue
			}
			var err error
			if d == Order {
				if err = s.orders(c); err == nil {
					err = s.bridges(c)
				}
			} else {
				err = s.conversions(c, start == 1)
			}
			if err != nil {
				return err
			}
		}
		if s.req.Objective == Spending {
			if _, _, err := s.value(c, s.compare()); err != nil {
				return err
			}
		}
	}
	return nil
}

var roundOrder = [2][2]Decision{{Order, Conversions}, {Conversions, Order}}

// compare is the paths a comparison of Monte Carlo targets runs; 0 for
// every other method (all of it).
func (s *search) compare() int {
	if s.req.Method == MonteCarlo {
		return subPaths
	}
	return 0
}

// try keeps change when it raises c's score above *sc, else undoes it.
func (s *search) try(c *choice, sc *float64, change, undo func()) (bool, error) {
	change()
	v, err := s.score(c)
	if err != nil {
		undo()
		return false, err
	}
	if v > *sc+1e-6*math.Abs(*sc)+0.01 {
		*sc = v
		return true, nil
	}
	undo()
	return false, nil
}

// claims moves each claimable pension's claim by whole years, then by
// months where its statute counts them, while the score rises.
func (s *search) claims(c *choice) error {
	sc, err := s.score(c)
	if err != nil {
		return err
	}
	for _, i := range s.claimable {
		q := &s.p.Pensions[i]
		b := q.Benefit
		lo := max(int(math.Ceil(b.Earliest-1e-9)), s.p.People[q.Owner].Age+1)
		hi := int(math.Floor(b.Latest + 1e-9))
		for age := lo; age <= hi; age++ {
			if age == c.ages[i] && c.months[i] == 0 {
				continue
			}
			oa, om := c.ages[i], c.months[i]
			if _, err := s.try(c, &sc, func() { c.ages[i], c.months[i] = age, 0 }, func() { c.ages[i], c.months[i] = oa, om }); err != nil {
				return err
			}
		}
		if len(b.Early) == 0 && b.DelayedPerMonth == 0 {
			continue
		}
		for _, from := range []int{c.ages[i] - 1, c.ages[i]} {
			for m := 1; m < 12; m++ {
				if from < lo || float64(from)+float64(m)/12 > b.Latest+1e-9 {
					continue
				}
				oa, om := c.ages[i], c.months[i]
				if _, err := s.try(c, &sc, func() { c.ages[i], c.months[i] = from, m }, func() { c.ages[i], c.months[i] = oa, om }); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// orderBlock is the years a drawing order is chosen for at once.
const orderBlock = 5

var orderChoices = [...]household.Order{household.Conventional, household.Proportional, household.TaxSmart}

// ordersOf is c's order for each year.
func (s *search) ordersOf(c *choice) []household.Order {
	o := household.Conventional
	if c.orderPlan && s.p.Order != household.Explicit {
		o = s.p.Order
	}
	out := make([]household.Order, s.n)
	for t := range out {
		out[t] = o
	}
	return out
}

// orders tries each order for the whole plan, then for each block of
// years, keeping what raises the score.
func (s *search) orders(c *choice) error {
	sc, err := s.score(c)
	if err != nil {
		return err
	}
	set := func(from, to int, o household.Order, keep []household.Order) func() {
		return func() {
			copy(keep, c.orders[from:to])
			for t := from; t < to; t++ {
				c.orders[t] = o
			}
		}
	}
	keep := make([]household.Order, s.n)
	for _, o := range orderChoices {
		if _, err := s.try(c, &sc, set(0, s.n, o, keep), func() { copy(c.orders, keep) }); err != nil {
			return err
		}
	}
	for from := 0; from < s.n; from += orderBlock {
		to := min(from+orderBlock, s.n)
		for _, o := range orderChoices {
			if c.orders[from] == o && uniform(c.orders[from:to]) {
				continue
			}
			undo := func() { copy(c.orders[from:to], keep[:to-from]) }
			if _, err := s.try(c, &sc, set(from, to, o, keep[:to-from]), undo); err != nil {
				return err
			}
		}
	}
	return nil
}

func uniform(o []household.Order) bool {
	for _, x := range o {
		if x != o[0] {
			return false
		}
	}
	return true
}

// conversions adds and takes away conversion amounts in halving steps,
// each kept when it raises the score: the marginal conversion is judged by
// the whole plan it leads to. Each step moves spans of years together,
// from the whole conversion horizon down to single years, so that it finds
// what pays only when several years move at once (a band filled in every
// year of a span, an early conversion that spares the later years'); the
// finer steps move longer spans only. Seeded, it starts from the best band
// filling when that scores above c, one step finer.
func (s *search) conversions(c *choice, seeded bool) error {
	sc, err := s.score(c)
	if err != nil {
		return err
	}
	level := 0
	if seeded {
		if err := s.seed(c, &sc); err != nil {
			return err
		}
		level = 1
	}
	first := s.firstStep()
	for k := level; k < convLevels; k++ {
		step := first / float64(int(1)<<k)
		least := max(1, 1<<max(0, k-spanLevels))
		for span := s.convYears; ; span = (span + 1) / 2 {
			for from := 0; from < s.convYears; from += span {
				if err := s.moveSpan(c, &sc, from, min(from+span, s.convYears), step); err != nil {
					return err
				}
			}
			if span <= least {
				break
			}
		}
	}
	return nil
}

// The conversion search's steps: convLevels halvings of the first step;
// from the spanLevels-th on, each level moves spans at least twice as long
// as the level before.
const (
	convLevels = 6
	spanLevels = 3
)

// moveSpan adds step to each year of c's conversions from from to to,
// or failing that takes it away, and goes on the same way while the score
// rises, at most four times.
func (s *search) moveSpan(c *choice, sc *float64, from, to int, step float64) error {
	keep := s.keep[:to-from]
	undo := func() { copy(c.conv[from:to], keep) }
	add := func() {
		for t := from; t < to; t++ {
			c.conv[t] += step
		}
	}
	sub := func() {
		for t := from; t < to; t++ {
			c.conv[t] = max(0, c.conv[t]-step)
		}
	}
	move := add
	for k := 0; k < 4; k++ {
		copy(keep, c.conv[from:to])
		ok, err := s.try(c, sc, move, undo)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		if k > 0 || !s.some(c, from, to, step/2) {
			return nil
		}
		if ok, err = s.try(c, sc, sub, undo); err != nil || !ok {
			return err
		}
		move = sub
	}
	return nil
}

// some reports whether some year of c from from to to converts at least x.
func (s *search) some(c *choice, from, to int, x float64) bool {
	for t := from; t < to; t++ {
		if c.conv[t] >= x {
			return true
		}
	}
	return false
}

// firstStep is the first conversion step: a twentieth of the money that
// may convert, at least 10,000.
func (s *search) firstStep() float64 {
	total := 0.0
	for _, a := range s.p.Accounts {
		if a.Wrapper != nil && a.Wrapper.Access.ConvertTo != "" {
			total += a.Balance
		}
	}
	return max(10000, total/20)
}

// userConversions turns the plan's own band conversions into amounts per
// year, so that the search starts from them.
func (s *search) userConversions(c *choice) error {
	if !s.p.Convert {
		return nil
	}
	household.RunChecked(s.build(c), &s.w.hw, &s.w.res)
	s.runs += 2
	c.conv = make([]float64, s.n)
	for t := range s.w.res.Extra {
		if t < s.n {
			c.conv[t] = s.w.res.Extra[t].Converted / math.Pow(1+s.p.Inflation, float64(t))
		}
	}
	return nil
}

// retirement finds the first person's earliest retirement age at which c
// meets the target at the plan's spending, by bisection between today
// and the plan's own retirement age.
func (s *search) retirement(c *choice) error {
	o, err := s.evaluate(c)
	if err != nil {
		return err
	}
	hi := o.RetirementAge
	if hi < 0 {
		hi = s.p.People[0].LifeExpectancy - 1
	}
	lo := s.p.People[0].Age
	d := *c
	d.scale = 1
	d.retire = hi
	if ok, err := s.meets(&d, s.compare()); err != nil || !ok {
		return err
	}
	for lo < hi {
		mid := (lo + hi) / 2
		d.retire = mid
		ok, err := s.meets(&d, s.compare())
		if err != nil {
			return err
		}
		if ok {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	c.retire = hi
	return nil
}

// why says why no decision meets the objective.
func (s *search) why(c *choice) string {
	d := *c
	if s.req.Objective == Spending {
		d.scale = 0
	}
	o, err := s.evaluate(&d)
	age := ""
	if err == nil && o.DepletionAge >= 0 {
		age = " (at age " + strconv.Itoa(o.DepletionAge) + ")"
	}
	switch {
	case s.req.Objective == Spending && s.req.Method == Expected:
		return "the money runs out" + age + " even with no retirement spending: the working years' spending, contributions and one-off events exceed what the plan has"
	case s.req.Objective == Spending:
		return "no spending, not even none in retirement, reaches the success rate " + strconv.FormatFloat(s.req.Target, 'f', -1, 64)
	case s.req.Method == Expected:
		return "the money runs out" + age + " at the plan's spending under every decision tried: lower the spending, or optimise spending instead"
	}
	return "no decision tried reaches the success rate " + strconv.FormatFloat(s.req.Target, 'f', -1, 64) + " at the plan's spending"
}

// worths values each decision chosen alone: the plan as asked with that
// decision changed to the answer's, less the plan as asked (for a
// success-rate target, on the expected path).
func (s *search) worths(a *Answer, best, user *choice, uv float64) {
	for d := Decision(0); d < numDecisions; d++ {
		if !s.set.Has(d) {
			continue
		}
		c := user.clone()
		switch d {
		case Conversions:
			c.conv = best.conv
		case Claiming:
			c.ages, c.months = best.ages, best.months
		case Order:
			c.orders = best.orders
			c.sepp, c.seppSet = best.sepp, best.seppSet
		case RetirementAge:
			c.retire = best.retire
		}
		v, ok, err := s.value(&c, 0)
		w := Worth{Decision: d}
		if err == nil && ok {
			w.Amount = v - uv
		}
		a.Worth = append(a.Worth, w)
	}
}

// onTarget finds the spending at which the chosen decisions, the plan as
// asked and the baseline reach a success-rate target. A Monte Carlo
// target is searched on the first subPaths paths and the chosen spending
// then checked on every path, stepping down until it holds.
func (s *search) onTarget(a *Answer, best, user, base *choice) error {
	sub := s.compare()
	expected := best.scale
	v, ok, err := s.value(best, sub)
	if err != nil {
		return err
	}
	// the plan and the baseline start where the chosen decisions' spending
	// fell from the expected path to the target
	if ok && expected > 0 {
		user.scale *= best.scale / expected
		base.scale *= best.scale / expected
	}
	uv, _, err := s.value(user, sub)
	if err != nil {
		return err
	}
	bv, _, err := s.value(base, sub)
	if err != nil {
		return err
	}
	// the decisions were searched on the expected path: on the target,
	// the plan as asked or the baseline may do better
	for _, alt := range []struct {
		c *choice
		v float64
	}{{user, uv}, {base, bv}} {
		if alt.v > v {
			*best, v, ok = alt.c.clone(), alt.v, true
		}
	}
	a.Feasible = ok
	if !ok {
		return nil
	}
	if sub > 0 {
		if ok, err = s.onEveryPath(best); err != nil || !ok {
			a.Feasible = false
			return err
		}
		o, err := s.evaluate(best)
		if err != nil {
			return err
		}
		uv, bv = uv*o.Spending/v, bv*o.Spending/v
		v = o.Spending
	}
	a.Value, a.PlanValue, a.BaselineValue = v, uv, bv
	return nil
}

// fullChecks bounds the checks of a Monte Carlo target on every path.
const fullChecks = 4

// onEveryPath lowers c's spending until it reaches the target on every
// path of the simulation: from the spending found on the first paths,
// down by fullStep until it holds, then bisected in the checks left.
func (s *search) onEveryPath(c *choice) (bool, error) {
	lo, hi := c.scale, c.scale
	ok := false
	k := 0
	for ; k < fullChecks && !ok; k++ {
		d := *c
		d.scale = lo
		var err error
		if ok, err = s.meets(&d, 0); err != nil {
			return false, err
		}
		if !ok {
			hi, lo = lo, lo*(1-fullStep)
		}
	}
	for ; ok && k < fullChecks && hi > lo; k++ {
		d := *c
		d.scale = (lo + hi) / 2
		up, err := s.meets(&d, 0)
		if err != nil {
			return false, err
		}
		if up {
			lo = d.scale
		} else {
			hi = d.scale
		}
	}
	c.scale = lo
	return ok, nil
}

// fullStep is how far each check on every path lowers the spending.
const fullStep = 0.05

// describe fills the answer's decisions and plan from c.
func (s *search) describe(a *Answer, c *choice) {
	age0 := s.p.People[0].Age
	if s.set.Has(Conversions) && c.conv != nil {
		for t, x := range c.conv {
			if x > 0.5 {
				a.Conversions = append(a.Conversions, ConversionYear{Age: age0 + t, Amount: x})
			}
		}
	}
	if s.set.Has(Claiming) {
		for _, i := range s.claimable {
			q := &s.p.Pensions[i]
			a.Claims = append(a.Claims, Claim{Pension: i, Age: c.ages[i], Months: c.months[i], AskedAge: q.FromAge, AskedMonths: q.Months})
		}
	}
	if s.set.Has(Order) {
		orders := c.orders
		if orders == nil {
			orders = s.ordersOf(c)
		}
		for t, o := range orders {
			if t == 0 || o != orders[t-1] {
				a.Orders = append(a.Orders, Span{FromAge: age0 + t, Order: o})
			}
		}
	}
	if s.set.Has(Order) && len(s.payers) > 0 {
		a.SEPP = append([]household.Series(nil), s.seppOf(c)...)
	}
	if s.set.Has(RetirementAge) {
		a.RetirementAge = c.retire
		if a.RetirementAge == 0 {
			if o, err := s.evaluate(c); err == nil {
				a.RetirementAge = o.RetirementAge
			}
		}
	}
	q := s.build(c)
	a.Plan = *q
	a.Plan.People = append([]household.Person(nil), q.People...)
	a.Plan.Pensions = append([]household.Pension(nil), q.Pensions...)
	a.Plan.Phases = append([]household.Phase(nil), q.Phases...)
	a.Plan.Residences = append([]household.Residence(nil), q.Residences...)
	a.Plan.SEPP = append([]household.Series(nil), q.SEPP...)
}
