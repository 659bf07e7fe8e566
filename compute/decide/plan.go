package decide

import (
	"fiplan/compute/fi"
	"fiplan/compute/household"
)

// choice is one set of decisions and a spending scale.
type choice struct {
	// conv: per-year conversion amounts (today's money); nil with
	// convPlan keeps the plan's own conversions, nil without turns them
	// off.
	conv     []float64
	convPlan bool
	// orders: the order of each year; nil with orderPlan keeps the
	// plan's, nil without draws conventionally.
	orders    []household.Order
	orderPlan bool
	// sepp, with seppSet, replaces the plan's series of periodic payments
	sepp    []household.Series
	seppSet bool
	ages    [household.MaxPensions]int
	months  [household.MaxPensions]int
	retire  int     // the first person's retirement age (0: the plan's)
	scale   float64 // spending, working and retired, times the plan's
}

func (c *choice) clone() choice {
	d := *c
	if c.conv != nil {
		d.conv = append([]float64(nil), c.conv...)
	}
	if c.orders != nil {
		d.orders = append([]household.Order(nil), c.orders...)
	}
	if c.sepp != nil {
		d.sepp = append([]household.Series(nil), c.sepp...)
	}
	return d
}

// userChoice is the plan as asked.
func (s *search) userChoice() choice {
	c := choice{convPlan: true, orderPlan: true, retire: s.p.People[0].RetirementAge, scale: 1}
	for i, q := range s.p.Pensions {
		c.ages[i], c.months[i] = q.FromAge, q.Months
	}
	return c
}

// baselineChoice is the plan drawn conventionally without conversions.
func (s *search) baselineChoice() choice {
	c := s.userChoice()
	c.convPlan, c.orderPlan = false, false
	return c
}

// build writes the plan under c into s.q, its lists in the search's own
// buffers (every build reuses them), and returns it.
func (s *search) build(c *choice) *household.Plan {
	p, q := s.p, &s.q
	*q = *p
	q.People = append(s.people[:0], p.People...)
	s.people = q.People
	if c.retire > 0 {
		q.People[0].RetirementAge = c.retire
	}
	q.Pensions = append(s.pens[:0], p.Pensions...)
	s.pens = q.Pensions
	for i := range q.Pensions {
		q.Pensions[i].FromAge, q.Pensions[i].Months = c.ages[i], c.months[i]
	}
	q.Retirement = p.Retirement
	if q.Retirement == 0 {
		q.Retirement = p.Expenses
	}
	q.Retirement *= c.scale
	q.Expenses *= c.scale
	q.Phases = append(s.phases[:0], p.Phases...)
	s.phases = q.Phases
	for i := range q.Phases {
		q.Phases[i].Amount *= c.scale
	}
	q.Residences = append(s.homes[:0], p.Residences...)
	s.homes = q.Residences
	for i := range q.Residences {
		q.Residences[i].Spending *= c.scale
	}
	switch {
	case c.conv != nil:
		q.Convert, q.Conversions = true, c.conv
	case !c.convPlan:
		q.Convert, q.Conversions = false, nil
	}
	if c.seppSet {
		q.SEPP = c.sepp
	}
	switch {
	case c.orders != nil:
		q.Orders = c.orders
	case !c.orderPlan:
		q.Order, q.Explicit, q.Orders = household.Conventional, nil, nil
	}
	return q
}

// evaluate runs c on the expected path, or answers its outcome from the
// memo when c has run before. The plan was checked once (Optimize) and
// no decision makes it one Check refuses (see seriesAges).
func (s *search) evaluate(c *choice) (household.Outcome, error) {
	k := s.key(c)
	if o, ok := s.w.memo[k]; ok {
		return o, nil
	}
	if s.runs >= s.cap {
		return household.Outcome{}, errBudget
	}
	s.runs++
	o := household.EvaluateChecked(s.build(c), &s.w.hw)
	s.w.memo[k] = o
	return o, nil
}

// penalty weighs spending left unmet against end wealth in a score.
const penalty = 4

// score is c's after-tax end wealth, less its unmet spending many times
// over: what a search compares decisions by at one spending.
func (s *search) score(c *choice) (float64, error) {
	o, err := s.evaluate(c)
	if err != nil {
		return 0, err
	}
	return s.req.endWealth(&o) - penalty*o.Short, nil
}

