package health

import (
	"math"

	"fiplan/compute/category"
)

// Scale.
const (
	MaxScore     = 1000 // the best score
	ComponentMax = 250  // points of each component
)

// Diversification parameters.
const (
	ClassPoints   = 70   // asset-class spread
	ClassMinShare = 0.05 // a class counts fully from this share
	ClassTarget   = 3.0  // effective classes for full points

	HHIPoints = 70     // holding concentration
	HHIFull   = 1000.0 // HHI at or below: full points (DOJ/FTC "unconcentrated")
	HHIHigh   = 1800.0 // HHI at this level: half points (DOJ/FTC "highly concentrated")
	HHIZero   = 5000.0 // HHI at or above: no points (two equal holdings)

	ExposurePoints = 60   // largest single exposure
	ExposureFull   = 0.10 // at or below: full points (UCITS single-issuer ceiling)
	ExposureZero   = 0.50 // at or above: no points

	RegionPoints = 50  // regional spread of equities
	RegionTarget = 2.0 // effective regions for full points

	// FundLookThrough is the number of equal underlying positions a pooled
	// equity, bond, real-estate or cash holding is assumed to spread over.
	FundLookThrough = 20.0
	// NarrowFundLookThrough is the same for pooled commodity or other funds.
	NarrowFundLookThrough = 5.0
)

// Cost-efficiency parameters.
const (
	BenchmarkExpenseRatio = 0.001 // a broad index fund: 0.10% a year
	AssumedExpenseRatio   = 0.005 // assumed for a non-cash holding without a stated ratio
	MaxExpenseRatio       = 0.10  // stated ratios above are capped
	AssumedReturn         = 0.07  // gross yearly return used to compound costs
	DefaultHorizonYears   = 20    // cost horizon when age or target retirement age is unknown
	MinHorizonYears       = 10
	MaxHorizonYears       = 40
	DragZero              = 0.20 // losing this share of end wealth to excess cost: no points
)

// Risk-alignment parameters.
const (
	GrowthPoints = 170  // growth share versus the guide
	GrowthBand   = 0.10 // deviation with full points
	GrowthZero   = 0.40 // deviation with no points

	SpeculativePoints = 80
	SpeculativeSpan   = 0.25 // points reach zero this far above the cap
)

// Resilience parameters.
const (
	EmergencyPoints     = 120
	EmergencyMonthsFull = 6.0

	LiquidityPoints = 60
	IlliquidFull    = 0.30 // illiquid share with full points
	IlliquidZero    = 0.80 // illiquid share with no points

	FIPoints          = 70
	FIMultiple        = 25.0 // FI number = 25 x annual expenses (4% withdrawal rate)
	AssumedRealReturn = 0.04 // yearly return after inflation for coast-FI progress
)

// MaxValue caps any single amount (holding value, expenses, emergency fund)
// so that sums stay finite.
const MaxValue = 1e15

// MinValue is the smallest holding value (and annual expenses) that counts:
// anything smaller is below a cent and treated as absent.
const MinValue = 0.01

// globalSplit spreads a world fund over the regions (rounded MSCI ACWI weights).
var globalSplit = [numRegions]float64{NorthAmerica: 0.65, Europe: 0.15, AsiaPacific: 0.10, EmergingMarkets: 0.10}

// growthWeight is how much of each class counts as a growth asset.
var growthWeight = [NumAssetClasses]float64{Equity: 1, Bond: 0, Cash: 0, RealEstate: 0.5, Crypto: 1, Commodity: 0.5, Other: 0.5}

// speculativeCap is the crypto share with full points per risk tolerance.
var speculativeCap = [4]float64{RiskUnknown: 0.05, RiskLow: 0.02, RiskMedium: 0.05, RiskHigh: 0.10}

// toleranceGuide is the growth share when only the risk tolerance is known.
var toleranceGuide = [4]float64{RiskLow: 0.40, RiskMedium: 0.60, RiskHigh: 0.80}

