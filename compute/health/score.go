package health

import "math"

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

		pooled := t.addCost(i, h, c, v)

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

// ---- Diversification ----

// spread is what measuring diversification finds beside the Metrics.
type spread struct {
	largestClass       AssetClass
	hasEquity          bool    // some equity is held
	knownRegion        bool    // some equity states a region (a world fund included)
	largestRegion      Region  // of the equity with a known region
	largestRegionShare float64 // its share of the equity with a known region
}

// scoreDiversification scores the diversification component with its
// recommendations; inv is 1 / the counted total.
func scoreDiversification(p *Portfolio, r *Result, t *tally, inv float64) {
	s := measureDiversification(&r.Metrics, t, inv)
	d := diversificationPoints(&r.Metrics, &s)
	start := r.NumRecs
	recommendDiversification(p, r, &d, &s, inv)
	r.settle(Diversification, d.sum(), start)
}

// measureDiversification fills the class shares, the effective number of
// classes, the look-through HHI and largest exposure, and the effective
// number of equity regions (when some equity states a region).
func measureDiversification(m *Metrics, t *tally, inv float64) spread {
	var s spread
	for c := range t.classVal {
		share := t.classVal[c] * inv
		m.ClassShares[c] = share
		m.EffectiveClasses += math.Min(1, share/ClassMinShare)
		if share > m.ClassShares[s.largestClass] {
			s.largestClass = AssetClass(c)
		}
	}
	m.HHI = math.Min(10000, t.hhiSum*inv*inv*10000)
	m.LargestExposure = math.Min(1, t.maxExp*inv)

	s.hasEquity = t.classVal[Equity] != 0
	s.knownRegion = t.equityKnownRegion != 0
	if !s.hasEquity || !s.knownRegion {
		return s
	}
	var sq float64
	for g := range t.regionVal {
		share := t.regionVal[g] / t.equityKnownRegion
		sq += share * share
		if share > s.largestRegionShare {
			s.largestRegionShare, s.largestRegion = share, Region(g)
		}
	}
	if sq > 0 {
		m.EquityRegions = math.Min(numRegions, 1/sq)
	}
	return s
}

// diversificationParts are the points of the four diversification parts.
type diversificationParts struct{ class, hhi, exposure, region float64 }

func (d *diversificationParts) sum() float64 { return d.class + d.hhi + d.exposure + d.region }

// diversificationPoints decides the diversification points: asset-class
// spread (effective classes from 1 to ClassTarget), holding concentration
// (hhiPoints), the largest look-through exposure (ExposureFull to
// ExposureZero) and the regional spread of equities (effective regions from
// 1 to RegionTarget; full without equities, half when no equity states a
// region).
func diversificationPoints(m *Metrics, s *spread) diversificationParts {
	d := diversificationParts{
		class:    ClassPoints * clamp01((m.EffectiveClasses-1)/(ClassTarget-1)),
		hhi:      hhiPoints(m.HHI),
		exposure: ExposurePoints * clamp01((ExposureZero-m.LargestExposure)/(ExposureZero-ExposureFull)),
	}
	switch {
	case !s.hasEquity:
		d.region = RegionPoints // nothing to spread
	case !s.knownRegion:
		d.region = RegionPoints / 2 // unknown
	default:
		d.region = RegionPoints * clamp01((m.EquityRegions-1)/(RegionTarget-1))
	}
	return d
}

