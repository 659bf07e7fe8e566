package household

import (
	"math"

	"fiplan/compute/tax"
)

// taxes is the year's taxes and charges on each person's income, computed
// in today's money under the residence's tax year (its thresholds move
// with prices) and returned in money of the year. With ys.calc it also
// fills ys.row.Tax with the breakdown.
func (e *engine) taxes(ys *yearState, breakdown bool) float64 {
	res := &e.p.Residences[ys.res]
	var t Taxes
	cpi := ys.cpi
	for i := 0; i < e.np; i++ {
		f := &ys.f[i]
		t.Penalties += f.penalty
		t.Income += f.entryTax
		if res.System == nil {
			continue
		}
		taxed := f.benefit
		if f.incl != nil {
			taxed = f.incl.Taxable(f.benefit, f.wages+f.pension+f.gains, false)
		}
		in := tax.Income{Employment: f.wages / cpi, Pension: (f.pension + taxed) / cpi, CapitalGains: f.gains / cpi}
		if in.Employment == 0 && in.Pension == 0 && in.CapitalGains == 0 {
			continue
		}
		if breakdown && ys.calc != nil {
			if err := tax.Calculate(res.System, res.Year, &in, res.Region, ys.calc); err == nil {
				c := ys.calc
				t.Income += (c.IncomeTax + c.RegionalTax) * cpi
				t.Social += c.SocialContributions * cpi
				t.Capital += c.CapitalTax * cpi
			}
		} else if due, err := tax.Due(res.System, res.Year, &in, res.Region, nil); err == nil {
			t.Income += due * cpi
		}
		if rc := f.recovery; rc != nil {
			t.Income += rc.Charge(res.Year, in.Total(), f.recBenefit/cpi, 1) * cpi
		}
	}
	t.Total = t.Income + t.Social + t.Capital + t.Penalties
	if breakdown {
		ys.row.Tax = t
	}
	return t.Total
}

// band is the real pension income at the top of the residence's lowest
// taxed band (conv false) or of the band taxed at the plan's ConvertUpTo
// (conv true): the largest income whose marginal rate does not exceed
// that rate. It is found once per residence by bisection on the tax due.
func (e *engine) band(k int, conv bool) float64 {
	cache := &e.lowTop[k]
	if conv {
		cache = &e.convTop[k]
	}
	if *cache >= 0 {
		return *cache
	}
	res := &e.p.Residences[k]
	*cache = 0
	if res.System == nil {
		*cache = math.Inf(1)
		return *cache
	}
	due := func(g float64) float64 {
		in := tax.Income{Pension: g}
		d, _ := tax.Due(res.System, res.Year, &in, res.Region, nil)
		return d
	}
	const step, hi = 100.0, 1e7
	marginal := func(g float64) float64 { return (due(g+step) - due(g)) / step }
	rate := e.p.ConvertUpTo
	if !conv {
		// the first income taxed, and its rate
		lo, up := 0.0, hi
		for up-lo > 1 {
			if mid := (lo + up) / 2; due(mid) > 0 {
				up = mid
			} else {
				lo = mid
			}
		}
		rate = marginal(up + step)
	}
	lo, up := 0.0, hi
	for up-lo > 1 {
		if mid := (lo + up) / 2; marginal(mid) <= rate+1e-6 {
			lo = mid
		} else {
			up = mid
		}
	}
	*cache = lo
	return lo
}
