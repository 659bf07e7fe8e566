// Package health scores the health of an investment portfolio for
// financial-independence planning: an integer 0..1000 made of four
// components of 250 points each (diversification, cost efficiency, risk
// alignment, resilience) plus ranked, quantified recommendations.
//
// The package is a pure engine: no I/O, no globals beyond constant tables,
// and Score allocates nothing. Recommendation texts are rendered on demand
// into caller-owned buffers with AppendTitle and AppendDetail.
//
// The rules are published: see the Method* constants and METHODOLOGY.md.
package health

import "fiplan/compute/category"

// AssetClass is the broad class of a holding. The zero value is Equity.
// Values outside the enumeration are scored as Other.
type AssetClass uint8

// The asset classes, in the order of AssetClasses.
const (
	Equity AssetClass = iota
	Bond
	Cash
	RealEstate
	Crypto
	Commodity
	Other

	// NumAssetClasses is the number of asset classes: one per category.
	NumAssetClasses = category.Count
)

// classNames are the categories' names: a class's value is its category's
// code.
var classNames = func() (a [NumAssetClasses]string) {
	copy(a[:], category.Names())
	return a
}()

// AssetClasses returns the wire names of the asset classes, indexed by
// AssetClass: the categories of package category, in code order. Each call
// returns a new slice, which the caller may keep or change without
// affecting anyone else.
func AssetClasses() []string { return category.Names() }

// String returns the wire name of the class ("other" for unknown values).
func (c AssetClass) String() string { return classNames[c.norm()] }

func (c AssetClass) norm() AssetClass {
	if c >= NumAssetClasses {
		return Other
	}
	return c
}

// ParseAssetClass maps a wire name (exact, lower case) to its AssetClass.
func ParseAssetClass(s string) (AssetClass, bool) {
	for i, n := range classNames {
		if n == s {
			return AssetClass(i), true
		}
	}
	return Other, false
}

// Region is where a holding's securities are listed. RegionUnknown (the zero
// value) means the caller did not say. Global marks a world fund that spreads
// over every region.
type Region uint8

// The regions; wire names are in Regions (index = Region-1).
const (
	RegionUnknown Region = iota
	NorthAmerica
	Europe
	AsiaPacific
	EmergingMarkets
	Global
	RegionOther

	numRegions = 7
)

var regionNames = [numRegions]string{"", "north_america", "europe", "asia_pacific", "emerging_markets", "global", "other"}

// Regions lists the wire names of the regions; Region r has name Regions[r-1].
// The unknown region has no wire name (the field is simply absent).
var Regions = []string{"north_america", "europe", "asia_pacific", "emerging_markets", "global", "other"}

// String returns the wire name of the region ("" when unknown or invalid).
func (g Region) String() string {
	if g >= numRegions {
		return ""
	}
	return regionNames[g]
}

// ParseRegion maps a wire name to its Region.
func ParseRegion(s string) (Region, bool) {
	if s == "" {
		return RegionUnknown, false
	}
	for i, n := range regionNames {
		if n == s {
			return Region(i), true
		}
	}
	return RegionUnknown, false
}

// RiskTolerance is the risk tolerance the person states. RiskUnknown (the zero
// value) means not stated.
type RiskTolerance uint8

// The risk tolerances; wire names are in RiskTolerances (index = value-1).
const (
	RiskUnknown RiskTolerance = iota
	RiskLow
	RiskMedium
	RiskHigh
)

var riskNames = [4]string{"", "low", "medium", "high"}

// RiskTolerances lists the wire names of the risk tolerances.
var RiskTolerances = []string{"low", "medium", "high"}

// String returns the wire name ("" when unknown or invalid).
func (t RiskTolerance) String() string {
	if t > RiskHigh {
		return ""
	}
	return riskNames[t]
}

// ParseRiskTolerance maps a wire name to its RiskTolerance.
func ParseRiskTolerance(s string) (RiskTolerance, bool) {
	switch s {
	case "low":
		return RiskLow, true
	case "medium":
		return RiskMedium, true
	case "high":
		return RiskHigh, true
	}
	return RiskUnknown, false
}

// Holding is one position of the portfolio. Values are in the portfolio's
// reporting currency (Portfolio.Currency); converting is the caller's job.
type Holding struct {
	Name       string
	Value      float64 // market value; below MinValue (0.01), NaN or Inf: the holding is ignored
	AssetClass AssetClass
	ISIN       string // informational; not scored

	// ExpenseRatio is the yearly fund cost as a fraction (0.0095 = 0.95%).
	// It counts only when HasExpenseRatio is true, so a stated 0 differs
	// from "absent". A stated ratio also marks the holding as a pooled fund
	// (looked through for concentration). NaN, Inf or negative values are
	// treated as absent; values above MaxExpenseRatio are capped.
	ExpenseRatio    float64
	HasExpenseRatio bool

	Region   Region
	Currency string // ISO 4217 of the holding; informational, not scored
}

