package fi

import "math"

// Monthly is a monthly historical record reduced to cumulative indexes, one
// element per month: Stocks and Bonds are total-return indexes (income
// reinvested), CPI a price index, all at the month's observation, and CAPE
// the cyclically adjusted price-earnings ratio then (0 where unknown). Only
// the common length of Stocks, Bonds and CPI is used. Build one with
// NewMonthly; it is read-only afterwards and may be shared.
type Monthly struct {
	FirstYear  int // calendar year of element 0
	FirstMonth int // its month, 1-12
	Stocks     []float64
	Bonds      []float64
	CPI        []float64
	CAPE       []float64

	// The 12-month returns and inflation from each month, which the
	// windows read (NewMonthly fills them; len = Len() - 12).
	stocks12, bonds12, infl12 []float64
}

// Len is the number of usable months.
func (m *Monthly) Len() int { return min(len(m.Stocks), len(m.Bonds), len(m.CPI)) }

// BondMaturity is the maturity, in years, of the constant-maturity bond whose
// total return NewMonthly derives from the long interest rate.
const BondMaturity = 10

// NewMonthly turns monthly market figures into a Monthly: price and dividend
// (at an annual rate per share) of a stock index, the consumer price index,
// the long interest rate in percent a year and CAPE (0 where unknown), one
// element per month from firstYear-firstMonth. The method:
//
//   - Stocks: from month m to m+1 the index earns the price change plus a
//     twelfth of month m's annual dividend rate:
//     (price[m+1] + dividend[m]/12) / price[m].
//   - Bonds: a BondMaturity-year bond is bought at par in month m with a
//     coupon equal to that month's yield y, earns a twelfth of the coupon, and
//     is sold in month m+1 at the price that month's yield y' gives a bond with
//     one month less to run (annual compounding):
//     y/y' (1 - (1+y')^-n) + (1+y')^-n with n = BondMaturity - 1/12, and the
//     proceeds buy next month's par bond. It is the monthly form of the
//     constant-maturity repricing behind the annual series.
//
// It allocates the index slices once; lengths follow the shortest input.
func NewMonthly(firstYear, firstMonth int, price, dividend, cpi, longRate, cape []float64) Monthly {
	n := min(len(price), len(dividend), len(cpi), len(longRate))
	m := Monthly{
		FirstYear: firstYear, FirstMonth: firstMonth,
		Stocks: make([]float64, n), Bonds: make([]float64, n), CPI: make([]float64, n), CAPE: make([]float64, n),
	}
	if n == 0 {
		return m
	}
	copy(m.CPI, cpi[:n])
	copy(m.CAPE, cape[:min(n, len(cape))])
	m.Stocks[0], m.Bonds[0] = 1, 1
	for i := 1; i < n; i++ {
		m.Stocks[i] = m.Stocks[i-1] * (price[i] + dividend[i-1]/12) / price[i-1]
		m.Bonds[i] = m.Bonds[i-1] * (1 + BondMonthReturn(longRate[i-1]/100, longRate[i]/100))
	}
	m.index()
	return m
}

// MonthlyIndexes makes a Monthly of total-return indexes of stocks and bonds
// and a consumer price index (CAPE 0 where unknown, or nil), one element per
// month from firstYear-firstMonth; lengths follow the shortest of the three.
// The slices are kept, not copied.
func MonthlyIndexes(firstYear, firstMonth int, stocks, bonds, cpi, cape []float64) Monthly {
	n := min(len(stocks), len(bonds), len(cpi))
	m := Monthly{FirstYear: firstYear, FirstMonth: firstMonth, Stocks: stocks[:n], Bonds: bonds[:n], CPI: cpi[:n], CAPE: cape}
	if len(cape) < n {
		m.CAPE = make([]float64, n)
		copy(m.CAPE, cape)
	}
	m.index()
	return m
}

// index fills the 12-month returns and inflation the windows read.
func (m *Monthly) index() {
	y := max(0, m.Len()-12)
	m.stocks12, m.bonds12, m.infl12 = make([]float64, y), make([]float64, y), make([]float64, y)
	for a := range y {
		m.stocks12[a] = m.Stocks[a+12]/m.Stocks[a] - 1
		m.bonds12[a] = m.Bonds[a+12]/m.Bonds[a] - 1
		m.infl12[a] = m.CPI[a+12]/m.CPI[a] - 1
	}
}

// BondMonthReturn is the one-month total return of a BondMaturity-year par
// bond bought at yield y and sold at yield next (see NewMonthly).
func BondMonthReturn(y, next float64) float64 {
	const n = BondMaturity - 1.0/12
	var price float64
	if math.Abs(next) < 1e-12 {
		price = 1 + y*n
	} else {
		v := math.Pow(1+next, -n)
		price = y/next*(1-v) + v
	}
	return price - 1 + y/12
}

// windows is the number of windows of the given years in m (every start
// month whose window fits).
func (m *Monthly) windows(years int) int {
	return max(0, min(m.Len()-12*years, len(m.infl12)-12*(years-1)))
}

// start is the calendar year and month window i starts in.
func (m *Monthly) start(i int) (year, month int) {
	k := m.FirstYear*12 + m.FirstMonth - 1 + i
	return k / 12, k%12 + 1
}

// window fills the yearly returns and inflation of window i: year k runs
// from month i+12k to month i+12k+12, rebalanced to the mix at its start.
func (m *Monthly) window(i, years int, mx mix, rets, infl, cape []float64) {
	s12, b12, i12 := m.stocks12[i:], m.bonds12[i:], m.infl12[i:]
	for k := 0; k < years; k++ {
		a := 12 * k
		pi := i12[a]
		rets[k] = clampReturn(mx.stock*s12[a] + mx.bond*b12[a] + mx.cash*pi)
		infl[k] = clampInflation(pi)
		cape[k] = 0
		if i+a < len(m.CAPE) {
			cape[k] = m.CAPE[i+a]
		}
	}
}
