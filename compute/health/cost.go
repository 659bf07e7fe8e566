package health

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
