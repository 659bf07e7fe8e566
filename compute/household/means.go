package household

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

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
	// ToAge, when set, is the age from which the supplement is no longer
	// paid (the Allowance: from 60 until 65, when the OAS pension begins).
	ToAge int `json:"toAge,omitempty"`
	// Needs names a benefit kind the person must be paid in the year (the
	// GIS goes with the OAS pension); "" none.
	Needs string `json:"needs,omitempty"`
	// PartnerNeeds names a benefit kind the person's partner must be paid
	// in the year while both live (the Allowance goes to the partner of an
	// OAS pensioner); a person whose partner has died is paid the Single
	// rate (the Allowance for the Survivor), one who never had a partner
	// in the plan nothing. The income the test reads leaves out the benefit
	// Needs or else PartnerNeeds names.
	PartnerNeeds string `json:"partnerNeeds,omitempty"`
	Year         int    `json:"year"`
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
	// test (the Age Pension's Work Bonus; the GIS's first 5,000), and
	// WagesHalf the band above it of which half is left out too (the GIS:
	// half of the next 10,000), each person's own.
	WagesFree float64 `json:"wagesFree,omitempty"`
	WagesHalf float64 `json:"wagesHalf,omitempty"`
	// Exempt lists wrappers whose accounts neither test counts while their
	// owner is younger than FromAge, except the part in the wrapper's
	// retirement phase (Australia: super in accumulation before Age
	// Pension age).
	Exempt *Exempt `json:"exempt,omitempty"`
	// Deeming, when set, replaces the income of financial assets (every
	// account) by a deemed return on their balance.
	Deeming *Deeming  `json:"deeming,omitempty"`
	Single  MeansRate `json:"single"`
	Couple  MeansRate `json:"couple"`
	// Partner, when set, is the rate of a person whose living partner is
	// not paid the benefit Needs names (the GIS of a pensioner whose
	// partner has no OAS pension), on the couple's combined income.
	Partner *MeansRate   `json:"partner,omitempty"`
	Src     []tax.Source `json:"src"`
	Notes   string       `json:"notes,omitempty"`
	country string
}

// Exempt is a list of wrappers a means test leaves out before its age.
type Exempt struct {
	Wrappers []string     `json:"wrappers"`
	Src      []tax.Source `json:"src"`
}

