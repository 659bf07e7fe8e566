package household

import (
	"fmt"
	"math"

	"fiplan/compute/tax"
)

// Health is a country's rules on health costs that depend on income (the
// US premium tax credit before Medicare, Medicare's income-related
// surcharges), read from its wrapper file.
type Health struct {
	FPL    *PovertyLine   `json:"fpl,omitempty"`
	Credit *PremiumCredit `json:"credit,omitempty"`
	IRMAA  *Surcharge     `json:"irmaa,omitempty"`
	Src    []tax.Source   `json:"src"`
}

// PovertyLine is the poverty line of a coverage year by household size:
// First for one person, Additional for each more; today's money, moving
// with prices after.
type PovertyLine struct {
	CoverageYear int          `json:"coverageYear"`
	First        float64      `json:"first"`
	Additional   float64      `json:"additional"`
	Src          []tax.Source `json:"src"`
}

// At is the poverty line for a household of n people.
func (f *PovertyLine) At(n int) float64 { return f.First + float64(max(n-1, 0))*f.Additional }

// PremiumCredit is a credit towards health insurance bought by people
// under UnderAge: the benchmark premium less the household's contribution,
// a share of its income that rises with the income as a multiple of the
// poverty line (Bands), for incomes from FromShare to ToShare times the
// line (none outside).
type PremiumCredit struct {
	UnderAge  int          `json:"underAge"`
	FromShare float64      `json:"fromShare"`
	ToShare   float64      `json:"toShare"`
	Bands     []CreditBand `json:"bands"`
	Src       []tax.Source `json:"src"`
}

// CreditBand is the applicable share of income from From to To times the
// poverty line, rising linearly from Initial to Final.
type CreditBand struct {
	From    float64 `json:"from"`
	To      float64 `json:"to"`
	Initial float64 `json:"initial"`
	Final   float64 `json:"final"`
}

// Credit is the yearly credit for a benchmark premium given the
// household's income and poverty line (same money). Eligibility compares
// the income with ToShare times the line exactly; inside, the income is a
// whole percentage of the line, the digits after it dropped, as Form
// 8962's Worksheet 2 says (400% exactly is eligible, 400.5% is not).
func (c *PremiumCredit) Credit(benchmark, income, line float64) float64 {
	if line <= 0 || benchmark <= 0 || income > c.ToShare*line {
		return 0
	}
	x := math.Floor(100*income/line+1e-9) / 100
	if x < c.FromShare {
		return 0
	}
	share := c.Bands[len(c.Bands)-1].Final
	for _, b := range c.Bands {
		if x < b.To {
			share = b.Initial + (b.Final-b.Initial)*max(0, x-b.From)/(b.To-b.From)
			break
		}
	}
	return max(0, benchmark-share*income)
}

// Surcharge is an income-related addition to a public health premium for
// each person from FromAge: monthly PartB plus PartD from the first
// threshold the income of Lookback years earlier exceeds (Single or Joint,
// by the return of that year; the last threshold reached counts when
// TopInclusive), today's money of Year.
type Surcharge struct {
	Year         int          `json:"year"`
	FromAge      int          `json:"fromAge"`
	Lookback     int          `json:"lookback"`
	TopInclusive bool         `json:"topInclusive,omitempty"`
	Single       []float64    `json:"single"`
	Joint        []float64    `json:"joint"`
	PartB        []float64    `json:"partB"`
	PartD        []float64    `json:"partD"`
	Src          []tax.Source `json:"src"`
}

// Yearly is one person's yearly surcharge for an income (same money as
// the thresholds times scale).
func (s *Surcharge) Yearly(income float64, joint bool, scale float64) float64 {
	th := s.Single
	if joint {
		th = s.Joint
	}
	tier := -1
	for i, v := range th {
		if income > v*scale || (s.TopInclusive && i == len(th)-1 && income >= v*scale) {
			tier = i
		}
	}
	if tier < 0 {
		return 0
	}
	return 12 * (s.PartB[tier] + s.PartD[tier]) * scale
}

