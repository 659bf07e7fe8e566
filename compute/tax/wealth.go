package tax

import (
	"fmt"
	"math"
	"strings"
)

// Wealth taxes. A country that taxes wealth lists, per tax year, its
// charges on a household's holdings (WealthYear). A charge values each kind
// of holding (Norway counts shares at a discount), takes an allowance off
// the net wealth, and charges bands on what is left, or, as the Dutch box 3
// does, charges its bands on a deemed return: a rate per kind of holding
// times the holdings, in the share of the holdings above the allowance. A
// multiplier (the Swiss Steuerfuss of canton and commune), a remitted share
// (a Spanish region's bonificación) and the deduction of earlier charges
// (the Spanish solidarity tax less the wealth tax paid) complete it.

// Holdings are what one person owns on the valuation date, in the system's
// currency.
type Holdings struct {
	Cash        float64 // bank and savings balances
	Investments float64 // securities, funds and everything else that is not cash
	Debts       float64
}

// Wealth is a household's holdings: the first person's, and a partner's.
type Wealth struct {
	Person [2]Holdings
	// Couple: the two are spouses (or fiscal partners) whom the country
	// may assess together.
	Couple bool
}

// Valuation is the date a wealth tax values the holdings on.
type Valuation uint8

// Valuation dates.
const (
	YearStart Valuation = iota // 1 January of the tax year (the Dutch peildatum)
	YearEnd                    // 31 December of the tax year (1 January after it in Norway)
)

// WealthYear is one tax year's wealth taxes.
type WealthYear struct {
	Year      int
	Valuation Valuation
	// Joint: spouses are assessed together on their combined holdings;
	// otherwise each person alone on their own (Spain).
	Joint   bool
	Regions []string // the regions the year models (nil: all)
	Notes   []string
	Charges []WealthCharge
}

// maxCharges bounds the charges of a wealth-tax year.
const maxCharges = 8

// WealthCharge is one wealth tax or levy.
type WealthCharge struct {
	ID, Label     string
	Regions       []string // applies only in these regions (nil: in every one and with none)
	ExceptRegions []string
	// Value is the share of each kind of holding counted (1 at market
	// value).
	Value Holdings
	// Deemed, when set, charges the bands on a deemed return rather than
	// on the wealth: its fields are the yearly rates per kind of holding.
	Deemed *Holdings
	// DebtThreshold: debts count only above this amount (deemed charges).
	DebtThreshold float64
	Allowance     float64
	Bands         []Band // marginal rates from thresholds (From ascending, the first at 0)
	// JointBands is a tariff for spouses assessed together that replaces
	// Bands and the allowance (the Swiss Verheiratetentarif); without it
	// a joint assessment doubles the allowance, the debt threshold and
	// every threshold of Bands.
	JointBands []Band
	Multiplier float64 // the bands' amount times this (1 unless set)
	Relief     float64 // the share of the charge remitted, 0..1
	Less       []int   // earlier charges whose amounts this one is reduced by
	Sources    []Source
}

// WealthTax is the year's wealth tax on w in region ("" for none), in the
// system's currency: the sum of its charges. ErrYear: the system has no
// wealth tax for the year; ErrRegion: the year does not model the region.
func WealthTax(s *System, year int, region string, w *Wealth) (float64, error) {
	y, err := s.wealthYear(year, region)
	if err != nil {
		return 0, err
	}
	if !y.Joint || !w.Couple {
		return y.assess(region, &w.Person[0], false) + y.assess(region, &w.Person[1], false), nil
	}
	a, b := &w.Person[0], &w.Person[1]
	both := Holdings{Cash: a.Cash + b.Cash, Investments: a.Investments + b.Investments, Debts: a.Debts + b.Debts}
	return y.assess(region, &both, true), nil
}

// HasWealthTax reports whether the tax year taxes wealth in region ("" for
// none): the year has a wealth tax, models the region, and some charge
// applies there.
func (s *System) HasWealthTax(year int, region string) bool {
	y, err := s.wealthYear(year, region)
	if err != nil {
		return false
	}
	for i := range y.Charges {
		if y.Charges[i].appliesIn(region) {
			return true
		}
	}
	return false
}

// WealthYear is the year's wealth taxes, nil without one.
func (s *System) WealthYear(year int) *WealthYear {
	for i := range s.wealth {
		if s.wealth[i].Year == year {
			return &s.wealth[i]
		}
	}
	return nil
}

func (s *System) wealthYear(year int, region string) (*WealthYear, error) {
	y := s.WealthYear(year)
	if y == nil {
		return nil, ErrYear
	}
	if region == "" {
		return y, nil
	}
	if s.regionIndex(region) < 0 || (y.Regions != nil && !hasFold(y.Regions, region)) {
		return nil, ErrRegion
	}
	return y, nil
}

