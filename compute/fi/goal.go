package fi

import "math"

// SavingFor returns the constant yearly saving (today's money, rising with
// inflation, as Input.Contribution with FixedContribution) that makes the
// timeline of in reach FI at or before byAge, found by bisection over the full
// engine (so pensions, events, fees and income all count). The answer is
// rounded up to a whole cent and checked: fed back as Contribution it reaches
// FI by byAge, whereas rounding to the nearest cent could land a fraction of a
// cent short and a year late. It returns 0 when no saving is needed and
// ok=false when no amount up to limit a year does it (byAge at or before the
// current age without FI already, or a goal too far away for limit). An age
// past the horizon is met by reaching FI anywhere within it.
func SavingFor(in *Input, byAge int, limit float64) (saving float64, ok bool) {
	c := *in
	c.FixedContribution = true
	var p plan
	reaches := func(x float64) bool {
		c.Contribution = x
		p.init(&c)
		o, _ := p.run(nil, nil, nil, nil, nil, false, nil, 0)
		return o.fiRow >= 0 && p.age0+o.fiRow <= byAge
	}
	if reaches(0) {
		return 0, true
	}
	limit = finite(limit, money, 0, money)
	lo, hi := 0.0, min(max(p.fiNumber, 1), limit)
	for !reaches(hi) {
		if hi >= limit {
			return 0, false
		}
		lo, hi = hi, min(hi*4, limit)
	}
	for i := 0; i < savingForSteps && hi-lo > 1e-9*hi; i++ {
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	// hi reaches FI; so does any larger amount. The cent above it can still
	// miss when hi*100 rounds down onto a whole number, hence the check.
	cents := math.Ceil(hi * 100)
	for range 3 {
		if x := cents / 100; x <= limit && reaches(x) {
			return x, true
		}
		cents++
	}
	return 0, false
}

// savingForSteps bounds SavingFor's bisection.
const savingForSteps = 200

// SavingForRuns is the most timelines SavingFor runs with the given limit:
// one without saving, one for each amount of the search for an upper bound
// (1, 4, 16, ... up to limit), the bisection's steps and the three cents it
// checks. Each runs the plan's whole horizon, so that times the horizon's
// years bounds the work of a call.
func SavingForRuns(limit float64) int {
	limit = finite(limit, money, 0, money)
	bounds := 1
	for hi := 1.0; hi < limit; hi = min(hi*4, limit) {
		bounds++
	}
	return 1 + bounds + savingForSteps + 3
}

// RateStep is the grid MaxWithdrawalRate searches: whole basis points,
// starting at MinWithdrawalRate.
const RateStep = MinWithdrawalRate

// MaxWithdrawalRate returns the highest first-year withdrawal rate, in whole
// basis points (RateStep) from RateStep to ceiling, whose historical success
// rate over h (windows of the given years, see Backtest) is at least target.
// The search runs on the grid itself, so the answer is a rate that was tested
// and met the target, not a rounded neighbour of one: fed back as
// WithdrawalRate it meets the target. capped reports that the ceiling itself
// meets the target, so the true maximum is at least the ceiling; pass the
// largest rate callers may send back (ceiling is taken down to the grid and
// into [RateStep, 1]). Strategies that cannot run out by construction (fixed
// percentage, VPW, CAPE) would make every rate "safe", so they are evaluated
// as StrategyConstant. It returns 0 when even RateStep misses the target or no
// window fits.
func MaxWithdrawalRate(in *Input, h History, years int, target, ceiling float64) (rate float64, capped bool) {
	c := *in
	if !c.Strategy.canRunOut() {
		c.Strategy = StrategyConstant
	}
	target = finite(target, 0.95, 0, 1)
	bp := func(k int) float64 { return float64(k) / (1 / RateStep) }
	meets := func(k int) bool {
		c.WithdrawalRate = bp(k)
		r := Backtest(&c, h, years)
		return r.Periods > 0 && r.SuccessRate >= target
	}
	// Basis points: lo meets the target, hi does not.
	lo, hi := 1, rateTop(ceiling)
	if !meets(lo) {
		return 0, false
	}
	if meets(hi) {
		return bp(hi), true
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if meets(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return bp(lo), false
}

// rateTop is the highest grid point, in basis points, MaxWithdrawalRate
// tests under ceiling. The small epsilon keeps a ceiling such as 0.2
// (0.2/0.0001 = 1999.9999999999998) on 2000.
func rateTop(ceiling float64) int {
	return int(math.Floor(finite(ceiling, 1, RateStep, 1)/RateStep + 1e-9))
}

// RateSearchBacktests is the most backtests MaxWithdrawalRate runs with the
// given ceiling: one at each end of the grid, then one per halving of the
// interval between them. Each replays Windows(h, years) windows of years.
func RateSearchBacktests(ceiling float64) int {
	n := 2
	for gap := rateTop(ceiling) - 1; gap > 1; gap -= gap / 2 {
		n++
	}
	return n
}
