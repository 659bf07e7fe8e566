package fi

// Sample is the part of a record a backtest replays and how each year's
// spending is paid: the conditions under which published backtests (the
// Trinity study's January starts from 1926 to 1995 with monthly
// withdrawals, for one) can be replayed. The zero Sample is the whole
// record, every start, the year's withdrawal taken at its start.
type Sample struct {
	// From and To are the calendar years every window lies within: a
	// window's first year is From or later and its last year To or
	// earlier. 0 leaves the record's own first or last year.
	From, To int
	// January starts the windows of a monthly record in January only, one
	// a year; an annual record's windows start with the calendar year
	// whatever it says.
	January bool
	// MonthlyWithdrawals pays each year's withdrawal in twelve equal parts
	// at the start of each of the year's months, out of the mix as it
	// stands then (a monthly record only; an annual record has no months
	// and ignores it). The amount is still set once a year, so a constant
	// withdrawal rises with inflation once a year.
	MonthlyWithdrawals bool
}

// Sampled is a record, a Series or a *Monthly, restricted to a Sample: a
// History whose windows are those of the record the Sample admits.
type Sampled struct {
	Record History // a Series or a *Monthly
	Sample
}

func (s Sampled) windows(years int) int {
	r := recordOf(s)
	return r.windows(years)
}

func (s Sampled) start(i int) (year, month int) {
	r := recordOf(s)
	return r.start(i)
}

func (s Sampled) window(i, years int, mx mix, rets, infl, cape []float64) {
	r := recordOf(s)
	r.window(i, years, mx, rets, infl, cape)
}

// bound sets the windows of r s admits: the starts from January of
// s.From (every month, or every January), the ends by December of s.To,
// within what the record holds. A monthly record's last month has no
// return yet (its return runs to the next observation), so its windows
// end a month before its last element.
func (r *record) bound(s Sample) {
	r.stride = 1
	if m := r.monthly; m != nil {
		r.lo, r.hi = 0, m.Len()-2
		first := m.FirstYear*12 + m.FirstMonth - 1 // the month count of element 0
		if s.From != 0 {
			r.lo = max(r.lo, s.From*12-first)
		}
		if s.To != 0 {
			r.hi = min(r.hi, s.To*12+11-first)
		}
		if s.January {
			r.lo += (12 - (first+r.lo)%12) % 12
			r.stride = 12
		}
		r.monthlyPay = s.MonthlyWithdrawals
		return
	}
	a := r.annual
	r.lo, r.hi = 0, a.Len()-1
	if a.Len() == 0 {
		return
	}
	if s.From != 0 {
		r.lo = max(r.lo, s.From-a.Years[0])
	}
	if s.To != 0 {
		r.hi = min(r.hi, s.To-a.Years[0])
	}
}

// Span is the first and last calendar years of h's windows of the given
// years, and their first and last starts (month 0 in an annual record):
// the conditions a backtest over h ran under. ok is false when no window
// fits.
func Span(h History, years int) (first, last WindowStart, ok bool) {
	r := recordOf(h)
	n := min(r.windows(years), MaxWindows)
	if years > MaxYears || n == 0 {
		return first, last, false
	}
	first.Year, first.Month = r.start(0)
	last.Year, last.Month = r.start(n - 1)
	return first, last, true
}

// WindowStart is the calendar year and month (1-12; 0 in an annual
// record) a window starts in.
type WindowStart struct{ Year, Month int }

// discounts fills, for each of the years of window i of a monthly record,
// the start-of-year value of one unit paid a twelfth at the start of each
// of the year's months out of the mix: the mean over the months of 1 /
// the mix's growth since the year's start (1 for the first month), the
// mix held from the year's start as a window's year holds it. A year's
// withdrawal w so paid leaves (balance - w x discount) x (1 + the year's
// return) at its end, and runs short in some month exactly when w x
// discount exceeds the balance.
func (m *Monthly) discounts(i, years int, mx mix, disc []float64) {
	for k := 0; k < years; k++ {
		a := i + 12*k
		// The shares per unit of each index at the year's start.
		ws, wb, wc := mx.stock/m.Stocks[a], mx.bond/m.Bonds[a], mx.cash/m.CPI[a]
		st, bo, cp := m.Stocks[a+1:a+12], m.Bonds[a+1:a+12], m.CPI[a+1:a+12]
		sum := 1.0
		for j := range st {
			sum += 1 / max(ws*st[j]+wb*bo[j]+wc*cp[j], 0.01)
		}
		disc[k] = sum / 12
	}
}