// recommendDiversification adds a recommendation for each diversification
// part short of its points, worth the points it lacks.
func recommendDiversification(p *Portfolio, r *Result, d *diversificationParts, s *spread, inv float64) {
	m := &r.Metrics
	if d.class < ClassPoints {
		rc := r.add(KindAssetClassSpread, Diversification, ClassPoints-d.class, p)
		rc.Value, rc.Target, rc.Class, rc.Share = m.EffectiveClasses, ClassTarget, s.largestClass, m.ClassShares[s.largestClass]
	}
	if d.hhi < HHIPoints {
		rc := r.add(KindHoldingConcentration, Diversification, HHIPoints-d.hhi, p)
		rc.Value, rc.Target = m.HHI, HHIFull
	}
	if d.exposure < ExposurePoints && m.LargestHolding >= 0 {
		rc := r.add(KindSingleHolding, Diversification, ExposurePoints-d.exposure, p)
		rc.setHolding(p, m.LargestHolding)
		rc.Share = math.Min(1, math.Min(p.Holdings[m.LargestHolding].Value, MaxValue)*inv)
		rc.Value, rc.Target = m.LargestExposure, ExposureFull
	}
	if d.region < RegionPoints {
		if !s.knownRegion {
			rc := r.add(KindRegionUnknown, Diversification, RegionPoints-d.region, p)
			rc.Share = m.ClassShares[Equity]
		} else {
			rc := r.add(KindRegionSpread, Diversification, RegionPoints-d.region, p)
			rc.Value, rc.Target, rc.Region, rc.Share = m.EquityRegions, RegionTarget, s.largestRegion, s.largestRegionShare
		}
	}
}

// ---- Cost efficiency ----

// scoreCostEfficiency scores the cost-efficiency component with its
// recommendations; inv is 1 / the counted total.
func scoreCostEfficiency(p *Portfolio, r *Result, t *tally, inv float64) {
	measureCost(&r.Metrics, t, inv)
	pts := costEfficiencyPoints(&r.Metrics)
	start := r.NumRecs
	recommendCost(p, r, t, pts, inv)
	r.settle(CostEfficiency, pts, start)
}

// measureCost fills the value-weighted expense ratio, the share of the
// portfolio whose ratio is known, the yearly cost and the excess drag over
// the horizon.
func measureCost(m *Metrics, t *tally, inv float64) {
	m.ExpenseRatio = t.erSum * inv
	m.KnownExpenseShare = clamp01(t.knownERVal * inv)
	m.AnnualCost = t.erSum
	m.ExcessDrag = clamp01(excessDrag(m.ExpenseRatio, m.HorizonYears))
}

// costEfficiencyPoints decides the cost-efficiency points from the weighted
// expense ratio over the horizon (see costPoints).
func costEfficiencyPoints(m *Metrics) float64 { return costPoints(m.ExpenseRatio, m.HorizonYears) }

// recommendCost adds, for each of the costliest funds, the points that
// moving it to the benchmark ratio would recover; the same for stating the
// assumed ratios; and, when neither recovers anything while points are
// lost, the portfolio's overall cost.
func recommendCost(p *Portfolio, r *Result, t *tally, pts, inv float64) {
	m := &r.Metrics
	years := m.HorizonYears
	start := r.NumRecs
	for j := 0; j < t.nTop; j++ {
		c := &t.top[j]
		gain := costPoints(m.ExpenseRatio-c.excess*inv, years) - pts
		if gain <= 0 {
			continue
		}
		rc := r.add(KindFundCost, CostEfficiency, gain, p)
		rc.setHolding(p, c.idx)
		rc.Value, rc.Target, rc.Years = c.er, BenchmarkExpenseRatio, years
		rc.Amount = c.excess
		rc.Total = horizonCost(c.value, c.er, years)
		rc.Share = c.value * inv
	}
	if t.unknownER > 0 {
		gain := costPoints(m.ExpenseRatio-t.unknownERVal*inv*(AssumedExpenseRatio-BenchmarkExpenseRatio), years) - pts
		if gain > 0 {
			rc := r.add(KindExpenseRatioUnknown, CostEfficiency, gain, p)
			rc.Count, rc.Share, rc.Value = t.unknownER, t.unknownERVal*inv, AssumedExpenseRatio
		}
	}
	if pts < ComponentMax && r.NumRecs == start {
		rc := r.add(KindPortfolioCost, CostEfficiency, ComponentMax-pts, p)
		rc.Value, rc.Target, rc.Years = m.ExpenseRatio, BenchmarkExpenseRatio, years
		rc.Amount = t.total * (m.ExpenseRatio - BenchmarkExpenseRatio)
		rc.Total = horizonCost(t.total, m.ExpenseRatio, years)
	}
}

// ---- Risk alignment ----

