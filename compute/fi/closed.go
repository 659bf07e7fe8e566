package fi

import "math"

// Closed forms used by the goal seekers and documented for API users. All take
// a yearly rate r (use RealReturn for today's-money answers) and assume
// savings arrive at the end of each year, as in the timeline.

// RealReturn converts a nominal return to a real one: (1+r)/(1+inflation) - 1.
func RealReturn(nominal, inflation float64) float64 {
	d := 1 + inflation
	if d <= 0 {
		return 0
	}
	return bounded((1+nominal)/d - 1)
}

// FutureValue is the balance after years of growth at r with saving added at
// each year end: P(1+r)^n + S((1+r)^n - 1)/r.
func FutureValue(principal, saving, r float64, years int) float64 {
	n := float64(max(years, 0))
	if math.Abs(r) < 1e-12 {
		return principal + saving*n
	}
	g := math.Pow(1+r, n)
	return bounded(principal*g + saving*(g-1)/r)
}

// YearsToTarget solves FutureValue(principal, saving, r, n) = target for a
// fractional n: n = ln((T r + S) / (P r + S)) / ln(1+r). It returns 0 when the
// principal already reaches the target and -1 when the target is never reached.
func YearsToTarget(target, principal, saving, r float64) float64 {
	if principal >= target {
		return 0
	}
	if math.Abs(r) < 1e-12 {
		if saving <= 0 {
			return -1
		}
		return (target - principal) / saving
	}
	num := target*r + saving
	den := principal*r + saving
	if r <= -1 || den <= 0 || num/den <= 0 {
		return -1
	}
	n := math.Log(num/den) / math.Log(1+r)
	if !(n >= 0) || math.IsInf(n, 0) {
		return -1
	}
	return n
}

// RequiredSaving is the constant year-end saving that grows principal to
// target in years at r: (T - P(1+r)^n) r / ((1+r)^n - 1), floored at 0. With
// no years left it is 0 when the principal already suffices and -1 otherwise.
func RequiredSaving(target, principal, r float64, years int) float64 {
	if years <= 0 {
		if principal >= target {
			return 0
		}
		return -1
	}
	n := float64(years)
	if math.Abs(r) < 1e-12 {
		return max(0, (target-principal)/n)
	}
	g := math.Pow(1+r, n)
	if g == 1 {
		return max(0, (target-principal)/n)
	}
	return bounded(max(0, (target-principal*g)*r/(g-1)))
}

// VPWReturn is the expected real return the VPW method assumes for a mix with
// the given share of stocks.
func VPWReturn(stockShare float64) float64 {
	s := finite(stockShare, 0.6, 0, 1)
	return s*VPWStockReturn + (1-s)*VPWBondReturn
}

// VPWRate is the share of the balance VPW withdraws with years left in the
// horizon (this year included): the annuity-due payment per unit of balance,
// r / ((1+r)(1-(1+r)^-n)); 1/n when r = 0; all of it in the last year.
func VPWRate(r float64, years int) float64 {
	if years <= 1 {
		return 1
	}
	r = finite(r, 0, -0.5, 1)
	n := float64(years)
	if math.Abs(r) < 1e-12 {
		return 1 / n
	}
	v := r / ((1 + r) * (1 - math.Pow(1+r, -n)))
	return min(max(v, 0), 1)
}