// meets reports whether c meets the target on paths paths (all of them
// when 0): the money lasts on the expected path, or the success rate
// reaches it.
func (s *search) meets(c *choice, paths int) (bool, error) {
	if s.req.Method == Expected {
		o, err := s.evaluate(c)
		return err == nil && o.DepletionAge < 0, err
	}
	n := s.pathsOf(paths)
	if s.targetRuns+n > s.targetCap {
		return false, errBudget
	}
	s.targetRuns += n
	q := s.build(c)
	var rate float64
	drew := 0
	if s.req.Method == MonteCarlo {
		mc := *s.req.MonteCarlo
		if paths > 0 && paths < mc.Simulations {
			mc.Simulations = paths
		}
		household.Simulate(q, &mc, &s.w.hw, &s.w.mc)
		rate, drew = s.w.mc.SuccessRate, s.w.mc.Drawdowns
	} else {
		bt, _ := household.Backtest(q, s.req.History, s.req.Years, s.req.Stock, s.req.Cash, &s.w.hw)
		rate, drew = bt.SuccessRate, bt.Drawdowns
	}
	return drew == 0 || rate >= s.req.Target-1e-12, nil
}

// subPaths is the paths a Monte Carlo target's comparisons run: the first
// of the request's, the same for every plan compared.
const subPaths = 100

// search is one optimisation's state.
type search struct {
	p   *household.Plan
	req *Request
	w   *Work
	set Set

	q      household.Plan // the plan being run
	people []household.Person
	pens   []household.Pension
	phases []household.Phase
	homes  []household.Residence

	n    int // the plan's years
	runs int
	cap  int // the most runs: MaxRuns, less finalRuns while the decisions are searched
	// targetRuns are the paths or windows a target's checks have run, at
	// most targetCap
	targetRuns, targetCap int
	claimable             []int // pensions whose claim may move
	convertible           bool
	convYears             int // years conversions may happen in
	keep                  []float64
	payers                []int // accounts that may pay a series of periodic payments
}

func newSearch(p *household.Plan, req *Request, w *Work) *search {
	s := &search{p: p, req: req, w: w, cap: MaxRuns}
	if w.memo == nil {
		w.memo = memo{}
	}
	clear(w.memo)
	n := 1
	for _, q := range p.People {
		n = max(n, q.LifeExpectancy-q.Age)
	}
	s.n = min(n, fi.MaxYears)
	for i, q := range p.Pensions {
		if b := q.Benefit; b != nil && q.FromAge > p.People[q.Owner].Age && b.Latest > b.Earliest {
			s.claimable = append(s.claimable, i)
		}
	}
	s.convYears = s.conversionYears()
	s.keep = make([]float64, s.n)
	s.payers = s.findPayers()
	s.targetCap = targetRuns(req)
	s.convertible = s.convYears > 0
	all := Set(0)
	if s.convertible {
		all = all.With(Conversions)
	}
	if len(s.claimable) > 0 {
		all = all.With(Claiming)
	}
	all = all.With(Order).With(RetirementAge)
	s.set = all
	if req.Decisions != 0 {
		s.set = req.Decisions & all
	}
	return s
}

// conversionYears is how many years from today some account may convert:
// its wrapper converts to a wrapper the plan can hold, to its owner's
// death (the engine converts in a year of required minimums what is left
// once the minimum is taken: converting on pays while the heirs' or the
// later years' rate is above the year's).
func (s *search) conversionYears() int {
	p := s.p
	years := 0
	for _, a := range p.Accounts {
		w := a.Wrapper
		if w == nil || w.Access.ConvertTo == "" || !s.holds(w.Access.ConvertTo) {
			continue
		}
		q := p.People[a.Owner]
		years = max(years, min(s.n, q.LifeExpectancy-q.Age))
	}
	return years
}

// holds reports whether the plan can hold money in wrapper id: an account
// of it, or one the engine adds for conversions.
func (s *search) holds(id string) bool {
	for _, a := range s.p.Accounts {
		if a.Wrapper != nil && a.Wrapper.ID == id {
			return true
		}
	}
	for _, w := range s.p.Converts {
		if w.ID == id {
			return true
		}
	}
	return false
}

// pathsOf is the runs one check of the target makes on paths paths (all
// of them when 0).
func (s *search) pathsOf(paths int) int {
	if s.req.Method == MonteCarlo && s.req.MonteCarlo != nil {
		if paths > 0 {
			return min(paths, s.req.MonteCarlo.Simulations)
		}
		return s.req.MonteCarlo.Simulations
	}
	return fi.MaxWindows
}
