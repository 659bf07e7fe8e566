package fi

import "math"

// Year is one row of a projection. Money is nominal (money of that year)
// except RealEndBalance, which is in today's money. For every row:
// EndBalance = StartBalance + Events + Contributions + Growth - Withdrawals.
type Year struct {
	Year           int     `json:"year"`
	Age            int     `json:"age"`
	StartBalance   float64 `json:"startBalance"`
	Contributions  float64 `json:"contributions"`
	Growth         float64 `json:"growth"`
	Withdrawals    float64 `json:"withdrawals"`
	Events         float64 `json:"events"`  // one-off events applied this year
	Pension        float64 `json:"pension"` // pension income received this year
	EndBalance     float64 `json:"endBalance"`
	RealEndBalance float64 `json:"realEndBalance"`
	FIProgress     float64 `json:"fiProgress"` // RealEndBalance / FI number
	Retired        bool    `json:"retired"`    // a drawdown year
}

// Summary is the headline result of a projection. Ages and years that do not
// happen within the horizon are -1 (the HTTP layer renders them as null).
type Summary struct {
	FINumber      float64 // today's money: retirement spending / withdrawal rate
	LeanFINumber  float64 // LeanMultiplier x FINumber
	FatFINumber   float64 // FatMultiplier x FINumber
	CoastFINumber float64 // needed today to reach FINumber by CoastAge without saving
	CoastAge      int
	BaristaIncome float64 // yearly income (today's money) that closes the gap now
	SavingsRate   float64 // first-year saving / income (0 without income)

	Reached   bool // FI reached within the horizon (or already)
	YearsToFI int  // 0 when already FI; -1 when never
	FIAge     int  // -1 when never
	FIYear    int  // StartYear + YearsToFI; -1 when never

	RetirementAge  int  // first drawdown year's age; -1 when drawdown never starts
	RunsOut        bool // some year's spending could not be met in full
	DepletionAge   int  // age in the first such year; -1 when never
	DepletionYear  int  // calendar year of it; -1 when never
	FinalBalance   float64
	FinalReal      float64 // final balance in today's money
	Contributions  float64 // total over the horizon, nominal
	Withdrawals    float64 // total over the horizon, nominal
	GuardrailCuts  int     // Guyton-Klinger capital-preservation cuts
	GuardrailRaise int     // Guyton-Klinger prosperity raises
	Years          int     // rows in the timeline
}

// Project runs the deterministic timeline for in, appending one row per year to
// dst (pass buf[:0] to reuse a buffer), and returns the summary and the
// extended slice. It allocates nothing when dst has room for the rows
// (Summary.Years <= MaxYears rows).
func Project(in *Input, dst []Year) (Summary, []Year) {
	var p plan
	p.init(in)
	o, rows := p.run(nil, nil, nil, nil, dst, true, nil, 0)
	return p.summarize(&o), rows
}

// ProjectPath is Project with a given sequence of yearly nominal returns
// (before fees) and inflation rates; year t uses returns[t] and inflation[t],
// and years past the end of either slice use ExpectedReturn or InflationRate.
// It replays historical or stress paths through the same engine.
func ProjectPath(in *Input, returns, inflation []float64, dst []Year) (Summary, []Year) {
	var p plan
	p.init(in)
	// run takes its paths as given: clamp copies of them first.
	var rets, infls [MaxYears]float64
	nr, ni := min(len(returns), p.n), min(len(inflation), p.n)
	for t := range nr {
		rets[t] = clampReturn(returns[t])
	}
	for t := range ni {
		infls[t] = clampInflation(inflation[t])
	}
	o, rows := p.run(rets[:nr], infls[:ni], nil, nil, dst, true, nil, 0)
	return p.summarize(&o), rows
}