// toleranceShift adjusts an age-based guide.
var toleranceShift = [4]float64{RiskLow: -0.10, RiskHigh: 0.10}

func clamp01(x float64) float64 {
	if !(x > 0) { // also NaN
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// amount returns x when it is a usable non-negative amount, capped at MaxValue.
func amount(x float64) (float64, bool) {
	if !finite(x) || x < 0 {
		return 0, false
	}
	if x > MaxValue {
		x = MaxValue
	}
	return x, true
}

// expenseRatio returns the holding's ratio and whether it was stated.
func expenseRatio(h *Holding) (float64, bool) {
	if !h.HasExpenseRatio || !finite(h.ExpenseRatio) || h.ExpenseRatio < 0 {
		return 0, false
	}
	if h.ExpenseRatio > MaxExpenseRatio {
		return MaxExpenseRatio, true
	}
	return h.ExpenseRatio, true
}

// lookThrough is the number of equal underlying positions assumed for a holding.
func lookThrough(c AssetClass, pooled bool) float64 {
	if c == Cash {
		return FundLookThrough
	}
	if !pooled {
		return 1
	}
	switch c {
	case Equity, Bond, RealEstate:
		return FundLookThrough
	case Commodity, Other:
		return NarrowFundLookThrough
	}
	return 1 // crypto funds hold one or a few highly correlated coins
}

// hhiPoints maps a look-through HHI (0..10000) to points.
func hhiPoints(h float64) float64 {
	switch {
	case !(h > HHIFull):
		return HHIPoints
	case h < HHIHigh:
		return HHIPoints * (1 - 0.5*(h-HHIFull)/(HHIHigh-HHIFull))
	case h < HHIZero:
		return HHIPoints * 0.5 * (HHIZero - h) / (HHIZero - HHIHigh)
	}
	return 0
}

// excessDrag is the share of end wealth lost over years to a yearly cost er
// instead of BenchmarkExpenseRatio, compounding at AssumedReturn.
func excessDrag(er float64, years int) float64 {
	if !(er > BenchmarkExpenseRatio) {
		return 0
	}
	return 1 - math.Pow((1+AssumedReturn-er)/(1+AssumedReturn-BenchmarkExpenseRatio), float64(years))
}

func costPoints(er float64, years int) float64 {
	return ComponentMax * clamp01(1-excessDrag(er, years)/DragZero)
}

// horizonCost is the end-value difference of value invested for years at
// a yearly cost er instead of the benchmark.
func horizonCost(value, er float64, years int) float64 {
	if !(er > BenchmarkExpenseRatio) {
		return 0
	}
	y := float64(years)
	return value * (math.Pow(1+AssumedReturn-BenchmarkExpenseRatio, y) - math.Pow(1+AssumedReturn-er, y))
}

// glidePath is the growth share for years to the target retirement age,
// after a target-date fund glide path: 90% from 25 years out, 50% at the
// target, 30% seven years after.
func glidePath(years float64) float64 {
	switch {
	case years >= 25:
		return 0.90
	case years >= 0:
		return 0.50 + 0.40*years/25
	case years > -7:
		return 0.50 + 0.20*years/7
	}
	return 0.30
}

// ages returns the usable age and target retirement age.
func ages(c *Context) (age float64, hasAge bool, target float64, hasTarget bool) {
	if c.HasAge && finite(c.Age) && c.Age >= 0 && c.Age <= 120 {
		age, hasAge = c.Age, true
	}
	if c.HasTargetRetirementAge && finite(c.TargetRetirementAge) && c.TargetRetirementAge >= 0 && c.TargetRetirementAge <= 120 {
		target, hasTarget = c.TargetRetirementAge, true
	}
	return
}

// Score computes the health of p into r, overwriting it. It never panics,
// never allocates and leaves only finite numbers in r.
func Score(p *Portfolio, r *Result) {
	*r = Result{}
	for i := range r.Components {
		r.Components[i] = Component{Name: componentNames[i], Max: ComponentMax}
	}
	m := &r.Metrics
	var t tally
	t.count(p)
	m.Total, m.Holdings, m.Ignored, m.LargestHolding = t.total, t.holdings, t.ignored, t.largest
	ps, missing := readPerson(&p.Context, t.classVal[Cash])
	r.Missing |= missing
	measurePerson(m, &ps)

	if t.total == 0 {
		r.Missing |= MissingHoldings
		scoreEmpty(p, r, ps.hasExpenses)
		return
	}
	if t.unknownER > 0 {
		r.Missing |= MissingExpenseRatio
	}
	if t.equityNoRegion > 0 {
		r.Missing |= MissingRegion
	}
	inv := 1 / t.total
	scoreDiversification(p, r, &t, inv)
	scoreCostEfficiency(p, r, &t, inv)
	scoreRiskAlignment(p, r, &t, &ps, inv)
	scoreResilience(p, r, &t, &ps, inv)
	r.finish()
}

// ---- Aggregation: one pass over the holdings ----

// costCand is a candidate fund-cost recommendation.
type costCand struct {
	idx    int
	value  float64
	er     float64
	excess float64 // value * (er - benchmark)
}

// tally is what one pass over the holdings gathers for the four components.
// Values are counted values (see countedValue).
type tally struct {
	total    float64 // sum of the counted values
	holdings int     // holdings counted
	ignored  int     // holdings ignored

	classVal [NumAssetClasses]float64 // value per asset class

	hhiSum  float64 // sum over holdings of value^2 / look-through positions
	maxExp  float64 // largest look-through exposure
	largest int     // index of the holding with it; -1 when none

	regionVal         [numRegions]float64 // equity value per region, world funds split
	equityKnownRegion float64             // equity value with a region (world funds included)
	equityNoRegion    float64             // equity value without a region

	erSum        float64     // sum of value * expense ratio, assumed where absent
	knownERVal   float64     // value whose expense ratio is stated, cash included
	unknownERVal float64     // value whose expense ratio is assumed
	unknownER    int         // holdings whose expense ratio is assumed
	top          [3]costCand // the largest excess costs of stated ratios, largest first
	nTop         int

	illiquid float64 // value of directly held real estate and other assets
}

// count adds every holding of p whose value counts to the tally: its class,
// its cost, its look-through exposure, the region of an equity holding and
// whether it is illiquid (real estate or other held directly, without an
// expense ratio). The other holdings are counted as ignored.
func (t *tally) count(p *Portfolio) {
	t.largest = -1
	for i := range p.Holdings {
		h := &p.Holdings[i]
		v, ok := countedValue(h.Value)
		if !ok {
			t.ignored++
			continue
		}
		t.holdings++
		t.total += v
		c := h.AssetClass.norm()
		t.classVal[c] += v

		// A stated expense ratio marks a pooled fund; so does an equity
		// holding in the global region, which only a world fund can be,
		// and a name that says fund, index or ETF.
		pooled := t.addCost(i, h, c, v) || (c == Equity && h.Region == Global) || (c != Cash && c != Crypto && category.Fund(h.Name))

		k := lookThrough(c, pooled)
		t.hhiSum += v / k * v
		if e := v / k; e > t.maxExp {
			t.maxExp, t.largest = e, i
		}

		if c == Equity {
			t.addRegion(h.Region, v)
		}
		if (c == RealEstate || c == Other) && !pooled {
			t.illiquid += v
		}
	}
}

// countedValue decides whether a holding value counts: at least MinValue
// and not +Inf (NaN fails the comparison). Counted values are capped at
// MaxValue.
func countedValue(v float64) (float64, bool) {
	if !(v >= MinValue) || math.IsInf(v, 1) {
		return 0, false
	}
	if v > MaxValue {
		v = MaxValue
	}
	return v, true
}

// addCost adds the holding's yearly cost: its stated expense ratio, none
// for cash, AssumedExpenseRatio for anything else. A stated ratio above the
// benchmark makes the holding a fund-cost candidate. It reports whether the
// ratio was stated, which also marks the holding as a pooled fund.
func (t *tally) addCost(i int, h *Holding, c AssetClass, v float64) bool {
	er, stated := expenseRatio(h)
	switch {
	case stated:
		t.knownERVal += v
	case c == Cash:
		t.knownERVal += v // cash has no fund fee
	default:
		er = AssumedExpenseRatio
		t.unknownERVal += v
		t.unknownER++
	}
	t.erSum += v * er
	if stated && er > BenchmarkExpenseRatio {
		t.keepTop(costCand{idx: i, value: v, er: er, excess: v * (er - BenchmarkExpenseRatio)})
	}
	return stated
}

// keepTop keeps cand if it is among the three largest excess costs so far,
// in order, largest first; on equal excess the earlier holding stays ahead.
func (t *tally) keepTop(cand costCand) {
	j := t.nTop
	if j == len(t.top) {
		j--
		if cand.excess <= t.top[j].excess {
			return
		}
	} else {
		t.nTop++
	}
	for j > 0 && t.top[j-1].excess < cand.excess {
		t.top[j] = t.top[j-1]
		j--
	}
	t.top[j] = cand
}

// addRegion spreads an equity holding's value v over the regions: a world
// fund by globalSplit, a stated region in full; without a valid region it is
// counted apart.
func (t *tally) addRegion(g Region, v float64) {
	switch {
	case g == Global:
		for j, s := range globalSplit {
			t.regionVal[j] += v * s
		}
		t.equityKnownRegion += v
	case g > RegionUnknown && g < numRegions:
		t.regionVal[g] += v
		t.equityKnownRegion += v
	default:
		t.equityNoRegion += v
	}
}

// ---- Aggregation: the person ----

// person is what Score can use of the Context; absent or invalid figures
// are zero with their has-flag false.
type person struct {
	age, target       float64
	hasAge, hasTarget bool

	tol RiskTolerance // RiskUnknown when absent or out of range

	expenses    float64 // yearly, at least MinValue when hasExpenses
	hasExpenses bool

	emergencyFund    float64 // the cash holdings when !hasEmergencyFund
	hasEmergencyFund bool
}

// readPerson decides which figures of c are usable and reports the others
// as missing; cash, the value of the cash holdings, stands in for an absent
// emergency fund.
func readPerson(c *Context, cash float64) (person, Missing) {
	var ps person
	var missing Missing
	ps.age, ps.hasAge, ps.target, ps.hasTarget = ages(c)
	if !ps.hasAge {
		missing |= MissingAge
	}
	if !ps.hasTarget {
		missing |= MissingTargetRetirementAge
	}
	ps.tol = c.RiskTolerance
	if ps.tol > RiskHigh {
		ps.tol = RiskUnknown
	}
	if ps.tol == RiskUnknown {
		missing |= MissingRiskTolerance
	}
	expenses, ok := amount(c.AnnualExpenses)
	ps.hasExpenses = ok && c.HasAnnualExpenses && expenses >= MinValue
	if ps.hasExpenses {
		ps.expenses = expenses
	} else {
		missing |= MissingAnnualExpenses
	}
	ps.emergencyFund, ok = amount(c.EmergencyFund)
	ps.hasEmergencyFund = ok && c.HasEmergencyFund
	if !ps.hasEmergencyFund {
		missing |= MissingEmergencyFund
		ps.emergencyFund = cash
	}
	return ps, missing
}

// measurePerson fills the metrics that depend on the person alone: the
// emergency fund and the months of expenses it covers (at most 100 years),
// the FI number, the cost horizon and the speculative cap.
func measurePerson(m *Metrics, ps *person) {
	m.EmergencyFund = ps.emergencyFund
	if ps.hasExpenses {
		m.EmergencyMonths = math.Min(1200, ps.emergencyFund*12/ps.expenses) // 100 years caps absurd inputs
		m.FINumber = FIMultiple * ps.expenses
	}
	m.HorizonYears = DefaultHorizonYears
	if ps.hasAge && ps.hasTarget {
		m.HorizonYears = int(math.Max(MinHorizonYears, math.Min(MaxHorizonYears, math.Round(ps.target-ps.age))))
	}
	m.SpeculativeCap = speculativeCap[ps.tol]
}

// scoreEmpty scores a portfolio without any counted holding: only the
// emergency fund stated in the context can earn points.
func scoreEmpty(p *Portfolio, r *Result, hasExpenses bool) {
	m := &r.Metrics
	r.add(KindNoHoldings, Diversification, MaxScore, p)
	efPts := 0.0
	if hasExpenses && !r.Missing.Has(MissingEmergencyFund) {
		efPts = EmergencyPoints * clamp01(m.EmergencyMonths/EmergencyMonthsFull)
		if efPts < EmergencyPoints {
			r.addEmergency(p, EmergencyPoints-efPts, m.FINumber/FIMultiple, false)
		}
	}
	r.Components[Resilience].Score = int(math.Round(efPts))
	r.Score = r.Components[Resilience].Score
	r.finish()
}

func (r *Result) addEmergency(p *Portfolio, gain, expenses float64, estimated bool) {
	m := &r.Metrics
	rc := r.add(KindEmergencyFund, Resilience, gain, p)
	rc.Value, rc.Target, rc.Estimated = m.EmergencyMonths, EmergencyMonthsFull, estimated
	rc.Amount = math.Max(0, (EmergencyMonthsFull-m.EmergencyMonths)*expenses/12)
}

// add appends a recommendation; the capacity is never exceeded by design,
// but a full array overwrites the last slot rather than panicking.
func (r *Result) add(k Kind, c ComponentID, gain float64, p *Portfolio) *Recommendation {
	i := r.NumRecs
	if i < MaxRecommendations {
		r.NumRecs++
	} else {
		i = MaxRecommendations - 1
	}
	rc := &r.Recs[i]
	*rc = Recommendation{Kind: k, Component: c, Holding: -1, Currency: p.Currency, gain: gain}
	return rc
}

func (rc *Recommendation) setHolding(p *Portfolio, i int) {
	rc.Holding = i
	rc.Name = p.Holdings[i].Name
	rc.Class = p.Holdings[i].AssetClass.norm()
	rc.Region = p.Holdings[i].Region
}

// settle rounds a component's points and keeps its recommendations
// consistent with them: none when the component is at its maximum; else
// those worth at least half a point, or the largest one.
func (r *Result) settle(c ComponentID, pts float64, start int) {
	s := int(math.Round(pts))
	if !(pts > 0) {
		s = 0
	}
	if s > ComponentMax {
		s = ComponentMax
	}
	r.Components[c].Score = s
	r.Score += s
	if s == ComponentMax {
		r.NumRecs = start
		return
	}
	best, kept := start, start
	for i := start; i < r.NumRecs; i++ {
		if r.Recs[i].gain > r.Recs[best].gain {
			best = i
		}
	}
	if r.NumRecs == start {
		return // cannot happen: every lost point has a recommendation
	}
	if r.Recs[best].gain < 0.5 {
		r.Recs[start] = r.Recs[best]
		r.NumRecs = start + 1
		return
	}
	for i := start; i < r.NumRecs; i++ {
		if r.Recs[i].gain >= 0.5 {
			r.Recs[kept] = r.Recs[i]
			kept++
		}
	}
	r.NumRecs = kept
}

// finish orders the recommendations by impact and numbers them.
func (r *Result) finish() {
	recs := r.Recs[:r.NumRecs]
	for i := 1; i < len(recs); i++ {
		x := recs[i]
		j := i
		for j > 0 && recs[j-1].gain < x.gain {
			recs[j] = recs[j-1]
			j--
		}
		recs[j] = x
	}
	for i := range recs {
		recs[i].Priority = i + 1
		g := math.Round(recs[i].gain)
		if !(g >= 1) {
			g = 1
		}
		if g > MaxScore {
			g = MaxScore
		}
		recs[i].Impact = int(g)
	}
}
