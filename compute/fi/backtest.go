package fi

// Series is an annual historical record, one element per calendar year in
// ascending, gap-free order: stock and bond total returns and inflation as
// decimal fractions. It has the same shape as data/history.Series, so a value
// of that type converts directly. Only the common length of the four slices
// is used.
type Series struct {
	Years     []int
	Stocks    []float64
	Bonds     []float64
	Inflation []float64
}

// Len is the number of usable years.
func (s Series) Len() int {
	return min(len(s.Years), len(s.Stocks), len(s.Bonds), len(s.Inflation))
}

// BacktestResult summarises a rolling-window historical test. Balances are in
// money of the window's start year (divided by the window's price index).
type BacktestResult struct {
	Periods     int     // number of rolling windows tested
	Successes   int     // windows in which spending was always met
	SuccessRate float64 // Successes / Periods (0 when no window fits)

	WorstStartYear   int     // the window that failed soonest, else the one ending lowest
	WorstFailed      bool    // whether that window ran out
	WorstFailYear    int     // calendar year it ran out; 0 when it did not
	WorstYearsLasted int     // full years of spending met in that window
	WorstEndBalance  float64 // its real ending balance

	MedianEndBalance float64 // median real ending balance over all windows
	LowestSpending   float64 // lowest real yearly withdrawal seen, as a share of the first
}

// Backtest replays the drawdown phase over every window of the given number
// of years in s (start years s.Years[0] .. s.Years[len-years]). Each window
// starts with CurrentSavings (1 when zero) already retired and spends
// WithdrawalRate x that balance in the first year under in.Strategy; the
// portfolio is rebalanced every year to StockShare and pays Fee. Pensions,
// events and the accumulation inputs are ignored: this tests the withdrawal
// plan alone. A window succeeds when every year's spending is met in full.
func Backtest(in *Input, s Series, years int) BacktestResult {
	var res BacktestResult
	var p plan
	bt := *in
	bal := finite(in.CurrentSavings, 0, 0, money)
	if bal <= 0 {
		bal = 1
	}
	bt.CurrentSavings = bal
	bt.CurrentAge = 0
	bt.LifeExpectancy = years
	bt.TargetRetirementAge = 0
	bt.NumPensions, bt.NumEvents = 0, 0
	p.init(&bt)
	p.retExp = p.wr * p.start
	p.fiNumber = 0 // already retired: drawdown from the first row
	p.retireAt = 0

	total := s.Len()
	if years <= 0 || years > MaxYears || years > total {
		return res
	}
	var rets, infl [MaxYears]float64
	var ends [256]float64 // real ending balances for the median (windows beyond are skipped)
	worstLasted, worstEnd := years+1, 0.0
	res.LowestSpending = 1
	for i := 0; i+years <= total; i++ {
		for k := 0; k < years; k++ {
			rets[k] = clampReturn(p.stock*s.Stocks[i+k] + (1-p.stock)*s.Bonds[i+k])
			infl[k] = clampInflation(s.Inflation[i+k])
		}
		o, _ := p.run(rets[:years], infl[:years], nil, false, nil, 0)
		res.Periods++
		if i < len(ends) {
			ends[i] = o.endReal
		}
		lasted := years
		if o.depleteRow >= 0 {
			lasted = o.depleteRow
		} else {
			res.Successes++
		}
		if lasted < worstLasted || (lasted == worstLasted && o.endReal < worstEnd) {
			worstLasted, worstEnd = lasted, o.endReal
			res.WorstStartYear = s.Years[i]
			res.WorstFailed = o.depleteRow >= 0
			res.WorstFailYear = 0
			if res.WorstFailed {
				res.WorstFailYear = s.Years[i] + o.depleteRow
			}
			res.WorstYearsLasted = lasted
			res.WorstEndBalance = o.endReal
		}
		if p.strategy != StrategyConstant {
			res.LowestSpending = min(res.LowestSpending, p.lowestSpending(rets[:years], infl[:years]))
		}
	}
	res.SuccessRate = float64(res.Successes) / float64(res.Periods)
	m := min(res.Periods, len(ends))
	res.MedianEndBalance = median(ends[:m])
	return res
}

// lowestSpending replays a window and returns the lowest real withdrawal as a
// share of the first year's withdrawal (1 when nothing was withdrawn).
func (p *plan) lowestSpending(rets, infls []float64) float64 {
	var rows [MaxYears]Year
	_, out := p.run(rets, infls, rows[:0], true, nil, 0)
	if len(out) == 0 || out[0].Withdrawals <= 0 {
		return 1
	}
	first := out[0].Withdrawals
	low := 1.0
	cpi := 1.0
	for k := range out {
		if k > 0 {
			cpi *= 1 + infls[k-1]
		}
		low = min(low, out[k].Withdrawals/cpi/first)
	}
	return max(low, 0)
}

// median sorts v in place (insertion sort; v is short) and returns its middle.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	insertionSort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