// plan is the sanitized form of an Input; it lives on the caller's stack.
type plan struct {
	pens     [MaxPensions]Pension
	evs      [MaxEvents]Event
	target   int // TargetRetirementAge as given
	n        int
	age0     int
	year0    int
	gross    float64 // expected nominal return before fees
	ret      float64 // expected nominal return after fees
	fee      float64
	infl     float64
	income   float64
	incomeG  float64
	expenses float64
	fixed    bool
	saving   float64
	retExp   float64
	wr       float64
	fiNumber float64
	retireAt int // row where drawdown starts when a target age is set; -1 = at FI
	strategy Strategy
	stock    float64
	cash     float64
	cape     float64 // Input.CAPE
	// trackSpend makes run report the first and lowest real withdrawal.
	trackSpend bool
	start      float64
	nPen       int
	nEv        int
	evYear     [MaxYears]bool        // some event falls in year t
	vpw        [MaxYears + 1]float64 // VPW rate by years left (StrategyVPW only)
}

func (p *plan) init(in *Input) {
	p.pens, p.evs = in.Pensions, in.Events
	p.target = in.TargetRetirementAge
	p.age0 = clampInt(in.CurrentAge, 0, 150)
	le := clampInt(in.LifeExpectancy, 0, 250)
	p.n = clampInt(le-p.age0, 1, MaxYears)
	p.year0 = clampInt(in.StartYear, 0, 1_000_000)
	p.fee = finite(in.Fee, 0, 0, 0.5)
	p.gross = clampReturn(finite(in.ExpectedReturn, 0.07, -0.99, 1))
	p.ret = netReturn(p.gross, p.fee)
	p.infl = clampInflation(finite(in.InflationRate, 0.03, -0.5, 1))
	p.income = finite(in.AnnualIncome, 0, 0, money)
	p.incomeG = finite(in.IncomeGrowthRate, 0, -0.5, 1)
	p.expenses = finite(in.AnnualExpenses, 0, 0, money)
	p.fixed = in.FixedContribution
	p.saving = finite(in.Contribution, 0, -money, money)
	p.retExp = finite(in.RetirementExpenses, 0, 0, money)
	if p.retExp == 0 {
		p.retExp = p.expenses
	}
	p.wr = finite(in.WithdrawalRate, 0.04, MinWithdrawalRate, 1)
	p.fiNumber = p.retExp / p.wr
	p.retireAt = -1
	if in.TargetRetirementAge > 0 {
		p.retireAt = clampInt(in.TargetRetirementAge-p.age0, 0, p.n)
	}
	p.strategy = in.Strategy
	if p.strategy >= numStrategies {
		p.strategy = StrategyConstant
	}
	p.cape = finite(in.CAPE, 0, 0, 1000)
	p.stock = finite(in.StockShare, 0.6, 0, 1)
	p.cash = finite(in.CashShare, 0, 0, 1-p.stock)
	p.start = finite(in.CurrentSavings, 0, 0, money)
	p.nPen = clampInt(in.NumPensions, 0, MaxPensions)
	p.nEv = clampInt(in.NumEvents, 0, MaxEvents)
	for i := range p.pens[:p.nPen] {
		p.pens[i].Amount = finite(p.pens[i].Amount, 0, 0, money)
	}
	for i := range p.evs[:p.nEv] {
		p.evs[i].Amount = finite(p.evs[i].Amount, 0, -money, money)
		if t := p.evs[i].Age - p.age0; t >= 0 && t < p.n {
			p.evYear[t] = true
		}
	}
	if p.strategy == StrategyVPW {
		p.vpwRates()
	}
}

// mix is the backtest portfolio: stocks, cash and bonds for the rest.
func (p *plan) mix() mix { return mix{stock: p.stock, bond: 1 - p.stock - p.cash, cash: p.cash} }

// vpwRates fills p.vpw[k] with VPWRate(VPWReturn(stock), k) for k <= n,
// building the discount factor (1+r)^-k by multiplication instead of Pow.
func (p *plan) vpwRates() {
	r := VPWReturn(p.stock)
	p.vpw[0] = 1
	if p.n >= 1 {
		p.vpw[1] = 1
	}
	v, vk := 1/(1+r), 1/(1+r)
	for k := 2; k <= p.n; k++ {
		vk *= v
		if math.Abs(r) < 1e-12 {
			p.vpw[k] = 1 / float64(k)
		} else {
			p.vpw[k] = min(max(r/((1+r)*(1-vk)), 0), 1)
		}
	}
}