// Context is what is known about the person. Every field is optional: a
// Has* flag (or RiskUnknown) says it is absent, and absent or invalid values
// (NaN, Inf, out of range) are reported in Result.Missing.
type Context struct {
	Age    float64 // years, 0..120
	HasAge bool

	AnnualExpenses    float64 // yearly spending, > 0
	HasAnnualExpenses bool

	RiskTolerance RiskTolerance

	TargetRetirementAge    float64 // the age at which the person wants to be FI, 0..120
	HasTargetRetirementAge bool

	// EmergencyFund is cash set aside outside the holdings. When absent,
	// the cash-class holdings are taken as the emergency fund.
	EmergencyFund    float64
	HasEmergencyFund bool
}

// Portfolio is the input of Score.
type Portfolio struct {
	Holdings []Holding
	Context  Context
	// Currency is the ISO 4217 code of every value (holdings, expenses,
	// emergency fund). It is used only to render amounts; "" renders "$".
	Currency string
}

// ComponentID names one of the four components.
type ComponentID uint8

// The four components, in the order of Result.Components.
const (
	Diversification ComponentID = iota
	CostEfficiency
	RiskAlignment
	Resilience

	// NumComponents is the number of components.
	NumComponents = 4
)

var componentNames = [NumComponents]string{"diversification", "cost_efficiency", "risk_alignment", "resilience"}

// ComponentNames lists the component names as they appear in Component.Name.
var ComponentNames = []string{"diversification", "cost_efficiency", "risk_alignment", "resilience"}

// String returns the component's name.
func (c ComponentID) String() string {
	if c >= NumComponents {
		return ""
	}
	return componentNames[c]
}

// Component is one of the four parts of the score.
type Component struct {
	Name  string
	Score int // 0..Max
	Max   int // ComponentMax
}

// Missing is a set of inputs that were absent or invalid and had to be
// assumed. Bits are named by MissingNames.
type Missing uint16

// Missing flags.
const (
	MissingAge Missing = 1 << iota
	MissingAnnualExpenses
	MissingRiskTolerance
	MissingTargetRetirementAge
	MissingEmergencyFund // estimated from cash holdings
	MissingExpenseRatio  // at least one non-cash holding has no expense ratio
	MissingRegion        // at least one equity holding has no region
	MissingHoldings      // no holding with a positive value

	numMissing = 8
)

var missingNames = [numMissing]string{
	"age", "annualExpenses", "riskTolerance", "targetRetirementAge",
	"emergencyFund", "holdings[].expenseRatio", "holdings[].region", "holdings",
}

// MissingNames lists the input field paths of the Missing bits, bit i first.
var MissingNames = []string{
	"age", "annualExpenses", "riskTolerance", "targetRetirementAge",
	"emergencyFund", "holdings[].expenseRatio", "holdings[].region", "holdings",
}

// Has reports whether every bit of f is set.
func (m Missing) Has(f Missing) bool { return m&f == f && f != 0 }

// AppendNames appends the field path of every set bit to dst.
func (m Missing) AppendNames(dst []string) []string {
	for i := 0; i < numMissing; i++ {
		if m&(1<<i) != 0 {
			dst = append(dst, missingNames[i])
		}
	}
	return dst
}

// Metrics are the measured figures behind the score; callers may expose them.
// Every field is finite. Fractions are 0..1.
type Metrics struct {
	Total    float64 // sum of counted holding values
	Holdings int     // holdings counted
	Ignored  int     // holdings ignored (value below MinValue, NaN or Inf)

	ClassShares      [NumAssetClasses]float64 // share of Total per AssetClass
	EffectiveClasses float64                  // sum over classes of min(1, share/5%)
	HHI              float64                  // look-through Herfindahl-Hirschman index, 0..10000
	LargestExposure  float64                  // largest look-through single exposure
	LargestHolding   int                      // index in Portfolio.Holdings, -1 when none
	EquityRegions    float64                  // effective number of equity regions; 0 when not measurable

	ExpenseRatio      float64 // value-weighted, with the assumptions of the method
	KnownExpenseShare float64 // share of Total whose expense ratio is stated (cash counts as known)
	AnnualCost        float64 // ExpenseRatio * Total
	HorizonYears      int
	ExcessDrag        float64 // share of end wealth lost over the horizon versus BenchmarkExpenseRatio

	GrowthShare      float64
	TargetGrowth     float64 // 0 when HasTargetGrowth is false
	HasTargetGrowth  bool
	SpeculativeShare float64
	SpeculativeCap   float64

	EmergencyFund   float64
	EmergencyMonths float64 // 0 when annual expenses are unknown
	LiquidShare     float64
	FINumber        float64 // FIMultiple * annual expenses; 0 when unknown
	FIProgress      float64 // Total / FINumber, capped at 10; 0 when unknown
	CoastFIProgress float64 // FIProgress grown at AssumedRealReturn until the target retirement age, capped at 10
}

// MaxRecommendations is the capacity of Result.Recs; Score never produces more.
const MaxRecommendations = 16

// Result is filled by Score. It is caller-owned and reusable.
type Result struct {
	Score      int
	Components [NumComponents]Component
	Recs       [MaxRecommendations]Recommendation
	NumRecs    int
	Missing    Missing
	Metrics    Metrics
}

// Recommendations returns the recommendations, priority 1 first. The slice
// aliases r.Recs.
func (r *Result) Recommendations() []Recommendation { return r.Recs[:r.NumRecs] }
