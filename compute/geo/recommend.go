package geo

import (
	"encoding/binary"
	"math"
	"slices"
)

// Query is a recommendation request in canonical form: the budget, the
// household and the hard preferences. The zero value of each preference
// accepts every city.
type Query struct {
	Budget    float64 // monthly spending of the household, USD, above 0
	Household int     // people living on the budget, 1 to MaxHousehold

	Regions         uint16  // bit r set: City.Region r is acceptable; 0: any
	Bands           uint8   // bit b set: Band b is acceptable; 0: any
	MaxRent         float64 // the household's rent line at most this; 0: any
	MinSafety       int
	MinHealthcare   int
	MinInternetMbps int
	English         English // this band or a better one; AnyEnglish: any
	Visa            Visa    // a route of this kind; AnyVisa: any
	TaxFriendly     bool    // a special tax program for newcomers
}

// KeyLen is the length of Query.AppendKey's output.
const KeyLen = 8 + 8 + 2 + 1 + 4*4 + 3

// AppendKey appends a fixed-length binary form of q: two queries have the
// same key exactly when every field is equal, so it can key a cache of
// answers. Preferences given as lists become bit sets before they reach a
// Query, so their order and repeats do not matter.
func (q *Query) AppendKey(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(q.Budget))
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(q.MaxRent))
	dst = binary.LittleEndian.AppendUint16(dst, q.Regions)
	dst = append(dst, q.Bands)
	for _, v := range [...]int{q.Household, q.MinSafety, q.MinHealthcare, q.MinInternetMbps} {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
	}
	return append(dst, byte(q.English), byte(q.Visa), boolByte(q.TaxFriendly))
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Fits reports whether c meets every hard preference of q other than the
// budget, with rent the household's rent line there.
func (q *Query) Fits(c *City, rent int) bool {
	switch {
	case q.Regions != 0 && q.Regions&(1<<c.Region) == 0,
		q.Bands != 0 && q.Bands&(1<<c.Band) == 0,
		q.MaxRent > 0 && float64(rent) > q.MaxRent,
		c.Safety < q.MinSafety,
		c.Healthcare < q.MinHealthcare,
		q.English != AnyEnglish && c.English > q.English,
		q.Visa == RetirementVisa && c.RetirementVisa == "",
		q.Visa == NomadVisa && c.NomadVisa == "",
		q.TaxFriendly && c.TaxProgram == "",
		c.InternetMbps < q.MinInternetMbps:
		return false
	}
	return true
}

// Score components.
const (
	Affordability = iota
	Safety
	Healthcare
	Climate
	InternetSpeed
	EnglishSpoken
	Visas

	// NumParts is the number of score components.
	NumParts = 7
)

// PartNames names the score components, in order.
var PartNames = [NumParts]string{"affordability", "safety", "healthcare", "climate", "internet", "english", "visa"}

// PartMax is each component's maximum points; they sum to 100.
var PartMax = [NumParts]int{30, 20, 20, 15, 5, 5, 5}

// Scoring rules: see Score.
const (
	// TightShare is the share of the budget from which a city fits only
	// just.
	TightShare = 0.9
	// fullAffordShare is the share of the budget at or below which
	// affordability earns every point.
	fullAffordShare = 0.5
	// mildColdestC and mildWarmestC bound the climate that earns every
	// climate point; each degree beyond costs climateDegree of them.
	mildColdestC  = 16
	mildWarmestC  = 31
	climateDegree = 15
	// fastMbps is the speed that earns every internet point.
	fastMbps = 100
)

// Result is one city that fits a query.
type Result struct {
	City  int     // index in the cities ranked
	Cost  int     // the household's monthly cost there
	Rent  int     // its rent line
	Share float64 // Cost / budget, at most 1
	Tight bool    // Share >= TightShare

	Score float64           // the unrounded score: the sum of Parts, 0 to 100
	Parts [NumParts]float64 // each component, 0 to its PartMax
}

// Recommend appends to dst every city that fits q (its household's cost
// within the budget and every preference met), scored and ranked best
// first: by the unrounded score, then by cost, then by index.
func Recommend(dst []Result, q *Query, cities []City) []Result {
	start := len(dst)
	for i := range cities {
		c := &cities[i]
		l := c.Budget(q.Household)
		cost := l.Total()
		if float64(cost) > q.Budget || !q.Fits(c, l[Rent]) {
			continue
		}
		r := Result{City: i, Cost: cost, Rent: l[Rent]}
		Score(q, c, &r)
		dst = append(dst, r)
	}
	slices.SortFunc(dst[start:], compareResults)
	return dst
}

func compareResults(a, b Result) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	if a.Cost != b.Cost {
		return a.Cost - b.Cost
	}
	return a.City - b.City
}

// Score fills r's share, tight flag, components and score from r.Cost.
// The components: affordability (30: full when the cost is at most half
// the budget, falling linearly to 0 at the whole budget), safety (20 x
// safety / 100), healthcare (20 x healthcare / 100), climate (15: every
// point when the query names climate bands, since the city is in one;
// otherwise full for a coldest-month high of 16 °C or more and a
// warmest-month high of 31 °C or less, one fifteenth less per degree
// outside), internet (5 x Mbps / 100, at most 5), English (5 for native
// down to 0 for very low) and visa (5 when there is a retirement or
// digital-nomad route).
func Score(q *Query, c *City, r *Result) {
	r.Share = float64(r.Cost) / q.Budget
	r.Tight = r.Share >= TightShare
	p := &r.Parts
	p[Affordability] = 30 * clamp01((1-r.Share)/fullAffordShare)
	p[Safety] = 20 * float64(c.Safety) / 100
	p[Healthcare] = 20 * float64(c.Healthcare) / 100
	if q.Bands != 0 {
		p[Climate] = 15
	} else {
		off := math.Max(0, mildColdestC-c.ColdestHighC) + math.Max(0, c.WarmestHighC-mildWarmestC)
		p[Climate] = 15 * (1 - math.Min(1, off/climateDegree))
	}
	p[InternetSpeed] = 5 * math.Min(1, float64(c.InternetMbps)/fastMbps)
	p[EnglishSpoken] = float64(VeryLow - c.English)
	p[Visas] = 0
	if c.RetirementVisa != "" || c.NomadVisa != "" {
		p[Visas] = 5
	}
	r.Score = 0
	for _, v := range p {
		r.Score += v
	}
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// Points rounds the components to whole points that sum to the rounded
// score: each is rounded down, then the points missing go one each to the
// components with the largest remainders (never above a component's
// maximum).
func (r *Result) Points() (pts [NumParts]int, score int) {
	sum := 0.0
	for j, v := range r.Parts {
		pts[j] = int(math.Floor(v))
		score += pts[j]
		sum += v
	}
	want := int(math.Round(sum))
	for score < want {
		best, frac := -1, 0.0
		for j, v := range r.Parts {
			if f := v - float64(pts[j]); f > frac && pts[j] < PartMax[j] {
				best, frac = j, f
			}
		}
		if best < 0 {
			break
		}
		pts[best]++
		score++
	}
	return pts, score
}