// assess is the year's charges on one assessment's holdings h, joint when
// spouses are assessed together.
func (y *WealthYear) assess(region string, h *Holdings, joint bool) float64 {
	if h.Cash <= 0 && h.Investments <= 0 {
		return 0
	}
	var amounts [maxCharges]float64
	total := 0.0
	for i := range y.Charges {
		c := &y.Charges[i]
		if !c.appliesIn(region) {
			continue
		}
		a := c.charge(h, joint) * (1 - c.Relief)
		for _, k := range c.Less {
			a -= amounts[k]
		}
		a = math.Max(0, a)
		amounts[i] = a
		total += a
	}
	return total
}

// charge is the charge's amount on h before any relief.
func (c *WealthCharge) charge(h *Holdings, joint bool) float64 {
	bands, allowance, debtFree, scale := c.Bands, c.Allowance, c.DebtThreshold, 1.0
	if joint {
		if c.JointBands != nil {
			bands, allowance = c.JointBands, 0
		} else {
			allowance, debtFree, scale = 2*allowance, 2*debtFree, 2
		}
	}
	cash := max(0, h.Cash) * c.Value.Cash
	inv := max(0, h.Investments) * c.Value.Investments
	debts := max(0, max(0, h.Debts)*c.Value.Debts-debtFree)
	net := cash + inv - debts
	if net <= 0 {
		return 0
	}
	base := max(0, net-allowance)
	if d := c.Deemed; d != nil {
		ret := cash*d.Cash + inv*d.Investments - debts*d.Debts
		base = max(0, ret) * base / net
	}
	return bandsAt(bands, base, scale) * c.Multiplier
}

// bandsAt is the cumulative tax of marginal bands at x, their thresholds
// times scale.
func bandsAt(bands []Band, x, scale float64) float64 {
	t := 0.0
	for i := range bands {
		from := bands[i].From * scale
		if x <= from {
			break
		}
		to := x
		if i+1 < len(bands) {
			to = min(x, bands[i+1].From*scale)
		}
		t += (to - from) * bands[i].Rate
	}
	return t
}

func (c *WealthCharge) appliesIn(region string) bool {
	if c.Regions != nil && !hasFold(c.Regions, region) {
		return false
	}
	return !hasFold(c.ExceptRegions, region)
}

func hasFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// ---- decoding ----

type jWealthYear struct {
	Year      int             `json:"year"`
	Valuation string          `json:"valuation"`
	Unit      string          `json:"unit"`
	Regions   []string        `json:"regions"`
	Notes     []string        `json:"notes"`
	Charges   []jWealthCharge `json:"charges"`
}

type jHoldings struct {
	Cash        *float64 `json:"cash"`
	Investments *float64 `json:"investments"`
	Debts       *float64 `json:"debts"`
}

type jWealthCharge struct {
	ID            string     `json:"id"`
	Label         string     `json:"label"`
	Regions       []string   `json:"regions"`
	ExceptRegions []string   `json:"exceptRegions"`
	Value         *jHoldings `json:"value"`
	Deemed        *jHoldings `json:"deemedReturn"`
	DebtThreshold float64    `json:"debtThreshold"`
	Allowance     float64    `json:"allowance"`
	Bands         []jBand    `json:"bands"`
	JointBands    []jBand    `json:"jointBands"`
	Multiplier    *float64   `json:"multiplier"`
	Relief        float64    `json:"relief"`
	Less          []string   `json:"less"`
	Src           []Source   `json:"src"`
	Note          string     `json:"note"`
}

// compileWealth reads the country's wealth-tax years.
func (s *System) compileWealth(js []jWealthYear) error {
	for i := range js {
		y, err := s.compileWealthYear(&js[i])
		if err != nil {
			return fmt.Errorf("wealthTax %d: %w", js[i].Year, err)
		}
		if s.WealthYear(y.Year) != nil {
			return fmt.Errorf("wealthTax: year %d twice", y.Year)
		}
		s.wealth = append(s.wealth, *y)
	}
	return nil
}

