package household

import (
	"fmt"

	"fiplan/compute/tax"
)

// Supplement is a means-tested public pension a country pays its residents
// from an age: the maximum rate less what the income test and, where the
// country has one, the assets test take (the lower result counts). Amounts
// are yearly, per person, in the country's money of Year, moving with
// prices after (the plan's today's money). A person of a couple is paid
// the Couple rate on the couple's combined income and assets while both
// live, else the Single rate (Canada's Guaranteed Income Supplement with
// the OAS pension; Australia's Age Pension).
type Supplement struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	FromAge int    `json:"fromAge"`
	// Needs names a benefit kind the person must be paid in the year (the
	// GIS goes with the OAS pension); "" none.
	Needs string `json:"needs,omitempty"`
	Year  int    `json:"year"`
	// Taxed: the supplement is taxable income (the Age Pension); else it
	// is free of tax (the GIS).
	Taxed bool `json:"taxed,omitempty"`
	// Lag: the income test reads the income of that many years earlier
	// (the GIS: the year before); 0 the year's own.
	Lag int `json:"lag,omitempty"`
	// GainsShare is the share of a capital gain that counts as income
	// (Canada: the taxable half); 0 none.
	GainsShare float64 `json:"gainsShare,omitempty"`
	// WagesFree is the yearly employment income left out of the income
	// test (the Age Pension's Work Bonus; the GIS's first 5,000).
	WagesFree float64 `json:"wagesFree,omitempty"`
	// Deeming, when set, replaces the income of financial assets (every
	// account) by a deemed return on their balance.
	Deeming *Deeming     `json:"deeming,omitempty"`
	Single  MeansRate    `json:"single"`
	Couple  MeansRate    `json:"couple"`
	Src     []tax.Source `json:"src"`
	Notes   string       `json:"notes,omitempty"`
	country string
}

// MeansRate is one situation's rate and tests.
type MeansRate struct {
	// Max is the yearly maximum per person.
	Max float64 `json:"max"`
	// IncomeFree is the yearly income (a couple's combined) the income test
	// leaves alone; IncomeRate what each person loses per unit above it.
	IncomeFree float64 `json:"incomeFree,omitempty"`
	IncomeRate float64 `json:"incomeRate"`
	// Cutoff, when set, is the income at which the income test ends the
	// payment; the part of Max the IncomeRate does not reach by then (the
	// GIS top-up) is reduced at TopUpRate on the income above TopUpFree
	// besides.
	Cutoff    float64 `json:"cutoff,omitempty"`
	TopUpRate float64 `json:"topUpRate,omitempty"`
	TopUpFree float64 `json:"topUpFree,omitempty"`
	// AssetsFree are the assets (a couple's combined) the assets test
	// leaves alone, for a homeowner and for someone who owns no home;
	// AssetsRate what each person loses a year per unit above. 0: no
	// assets test.
	AssetsFree [2]float64   `json:"assetsFree,omitempty"`
	AssetsRate float64      `json:"assetsRate,omitempty"`
	Src        []tax.Source `json:"src"`
}

// Deeming is the return deemed on financial assets: Low on the first
// Single (a couple's: Couple, combined), High on the rest.
type Deeming struct {
	Low    float64      `json:"low"`
	High   float64      `json:"high"`
	Single float64      `json:"single"`
	Couple float64      `json:"couple"`
	Src    []tax.Source `json:"src"`
}

// Deemed is the yearly income deemed on assets of a single person or of a
// couple (scale: the thresholds' money into the assets').
func (d *Deeming) Deemed(assets float64, couple bool, scale float64) float64 {
	th := d.Single * scale
	if couple {
		th = d.Couple * scale
	}
	return d.Low*max(0, min(assets, th)) + d.High*max(0, assets-th)
}

// Payment is one person's yearly payment for a yearly income and assets
// (a couple's combined), all in the rate's money times scale; homeowner
// chooses the assets test's allowance.
func (m *MeansRate) Payment(income, assets float64, homeowner bool, scale float64) float64 {
	maxRate := m.Max * scale
	base, top := maxRate, 0.0
	if m.Cutoff > 0 {
		base = min(maxRate, m.IncomeRate*(m.Cutoff-m.IncomeFree)*scale)
		top = maxRate - base
	}
	pay := max(0, base-m.IncomeRate*max(0, income-m.IncomeFree*scale))
	if top > 0 {
		pay += max(0, top-m.TopUpRate*max(0, income-m.TopUpFree*scale))
	}
	if m.AssetsRate > 0 {
		free := m.AssetsFree[1]
		if homeowner {
			free = m.AssetsFree[0]
		}
		pay = min(pay, max(0, maxRate-m.AssetsRate*max(0, assets-free*scale)))
	}
	return pay
}

