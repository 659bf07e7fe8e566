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

// History is a historical record Backtest and MaxWithdrawalRate replay: the
// annual Series, a *Monthly, or either restricted to a Sample (Sampled);
// the only three implementations.
type History interface {
	// windows is the number of windows of the given years in the record.
	windows(years int) int
	// start is the calendar year and month (1-12; 0 for an annual record)
	// window i starts in.
	start(i int) (year, month int)
	// window fills years yearly nominal returns of the mix, inflation rates
	// and starting CAPE values (0 where unknown) of window i, clamped as
	// the engine takes them.
	window(i, years int, mx mix, rets, infl, cape []float64)
}

// record is a History by its concrete type. Backtest calls through it, not
// through the interface, so that neither the record nor the caller's window
// buffers move to the heap. Its windows are those of the record that start
// at index lo or later, every stride-th, and end by index hi (years of an
// annual record, months of a monthly one): the whole record, or a Sample
// of it.
type record struct {
	annual  Series
	monthly *Monthly
	lo, hi  int
	stride  int
	// monthlyPay pays each year's withdrawal a twelfth at the start of
	// each month (a monthly record only).
	monthlyPay bool
}

// recordOf unpacks h; Series, *Monthly and Sampled are the only
// implementations.
func recordOf(h History) record {
	var r record
	var s Sample
	if x, ok := h.(Sampled); ok {
		h, s = x.Record, x.Sample
	}
	switch x := h.(type) {
	case Series:
		r.annual = x
	case *Monthly:
		r.monthly = x
	default:
		panic("fi: a History must be a Series, a *Monthly or a Sampled of one")
	}
	r.bound(s)
	return r
}

// index is the record's own index of window i.
func (r *record) index(i int) int { return r.lo + i*r.stride }

func (r *record) windows(years int) int {
	span := years
	if r.monthly != nil {
		span = 12 * years
	}
	top := r.hi - span + 1 // the last index a window can start at
	if years <= 0 || top < r.lo {
		return 0
	}
	return (top-r.lo)/r.stride + 1
}

func (r *record) start(i int) (year, month int) {
	if r.monthly != nil {
		return r.monthly.start(r.index(i))
	}
	return r.annual.start(r.index(i))
}

func (r *record) window(i, years int, mx mix, rets, infl, cape []float64) {
	if r.monthly != nil {
		r.monthly.window(r.index(i), years, mx, rets, infl, cape)
		return
	}
	r.annual.window(r.index(i), years, mx, rets, infl, cape)
}

// mix is a portfolio rebalanced yearly: shares of stocks, bonds and cash.
type mix struct{ stock, bond, cash float64 }

func (s Series) windows(years int) int { return max(0, s.Len()-years+1) }

func (s Series) start(i int) (year, month int) { return s.Years[i], 0 }

// window of an annual record: cash keeps its real value (earns inflation).
func (s Series) window(i, years int, mx mix, rets, infl, cape []float64) {
	for k := 0; k < years; k++ {
		pi := s.Inflation[i+k]
		rets[k] = clampReturn(mx.stock*s.Stocks[i+k] + mx.bond*s.Bonds[i+k] + mx.cash*pi)
		infl[k] = clampInflation(pi)
		cape[k] = 0
	}
}

// MaxWindows bounds the windows one backtest replays (every start month of
// 250 years); later windows are not tested.
const MaxWindows = 12 * 250

// Windows is the number of windows of the given years Backtest and
// Sequences replay over h (at most MaxWindows): a backtest replays Windows
// x years years of the plan.
func Windows(h History, years int) int {
	if years <= 0 || years > MaxYears {
		return 0
	}
	rec := recordOf(h)
	return min(rec.windows(years), MaxWindows)
}

