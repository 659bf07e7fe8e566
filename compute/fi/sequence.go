package fi

// MaxDecades is the number of start decades MaxWindows annual windows can
// span.
const MaxDecades = MaxWindows/10 + 1

// PathYear is one year of a replayed window, in money of the window's start.
type PathYear struct {
	Year       int     // calendar year the window's year starts in
	Withdrawal float64 // real withdrawal
	EndBalance float64 // real balance at the year's end
}

// SequencePath is one window of a backtest with its year-by-year path.
type SequencePath struct {
	StartYear   int
	StartMonth  int // 1-12 in a monthly record; 0 in an annual one
	Failed      bool
	YearsLasted int     // full years of spending met
	EndBalance  float64 // real ending balance
	Years       [MaxYears]PathYear
	NumYears    int
}

// DecadeRate is the success rate of the windows starting in one decade.
type DecadeRate struct {
	Decade    int // first year of the decade, such as 1960
	Periods   int
	Successes int
}

// SequenceView is the sequence-of-returns view of a backtest: the worst,
// median and best windows with their paths, and success by start decade.
type SequenceView struct {
	Periods             int
	Worst, Median, Best SequencePath
	Decades             [MaxDecades]DecadeRate
	NumDecades          int
}

// Sequences replays the windows Backtest replays and writes to out the
// worst, median and best of them with their paths, and the success rate of
// the windows starting in each decade. Windows are ranked by how long the
// money lasted, then by the real ending balance: the worst is the one that
// failed soonest (else ended lowest, as in Backtest), the best the one that
// ended highest, the median the lower middle of that order. out is large;
// keep one and reuse it. Nothing is allocated.
func Sequences(in *Input, h History, years int, out *SequenceView) {
	*out = SequenceView{}
	rp, ok := newReplay(in, h, years, false)
	if !ok {
		return
	}
	rp.sequences(out)
}

// PlanSequences is Sequences over the windows PlanBacktest replays: the
// whole plan. A start decade counts the windows that draw down or run
// out, those with a success rate.
func PlanSequences(in *Input, h History, years int, out *SequenceView) {
	*out = SequenceView{}
	rp, ok := newReplay(in, h, years, true)
	if !ok {
		return
	}
	rp.sequences(out)
}

// sequences ranks the windows of rp into out.
func (rp *replay) sequences(out *SequenceView) {
	years := rp.years
	// rank orders windows: a failure by how soon (years lasted - years < 0),
	// a success by its real ending balance (>= 0).
	var rank, sorted [MaxWindows]float64
	worst, best := 0, 0
	firstDecade := 0
	for i := 0; i < rp.n; i++ {
		o, _ := rp.run(i, nil)
		r := o.endReal
		if o.depleteRow >= 0 {
			r = float64(o.depleteRow - years)
		}
		rank[i] = r
		if r < rank[worst] {
			worst = i
		}
		if r > rank[best] {
			best = i
		}
		y, _ := rp.rec.start(i)
		if i == 0 {
			firstDecade = decade(y)
		}
		k := (decade(y) - firstDecade) / 10
		if k >= MaxDecades {
			continue
		}
		d := &out.Decades[k]
		d.Decade = decade(y)
		if o.drewDown() {
			d.Periods++
			if o.depleteRow < 0 {
				d.Successes++
			}
		}
		out.NumDecades = max(out.NumDecades, k+1)
	}
	out.Periods = rp.n
	copy(sorted[:rp.n], rank[:rp.n])
	m := (rp.n - 1) / 2
	sel(sorted[:rp.n], 0, rp.n-1, m)
	mid := 0
	for i := 0; i < rp.n; i++ {
		if rank[i] == sorted[m] {
			mid = i
			break
		}
	}
	rp.path(worst, &out.Worst)
	rp.path(mid, &out.Median)
	rp.path(best, &out.Best)
}

// decade is the first year of y's decade.
func decade(y int) int {
	if y < 0 {
		return (y - 9) / 10 * 10
	}
	return y / 10 * 10
}

// path replays window i and writes it to sp.
func (r *replay) path(i int, sp *SequencePath) {
	var rows [MaxYears]Year
	o, out := r.run(i, rows[:0])
	sp.StartYear, sp.StartMonth = r.rec.start(i)
	sp.Failed = o.depleteRow >= 0
	sp.YearsLasted = r.years
	if sp.Failed {
		sp.YearsLasted = o.depleteRow
	}
	sp.EndBalance = o.endReal
	sp.NumYears = len(out)
	cpi := 1.0 // price index at the start of the year, the window's start = 1
	for k := range out {
		sp.Years[k] = PathYear{Year: sp.StartYear + k, Withdrawal: out[k].Withdrawals / cpi, EndBalance: out[k].RealEndBalance}
		cpi *= 1 + r.infl[k]
	}
}
