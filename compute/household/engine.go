package household

import (
	"math"

	"fiplan/compute/fi"
	"fiplan/compute/tax"
)

// held is an account as the engine holds it.
type held struct {
	id      string
	w       *Wrapper // nil for cash and taxable
	owner   int
	class   int // drawing class: 0 cash, 1 taxable, 2 tax-deferred and pensions, 3 tax-free
	cash    bool
	access  float64 // the owner's access age (0: any time)
	rmdAge  float64 // 0: no required minimums
	convTo  int     // the account conversions move money to; -1 none
	heldFor int     // whole years the account was held before the plan's first year
	// phase is the part of the balance in the wrapper's retirement phase
	// (its earnings untaxed), from the year phaseOn is set
	phase   float64
	phaseOn bool
	// advance is the deemed gain of last year, taxed this year
	advance float64
	sepp    seppState

	funds

	// what the wrapper asks of each year, read once: its conversion
	// seasoning (min(Seasoning, maxSeasoning), 0 none), a retirement phase,
	// a tax on earnings, a deemed gain, a limit that falls after a draw
	season                               int
	phased, earnTax, advanced, flexAfter bool

	contrib, employer float64 // yearly, today's money
	rate              float64 // the plan's currency into the wrapper country's
	yield, qualified  float64 // dividends and interest a year, the dividends' share
	paid              float64 // the year's dividends and interest, paid out
}

// funds is what a year changes in an account: plain numbers, so a solve
// saves and restores them as a block.
type funds struct {
	bal, basis float64
	// pend holds conversions waiting for their seasoning, by year mod the
	// wrapper's Seasoning; seasoned is converted money open without charge.
	pend     [maxSeasoning]float64
	seasoned float64
	y        AccountYear
	// a series of periodic payments from the account runs (seppOn) or
	// has ended (seppDone): what a solve may change of it
	seppOn, seppDone bool
}

// person is a member's state for the engine.
type person struct {
	age0, end  int // age today; the age at which the timeline ends for them
	retireAt   int // explicit retirement age, or -1: with the household's FI
	birth      int
	income, g  float64
	retiredAge int // the age they stopped work (-1 still working or never)
	capUsed    float64
	flexed     bool // has drawn from a wrapper whose limit falls after a draw
}

// flows is one person's taxable income of a year and its charges; money of
// the year.
type flows struct {
	wages, pension, gains float64
	// deferred are pre-tax contributions taken off wages that stay wages
	// for social contributions (Contrib.SocialWages)
	deferred float64
	// interest and dividends a taxable account paid (Account.Yield)
	interest, dividends float64
	benefit             float64 // a benefit whose inclusion rule applies
	statutory           float64 // statutory benefits within pension (not split)
	incl                *Inclusion
	recovery            *Recovery
	recBenefit          float64
	penalty, entryTax   float64
	recapture           float64  // the charge of a modified series, in penalty
	sep                 sepFlows // withdrawals under separate schedules
}

// shared is what a person is paid on their partner's record (Spousal,
// Survivor), today's money a year; an amount is paid from its age of the
// recipient on.
type shared struct {
	k                         int // the pension whose benefit pays it
	spousal, survivor         float64
	spousalFrom, survivorFrom int
	own                       float64 // the recipient's own benefit paid, today's money
	late                      bool    // the survivor's claim waits for the earliest age
}

