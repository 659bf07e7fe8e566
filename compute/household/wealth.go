package household

import "fiplan/compute/tax"

// wealthTax is the year's wealth tax where the residence taxes wealth, in
// money of the year, and whether it does. It is charged on the accounts'
// balances at the start of the year: the Dutch box 3 values the holdings
// on 1 January of the tax year; Switzerland, Spain and Norway value them
// on 31 December (Norway: 1 January after), and the tax on that balance is
// assessed and paid in the year that follows, which the start of the year
// stands for. Cash accounts are bank balances, every other account
// outside a pension wrapper (the taxable account, tax-free wrappers) is
// investments; tax-deferred and pension wrappers are not wealth. A
// household's two people are spouses (or partners) whom the country
// assesses together where its law does so, whether or not their income is
// taxed jointly.
func (e *engine) wealthTax(ys *yearState) (float64, bool) {
	if !e.wealthOK[ys.res] {
		return 0, false
	}
	res := &e.p.Residences[ys.res]
	rate := rateOr1(res.Rate)
	cpi := ys.cpi / rate // the plan's money of the year -> the tax system's money of today
	var w tax.Wealth
	w.Couple = e.np == 2 && ys.alive[0] && ys.alive[1]
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		h := &w.Person[a.owner]
		switch a.class {
		case 0:
			h.Cash += a.y.Start / cpi
		case 1, 3:
			h.Investments += a.y.Start / cpi
		}
	}
	d, err := tax.WealthTax(res.System, res.System.WealthYearAt(res.Year+ys.t), res.Region, &w)
	if err != nil {
		return 0, false
	}
	return d * cpi, true
}
