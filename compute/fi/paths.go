package fi

// PathOutcome is what one path of a plan reports to SimulatePaths and
// BacktestPaths.
type PathOutcome struct {
	FIRow      int // first row whose start finds FI reached; -1 never
	DepleteRow int // first row with unmet spending; -1 never
	// DrewDown: the path drew on the portfolio for spending (or could
	// not): it has a success or a failure to count.
	DrewDown bool
	EndReal  float64 // the real end balance
}

// PathPlan is a plan that runs over given returns and inflation: another
// engine (a household's) that SimulatePaths and BacktestPaths drive as
// Simulate and PlanBacktest drive this package's.
type PathPlan interface {
	// RunPath runs the plan over rets (yearly nominal returns of the
	// portfolio, before fees) and infl; when sink is not nil, year t's
	// real end balance goes to sink[t*stride].
	RunPath(rets, infl, sink []float64, stride int) PathOutcome
}

// SimulatePaths runs mc.Simulations paths of pp, years long from age0 and
// year0, each year's return drawn around ret and inflation around infl as
// Simulate draws them, and writes the distribution to out.
func SimulatePaths(pp PathPlan, years, age0, year0 int, ret, infl float64, mc *MonteCarlo, s *Scratch, out *MCResult) {
	years = clampInt(years, 1, MaxYears)
	sims := clampInt(mc.Simulations, 1, MaxCells/years)
	rsd := finite(mc.ReturnStdDev, 0, 0, 2)
	isd := finite(mc.InflationStdDev, 0, 0, 1)
	s.grow(sims, years)
	rng := &s.rng
	rng.seed(mc.Seed)
	ok, reached, drew := 0, 0, 0
	for path := 0; path < sims; path++ {
		rng.fill(s.ret, ret, rsd, -0.99, 10)
		rng.fill(s.infl, infl, isd, -0.5, 10)
		o := pp.RunPath(s.ret, s.infl, s.bal[path:], sims)
		if o.DrewDown {
			drew++
			if o.DepleteRow < 0 {
				ok++
			}
		}
		s.fiAge[path] = -1
		if o.FIRow >= 0 {
			reached++
			s.fiAge[path] = int32(age0 + o.FIRow)
		}
	}
	out.Simulations, out.Drawdowns = sims, drew
	out.SuccessRate = 0
	if drew > 0 {
		out.SuccessRate = float64(ok) / float64(drew)
	}
	out.ReachedFI = float64(reached) / float64(sims)
	out.NeverFI = 1 - out.ReachedFI
	out.FIAge = agePercentiles(s.fiAge, age0, years, reached)
	out.Bands = out.Bands[:0]
	for t := 0; t < years; t++ {
		col := s.bal[t*sims : (t+1)*sims]
		out.Bands = append(out.Bands, Band{Year: year0 + t, Age: age0 + t, Percentiles: columnPercentiles(col)})
	}
}

// BacktestPaths replays pp over every window of h (at most MaxWindows)
// years long, the portfolio rebalanced yearly to stock stocks, cash cash
// and bonds for the rest. Windows in which the plan never draws down have
// no success rate: Drawdowns counts those that do.
func BacktestPaths(pp PathPlan, years int, stock, cash float64, h History) BacktestResult {
	var res BacktestResult
	if years <= 0 || years > MaxYears {
		return res
	}
	rec := recordOf(h)
	n := min(rec.windows(years), MaxWindows)
	mx := mix{stock: stock, cash: cash, bond: 1 - stock - cash}
	var rets, infl, cape [MaxYears]float64
	var ends [MaxWindows]float64
	worstLasted, worstEnd := years+1, 0.0
	res.LowestSpending = 1
	for i := 0; i < n; i++ {
		rec.window(i, years, mx, rets[:years], infl[:years], cape[:years])
		o := pp.RunPath(rets[:years], infl[:years], nil, 0)
		res.Periods++
		ends[i] = o.EndReal
		lasted := years
		if o.DrewDown {
			res.Drawdowns++
		}
		if o.DepleteRow >= 0 {
			lasted = o.DepleteRow
		} else if o.DrewDown {
			res.Successes++
		}
		if lasted < worstLasted || (lasted == worstLasted && o.EndReal < worstEnd) {
			worstLasted, worstEnd = lasted, o.EndReal
			res.WorstStartYear, res.WorstStartMonth = rec.start(i)
			res.WorstFailed = o.DepleteRow >= 0
			res.WorstFailYear = 0
			if res.WorstFailed {
				res.WorstFailYear = res.WorstStartYear + o.DepleteRow
			}
			res.WorstYearsLasted = lasted
			res.WorstEndBalance = o.EndReal
		}
	}
	if res.Drawdowns > 0 {
		res.SuccessRate = float64(res.Successes) / float64(res.Drawdowns)
	}
	res.MedianEndBalance = median(ends[:n])
	return res
}