func (s *System) compileWealthYear(j *jWealthYear) (*WealthYear, error) {
	if j.Year < 1900 || j.Year > 2200 {
		return nil, fmt.Errorf("bad year")
	}
	y := &WealthYear{Year: j.Year, Notes: j.Notes}
	switch j.Valuation {
	case "yearStart":
	case "yearEnd":
		y.Valuation = YearEnd
	default:
		return nil, fmt.Errorf("valuation %q (yearStart or yearEnd)", j.Valuation)
	}
	switch j.Unit {
	case "household":
		y.Joint = true
	case "person":
	default:
		return nil, fmt.Errorf("unit %q (household or person)", j.Unit)
	}
	if j.Regions != nil {
		y.Regions = []string{}
		for _, code := range j.Regions {
			k := s.regionIndex(code)
			if k < 0 {
				return nil, fmt.Errorf("unknown region %q", code)
			}
			y.Regions = append(y.Regions, s.Regions[k].Code)
		}
	}
	if len(j.Charges) == 0 || len(j.Charges) > maxCharges {
		return nil, fmt.Errorf("%d charges (1..%d)", len(j.Charges), maxCharges)
	}
	for i := range j.Charges {
		c, err := s.compileWealthCharge(y, &j.Charges[i])
		if err != nil {
			return nil, fmt.Errorf("charge %q: %w", j.Charges[i].ID, err)
		}
		y.Charges = append(y.Charges, c)
	}
	return y, nil
}

func (s *System) compileWealthCharge(y *WealthYear, j *jWealthCharge) (WealthCharge, error) {
	c := WealthCharge{ID: j.ID, Label: j.Label, Regions: j.Regions, ExceptRegions: j.ExceptRegions,
		Value: Holdings{Cash: 1, Investments: 1, Debts: 1}, DebtThreshold: j.DebtThreshold, Allowance: j.Allowance, Multiplier: 1,
		Relief: j.Relief, Sources: j.Src}
	if c.ID == "" || c.Label == "" {
		return c, fmt.Errorf("no id or label")
	}
	if err := s.checkSources(j.Src, "charge"); err != nil {
		return c, err
	}
	for _, code := range append(append([]string(nil), j.Regions...), j.ExceptRegions...) {
		if s.regionIndex(code) < 0 {
			return c, fmt.Errorf("unknown region %q", code)
		}
	}
	if v := j.Value; v != nil {
		c.Value = v.or(c.Value)
	}
	if d := j.Deemed; d != nil {
		r := d.or(Holdings{})
		c.Deemed = &r
	}
	if m := j.Multiplier; m != nil {
		c.Multiplier = *m
	}
	if !finiteIn(c.Value.Cash, 0, 1) || !finiteIn(c.Value.Investments, 0, 1) || !finiteIn(c.Value.Debts, 0, 1) {
		return c, fmt.Errorf("value shares outside 0..1")
	}
	if !finiteIn(c.Relief, 0, 1) || !finiteIn(c.Multiplier, 0, 10) || !finiteIn(c.Allowance, 0, 1e12) || !finiteIn(c.DebtThreshold, 0, 1e12) {
		return c, fmt.Errorf("relief, multiplier, allowance or debt threshold out of range")
	}
	var err error
	if c.Bands, err = wealthBands(j.Bands); err != nil {
		return c, err
	}
	if j.JointBands != nil {
		if c.JointBands, err = wealthBands(j.JointBands); err != nil {
			return c, fmt.Errorf("jointBands: %w", err)
		}
	}
	for _, id := range j.Less {
		k := -1
		for i := range y.Charges {
			if y.Charges[i].ID == id {
				k = i
			}
		}
		if k < 0 {
			return c, fmt.Errorf("less: no earlier charge %q", id)
		}
		c.Less = append(c.Less, k)
	}
	return c, nil
}

// or is the holdings read, each absent field def's.
func (j *jHoldings) or(def Holdings) Holdings {
	if j.Cash != nil {
		def.Cash = *j.Cash
	}
	if j.Investments != nil {
		def.Investments = *j.Investments
	}
	if j.Debts != nil {
		def.Debts = *j.Debts
	}
	return def
}

// wealthBands reads a wealth tax's marginal bands: from 0, ascending, at
// rates in [0, 1).
func wealthBands(js []jBand) ([]Band, error) {
	if len(js) == 0 || js[0].From.V != 0 {
		return nil, fmt.Errorf("bands must start at 0")
	}
	out := make([]Band, len(js))
	for i, b := range js {
		if b.Formula != nil || !finiteIn(b.Rate, 0, 0.999) || (i > 0 && !(b.From.V > js[i-1].From.V)) || b.From.Meta != nil {
			return nil, fmt.Errorf("band %d: a marginal rate in [0,1) from an ascending threshold (a plain number: wealth-tax thresholds move with prices)", i)
		}
		out[i] = Band{From: b.From.V, Rate: b.Rate, Label: b.Label}
	}
	return out, nil
}

func finiteIn(x, lo, hi float64) bool { return x >= lo && x <= hi }