// BacktestResult summarises a rolling-window historical test. Balances are in
// money of the window's start (divided by the window's price index).
type BacktestResult struct {
	Periods int // number of rolling windows tested
	// Drawdowns is the windows that have a success rate: those in which
	// the plan draws down or runs out (every window of Backtest, which
	// starts retired).
	Drawdowns   int
	Successes   int     // windows among Drawdowns in which spending was always met
	SuccessRate float64 // Successes / Drawdowns (0 when there are none)

	WorstStartYear   int     // the window that failed soonest, else the one ending lowest
	WorstStartMonth  int     // its start month (1-12) in a monthly record; 0 in an annual one
	WorstFailed      bool    // whether that window ran out
	WorstFailYear    int     // calendar year it ran out; 0 when it did not
	WorstYearsLasted int     // full years of spending met in that window
	WorstEndBalance  float64 // its real ending balance

	MedianEndBalance float64 // median real ending balance over all windows
	LowestSpending   float64 // lowest real yearly withdrawal seen, as a share of the first
}

// Backtest replays the drawdown phase over every window of the given number
// of years in h: every start year of an annual Series, every start month of a
// Monthly, the windows a Sample admits of a Sampled (at most MaxWindows). Each window starts with CurrentSavings (1 when
// zero) already retired and spends WithdrawalRate x that balance in the first
// year under in.Strategy; the portfolio is rebalanced every year to
// StockShare stocks, CashShare cash (which keeps its real value: it earns
// inflation) and bonds for the rest, and pays Fee. Pensions, events and the
// accumulation inputs are ignored: this tests the withdrawal plan alone. A
// window succeeds when every year's spending is met in full.
func Backtest(in *Input, h History, years int) BacktestResult {
	rp, ok := newReplay(in, h, years, false)
	if !ok {
		return BacktestResult{}
	}
	return rp.backtest()
}

// PlanBacktest replays the whole plan in over every window of h (every
// start year of an annual Series, every start month of a Monthly, at most
// MaxWindows): saving, FI, drawdown, pensions and events from CurrentAge,
// with each window's returns and inflation in place of the expected ones
// and the portfolio mixed and charged as in Backtest. Each window is the
// plan's horizon, or years when that is shorter (years <= 0: the horizon).
// A window in which the plan neither draws down nor runs out has no
// success rate: Drawdowns counts those that do, and SuccessRate is their
// share never running out (0 when none does).
func PlanBacktest(in *Input, h History, years int) BacktestResult {
	rp, ok := newReplay(in, h, years, true)
	if !ok {
		return BacktestResult{}
	}
	return rp.backtest()
}

// FitWindow is years, or the longest window h holds when it holds none of
// years: a plan's horizon may be longer than the record.
func FitWindow(h History, years int) int {
	for years > 1 && Windows(h, years) == 0 {
		years--
	}
	return years
}

// PlanWindow is the window PlanBacktest replays in over: the plan's
// horizon, or years when that is shorter and positive.
func PlanWindow(in *Input, years int) int {
	var p plan
	p.init(in)
	if years > 0 && years < p.n {
		return years
	}
	return p.n
}

// drewDown reports whether a window's plan drew down or ran out, and so
// has a success or a failure to count.
func (o *outcome) drewDown() bool { return o.retireRow >= 0 || o.depleteRow >= 0 || o.drew }

// backtest replays every window of rp.
func (rp *replay) backtest() BacktestResult {
	var res BacktestResult
	years := rp.years
	rp.p.trackSpend = rp.p.strategy != StrategyConstant
	var ends [MaxWindows]float64 // real ending balances, for the median
	worstLasted, worstEnd := years+1, 0.0
	res.LowestSpending = 1
	for i := 0; i < rp.n; i++ {
		o, _ := rp.run(i, nil)
		res.Periods++
		ends[i] = o.endReal
		lasted := years
		if o.drewDown() {
			res.Drawdowns++
		}
		if o.depleteRow >= 0 {
			lasted = o.depleteRow
		} else if o.drewDown() {
			res.Successes++
		}
		if lasted < worstLasted || (lasted == worstLasted && o.endReal < worstEnd) {
			worstLasted, worstEnd = lasted, o.endReal
			res.WorstStartYear, res.WorstStartMonth = rp.rec.start(i)
			res.WorstFailed = o.depleteRow >= 0
			res.WorstFailYear = 0
			if res.WorstFailed {
				res.WorstFailYear = res.WorstStartYear + o.depleteRow
			}
			res.WorstYearsLasted = lasted
			res.WorstEndBalance = o.endReal
		}
		if rp.p.trackSpend && o.firstSpend > 0 {
			res.LowestSpending = min(res.LowestSpending, max(o.lowSpend/o.firstSpend, 0))
		}
	}
	if res.Drawdowns > 0 {
		res.SuccessRate = float64(res.Successes) / float64(res.Drawdowns)
	}
	res.MedianEndBalance = median(ends[:rp.n])
	return res
}