// clampReturn keeps a yearly return above a total loss.
func clampReturn(r float64) float64 { return finite(r, 0, -0.99, 10) }

// clampInflation keeps the price index positive.
func clampInflation(i float64) float64 { return finite(i, 0, -0.5, 10) }

// netReturn applies the fee drag: (1+r)(1-fee) - 1.
func netReturn(r, fee float64) float64 { return (1+r)*(1-fee) - 1 }

// outcome is what one pass of the engine reports besides its rows.
type outcome struct {
	fiRow      int // first row whose start finds FI reached (0 = already); -1 never
	retireRow  int // first drawdown row; -1 never
	depleteRow int // first row with unmet spending; -1 never
	// drew: some working year's saving was negative, so the portfolio
	// paid for spending before any drawdown year (a plan living off its
	// savings without retiring by its own rules)
	drew       bool
	endBal     float64
	endReal    float64
	contrib    float64
	withdrawn  float64
	cuts       int
	raises     int
	firstSpend float64 // first drawdown year's withdrawal, today's money (trackSpend)
	lowSpend   float64 // lowest drawdown withdrawal, today's money (trackSpend)
}

// spent records a drawdown year's withdrawal in today's money.
func (o *outcome) spent(t int, real float64) {
	if t == o.retireRow {
		o.firstSpend, o.lowSpend = real, real
	}
	o.lowSpend = min(o.lowSpend, real)
}

// run is the engine. rets/infls override the expected return and inflation
// year by year (callers clamp them with clampReturn and clampInflation) and
// capes gives each year's CAPE where known (0 = unknown); discs gives,
// where known, each year's start-of-year value of a unit of withdrawal paid
// through the year (1 = taken at its start; see Monthly.discounts); rows
// are appended to dst when emit is set; when sink is not
// nil, sink[t*stride] receives the real end balance of year t. Each year
// follows the numbered steps of the package documentation; the state that
// moves from year to year stays in this function's locals, and every step
// is a function of its arguments.
func (p *plan) run(rets, infls, capes, discs []float64, dst []Year, emit bool, sink []float64, stride int) (outcome, []Year) {
	o, retired := p.begin()
	bal := p.start
	cpi := 1.0     // price index at the start of the year, today = 1
	incomeF := 1.0 // real income growth factor
	var sp spendState
	var lastRet, lastInfl float64

	for t := 0; t < p.n; t++ {
		r, pi := p.yearRates(rets, infls, t)
		age := p.age0 + t
		start := bal

		// 1. One-off events at the start of the year (most years have
		// none: the flag spares the scan of the list).
		ev := max(0, -bal)
		if p.evYear[t] {
			ev = p.eventFlow(age, cpi, bal)
		}
		bal += ev

		// Pensions are valued at this year's prices in drawdown (spent during
		// the year) and at year-end prices while accumulating (saved at year end).
		cpiEnd := cpi * (1 + pi)
		flowCPI := cpi
		if !retired {
			flowCPI = cpiEnd
		}
		pen := p.pensionIncome(age, flowCPI)

		var contrib, wd, growth float64
		var short bool
		if !retired {
			// 2. Accumulation.
			save := p.yearSaving(incomeF, cpiEnd, pen)
			bal, contrib, wd, growth, short = accumulate(bal, r, save)
			o.drew = o.drew || wd > 0
		} else {
			// 3. Drawdown.
			var canFail bool
			cape := 0.0
			if t < len(capes) {
				cape = capes[t]
			}
			if p.strategy == StrategyConstant {
				// The default strategy without withdrawal's call and the
				// state no year of it reads.
				wd, contrib = constantWithdrawal(p.retExp*cpi, pen)
				canFail = true
			} else {
				wd, contrib, canFail = p.withdrawal(&o, &sp, t, bal, cpi, pen, cape, lastRet, lastInfl)
			}
			disc := 1.0
			if t < len(discs) {
				disc = discs[t]
			}
			bal, wd, growth, short = drawdown(bal, wd, contrib, r, disc, canFail)
			if p.trackSpend {
				o.spent(t, wd/cpi)
			}
		}
		if !(bal > 0) { // also catches NaN
			bal = 0
		}

		// 4. Prices move; real values follow.
		cpi = cpiEnd
		real := bal / cpi
		if short && o.depleteRow < 0 {
			o.depleteRow = t
		}
		o.contrib += contrib
		o.withdrawn += wd
		if emit {
			dst = append(dst, Year{
				Year: p.year0 + t, Age: age, StartBalance: start,
				Contributions: contrib, Growth: growth, Withdrawals: wd, Events: ev, Pension: pen,
				EndBalance: bal, RealEndBalance: real, FIProgress: p.progress(real), Retired: retired,
			})
		}
		if sink != nil {
			sink[t*stride] = real
		}

		// 5. FI test and the retirement decision for next year.
		retired = p.decide(&o, t, real, retired)
		incomeF *= 1 + p.incomeG
		lastRet, lastInfl = r, pi
	}
	o.endBal = bal
	o.endReal = bal / cpi
	return o, dst
}

