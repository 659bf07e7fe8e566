package fi

import "math"

// MonteCarlo configures Simulate. The means are the Input's ExpectedReturn
// and InflationRate; each year of each path draws its return and inflation
// independently from normal distributions with these standard deviations,
// truncated at a -99% return and at -50% inflation (a draw below is taken as
// that bound: a portfolio cannot lose more than everything, and the price
// index stays positive).
type MonteCarlo struct {
	Simulations     int
	Seed            uint64
	ReturnStdDev    float64
	InflationStdDev float64
}

// The default Monte Carlo spreads are the sample standard deviations, rounded
// to the percent, of the annual US series 1928-2024 (the history fiplan
// embeds; data/history's tests recompute them from it): 12.2% for the yearly
// return of a 60/40 stock/bond mix (Defaults' StockShare) rebalanced yearly,
// and 3.9% for December-to-December CPI-U inflation.
const (
	DefaultReturnStdDev    = 0.12
	DefaultInflationStdDev = 0.04
)

// DefaultMonteCarlo returns fiplan's defaults: 1,000 paths, seed 1,
// DefaultReturnStdDev and DefaultInflationStdDev.
func DefaultMonteCarlo() MonteCarlo {
	return MonteCarlo{Simulations: 1000, Seed: 1, ReturnStdDev: DefaultReturnStdDev, InflationStdDev: DefaultInflationStdDev}
}

// Percentiles are nearest-rank percentiles of a distribution.
type Percentiles struct {
	P10 float64 `json:"p10"`
	P25 float64 `json:"p25"`
	P50 float64 `json:"p50"`
	P75 float64 `json:"p75"`
	P90 float64 `json:"p90"`
}

// Band is the distribution of real (today's money) end balances in one year.
type Band struct {
	Year int `json:"year"`
	Age  int `json:"age"`
	Percentiles
}

// MCResult is the output of Simulate. Bands is reused between calls: Simulate
// truncates and refills it, so a result kept from an earlier call must be
// copied first.
type MCResult struct {
	Simulations int // paths actually run (clamped to MaxCells / years)
	// Drawdowns is the paths that draw on the portfolio for spending (or
	// run out): those that have a success or a failure to count.
	Drawdowns   int
	SuccessRate float64 // share of Drawdowns never running out before LifeExpectancy (0 when none)
	ReachedFI   float64 // share of paths reaching FI within the horizon
	NeverFI     float64 // 1 - ReachedFI
	// FIAge holds percentiles of the FI age over the paths that reach FI;
	// all -1 when none does.
	FIAge Percentiles
	Bands []Band // one per year of the timeline
}

// Scratch is the reusable working memory of Simulate. The zero value is ready;
// keep one per goroutine (for example in a sync.Pool). It grows to the largest
// run it has served and is then reused without allocating.
type Scratch struct {
	bal   []float64 // real end balances, year-major: bal[t*sims+path]
	fiAge []int32
	ret   []float64
	infl  []float64
	rng   normal
}

func (s *Scratch) grow(sims, years int) {
	if cells := sims * years; cap(s.bal) < cells {
		s.bal = make([]float64, cells)
	}
	s.bal = s.bal[:sims*years]
	if cap(s.fiAge) < sims {
		s.fiAge = make([]int32, sims)
	}
	s.fiAge = s.fiAge[:sims]
	if cap(s.ret) < years {
		s.ret = make([]float64, years)
		s.infl = make([]float64, years)
	}
	s.ret, s.infl = s.ret[:years], s.infl[:years]
}

// Simulate runs mc.Simulations stochastic paths of in through the timeline
// engine and writes the distribution to out. The same Input, settings and seed
// always give the same result. With both standard deviations zero every path
// equals Project's. Simulations is clamped to [1, MaxCells/years].
func Simulate(in *Input, mc *MonteCarlo, s *Scratch, out *MCResult) {
	var p plan
	p.init(in)
	years := p.n
	sims := clampInt(mc.Simulations, 1, MaxCells/years)
	rsd := finite(mc.ReturnStdDev, 0, 0, 2)
	isd := finite(mc.InflationStdDev, 0, 0, 1)
	s.grow(sims, years)
	rng := &s.rng
	rng.seed(mc.Seed)

	ok, reached, drew := 0, 0, 0
	for path := 0; path < sims; path++ {
		rng.fill(s.ret, p.gross, rsd, -0.99, 10)
		rng.fill(s.infl, p.infl, isd, -0.5, 10)
		o, _ := p.run(s.ret, s.infl, nil, nil, nil, false, s.bal[path:], sims)
		if o.drewDown() {
			drew++
			if o.depleteRow < 0 {
				ok++
			}
		}
		s.fiAge[path] = -1
		if o.fiRow >= 0 {
			reached++
			s.fiAge[path] = int32(p.age0 + o.fiRow)
		}
	}

	out.Simulations, out.Drawdowns = sims, drew
	out.SuccessRate = 0
	if drew > 0 {
		out.SuccessRate = float64(ok) / float64(drew)
	}
	out.ReachedFI = float64(reached) / float64(sims)
	out.NeverFI = 1 - out.ReachedFI
	out.FIAge = agePercentiles(s.fiAge, p.age0, years, reached)
	out.Bands = out.Bands[:0]
	for t := 0; t < years; t++ {
		col := s.bal[t*sims : (t+1)*sims]
		out.Bands = append(out.Bands, Band{Year: p.year0 + t, Age: p.age0 + t, Percentiles: columnPercentiles(col)})
	}
}

