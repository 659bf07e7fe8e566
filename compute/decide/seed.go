package decide

import (
	"math"

	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// A conversion search that starts from none finds, one step at a time,
// what pays when several years move at once only as far as its steps
// reach. The other start is the shape a linear program lands on: each
// year filled to the top of one tax band, or the first year to a higher
// band and the later years to a lower one (a large conversion before
// benefits and required minimums start, then the band the later income
// leaves open). The engine fills a band itself (Plan.ConvertUpTo), so the
// amounts count every income of each year.

// seedBands is how many of the lowest bands the seed fills.
const seedBands = 5

// bandRates are the marginal rates of the plan's first tax year on
// pension income, lowest first, each once: the bands conversions may
// fill. Found on a grid of incomes 12% apart, from 2,000 to 2 million.
func (s *search) bandRates() []float64 {
	if len(s.p.Residences) == 0 || s.p.Residences[0].System == nil {
		return nil
	}
	res := &s.p.Residences[0]
	y, err := res.System.Year(res.Year)
	if err != nil {
		return nil
	}
	joint := s.p.Joint && len(s.p.People) == 2
	due := func(g float64) float64 {
		in := tax.Income{Pension: g, Joint: joint}
		d, _ := y.Due(&in, res.Region, nil, nil)
		return d
	}
	const probe = 100.0
	var rates []float64
	for g := 2000.0; g < 2e6 && len(rates) < seedBands; g *= 1.12 {
		r := math.Round((due(g+probe)-due(g))/probe*1000) / 1000
		if r > 0 && (len(rates) == 0 || r > rates[len(rates)-1]) {
			rates = append(rates, r)
		}
	}
	return rates
}

// seed replaces c's conversions with the best of filling each band every
// year, or a higher band the first year and a lower one after, when one
// scores above c's own (*sc, raised to it). Each filling is a run of the
// plan with rows (two runs: it comes with the baseline).
func (s *search) seed(c *choice, sc *float64) error {
	rates := s.bandRates()
	fills := make([][]float64, 0, len(rates))
	for _, r := range rates {
		if s.runs+2 > s.cap {
			return errBudget
		}
		q := s.build(c)
		q.Convert, q.ConvertUpTo, q.Conversions = true, r, nil
		household.RunChecked(q, &s.w.hw, &s.w.res)
		s.runs += 2
		v := make([]float64, s.n)
		for t := range s.w.res.Extra {
			if t < s.convYears {
				v[t] = s.w.res.Extra[t].Converted / math.Pow(1+s.p.Inflation, float64(t))
			}
		}
		fills = append(fills, v)
	}
	own := c.conv
	best := own
	for i := range fills {
		for j := 0; j <= i; j++ {
			v := append([]float64(nil), fills[j]...)
			v[0] = fills[i][0]
			c.conv = v
			x, err := s.score(c)
			if err != nil {
				c.conv = own
				return err
			}
			if x > *sc {
				*sc, best = x, v
			}
		}
	}
	c.conv = own
	copy(c.conv, best)
	return nil
}
