package health

import "math"

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