// engine runs one household plan over given returns and inflation.
type engine struct {
	p     *Plan
	n     int
	year0 int
	ppl   [2]person
	np    int
	acc   [maxHeld]held
	na    int
	order [maxHeld]int
	// the accounts (bit i: account i) with a deemed gain, a yield, or
	// required minimums: the yearly steps that read them visit no other
	// (masks)
	advancing, yielding, minimums uint32
	taxIx                         int // the taxable account
	// convs are the accounts conversions move money from (convTo >= 0),
	// in account order
	convs [maxHeld]int
	nconv int

	share [2]shared // benefits paid on the partner's record, by recipient

	benefitFactor [MaxPensions]float64
	pensionFrom   [MaxPensions]int // the age each pension is paid from
	fiNumber      float64
	lean, fat     float64 // the FI numbers of 0.7 and 1.5 x the spending, each grossed up
	fee           float64
	baseline      bool // drawing conventionally, no conversions

	// the solve's memory, for first guesses: the marginal cost of the last
	// draw and the last year's draw in today's money
	slope, lastDraw float64
	saved           drawState // the state a solve draws from
	kept            uint32    // the accounts whose funds saved holds (touch)

	// bands per residence: real ordinary income at the top of the lowest
	// taxed band and at the top of the conversion band (-1 not yet known)
	lowTop, convTop [2][MaxMoves + 1]float64 // [joint][residence]
	evYear          [fi.MaxYears]bool

	memo [4]memo
	// each year's modified adjusted gross income and whether its return was
	// joint, for the surcharges that read an earlier year's
	magi      [fi.MaxYears]float64
	magiJoint [fi.MaxYears]bool
	// the year's tax rules and the scale of their figures on this path
	// (yearRules): scp points at scs or, on the expected path, at the
	// Work's scale of the year; ver changes every year, and keys the memo
	ty  *tax.Year
	scs tax.Scale
	scp *tax.Scale
	ver uint64
	// expected: the run is on the plan's expected returns and prices (no
	// path given), whose scales the Work keeps; onPaths: the runs are
	// compute/fi's paths, which read no end-of-run measure (afterTax,
	// preTax)
	expected, onPaths bool
	levels            [fi.MaxYears + 1]float64 // the path's price level as each year began
	// the rules each residence's band tops were found for
	lowYear, convYear [2][MaxMoves + 1]*tax.Year
	jointOK           [MaxMoves + 1]bool // the residence files couples jointly
	wealthOK          [MaxMoves + 1]bool // the residence taxes wealth
	bands             *bandCache         // the Work's, nil for none
	rules             *rulesCache        // the Work's, nil for none
	nums              *numbersCache      // the Work's, nil for none
	scales            *scaleCache        // the Work's, nil for none

	// firstShare is the share of the first year a benefit claimed in its
	// months pays (0: the whole year)
	firstShare [MaxPensions]float64

	// each supplement's income of each year, for those that read an
	// earlier year's
	meansInc [MaxSupplements][fi.MaxYears]float64

	// the state before the first year, for paths that replay the plan
	acc0 [maxHeld]held
	ppl0 [2]person
}

// save keeps the state before the first year; reset returns to it.
func (e *engine) save() { e.acc0, e.ppl0 = e.acc, e.ppl }

func (e *engine) reset() {
	e.acc, e.ppl, e.slope, e.lastDraw = e.acc0, e.ppl0, 0, 0
	e.masks()
}

// masks sets the sets of accounts the yearly steps visit from the
// accounts as they stand (an inheritance changes the minimums' ages).
func (e *engine) masks() {
	e.advancing, e.yielding, e.minimums = 0, 0, 0
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		if a.advanced {
			e.advancing |= 1 << i
		}
		if a.yield > 0 {
			e.yielding |= 1 << i
		}
		if a.rmdAge != 0 {
			e.minimums |= 1 << i
		}
	}
}

// outcome is what a run reports besides its rows.
type outcome struct {
	fiRow, retireRow, depleteRow int
	drew, joint                  bool
	endBal, endReal, lifeTax     float64
	// taxPV is the lifetime tax discounted at the plan's return; afterTax
	// the real end balance less the tax its pre-tax money still owes
	// (deferredTax); shortReal the spending left unmet, each year's in
	// today's money grown at the real return to the plan's end.
	taxPV, afterTax, shortReal float64
	converted                  float64 // today's money
	preTax                     float64 // the pre-tax money at the end, today's
}

func (e *engine) init(p *Plan, baseline bool, w *Work) {
	*e = engine{p: p, baseline: baseline, year0: p.StartYear, np: len(p.People), fee: finite(p.Fee, 0, 0, 0.5)}
	if w != nil && !w.uncached {
		e.bands, e.rules, e.nums, e.scales = &w.bands, &w.rules, &w.nums, &w.scales
	}
	n := 1
	for i := range p.People {
		q := &p.People[i]
		e.ppl[i] = person{age0: q.Age, end: q.LifeExpectancy, retireAt: -1, birth: p.StartYear - q.Age,
			income: q.Income, g: q.IncomeGrowth, retiredAge: -1}
		if q.RetirementAge > 0 {
			e.ppl[i].retireAt = q.RetirementAge
		}
		n = max(n, q.LifeExpectancy-q.Age)
	}
	e.n = min(n, fi.MaxYears)
	for j := range e.lowTop {
		for i := range e.lowTop[j] {
			e.lowTop[j][i], e.convTop[j][i] = -1, -1
		}
	}
	e.taxIx = -1
	for i := range p.Accounts {
		a := &p.Accounts[i]
		j := e.add(a.ID, a.Type, a.Wrapper, a.Owner, a.Balance, a.CostBasis, a.Contribution, a.Employer)
		e.acc[j].rate = rateOr1(a.Rate)
		e.acc[j].yield, e.acc[j].qualified = a.Yield, a.QualifiedShare
		if a.OpenedYear > 0 {
			e.acc[j].heldFor = max(0, p.StartYear-a.OpenedYear)
		}
	}
	if e.taxIx < 0 {
		e.add("taxable", "taxable", nil, 0, 0, -1, 0, 0)
	}
	for i := 0; i < e.na; i++ {
		e.acc[i].convTo = -1
		if e.p.Convert && !baseline {
			e.convTo(i)
		}
	}
	for i := 0; i < e.na; i++ {
		if e.acc[i].convTo >= 0 {
			e.convs[e.nconv] = i
			e.nconv++
		}
	}
	for i := range p.Pensions {
		q := &p.Pensions[i]
		e.benefitFactor[i], e.pensionFrom[i] = 1, q.FromAge
		if b := q.Benefit; b != nil {
			birth := e.ppl[q.Owner].birth
			claim := float64(q.FromAge) + float64(min(max(q.Months, 0), 11))/12
			e.benefitFactor[i] = b.Factor(birth, claim)
			e.pensionFrom[i] = int(math.Ceil(b.Start(birth, claim) - 1e-9))
			if q.Months > 0 && b.Start(birth, claim) == claim {
				// a claim in the year's months is paid from them
				e.pensionFrom[i], e.firstShare[i] = q.FromAge, float64(12-q.Months)/12
			}
		}
	}
	e.partners()
	for i := range p.Events {
		if t := p.Events[i].Age - p.People[0].Age; t >= 0 && t < e.n {
			e.evYear[t] = true
		}
	}
	for k := range p.Residences {
		e.jointOK[k], e.wealthOK[k] = e.residenceFiles(k)
	}
	e.setOrder()
	e.masks()
}

