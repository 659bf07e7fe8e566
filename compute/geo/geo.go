// Package geo compares cities and ranks them for someone living on a
// budget: each city's monthly budget line by line for a spending style or a
// household size, the side-by-side comparison of a few cities (ratios, how
// far money goes, the FI number), and the recommendation of the cities
// that fit a budget and a set of hard preferences, scored 0-100 with the
// reasons.
//
// The package is a pure engine: no I/O, no globals beyond constant tables.
// Callers own every result buffer (Recommend, Compare, AppendReasons and
// the Append* texts take a dst and return it extended), so a request served
// with reused buffers allocates nothing here.
//
// A City is the engine's view of a dataset city; the caller builds the
// slice once, calls Prepare on it, and passes it to every call.
package geo

import "math"

// Cost lines of a monthly budget, in the order of Lines.
const (
	Rent = iota
	Groceries
	EatingOut
	Transport
	Utilities
	Internet
	HealthInsurance

	// NumLines is the number of cost lines.
	NumLines = 7
)

// Lines is a monthly budget in whole USD, one amount per cost line.
type Lines [NumLines]int

// Total is the sum of the lines.
func (l *Lines) Total() int {
	t := 0
	for _, v := range l {
		t += v
	}
	return t
}

// Band is a climate band, from the average daily highs of the coldest and
// the warmest month; the dataset assigns it.
type Band uint8

// The climate bands, coldest first.
const (
	Cold Band = iota
	Temperate
	Warm
	Hot

	// NumBands is the number of climate bands.
	NumBands = 4
)

var bandNames = [NumBands]string{"cold", "temperate", "warm", "hot"}

// String is the band's name: cold, temperate, warm or hot.
func (b Band) String() string {
	if b >= NumBands {
		return ""
	}
	return bandNames[b]
}

// ParseBand maps a band's name to the band.
func ParseBand(s string) (Band, bool) {
	for i, n := range bandNames {
		if n == s {
			return Band(i), true
		}
	}
	return 0, false
}

// English is how widely English is spoken: native in majority-English
// countries, else the EF English Proficiency Index band. Lower is better.
type English uint8

// The English bands, best first. AnyEnglish is no band: in a Query it
// accepts every city.
const (
	AnyEnglish English = iota
	Native
	VeryHigh
	High
	Moderate
	Low
	VeryLow
)

var englishNames = [...]string{"", "native", "very-high", "high", "moderate", "low", "very-low"}

// String is the band's name (native, very-high, ..., very-low), or "" for
// AnyEnglish.
func (e English) String() string {
	if int(e) >= len(englishNames) {
		return ""
	}
	return englishNames[e]
}

// ParseEnglish maps a band's name to the band.
func ParseEnglish(s string) (English, bool) {
	for i := Native; i <= VeryLow; i++ {
		if englishNames[i] == s {
			return i, true
		}
	}
	return AnyEnglish, false
}

// Visa is a kind of long-stay route a country offers.
type Visa uint8

// The visa kinds; AnyVisa in a Query accepts every city.
const (
	AnyVisa Visa = iota
	RetirementVisa
	NomadVisa
)

// MaxHousehold is the largest household the budgets model.
const MaxHousehold = 8

// City is what the engine knows of a city. The caller fills the exported
// fields from its dataset and calls Prepare before ranking.
type City struct {
	ID, Name string

	Single      Lines // one person, one-bedroom flat in the centre
	Family      Lines // a family of four, three-bedroom flat in the centre
	RentOutside int   // one-bedroom flat outside the centre (the lean style)

	Safety       int // safety index, 1-100, higher is safer
	Healthcare   int // healthcare index, 1-100
	InternetMbps int // typical fixed broadband download speed

	ColdestHighC float64 // average daily high of the coldest month, °C
	WarmestHighC float64 // average daily high of the warmest month, °C
	Band         Band

	// Region is the index of the city's region in the caller's list of
	// regions, below 16; Query.Regions is a bit set over the same indexes.
	Region  uint8
	English English // never AnyEnglish

	RetirementVisa string // name of the first retirement route, "" when there is none
	NomadVisa      string // name of the first digital-nomad route, "" when there is none
	TaxProgram     string // name of a special tax program for newcomers, "" when there is none

	budgets  [MaxHousehold]Lines // HouseholdLines for 1 to MaxHousehold people
	prepared bool
}