// MeansRate is one situation's rate and tests.
type MeansRate struct {
	// Max is the yearly maximum per person.
	Max float64 `json:"max"`
	// First, when set, is the part of Max the income test takes first, at
	// FirstRate, before IncomeRate applies to the income above the point
	// where First is used up (the Allowance: its OAS-equivalent part at
	// 75%, then the GIS-equivalent part at 25% each).
	First     float64 `json:"first,omitempty"`
	FirstRate float64 `json:"firstRate,omitempty"`
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
	used := 0.0 // the income above the free area that uses First up
	if m.First > 0 {
		used = m.First / m.FirstRate
	}
	if m.Cutoff > 0 {
		base = min(maxRate, (m.First+m.IncomeRate*(m.Cutoff-m.IncomeFree-used))*scale)
		top = maxRate - base
	}
	over := max(0, income-m.IncomeFree*scale)
	cut := m.IncomeRate * over
	if m.First > 0 {
		cut = m.FirstRate*min(over, used*scale) + m.IncomeRate*max(0, over-used*scale)
	}
	pay := max(0, base-cut)
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
		if s.ToAge != 0 && s.ToAge <= s.FromAge {
			return fmt.Errorf("supplement %s: ends at %d, not after it begins at %d", s.Kind, s.ToAge, s.FromAge)
		}
		for _, kind := range []string{s.Needs, s.PartnerNeeds} {
			if kind != "" && r.Benefit(kind) == nil {
				return fmt.Errorf("supplement %s: needs %q, not a benefit of the file", s.Kind, kind)
			}
		}
		if s.WagesFree < 0 || s.WagesHalf < 0 {
			return fmt.Errorf("supplement %s: negative wages left out", s.Kind)
		}
		if s.Partner != nil && s.Needs == "" {
			return fmt.Errorf("supplement %s: a partner rate needs a benefit the partner lacks", s.Kind)
		}
		for _, m := range []*MeansRate{&s.Single, &s.Couple, s.Partner} {
			if m == nil {
				continue
			}
			if err := m.check(); err != nil {
				return fmt.Errorf("supplement %s: %w", s.Kind, err)
			}
			if err := r.checkSources(m.Src); err != nil {
				return err
			}
		}
		if x := s.Exempt; x != nil {
			if len(x.Wrappers) == 0 {
				return fmt.Errorf("supplement %s: an exemption names no wrapper", s.Kind)
			}
			for _, id := range x.Wrappers {
				if r.Wrapper(id) == nil {
					return fmt.Errorf("supplement %s: exempts %q, not a wrapper of the file", s.Kind, id)
				}
			}
			if err := r.checkSources(x.Src); err != nil {
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

// check holds a rate to a shape Payment can pay: a maximum, an income
// rate, a first part within the maximum and used up below the cutoff, a
// cutoff whose base is within the maximum.
func (m *MeansRate) check() error {
	if m.Max <= 0 || m.IncomeRate <= 0 || m.IncomeFree < 0 {
		return errors.New("a rate needs a maximum and an income rate")
	}
	used := 0.0
	if m.First != 0 || m.FirstRate != 0 {
		if m.First <= 0 || m.First >= m.Max || m.FirstRate <= 0 || m.FirstRate > 1 || m.Cutoff <= 0 {
			return errors.New("a first part needs a share of the maximum, a rate of at most 1 and a cutoff")
		}
		used = m.First / m.FirstRate
	}
	if m.Cutoff > 0 && (m.Cutoff-m.IncomeFree < used || m.First+m.IncomeRate*(m.Cutoff-m.IncomeFree-used) > m.Max+1e-6) {
		return errors.New("a rate's cutoff must leave a base within the maximum")
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
			assets = e.meansAssets(ys, s)
		}
		for i := 0; i < e.np; i++ {
			if !e.qualifies(ys, s, i) {
				continue
			}
			x := rate.Payment(income, assets, !e.p.NoHome, scale)
			if couple && s.Partner != nil && !e.paid(ys, 1-i, s.Needs) {
				x = e.partnerRate(ys, s, i, income, scale)
			}
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

// partnerRate is what supplement s pays person i whose living partner is
// not paid the benefit s needs: the Partner rate, or, while the partner is
// paid a supplement that goes to a partner of such a pensioner (the
// Allowance), the larger of the Couple rate and the Partner rate less that
// supplement (the GIS: OAS Act s. 22(2), (6)).
func (e *engine) partnerRate(ys *yearState, s *Supplement, i int, income, scale float64) float64 {
	x := s.Partner.Payment(income, 0, !e.p.NoHome, scale)
	j := 1 - i
	for k, q := range e.p.Supplements {
		if q == s || q.PartnerNeeds == "" || q.PartnerNeeds != s.Needs || q.country != s.country || !e.qualifies(ys, q, j) {
			continue
		}
		if al := q.Couple.Payment(e.meansIncome(ys, q, k, scale), 0, !e.p.NoHome, scale); al > 0 {
			return max(s.Couple.Payment(income, 0, !e.p.NoHome, scale), x-al)
		}
	}
	return x
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
		assets := e.meansAssets(ys, s)
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
		in += s.wagesCounted(f.wages+f.deferred, ys.cpi) + f.pension + f.benefit
		if s.Deeming == nil {
			in += f.interest + f.dividends + s.GainsShare*f.gains
		}
	}
	if needs := cmp.Or(s.Needs, s.PartnerNeeds); needs != "" {
		for k := range e.p.Pensions {
			q := &e.p.Pensions[k]
			if q.Benefit != nil && q.Benefit.Kind == needs && ys.alive[q.Owner] && ys.age[q.Owner] >= e.pensionFrom[k] {
				in -= e.paidAmount(ys, k)
			}
		}
	}
	return max(0, in)
}

// wagesCounted is the part of a person's yearly wages the income test
// counts: none of the first WagesFree, half of the next WagesHalf, all of
// the rest (amounts moved by cpi).
func (s *Supplement) wagesCounted(w, cpi float64) float64 {
	free, half := s.WagesFree*cpi, s.WagesHalf*cpi
	return max(0, w-free) - 0.5*min(max(0, w-free), half)
}

// qualifies reports whether person i is paid supplement s this year: alive,
// of its ages, paid the benefit it needs, and, when it goes to a pensioner's
// partner, with that partner paid theirs or dead (a survivor).
func (e *engine) qualifies(ys *yearState, s *Supplement, i int) bool {
	if !ys.alive[i] || ys.age[i] < s.FromAge || (s.ToAge > 0 && ys.age[i] >= s.ToAge) {
		return false
	}
	if s.Needs != "" && !e.paid(ys, i, s.Needs) {
		return false
	}
	if s.PartnerNeeds != "" {
		if e.np < 2 {
			return false
		}
		if j := 1 - i; ys.alive[j] && !e.paid(ys, j, s.PartnerNeeds) {
			return false
		}
	}
	return true
}

// meansAssets are the accounts' balances at the start of the year that
// supplement s assesses: all, less those of an exempt wrapper whose owner
// is younger than the supplement's age, but for their part in the
// wrapper's retirement phase.
func (e *engine) meansAssets(ys *yearState, s *Supplement) float64 {
	assets := 0.0
	for i := 0; i < e.na; i++ {
		a := &e.acc[i]
		v := a.y.Start
		if s.Exempt != nil && a.w != nil && ys.age[a.owner] < s.FromAge && slices.Contains(s.Exempt.Wrappers, a.w.ID) {
			v = 0
			if a.phaseOn {
				v = min(a.phase, a.y.Start)
			}
		}
		assets += v
	}
	return assets
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

// MaxSupplements is how many supplements a plan may carry (a plan living
// in Canada and Australia: the GIS, the Allowance and the Age Pension).
const MaxSupplements = 4