func (r *Rules) checkHealth(h *Health) error {
	if h == nil {
		return nil
	}
	src := h.Src
	if f := h.FPL; f != nil {
		if f.First <= 0 || f.Additional < 0 {
			return fmt.Errorf("fpl: first %v additional %v", f.First, f.Additional)
		}
		src = append(src[:len(src):len(src)], f.Src...)
	}
	if c := h.Credit; c != nil {
		if h.FPL == nil || len(c.Bands) == 0 || c.ToShare <= c.FromShare || c.UnderAge <= 0 {
			return fmt.Errorf("credit: no poverty line, no bands or no range")
		}
		for i, b := range c.Bands {
			if b.To <= b.From || (i > 0 && b.From != c.Bands[i-1].To) {
				return fmt.Errorf("credit: band %d is not contiguous", i)
			}
		}
		src = append(src[:len(src):len(src)], c.Src...)
	}
	if s := h.IRMAA; s != nil {
		n := len(s.Single)
		if n == 0 || len(s.Joint) != n || len(s.PartB) != n || len(s.PartD) != n || s.Lookback <= 0 || s.FromAge <= 0 {
			return fmt.Errorf("irmaa: tiers of unequal length or no lookback")
		}
		src = append(src[:len(src):len(src)], s.Src...)
	}
	return r.checkSources(src)
}

// Care is a plan's health-care spending and what the US premium credit
// needs.
type Care struct {
	Phases []CarePhase
	// Benchmark is the yearly premium of the benchmark plan (the
	// second-lowest-cost silver plan) for the household, today's money.
	Benchmark float64
	// Rules are the tax country's (nil: none apply) and Country that
	// country: they apply while the household lives there.
	Rules   *Health
	Country string
}

// CarePhase is the health-care spending from an age of the first person
// on, today's money, rising by Inflation a year when HasInflation (else
// with prices).
type CarePhase struct {
	FromAge      int
	Amount       float64
	Inflation    float64
	HasInflation bool
}

// care spends the year's health care and its income-related surcharges,
// and says whether the premium credit applies (read by taxes).
func (e *engine) care(ys *yearState) {
	c := e.p.Care
	age := ys.age[0]
	idx, amount, from := ys.cpi, 0.0, -1
	for _, ph := range c.Phases {
		if ph.FromAge <= age && ph.FromAge > from {
			amount, from = ph.Amount, ph.FromAge
			idx = ys.cpi
			if ph.HasInflation {
				idx = pow(1+ph.Inflation, ys.t)
			}
		}
	}
	premiums := amount * idx
	ys.row.Health.Premiums = premiums
	ys.outflow += premiums
	h := c.Rules
	if h == nil || e.p.Residences[ys.res].Country != c.Country {
		return
	}
	if s := h.IRMAA; s != nil && ys.t >= s.Lookback {
		for i := 0; i < e.np; i++ {
			if ys.alive[i] && ys.age[i] >= s.FromAge {
				x := s.Yearly(e.magi[ys.t-s.Lookback], e.magiJoint[ys.t-s.Lookback], ys.cpi)
				ys.row.Health.Surcharge += x
				ys.outflow += x
			}
		}
	}
	if cr := h.Credit; cr != nil && c.Benchmark > 0 && premiums > 0 {
		young, works := false, false
		for i := 0; i < e.np; i++ {
			young = young || (ys.alive[i] && ys.age[i] < cr.UnderAge)
			works = works || ys.work[i]
		}
		if young && !works {
			ys.bench = min(c.Benchmark*idx, premiums)
		}
	}
}

// premiumCredit is the year's premium tax credit on the household's income
// magi (money of the year), at most the benchmark premium set by care.
func (e *engine) premiumCredit(ys *yearState, magi float64) float64 {
	if ys.bench <= 0 {
		return 0
	}
	h := e.p.Care.Rules
	n := 0
	for i := 0; i < e.np; i++ {
		if ys.alive[i] {
			n++
		}
	}
	return min(ys.bench, h.Credit.Credit(ys.bench, magi, h.FPL.At(n)*ys.cpi))
}