// Prepare computes once what the engine derives from each city's fields
// (the budget of every household size). Cities work unprepared too, at the
// cost of that arithmetic on every call.
func Prepare(cities []City) {
	for i := range cities {
		c := &cities[i]
		for n := range MaxHousehold {
			c.budgets[n] = HouseholdLines(c, n+1)
		}
		c.prepared = true
	}
}

// Budget is the city's monthly budget for n people (clamped to 1 to
// MaxHousehold); see HouseholdLines.
func (c *City) Budget(n int) Lines {
	n = min(max(n, 1), MaxHousehold)
	if !c.prepared {
		return HouseholdLines(c, n)
	}
	return c.budgets[n-1]
}

// HouseholdLines is a city's monthly budget for n people (1 to
// MaxHousehold): the single budget for one; for 2 to 4, each line between
// the single and the family-of-four budget, (n-1)/3 of the way; for 5 to
// 8, the family budget with groceries, eating out, transport and health
// insurance x n/4 and rent x (1 + 0.1 x (n-4)). Four people cost exactly
// the family budget.
func HouseholdLines(c *City, n int) Lines {
	s, f := &c.Single, &c.Family
	switch {
	case n <= 1:
		return *s
	case n <= 4:
		var l Lines
		for k := range l {
			l[k] = roundInt(float64(s[k]) + float64(f[k]-s[k])*float64(n-1)/3)
		}
		return l
	}
	l := *f
	for _, k := range [...]int{Groceries, EatingOut, Transport, HealthInsurance} {
		l[k] = roundInt(float64(f[k]) * float64(n) / 4)
	}
	l[Rent] = roundInt(float64(f[Rent]) * (1 + 0.1*float64(n-4)))
	return l
}

// Style is a spending style: how lavishly one person lives.
type Style uint8

// The spending styles.
const (
	Lean Style = iota
	Normal
	Fat
	FamilyStyle

	// NumStyles is the number of spending styles.
	NumStyles = 4
)

var styleNames = [NumStyles]string{"lean", "normal", "fat", "family"}

// String is the style's name: lean, normal, fat or family.
func (s Style) String() string {
	if s >= NumStyles {
		return ""
	}
	return styleNames[s]
}

// ParseStyle maps a style's name to the style.
func ParseStyle(s string) (Style, bool) {
	for i, n := range styleNames {
		if n == s {
			return Style(i), true
		}
	}
	return 0, false
}

// Spending-style multipliers.
const (
	leanFactor = 0.8 // groceries, eating out, transport and utilities when lean
	fatFactor  = 1.5 // every line when fat
)

// StyleLines is a city's monthly budget in a spending style. lean: a
// one-bedroom flat outside the centre, and 0.8 x groceries, eating out,
// transport and utilities (internet and health insurance as they are);
// normal: the single-person budget; fat: 1.5 x every line of the single
// budget; family: the family-of-four budget.
func StyleLines(c *City, s Style) Lines {
	l := c.Single
	switch s {
	case Lean:
		l[Rent] = c.RentOutside
		for _, k := range [...]int{Groceries, EatingOut, Transport, Utilities} {
			l[k] = roundInt(float64(l[k]) * leanFactor)
		}
	case Fat:
		for k := range l {
			l[k] = roundInt(float64(l[k]) * fatFactor)
		}
	case FamilyStyle:
		l = c.Family
	}
	return l
}

func roundInt(x float64) int { return int(math.Round(x)) }