// rank is the 0-based nearest-rank index of percentile q in n sorted values.
func rank(q float64, n int) int {
	k := int(q*float64(n)+0.999999999) - 1
	return clampInt(k, 0, n-1)
}

// agePercentiles counts FI ages (age0 .. age0+years) and reads percentiles
// off the cumulative counts.
func agePercentiles(ages []int32, age0, years, reached int) Percentiles {
	if reached == 0 {
		return Percentiles{-1, -1, -1, -1, -1}
	}
	var hist [MaxYears + 1]int
	for _, a := range ages {
		if a >= 0 {
			hist[clampInt(int(a)-age0, 0, MaxYears)]++
		}
	}
	at := func(q float64) float64 {
		k := rank(q, reached)
		c := 0
		for i, h := range hist[:years+1] {
			c += h
			if c > k {
				return float64(age0 + i)
			}
		}
		return float64(age0 + years)
	}
	return Percentiles{at(0.10), at(0.25), at(0.50), at(0.75), at(0.90)}
}

// columnPercentiles selects the five percentiles of v in place (v is reordered).
func columnPercentiles(v []float64) Percentiles {
	n := len(v)
	k10, k25, k50, k75, k90 := rank(0.10, n), rank(0.25, n), rank(0.50, n), rank(0.75, n), rank(0.90, n)
	// Each selection leaves the values below its rank before it and those
	// above after it, so the next one searches only its side; a value is
	// read at once, since a later selection may move it within its range.
	var p Percentiles
	sel(v, 0, n-1, k50)
	p.P50 = v[k50]
	sel(v, 0, k50, k25)
	p.P25 = v[k25]
	sel(v, 0, k25, k10)
	p.P10 = v[k10]
	sel(v, k50, n-1, k75)
	p.P75 = v[k75]
	sel(v, k75, n-1, k90)
	p.P90 = v[k90]
	return p
}

// sel rearranges v[lo..hi] so that v[k] holds the value it would have if the
// range were sorted, with nothing larger before it and nothing smaller after
// it. Each round picks a pivot (near the target's quantile in a strided
// sample for long ranges, the median of three for short ones) and splits the
// range three ways, below, equal and above, with branch-free Lomuto passes:
// the data is random, so a branch on each comparison would mispredict about
// as often as not, while these loops run at one element a cycle or two. The
// equal block makes runs of ties (empty portfolios) cost one pass.
func sel(v []float64, lo, hi, k int) {
	for hi-lo >= 16 {
		pivot := selPivot(v, lo, hi, k)
		lt := partitionBelow(v[lo:hi+1], pivot) + lo
		if k < lt {
			hi = lt - 1
			continue
		}
		le := partitionAtMost(v[lt:hi+1], pivot) + lt
		if k < le {
			return // v[k] == pivot
		}
		lo = le
	}
	if hi > lo {
		insertionSort(v[lo : hi+1])
	}
}

// selPivot picks a pivot for selecting rank k in v[lo..hi].
func selPivot(v []float64, lo, hi, k int) float64 {
	n := hi - lo + 1
	if n > 1024 {
		// The target's quantile in a strided sample: the partition then
		// lands close to k and the range collapses.
		var smp [63]float64
		step := n / len(smp)
		for i := range smp {
			smp[i] = v[lo+i*step]
		}
		j := (k - lo) * len(smp) / n
		sel(smp[:], 0, len(smp)-1, j) // the sample's j-th value, without sorting it
		return smp[j]
	}
	a, b, c := v[lo], v[lo+n/2], v[hi]
	return max(min(a, b), min(max(a, b), c))
}

// The partitions read a comparison off the sign bit of a difference, which
// the compiler turns into plain arithmetic: x-y is negative exactly when
// x < y (a difference of distinct floats is never zero, and an overflow keeps
// its sign). Only -0 against +0 differs from <, and the two are equal values,
// so a selected value is the same either way.

// partitionBelow moves the values below pivot to the front of v and returns
// how many there are.
func partitionBelow(v []float64, pivot float64) int {
	j := 0
	for i, x := range v {
		v[i] = v[j]
		v[j] = x
		j += int(math.Float64bits(x-pivot) >> 63) // x < pivot, without a branch
	}
	return j
}

// partitionAtMost moves the values at most pivot to the front of v and
// returns how many there are.
func partitionAtMost(v []float64, pivot float64) int {
	j := 0
	for i, x := range v {
		v[i] = v[j]
		v[j] = x
		j += 1 - int(math.Float64bits(pivot-x)>>63) // x <= pivot, without a branch
	}
	return j
}

func insertionSort(v []float64) {
	for i := 1; i < len(v); i++ {
		x := v[i]
		j := i - 1
		for j >= 0 && v[j] > x {
			v[j+1] = v[j]
			j--
		}
		v[j+1] = x
	}
}
