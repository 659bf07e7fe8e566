package health

import "math"

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