// scoreRiskAlignment scores the risk-alignment component with its
// recommendations; inv is 1 / the counted total. It reads the class shares
// measured for diversification.
func scoreRiskAlignment(p *Portfolio, r *Result, t *tally, ps *person, inv float64) {
	measureRisk(&r.Metrics, t, ps, inv)
	a := riskAlignmentPoints(&r.Metrics)
	start := r.NumRecs
	recommendRisk(p, r, &a)
	r.settle(RiskAlignment, a.sum(), start)
}

// measureRisk fills the growth share, its guide and the speculative share.
func measureRisk(m *Metrics, t *tally, ps *person, inv float64) {
	var growth float64
	for c, w := range growthWeight {
		growth += w * t.classVal[c]
	}
	m.GrowthShare = clamp01(growth * inv)
	m.TargetGrowth, m.HasTargetGrowth = growthGuide(ps)
	m.SpeculativeShare = m.ClassShares[Crypto]
}

// growthGuide decides the growth share to aim for: the glide path on the
// years to the target retirement age, or 110 minus age (within 30%..90%),
// either moved by the risk tolerance; else the tolerance's own guide; the
// guide is kept within 10%..100%. It reports false, with 0, when neither age
// nor risk tolerance is known.
func growthGuide(ps *person) (float64, bool) {
	var g float64
	switch {
	case ps.hasAge && ps.hasTarget:
		g = glidePath(ps.target-ps.age) + toleranceShift[ps.tol]
	case ps.hasAge:
		g = math.Max(0.30, math.Min(0.90, 1.10-ps.age/100)) + toleranceShift[ps.tol]
	case ps.tol != RiskUnknown:
		g = toleranceGuide[ps.tol]
	default:
		return 0, false
	}
	return math.Max(0.10, math.Min(1, g)), true
}

// riskAlignmentParts are the points of the two risk-alignment parts.
type riskAlignmentParts struct{ growth, speculative float64 }

func (a *riskAlignmentParts) sum() float64 { return a.growth + a.speculative }

// riskAlignmentPoints decides the risk-alignment points: the growth share's
// distance from its guide (full within GrowthBand, none from GrowthZero;
// half without a guide) and the speculative share above its cap (none
// SpeculativeSpan above it).
func riskAlignmentPoints(m *Metrics) riskAlignmentParts {
	a := riskAlignmentParts{growth: GrowthPoints / 2}
	if m.HasTargetGrowth {
		dev := math.Abs(m.GrowthShare - m.TargetGrowth)
		a.growth = GrowthPoints * clamp01(1-(dev-GrowthBand)/(GrowthZero-GrowthBand))
	}
	a.speculative = SpeculativePoints * clamp01(1-(m.SpeculativeShare-m.SpeculativeCap)/SpeculativeSpan)
	return a
}

// recommendRisk adds a recommendation for each risk-alignment part short
// of its points: move toward the growth guide (or state what it needs), and
// cut the speculative share to its cap.
func recommendRisk(p *Portfolio, r *Result, a *riskAlignmentParts) {
	m := &r.Metrics
	switch {
	case !m.HasTargetGrowth:
		rc := r.add(KindRiskContextMissing, RiskAlignment, GrowthPoints/2, p)
		rc.Missing = r.Missing & (MissingAge | MissingTargetRetirementAge | MissingRiskTolerance)
	case a.growth < GrowthPoints:
		kind := KindGrowthTooHigh
		if m.GrowthShare < m.TargetGrowth {
			kind = KindGrowthTooLow
		}
		rc := r.add(kind, RiskAlignment, GrowthPoints-a.growth, p)
		rc.Share, rc.Target, rc.Amount = m.GrowthShare, m.TargetGrowth, math.Abs(m.GrowthShare-m.TargetGrowth)*m.Total
	}
	if a.speculative < SpeculativePoints {
		rc := r.add(KindSpeculative, RiskAlignment, SpeculativePoints-a.speculative, p)
		rc.Share, rc.Target = m.SpeculativeShare, m.SpeculativeCap
		rc.Amount = (m.SpeculativeShare - m.SpeculativeCap) * m.Total
	}
}

