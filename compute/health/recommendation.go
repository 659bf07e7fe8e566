package health

// Kind says what a recommendation is about; it selects the text template and
// which numeric fields of Recommendation are meaningful.
type Kind uint8

// Recommendation kinds. The fields each kind fills are listed after it.
const (
	// KindNoHoldings: nothing to score. (no fields)
	KindNoHoldings Kind = iota
	// KindAssetClassSpread: too few asset classes. Value = effective classes,
	// Target = ClassTarget, Class = largest class, Share = its share.
	KindAssetClassSpread
	// KindHoldingConcentration: high HHI. Value = HHI (0..10000), Target = HHIFull.
	KindHoldingConcentration
	// KindSingleHolding: one holding dominates. Holding, Name, Share = its share,
	// Value = its look-through exposure, Target = ExposureFull.
	KindSingleHolding
	// KindRegionSpread: equities in too few regions. Value = effective regions,
	// Target = RegionTarget, Region = largest region, Share = its share of equity.
	KindRegionSpread
	// KindRegionUnknown: no equity holding states a region. Share = equity share.
	KindRegionUnknown
	// KindFundCost: one expensive fund. Holding, Name, Value = its expense
	// ratio, Target = BenchmarkExpenseRatio, Amount = extra cost a year,
	// Total = end-value difference over Years at AssumedReturn.
	KindFundCost
	// KindPortfolioCost: the weighted expense ratio is high. Value = weighted
	// ratio, Target = BenchmarkExpenseRatio, Amount = extra cost a year,
	// Total = end-value difference over Years.
	KindPortfolioCost
	// KindExpenseRatioUnknown: expense ratios absent. Count = holdings,
	// Share = their share, Value = AssumedExpenseRatio.
	KindExpenseRatioUnknown
	// KindGrowthTooHigh: more growth assets than the guide. Share = growth
	// share, Target = guide, Amount = money to move to bonds or cash.
	KindGrowthTooHigh
	// KindGrowthTooLow: fewer growth assets than the guide. Same fields.
	KindGrowthTooLow
	// KindSpeculative: too much crypto. Share = crypto share, Target = cap,
	// Amount = money above the cap.
	KindSpeculative
	// KindRiskContextMissing: no target allocation can be derived.
	// Missing = which of age, targetRetirementAge, riskTolerance are absent.
	KindRiskContextMissing
	// KindEmergencyFund: emergency fund below the floor. Value = months
	// covered, Target = EmergencyMonthsFull, Amount = money to add,
	// Estimated = true when taken from cash holdings.
	KindEmergencyFund
	// KindExpensesMissing: annual expenses absent. (no fields)
	KindExpensesMissing
	// KindIlliquid: too much in illiquid holdings. Share = illiquid share,
	// Target = highest illiquid share with full points.
	KindIlliquid
	// KindFIProgress: the portfolio, grown at AssumedRealReturn until the
	// target retirement age (coast FI), is below the FI number. Value = that
	// progress, Amount = FI number, Years = years to the target age (0 when
	// unknown or past), Total = yearly saving that reaches the FI number by
	// then (Years > 0) or the gap today (Years == 0).
	KindFIProgress

	numKinds
)

var kindNames = [numKinds]string{
	"no_holdings", "asset_class_spread", "holding_concentration", "single_holding",
	"region_spread", "region_unknown", "fund_cost", "portfolio_cost",
	"expense_ratio_unknown", "growth_too_high", "growth_too_low", "speculative_share",
	"risk_context_missing", "emergency_fund", "expenses_missing", "illiquid_share",
	"fi_progress",
}

// KindNames lists the wire names of the recommendation kinds, indexed by Kind.
var KindNames = []string{
	"no_holdings", "asset_class_spread", "holding_concentration", "single_holding",
	"region_spread", "region_unknown", "fund_cost", "portfolio_cost",
	"expense_ratio_unknown", "growth_too_high", "growth_too_low", "speculative_share",
	"risk_context_missing", "emergency_fund", "expenses_missing", "illiquid_share",
	"fi_progress",
}

// String returns the kind's wire name.
func (k Kind) String() string {
	if k >= numKinds {
		return ""
	}
	return kindNames[k]
}

// Recommendation is one ranked, quantified suggestion. It carries numbers,
// not text: AppendTitle and AppendDetail render it. Which numeric fields are
// meaningful depends on Kind (see the Kind constants); the rest are zero.
type Recommendation struct {
	Priority  int         // 1 = highest impact
	Kind      Kind        //
	Component ComponentID // the component whose points it recovers
	Impact    int         // estimated score points gained by acting, >= 1

	Holding  int    // index in Portfolio.Holdings; -1 when not about one holding
	Name     string // the holding's name when Holding >= 0
	Currency string // Portfolio.Currency, for rendering amounts

	Class     AssetClass
	Region    Region
	Missing   Missing
	Estimated bool

	Share  float64 // a share of the portfolio (fraction)
	Value  float64 // the measured figure
	Target float64 // the figure that earns full points
	Amount float64 // money
	Total  float64 // money over Years
	Years  int
	Count  int

	gain float64 // unrounded impact, for ordering
}