// replay runs the windows of a backtest through one plan.
type replay struct {
	p                plan
	rec              record
	n, years         int
	mx               mix
	rets, infl, cape [MaxYears]float64
	// disc is each year's start-of-year value of a unit of withdrawal
	// paid a twelfth a month (rec.monthlyPay only; see Monthly.discounts).
	disc [MaxYears]float64
	// filled is the window of an annual record rets and infl hold, -1
	// none: the next window shares all but one of its years.
	filled int
}

// newReplay prepares the windows of the given years in h and reports
// whether any fits (at most MaxWindows are replayed): of the drawdown
// alone (backtestPlan), or with whole of the plan itself over its horizon
// or years when shorter (see PlanBacktest). It returns the replay by value:
// stored through a pointer, h would move to the heap.
func newReplay(in *Input, h History, years int, whole bool) (r replay, ok bool) {
	if whole {
		r.p.init(in)
		years = PlanWindow(in, years)
		r.p.n = years
	} else {
		r.p = backtestPlan(in, years)
	}
	r.rec = recordOf(h)
	r.years = years
	if years > 0 && years <= MaxYears {
		r.n = min(r.rec.windows(years), MaxWindows)
	}
	r.mx = r.p.mix()
	r.filled = -1
	return r, r.n > 0
}

// run replays window i, appending its rows to dst when dst is not nil.
func (r *replay) run(i int, dst []Year) (outcome, []Year) {
	y := r.years
	if r.rec.monthly == nil && i == r.filled+1 && r.filled >= 0 {
		// The windows of an annual record run in order: slide by a year.
		copy(r.rets[:y-1], r.rets[1:y])
		copy(r.infl[:y-1], r.infl[1:y])
		r.rec.annual.window(r.rec.index(i)+y-1, 1, r.mx, r.rets[y-1:y], r.infl[y-1:y], r.cape[y-1:y])
	} else {
		r.rec.window(i, y, r.mx, r.rets[:y], r.infl[:y], r.cape[:y])
	}
	if r.rec.monthly == nil {
		r.filled = i
	}
	var disc []float64
	if r.rec.monthlyPay && r.rec.monthly != nil {
		disc = r.disc[:y]
		r.rec.monthly.discounts(r.rec.index(i), y, r.mx, disc)
	}
	return r.p.run(r.rets[:y], r.infl[:y], r.cape[:y], disc, dst, dst != nil, nil, 0)
}

// backtestPlan is the plan of a backtest window: retired from the first row
// with CurrentSavings (1 when zero), spending WithdrawalRate x that balance,
// without pensions, events or a target age.
func backtestPlan(in *Input, years int) plan {
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
	return p
}

// median reorders v and returns its middle value (the mean of the two
// middle values when the length is even).
func median(v []float64) float64 {
	n := len(v)
	if n == 0 {
		return 0
	}
	sel(v, 0, n-1, n/2)
	if n%2 == 1 {
		return v[n/2]
	}
	// v[:n/2] holds the smaller half: its largest is the other middle.
	lo := v[0]
	for _, x := range v[1 : n/2] {
		lo = max(lo, x)
	}
	return (lo + v[n/2]) / 2
}