// numbers sets the plan's FI numbers: the first retirement spending, and
// 0.7 and 1.5 times it, each grossed up by its own tax under the first
// residence's rules and divided by the withdrawal rate.
func (e *engine) numbers() {
	p := e.p
	e.fiNumber = e.firstSpending() / finite(p.WithdrawalRate, 0.04, fi.MinWithdrawalRate, 1)
	e.lean, e.fat = fi.LeanMultiplier*e.fiNumber, fi.FatMultiplier*e.fiNumber
	if r := &p.Residences[0]; r.System != nil {
		k := numbersKey{sys: r.System, region: r.Region, year: r.Year, rate: r.Rate, age: p.People[0].Age, retire: e.retireAge(),
			inflation: p.Inflation, wr: p.WithdrawalRate, fi: e.fiNumber}
		if e.nums != nil {
			if v, ok := e.nums.get(k); ok {
				e.fiNumber, e.lean, e.fat = v[0], v[1], v[2]
				return
			}
			defer func() { e.nums.put(k, [3]float64{e.fiNumber, e.lean, e.fat}) }()
		}
		rate := rateOr1(r.Rate)
		mix := tax.Income{Pension: 1, Age: e.retireAge()}
		// the rules of the first retirement year, prices moving at the
		// plan's inflation
		c := r.Year + e.retireAge() - p.People[0].Age
		y := r.System.At(c)
		var sc tax.Scale
		y.Scale(c, &tax.Path{Start: r.Year, Inflation: p.Inflation, RealWages: r.System.RealWageGrowth()}, &sc)
		gross := func(spend float64) float64 {
			if g, ok, err := y.GrossFor(&mix, r.Region, nil, &sc, spend*rate); err == nil && ok {
				return g / rate
			}
			return spend
		}
		wr := p.WithdrawalRate
		e.lean = gross(e.lean*wr) / wr
		e.fat = gross(e.fat*wr) / wr
		e.fiNumber = gross(e.fiNumber*wr) / wr
	}
}

// numbersKey is what the FI numbers' gross-up reads of a plan: the first
// residence's rules, the ages, the plan's inflation and withdrawal rate,
// and the FI number before tax.
type numbersKey struct {
	sys                 *tax.System
	region              string
	year, age, retire   int
	rate, inflation, wr float64
	fi                  float64
}

// numbersCache keeps the FI numbers a Work has grossed up, for the runs
// after of the same plan (or one that differs elsewhere).
type numbersCache struct {
	keys [4]numbersKey
	vals [4][3]float64
	n    int
}

func (c *numbersCache) get(k numbersKey) ([3]float64, bool) {
	for i := 0; i < min(c.n, len(c.keys)); i++ {
		if c.keys[i] == k {
			return c.vals[i], true
		}
	}
	return [3]float64{}, false
}

func (c *numbersCache) put(k numbersKey, v [3]float64) {
	i := c.n % len(c.keys)
	c.keys[i], c.vals[i] = k, v
	c.n++
}