// ---- Resilience ----

// scoreResilience scores the resilience component with its
// recommendations; inv is 1 / the counted total.
func scoreResilience(p *Portfolio, r *Result, t *tally, ps *person, inv float64) {
	years := measureResilience(&r.Metrics, t, ps, inv)
	s := resiliencePoints(&r.Metrics, ps.hasExpenses)
	start := r.NumRecs
	recommendResilience(p, r, &s, ps, years)
	r.settle(Resilience, s.sum(), start)
}

// measureResilience fills the FI and coast-FI progress (when annual
// expenses are known) and the liquid share. It returns the years coast FI
// grows over: those to the target retirement age, or 0 when unknown or
// under a year.
func measureResilience(m *Metrics, t *tally, ps *person, inv float64) (years float64) {
	if ps.hasExpenses {
		m.FIProgress = math.Min(10, t.total/m.FINumber)
		coast := m.FIProgress
		if ps.hasAge && ps.hasTarget && ps.target-ps.age >= 1 {
			years = ps.target - ps.age
			coast = math.Min(10, t.total*math.Pow(1+AssumedRealReturn, years)/m.FINumber)
		}
		m.CoastFIProgress = coast
	}
	m.LiquidShare = clamp01(1 - t.illiquid*inv)
	return years
}

// resilienceParts are the points of the three resilience parts.
type resilienceParts struct{ emergency, fi, liquidity float64 }

func (s *resilienceParts) sum() float64 { return s.emergency + s.fi + s.liquidity }

// resiliencePoints decides the resilience points: months of expenses in the
// emergency fund (full from EmergencyMonthsFull) and coast-FI progress
// (full from 1), both half when annual expenses are unknown; and the
// illiquid share (full up to IlliquidFull, none from IlliquidZero).
func resiliencePoints(m *Metrics, hasExpenses bool) resilienceParts {
	s := resilienceParts{emergency: EmergencyPoints / 2, fi: FIPoints / 2}
	if hasExpenses {
		s.emergency = EmergencyPoints * clamp01(m.EmergencyMonths/EmergencyMonthsFull)
		s.fi = FIPoints * clamp01(m.CoastFIProgress)
	}
	illiquidShare := 1 - m.LiquidShare
	s.liquidity = LiquidityPoints * clamp01((IlliquidZero-illiquidShare)/(IlliquidZero-IlliquidFull))
	return s
}

// recommendResilience adds a recommendation for each resilience part short
// of its points: build the emergency fund, invest toward the FI number (or
// state the expenses both need), keep more of the portfolio liquid.
func recommendResilience(p *Portfolio, r *Result, s *resilienceParts, ps *person, years float64) {
	m := &r.Metrics
	if ps.hasExpenses {
		if s.emergency < EmergencyPoints {
			r.addEmergency(p, EmergencyPoints-s.emergency, ps.expenses, !ps.hasEmergencyFund)
		}
		if s.fi < FIPoints {
			r.addFIProgress(p, FIPoints-s.fi, years)
		}
	} else {
		r.add(KindExpensesMissing, Resilience, EmergencyPoints/2+FIPoints/2, p)
	}
	if s.liquidity < LiquidityPoints {
		rc := r.add(KindIlliquid, Resilience, LiquidityPoints-s.liquidity, p)
		rc.Share, rc.Target = 1-m.LiquidShare, IlliquidFull
	}
}

// addFIProgress recommends investing toward the FI number: the yearly
// saving that closes the gap by the target age, years from now, or the gap
// today when years is 0.
func (r *Result) addFIProgress(p *Portfolio, gain, years float64) {
	m := &r.Metrics
	rc := r.add(KindFIProgress, Resilience, gain, p)
	rc.Value, rc.Amount = m.CoastFIProgress, m.FINumber
	if years > 0 {
		g := math.Pow(1+AssumedRealReturn, years)
		rc.Total = math.Max(0, (m.FINumber-m.Total*g)*AssumedRealReturn/(g-1))
		rc.Years = int(math.Ceil(years))
	} else {
		rc.Total = m.FINumber - m.Total
	}
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
