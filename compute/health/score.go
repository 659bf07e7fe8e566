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

// costCand is a candidate fund-cost recommendation.
type costCand struct {
	idx    int
	value  float64
	er     float64
	excess float64 // value * (er - benchmark)
}

// Score computes the health of p into r, overwriting it. It never panics,
// never allocates and leaves only finite numbers in r.
func Score(p *Portfolio, r *Result) {
	*r = Result{}
	for i := range r.Components {
		r.Components[i] = Component{Name: componentNames[i], Max: ComponentMax}
	}
	m := &r.Metrics
	m.LargestHolding = -1
	ctx := &p.Context

	// One pass over the holdings.
	var (
		total, hhiSum, maxExp, erSum       float64
		classVal                           [NumAssetClasses]float64
		regionVal                          [numRegions]float64
		equityKnownRegion, equityNoRegion  float64
		illiquid, unknownERVal, knownERVal float64
		unknownER                          int
		top                                [3]costCand
		nTop                               int
	)
	for i := range p.Holdings {
		h := &p.Holdings[i]
		v := h.Value
		if !(v >= MinValue) || math.IsInf(v, 1) {
			m.Ignored++
			continue
		}
		if v > MaxValue {
			v = MaxValue
		}
		m.Holdings++
		total += v
		c := h.AssetClass.norm()
		classVal[c] += v

		er, stated := expenseRatio(h)
		switch {
		case stated:
			knownERVal += v
		case c == Cash:
			knownERVal += v // cash has no fund fee
		default:
			er = AssumedExpenseRatio
			unknownERVal += v
			unknownER++
		}
		erSum += v * er
		if stated && er > BenchmarkExpenseRatio {
			cand := costCand{idx: i, value: v, er: er, excess: v * (er - BenchmarkExpenseRatio)}
			// keep the three largest excess costs, largest first
			j := nTop
			if j == len(top) {
				j--
				if cand.excess <= top[j].excess {
					j = -1
				}
			} else {
				nTop++
			}
			if j >= 0 {
				for j > 0 && top[j-1].excess < cand.excess {
					top[j] = top[j-1]
					j--
				}
				top[j] = cand
			}
		}

		k := lookThrough(c, stated)
		hhiSum += v / k * v
		if e := v / k; e > maxExp {
			maxExp, m.LargestHolding = e, i
		}

		if c == Equity {
			switch g := h.Region; {
			case g == Global:
				for j, s := range globalSplit {
					regionVal[j] += v * s
				}
				equityKnownRegion += v
			case g > RegionUnknown && g < numRegions:
				regionVal[g] += v
				equityKnownRegion += v
			default:
				equityNoRegion += v
			}
		}
		if (c == RealEstate || c == Other) && !stated {
			illiquid += v
		}
	}
	m.Total = total
	age, hasAge, target, hasTarget := ages(ctx)
	if !hasAge {
		r.Missing |= MissingAge
	}
	if !hasTarget {
		r.Missing |= MissingTargetRetirementAge
	}
	tol := ctx.RiskTolerance
	if tol > RiskHigh {
		tol = RiskUnknown
	}
	if tol == RiskUnknown {
		r.Missing |= MissingRiskTolerance
	}
	expenses, hasExpenses := amount(ctx.AnnualExpenses)
	hasExpenses = hasExpenses && ctx.HasAnnualExpenses && expenses >= MinValue
	if !hasExpenses {
		r.Missing |= MissingAnnualExpenses
		expenses = 0
	}
	ef, hasEF := amount(ctx.EmergencyFund)
	hasEF = hasEF && ctx.HasEmergencyFund
	if !hasEF {
		r.Missing |= MissingEmergencyFund
		ef = classVal[Cash]
	}
	m.EmergencyFund = ef
	if hasExpenses {
		m.EmergencyMonths = math.Min(1200, ef*12/expenses) // 100 years caps absurd inputs
		m.FINumber = FIMultiple * expenses
	}
	m.HorizonYears = DefaultHorizonYears
	if hasAge && hasTarget {
		m.HorizonYears = int(math.Max(MinHorizonYears, math.Min(MaxHorizonYears, math.Round(target-age))))
	}
	m.SpeculativeCap = speculativeCap[tol]

	if total == 0 {
		r.Missing |= MissingHoldings
		scoreEmpty(p, r, hasExpenses)
		return
	}
	if unknownER > 0 {
		r.Missing |= MissingExpenseRatio
	}
	if equityNoRegion > 0 {
		r.Missing |= MissingRegion
	}

	// ---- Diversification ----
	inv := 1 / total
	var largestClass AssetClass
	for c := range classVal {
		s := classVal[c] * inv
		m.ClassShares[c] = s
		m.EffectiveClasses += math.Min(1, s/ClassMinShare)
		if s > m.ClassShares[largestClass] {
			largestClass = AssetClass(c)
		}
	}
	m.HHI = math.Min(10000, hhiSum*inv*inv*10000)
	m.LargestExposure = math.Min(1, maxExp*inv)

	classPts := ClassPoints * clamp01((m.EffectiveClasses-1)/(ClassTarget-1))
	hhiPts := hhiPoints(m.HHI)
	expPts := ExposurePoints * clamp01((ExposureZero-m.LargestExposure)/(ExposureZero-ExposureFull))
	var regionPts float64
	var largestRegion Region
	var largestRegionShare float64
	switch {
	case classVal[Equity] == 0:
		regionPts = RegionPoints // nothing to spread
	case equityKnownRegion == 0:
		regionPts = RegionPoints / 2 // unknown
	default:
		var sq float64
		for g := range regionVal {
			s := regionVal[g] / equityKnownRegion
			sq += s * s
			if s > largestRegionShare {
				largestRegionShare, largestRegion = s, Region(g)
			}
		}
		if sq > 0 {
			m.EquityRegions = math.Min(numRegions, 1/sq)
		}
		regionPts = RegionPoints * clamp01((m.EquityRegions-1)/(RegionTarget-1))
	}

	start := r.NumRecs
	if classPts < ClassPoints {
		rc := r.add(KindAssetClassSpread, Diversification, ClassPoints-classPts, p)
		rc.Value, rc.Target, rc.Class, rc.Share = m.EffectiveClasses, ClassTarget, largestClass, m.ClassShares[largestClass]
	}
	if hhiPts < HHIPoints {
		rc := r.add(KindHoldingConcentration, Diversification, HHIPoints-hhiPts, p)
		rc.Value, rc.Target = m.HHI, HHIFull
	}
	if expPts < ExposurePoints && m.LargestHolding >= 0 {
		rc := r.add(KindSingleHolding, Diversification, ExposurePoints-expPts, p)
		rc.setHolding(p, m.LargestHolding)
		rc.Share = math.Min(1, math.Min(p.Holdings[m.LargestHolding].Value, MaxValue)*inv)
		rc.Value, rc.Target = m.LargestExposure, ExposureFull
	}
	if regionPts < RegionPoints {
		if equityKnownRegion == 0 {
			rc := r.add(KindRegionUnknown, Diversification, RegionPoints-regionPts, p)
			rc.Share = m.ClassShares[Equity]
		} else {
			rc := r.add(KindRegionSpread, Diversification, RegionPoints-regionPts, p)
			rc.Value, rc.Target, rc.Region, rc.Share = m.EquityRegions, RegionTarget, largestRegion, largestRegionShare
		}
	}
	r.settle(Diversification, classPts+hhiPts+expPts+regionPts, start)

	// ---- Cost efficiency ----
	years := m.HorizonYears
	m.ExpenseRatio = erSum * inv
	m.KnownExpenseShare = clamp01(knownERVal * inv)
	m.AnnualCost = erSum
	m.ExcessDrag = clamp01(excessDrag(m.ExpenseRatio, years))
	costPts := costPoints(m.ExpenseRatio, years)
	start = r.NumRecs
	for j := 0; j < nTop; j++ {
		t := &top[j]
		gain := costPoints(m.ExpenseRatio-t.excess*inv, years) - costPts
		if gain <= 0 {
			continue
		}
		rc := r.add(KindFundCost, CostEfficiency, gain, p)
		rc.setHolding(p, t.idx)
		rc.Value, rc.Target, rc.Years = t.er, BenchmarkExpenseRatio, years
		rc.Amount = t.excess
		rc.Total = horizonCost(t.value, t.er, years)
		rc.Share = t.value * inv
	}
	if unknownER > 0 {
		gain := costPoints(m.ExpenseRatio-unknownERVal*inv*(AssumedExpenseRatio-BenchmarkExpenseRatio), years) - costPts
		if gain > 0 {
			rc := r.add(KindExpenseRatioUnknown, CostEfficiency, gain, p)
			rc.Count, rc.Share, rc.Value = unknownER, unknownERVal*inv, AssumedExpenseRatio
		}
	}
	if costPts < ComponentMax && r.NumRecs == start {
		rc := r.add(KindPortfolioCost, CostEfficiency, ComponentMax-costPts, p)
		rc.Value, rc.Target, rc.Years = m.ExpenseRatio, BenchmarkExpenseRatio, years
		rc.Amount = total * (m.ExpenseRatio - BenchmarkExpenseRatio)
		rc.Total = horizonCost(total, m.ExpenseRatio, years)
	}
	r.settle(CostEfficiency, costPts, start)

	// ---- Risk alignment ----
	var growth float64
	for c, w := range growthWeight {
		growth += w * classVal[c]
	}
	m.GrowthShare = clamp01(growth * inv)
	switch {
	case hasAge && hasTarget:
		m.TargetGrowth, m.HasTargetGrowth = glidePath(target-age)+toleranceShift[tol], true
	case hasAge:
		m.TargetGrowth, m.HasTargetGrowth = math.Max(0.30, math.Min(0.90, 1.10-age/100))+toleranceShift[tol], true
	case tol != RiskUnknown:
		m.TargetGrowth, m.HasTargetGrowth = toleranceGuide[tol], true
	}
	m.TargetGrowth = math.Max(0.10, math.Min(1, m.TargetGrowth))
	if !m.HasTargetGrowth {
		m.TargetGrowth = 0
	}
	m.SpeculativeShare = m.ClassShares[Crypto]

	start = r.NumRecs
	var growthPts float64
	if m.HasTargetGrowth {
		dev := math.Abs(m.GrowthShare - m.TargetGrowth)
		growthPts = GrowthPoints * clamp01(1-(dev-GrowthBand)/(GrowthZero-GrowthBand))
		if growthPts < GrowthPoints {
			kind := KindGrowthTooHigh
			if m.GrowthShare < m.TargetGrowth {
				kind = KindGrowthTooLow
			}
			rc := r.add(kind, RiskAlignment, GrowthPoints-growthPts, p)
			rc.Share, rc.Target, rc.Amount = m.GrowthShare, m.TargetGrowth, dev*total
		}
	} else {
		growthPts = GrowthPoints / 2
		rc := r.add(KindRiskContextMissing, RiskAlignment, GrowthPoints/2, p)
		rc.Missing = r.Missing & (MissingAge | MissingTargetRetirementAge | MissingRiskTolerance)
	}
	specPts := SpeculativePoints * clamp01(1-(m.SpeculativeShare-m.SpeculativeCap)/SpeculativeSpan)
	if specPts < SpeculativePoints {
		rc := r.add(KindSpeculative, RiskAlignment, SpeculativePoints-specPts, p)
		rc.Share, rc.Target = m.SpeculativeShare, m.SpeculativeCap
		rc.Amount = (m.SpeculativeShare - m.SpeculativeCap) * total
	}
	r.settle(RiskAlignment, growthPts+specPts, start)

	// ---- Resilience ----
	start = r.NumRecs
	var efPts, fiPts float64
	if hasExpenses {
		efPts = EmergencyPoints * clamp01(m.EmergencyMonths/EmergencyMonthsFull)
		if efPts < EmergencyPoints {
			r.addEmergency(p, EmergencyPoints-efPts, expenses, !hasEF)
		}
		m.FIProgress = math.Min(10, total/m.FINumber)
		coast, y := m.FIProgress, 0.0
		if hasAge && hasTarget && target-age >= 1 {
			y = target - age
			coast = math.Min(10, total*math.Pow(1+AssumedRealReturn, y)/m.FINumber)
		}
		m.CoastFIProgress = coast
		fiPts = FIPoints * clamp01(coast)
		if fiPts < FIPoints {
			rc := r.add(KindFIProgress, Resilience, FIPoints-fiPts, p)
			rc.Value, rc.Amount = coast, m.FINumber
			if y > 0 {
				// yearly saving that closes the gap by the target age
				g := math.Pow(1+AssumedRealReturn, y)
				rc.Total = math.Max(0, (m.FINumber-total*g)*AssumedRealReturn/(g-1))
				rc.Years = int(math.Ceil(y))
			} else {
				rc.Total = m.FINumber - total
			}
		}
	} else {
		efPts, fiPts = EmergencyPoints/2, FIPoints/2
		r.add(KindExpensesMissing, Resilience, EmergencyPoints/2+FIPoints/2, p)
	}
	m.LiquidShare = clamp01(1 - illiquid*inv)
	illiquidShare := 1 - m.LiquidShare
	liqPts := LiquidityPoints * clamp01((IlliquidZero-illiquidShare)/(IlliquidZero-IlliquidFull))
	if liqPts < LiquidityPoints {
		rc := r.add(KindIlliquid, Resilience, LiquidityPoints-liqPts, p)
		rc.Share, rc.Target = illiquidShare, IlliquidFull
	}
	r.settle(Resilience, efPts+fiPts+liqPts, start)

	r.finish()
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
