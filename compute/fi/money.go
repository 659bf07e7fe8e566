package fi

import "math"

// Money is the record of a currency against the US dollar and of its
// country's consumer prices, by which a US record is restated in that
// currency (Series.In, Monthly.In).
type Money struct {
	// FXYear and FXMonth (1-12) are the month of PerUSD[0]; PerUSD holds
	// monthly average units of the currency per US dollar, without a gap.
	FXYear, FXMonth int
	PerUSD          []float64
	// YearlyMonths is how many leading months of PerUSD carry a yearly
	// average (each month of a year at the year's figure) rather than
	// their own monthly average.
	YearlyMonths int
	// CPIYear is the calendar year of Inflation[0]; Inflation holds the
	// yearly consumer-price inflation, fractions, without a gap.
	CPIYear   int
	Inflation []float64
}

// Coverage is the span of calendar years a conversion restated from both
// the exchange rates and the country's prices (From = To = 0: none).
type Coverage struct{ From, To int }

func (m *Money) rate(month int) (float64, bool) {
	i := month - (m.FXYear*12 + m.FXMonth - 1)
	if i < 0 || i >= len(m.PerUSD) {
		return 0, false
	}
	return m.PerUSD[i], true
}

func (m *Money) inflation(year int) (float64, bool) {
	i := year - m.CPIYear
	if i < 0 || i >= len(m.Inflation) {
		return 0, false
	}
	return m.Inflation[i], true
}

func (c *Coverage) add(year int) {
	if c.From == 0 {
		c.From = year
	}
	c.To = year
}

// In restates s, a US dollar record, in the currency of m: each year's
// returns earn the dollar's change against the currency from the December
// average before the year to the December average that ends it, and the
// year's inflation is the country's. A year without both keeps its real
// returns: without the country's prices, the US inflation stands in for
// them; without the exchange rates, the dollar is taken to move by the
// difference of the two inflations (purchasing-power parity), so the
// year's returns in real terms are the US ones. The coverage is the span
// of years with both. It allocates the new series.
func (s Series) In(m Money) (Series, Coverage) {
	n := s.Len()
	out := Series{Years: s.Years[:n], Stocks: make([]float64, n), Bonds: make([]float64, n), Inflation: make([]float64, n)}
	var cov Coverage
	for i := range n {
		y := s.Years[i]
		infl, okP := m.inflation(y)
		if !okP {
			infl = s.Inflation[i]
		}
		g := (1 + infl) / (1 + s.Inflation[i])
		end, okE := m.rate(y*12 + 11)
		start, okS := m.rate(y*12 - 1)
		if okE && okS {
			g = end / start
		}
		if okP && okE && okS {
			cov.add(y)
		}
		out.Stocks[i] = (1+s.Stocks[i])*g - 1
		out.Bonds[i] = (1+s.Bonds[i])*g - 1
		out.Inflation[i] = infl
	}
	return out, cov
}

// In restates m, a US dollar record, in the currency of money: the
// indexes are carried into the currency at each month's average rate, and
// the price index moves by the country's yearly inflation, a twelfth of
// it (compounded) each month. A month without a rate, or in a year
// without the country's prices, keeps its real returns as Series.In does.
// CAPE is kept. The coverage is the span of calendar years with a month
// that has both. It allocates the new indexes.
func (m *Monthly) In(money Money) (Monthly, Coverage) {
	n := m.Len()
	stocks, bonds, cpi := make([]float64, n), make([]float64, n), make([]float64, n)
	var cov Coverage
	first := m.FirstYear*12 + m.FirstMonth - 1
	x := 1.0 // the currency's units per dollar, up to a constant
	for k := range n {
		month := first + k
		infl, okP := money.inflation(month / 12)
		rate, okR := money.rate(month)
		if k == 0 {
			cpi[0] = m.CPI[0]
			if okR {
				x = rate
			}
		} else {
			us := m.CPI[k] / m.CPI[k-1]
			step := us
			if okP {
				step = math.Pow(1+infl, 1.0/12)
			}
			cpi[k] = cpi[k-1] * step
			prev, okPrev := money.rate(month - 1)
			if okR && okPrev {
				x *= rate / prev
			} else {
				x *= step / us
			}
		}
		if okP && okR {
			cov.add(month / 12)
		}
		stocks[k], bonds[k] = m.Stocks[k]*x, m.Bonds[k]*x
	}
	return MonthlyIndexes(m.FirstYear, m.FirstMonth, stocks, bonds, cpi, m.CAPE[:min(n, len(m.CAPE))]), cov
}