// begin is the outcome before the first year, and whether drawdown starts at
// once: FI is already reached, or the target age is today.
func (p *plan) begin() (o outcome, retired bool) {
	o = outcome{fiRow: -1, retireRow: -1, depleteRow: -1}
	if p.isFI(p.start) {
		o.fiRow = 0
	}
	retired = p.retireAt == 0 || (p.retireAt < 0 && o.fiRow == 0)
	if retired {
		o.retireRow = 0
	}
	return o, retired
}

// yearRates returns year t's nominal return after fees and its inflation:
// the given (clamped) paths where they reach, the expected values beyond.
func (p *plan) yearRates(rets, infls []float64, t int) (r, pi float64) {
	r, pi = p.ret, p.infl
	if t < len(rets) {
		r = netReturn(rets[t], p.fee)
	}
	if t < len(infls) {
		pi = infls[t]
	}
	return r, pi
}

// eventFlow is the sum of the one-off events at this age, valued at cpi
// unless nominal; an outlay beyond the balance bal is limited to it.
func (p *plan) eventFlow(age int, cpi, bal float64) float64 {
	ev := 0.0
	for i := 0; i < p.nEv; i++ {
		e := &p.evs[i]
		if e.Age == age {
			a := e.Amount
			if !e.Nominal {
				a *= cpi
			}
			ev += a
		}
	}
	return max(ev, -bal)
}

// pensionIncome is the pension paid at this age, indexed ones valued at cpi.
func (p *plan) pensionIncome(age int, cpi float64) float64 {
	pen := 0.0
	for i := 0; i < p.nPen; i++ {
		q := &p.pens[i]
		if age >= q.FromAge {
			a := q.Amount
			if q.Indexed {
				a *= cpi
			}
			pen += a
		}
	}
	return pen
}

// yearSaving is the accumulation year's saving at year-end prices: income
// minus expenses (or the fixed contribution) plus pensions already paid.
func (p *plan) yearSaving(incomeF, cpiEnd, pen float64) float64 {
	save := p.saving
	if !p.fixed {
		save = p.income*incomeF - p.expenses
	}
	return save*cpiEnd + pen
}

// accumulate grows bal by r, then adds the saving at year end (a negative
// saving is withdrawn, as far as the balance goes).
func accumulate(bal, r, save float64) (end, contrib, wd, growth float64, short bool) {
	growth = bal * r
	bal += growth
	if save >= 0 {
		contrib = save
	} else {
		wd = -save
		if wd > bal {
			short = wd-bal > 1e-9*wd
			wd = bal
		}
	}
	return bal + contrib - wd, contrib, wd, growth, short
}

