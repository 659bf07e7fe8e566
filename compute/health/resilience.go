package health

import "math"

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