// add appends an account.
func (e *engine) add(id, typ string, w *Wrapper, owner int, bal, basis, contrib, employer float64) int {
	i := e.na
	e.na++
	if basis < 0 {
		basis = bal
	}
	h := held{id: id, w: w, owner: owner, funds: funds{bal: bal, basis: min(basis, bal)}, contrib: contrib, employer: employer, convTo: -1, rate: 1}
	switch {
	case typ == "cash":
		h.cash, h.class = true, 0
	case w == nil:
		h.class = 1
		if e.taxIx < 0 {
			e.taxIx = i
		}
	case w.Kind == KindTaxFree:
		h.class = 3
	case w.Kind == KindTaxable:
		h.class = 1
	default:
		h.class = 2
	}
	if w != nil {
		h.season = min(w.Access.Seasoning, maxSeasoning)
		h.phased, h.earnTax, h.advanced, h.flexAfter = w.Phase != nil, w.EarningsTax > 0, w.Advance != nil, w.Contrib.afterDraw()
		h.ownAges(e.ppl[owner].birth)
		if w.Kind != KindTaxFree || !w.Access.BasisFirst {
			h.basis = 0
		}
		if w.tracksCost() {
			h.basis = min(basis, bal)
		}
	}
	e.acc[i] = h
	return i
}

// ownAges sets the account's access and required-minimum ages for an
// owner born in birth.
func (h *held) ownAges(birth int) {
	h.access, h.rmdAge = h.w.Access.Age, 0
	if len(h.w.Access.ByBirth) > 0 {
		h.access = ByBirth(h.w.Access.ByBirth, birth)
	}
	if h.w.RMD != nil {
		h.rmdAge = ByBirth(h.w.RMD.ByBirth, birth)
	}
}

// convTo finds or adds the account conversions from account i go to.
func (e *engine) convTo(i int) {
	a := &e.acc[i]
	if a.w == nil || a.w.Access.ConvertTo == "" {
		return
	}
	for j := 0; j < e.na; j++ {
		if b := &e.acc[j]; b.w != nil && b.w.ID == a.w.Access.ConvertTo && b.owner == a.owner {
			a.convTo = j
			return
		}
	}
	if e.na == maxHeld {
		return
	}
	to := e.rulesWrapper(a.w.Access.ConvertTo)
	if to == nil {
		return
	}
	id := to.ID
	if a.owner == 1 {
		id = to.partnerID
	}
	a.convTo = e.add(id, to.ID, to, a.owner, 0, 0, 0, 0)
	e.acc[a.convTo].rate = a.rate
}

// rulesWrapper finds a wrapper by id among those the plan's accounts use.
func (e *engine) rulesWrapper(id string) *Wrapper {
	for i := range e.p.Accounts {
		if w := e.p.Accounts[i].Wrapper; w != nil && w.ID == id {
			return w
		}
	}
	for _, c := range e.p.Converts {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// setOrder fills the drawing order: the explicit accounts first, the rest
// by class (cash, taxable, tax-deferred and pensions, tax-free), each class
// in account order.
func (e *engine) setOrder() {
	k := 0
	var done [maxHeld]bool
	if e.p.Order == Explicit && !e.baseline {
		for _, i := range e.p.Explicit {
			if i >= 0 && i < e.na && !done[i] {
				e.order[k], done[i] = i, true
				k++
			}
		}
	}
	for c := 0; c < 4; c++ {
		for i := 0; i < e.na; i++ {
			if !done[i] && e.acc[i].class == c {
				e.order[k], done[i] = i, true
				k++
			}
		}
	}
}

// firstSpending is the retirement spending of the first retired year (at
// the retirement age, or today when it comes with FI), today's money, for
// the FI number.
func (e *engine) firstSpending() float64 {
	return e.spendingAt(e.retireAge())
}

// retireAge is the first person's retirement age, or today's when it
// comes with FI.
func (e *engine) retireAge() int {
	return max(e.p.People[0].Age, e.p.People[0].RetirementAge)
}

// spendingAt is the retirement spending at the first person's age: the
// latest phase or residence budget that has begun, else Retirement.
func (e *engine) spendingAt(age int) float64 {
	amount, from := e.p.Retirement, -1
	if amount == 0 {
		amount = e.p.Expenses
	}
	for _, ph := range e.p.Phases {
		if ph.FromAge <= age && ph.FromAge >= from {
			amount, from = ph.Amount, ph.FromAge
		}
	}
	for _, r := range e.p.Residences {
		if r.Spending > 0 && r.FromAge <= age && r.FromAge > from {
			amount, from = r.Spending, r.FromAge
		}
	}
	return amount
}

// residence is the index of the residence at the first person's age.
func (e *engine) residence(age int) int {
	k := 0
	for i := range e.p.Residences {
		if e.p.Residences[i].FromAge <= age {
			k = i
		}
	}
	return k
}

// rateOr1 is a conversion rate, 1 when unset.
func rateOr1(r float64) float64 {
	if r > 0 {
		return r
	}
	return 1
}

// finite clamps x to [lo, hi], NaN to def.
func finite(x, def, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return def
	}
	return min(max(x, lo), hi)
}