func (r *Rules) checkSupplements() error {
	for i := range r.Supplements {
		s := &r.Supplements[i]
		s.country = r.Country
		if s.Kind == "" || s.Name == "" || s.FromAge <= 0 || s.Year <= 0 || s.Lag < 0 || s.Lag > 2 || len(s.Src) == 0 {
			return fmt.Errorf("supplement %d: needs a kind, a name, an age, a year, a lag of 0 to 2 and sources", i)
		}
		if s.Needs != "" && r.Benefit(s.Needs) == nil {
			return fmt.Errorf("supplement %s: needs %q, not a benefit of the file", s.Kind, s.Needs)
		}
		for _, m := range []*MeansRate{&s.Single, &s.Couple} {
			if m.Max <= 0 || m.IncomeRate <= 0 || (m.Cutoff > 0 && m.IncomeRate*(m.Cutoff-m.IncomeFree) > m.Max) {
				return fmt.Errorf("supplement %s: a rate needs a maximum, an income rate and a cutoff within it", s.Kind)
			}
			if err := r.checkSources(m.Src); err != nil {
				return err
			}
		}
		if d := s.Deeming; d != nil {
			if d.Low < 0 || d.High < d.Low || d.Single <= 0 || d.Couple <= 0 {
				return fmt.Errorf("supplement %s: deeming rates or thresholds", s.Kind)
			}
			if err := r.checkSources(d.Src); err != nil {
				return err
			}
		}
		if err := r.checkSources(s.Src); err != nil {
			return err
		}
	}
	return nil
}

// Country is the country that pays the supplement.
func (s *Supplement) Country() string { return s.country }

// means pays the year's means-tested supplements to each person who
// qualifies, while the household lives in the paying country.
func (e *engine) means(ys *yearState) {
	res := &e.p.Residences[ys.res]
	scale := ys.cpi / rateOr1(res.Rate) // the rule's today's money into the plan's money of the year
	for k, s := range e.p.Supplements {
		if s.country != res.Country {
			continue
		}
		couple := e.np == 2 && ys.alive[0] && ys.alive[1]
		rate := &s.Single
		if couple {
			rate = &s.Couple
		}
		income, assets := e.meansIncome(ys, s, k, scale), 0.0
		if rate.AssetsRate > 0 {
			for i := 0; i < e.na; i++ {
				assets += e.acc[i].y.Start
			}
		}
		for i := 0; i < e.np; i++ {
			if !ys.alive[i] || ys.age[i] < s.FromAge || (s.Needs != "" && !e.paid(ys, i, s.Needs)) {
				continue
			}
			x := rate.Payment(income, assets, !e.p.NoHome, scale)
			if x <= 0 {
				continue
			}
			ys.row.MeansTested += x
			ys.row.Pensions += x
			ys.inflow += x
			if s.Taxed {
				ys.f[i].pension += x
				ys.f[i].statutory += x
			}
		}
	}
}

// meansIncome is the income supplement k's test reads: the household's (a
// couple's combined) of Lag years earlier, or, before the plan has one,
// this year's before any draw; with deeming, the deemed return on the
// accounts instead of their yield and gains.
func (e *engine) meansIncome(ys *yearState, s *Supplement, k int, scale float64) float64 {
	if t := ys.t - s.Lag; s.Lag > 0 && t >= 0 {
		return e.meansInc[k][t] // as the law reads it: last year's money
	}
	in := e.meansYear(ys, s)
	if s.Deeming != nil {
		assets := 0.0
		for i := 0; i < e.na; i++ {
			assets += e.acc[i].y.Start
		}
		couple := e.np == 2 && ys.alive[0] && ys.alive[1]
		in += s.Deeming.Deemed(assets, couple, scale)
	}
	return in
}

// meansYear is the year's income as supplement s counts it so far:
// wages above the free part, pensions and withdrawals taxed as income
// (less the benefit s goes with), and, without deeming, the accounts'
// interest, dividends and the counted share of gains.
func (e *engine) meansYear(ys *yearState, s *Supplement) float64 {
	in := 0.0
	for i := 0; i < e.np; i++ {
		f := &ys.f[i]
		in += max(0, f.wages+f.deferred-s.WagesFree*ys.cpi) + f.pension + f.benefit
		if s.Deeming == nil {
			in += f.interest + f.dividends + s.GainsShare*f.gains
		}
	}
	if s.Needs != "" {
		for k := range e.p.Pensions {
			q := &e.p.Pensions[k]
			if q.Benefit != nil && q.Benefit.Kind == s.Needs && ys.alive[q.Owner] && ys.age[q.Owner] >= e.pensionFrom[k] {
				in -= e.paidAmount(ys, k)
			}
		}
	}
	return max(0, in)
}

// keepMeans records the year's income for the supplements that read it
// later (after the year's draws).
func (e *engine) keepMeans(ys *yearState) {
	for k, s := range e.p.Supplements {
		if s.Lag > 0 && k < len(e.meansInc) {
			e.meansInc[k][ys.t] = e.meansYear(ys, s)
		}
	}
}

// paid reports whether person i is paid a benefit of kind this year.
func (e *engine) paid(ys *yearState, i int, kind string) bool {
	for k := range e.p.Pensions {
		q := &e.p.Pensions[k]
		if q.Owner == i && q.Benefit != nil && q.Benefit.Kind == kind && ys.age[i] >= e.pensionFrom[k] {
			return true
		}
	}
	return false
}

// paidAmount is what pension k pays this year (as income pays it).
func (e *engine) paidAmount(ys *yearState, k int) float64 {
	q := &e.p.Pensions[k]
	a := q.Amount * e.benefitFactor[k] * ys.cpi
	if rs := q.Benefit.raise(); rs != nil && ys.age[q.Owner] >= rs.FromAge {
		a *= 1 + rs.Share
	}
	if e.firstShare[k] > 0 && ys.age[q.Owner] == e.pensionFrom[k] {
		a *= e.firstShare[k]
	}
	return a
}

// MaxSupplements is how many supplements a plan may carry.
const MaxSupplements = 2