// drawdown takes the withdrawal wd, whose start-of-year value is wd x disc
// (disc = 1: taken at the start of the year; below 1 when paid through
// the year, see Monthly.discounts), as far as the balance goes (short
// when a strategy that can fail falls short), grows the rest by r and adds
// contrib at year end. growth is what the year added besides the flows:
// the rest's return and what paying through the year saved, wd - its
// start-of-year value.
func drawdown(bal, wd, contrib, r, disc float64, canFail bool) (end, paid, growth float64, short bool) {
	cost := wd * disc
	if cost > bal {
		// A shortfall below one part in 1e9 is rounding, not ruin.
		short = canFail && cost-bal > 1e-9*cost
		wd, cost = bal/disc, bal
	}
	bal -= cost
	growth = bal * r
	return bal + growth + contrib, wd, growth + (wd - cost), short
}

// FITolerance is how far below the FI number a real balance still counts
// as FI: half a cent, so that a balance shown as the FI number, both
// rounded to the cent, is FI although the quotient spending / rate lies a
// rounding error above it (36000 / 0.036 is 1000000.0000000001).
const FITolerance = 0.005

// isFI reports whether a real balance reaches the FI number, within
// FITolerance.
func (p *plan) isFI(real float64) bool { return real >= p.fiNumber-FITolerance }

// progress is a real balance as a share of the FI number.
func (p *plan) progress(real float64) float64 {
	if p.fiNumber > 0 {
		return real / p.fiNumber
	}
	return 1
}

// decide is step 5: the FI test at the end of year t, and whether the next
// year is a drawdown year.
func (p *plan) decide(o *outcome, t int, real float64, retired bool) bool {
	if o.fiRow < 0 && p.isFI(real) {
		o.fiRow = t + 1
	}
	if retired {
		return true
	}
	if p.retireAt >= 0 {
		retired = t+1 >= p.retireAt
	} else {
		retired = o.fiRow >= 0
	}
	if retired {
		o.retireRow = t + 1
	}
	return retired
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (p *plan) summarize(o *outcome) Summary {
	s := Summary{
		FINumber:       p.fiNumber,
		LeanFINumber:   LeanMultiplier * p.fiNumber,
		FatFINumber:    FatMultiplier * p.fiNumber,
		BaristaIncome:  max(0, p.retExp-p.start*p.wr),
		YearsToFI:      -1,
		FIAge:          -1,
		FIYear:         -1,
		RetirementAge:  -1,
		DepletionAge:   -1,
		DepletionYear:  -1,
		FinalBalance:   o.endBal,
		FinalReal:      o.endReal,
		Contributions:  o.contrib,
		Withdrawals:    o.withdrawn,
		GuardrailCuts:  o.cuts,
		GuardrailRaise: o.raises,
		Years:          p.n,
	}
	if p.income > 0 {
		save := p.saving
		if !p.fixed {
			save = p.income - p.expenses
		}
		s.SavingsRate = save / p.income
	}
	s.CoastAge = DefaultCoastAge
	if p.target > 0 {
		s.CoastAge = p.target
	}
	s.CoastFINumber = p.fiNumber
	if yrs := s.CoastAge - p.age0; yrs > 0 {
		growth := math.Pow((1+p.ret)/(1+p.infl), float64(yrs))
		s.CoastFINumber = bounded(p.fiNumber / growth)
	}
	if o.fiRow >= 0 {
		s.Reached = true
		s.YearsToFI = o.fiRow
		s.FIAge = p.age0 + o.fiRow
		s.FIYear = p.year0 + o.fiRow
	}
	if o.retireRow >= 0 && o.retireRow < p.n {
		s.RetirementAge = p.age0 + o.retireRow
	}
	if o.depleteRow >= 0 {
		s.RunsOut = true
		s.DepletionAge = p.age0 + o.depleteRow
		s.DepletionYear = p.year0 + o.depleteRow
	}
	return s
}

// bounded maps NaN and infinities (from extreme but accepted inputs) to the
// largest finite value of the right sign, or 0 for NaN.
func bounded(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0
	case x > math.MaxFloat64:
		return math.MaxFloat64
	case x < -math.MaxFloat64:
		return -math.MaxFloat64
	}
	return x
}
