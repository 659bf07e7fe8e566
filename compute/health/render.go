package health

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// maxNameBytes bounds a holding name inside a rendered text.
const maxNameBytes = 64

var titles = [numKinds]string{
	KindNoHoldings:           "Add your holdings",
	KindAssetClassSpread:     "Spread across more asset classes",
	KindHoldingConcentration: "Reduce concentration in a few holdings",
	KindSingleHolding:        "Reduce the weight of ",
	KindRegionSpread:         "Diversify equities across regions",
	KindRegionUnknown:        "State the region of your equity holdings",
	KindFundCost:             "Cut the fee on ",
	KindPortfolioCost:        "Lower your overall fund costs",
	KindExpenseRatioUnknown:  "Add the missing expense ratios",
	KindGrowthTooHigh:        "Take less risk for your horizon",
	KindGrowthTooLow:         "Hold more growth assets for your horizon",
	KindSpeculative:          "Limit speculative assets",
	KindRiskContextMissing:   "Tell us your age and risk tolerance",
	KindEmergencyFund:        "Build your emergency fund",
	KindExpensesMissing:      "Add your annual expenses",
	KindIlliquid:             "Keep more of the portfolio liquid",
	KindFIProgress:           "Keep investing toward your FI number",
}

var regionLabels = [numRegions]string{"", "North America", "Europe", "Asia-Pacific", "emerging markets", "global", "other regions"}

// AppendTitle appends the recommendation's short title to dst.
func AppendTitle(dst []byte, r *Recommendation) []byte {
	if r.Kind >= numKinds {
		return dst
	}
	dst = append(dst, titles[r.Kind]...)
	switch r.Kind {
	case KindSingleHolding, KindFundCost:
		dst = appendName(dst, r)
	}
	return dst
}

// AppendDetail appends the recommendation's explanation, with its figures,
// to dst; nothing for an unknown kind.
func AppendDetail(dst []byte, r *Recommendation) []byte {
	switch r.Kind {
	case KindNoHoldings:
		return append(dst, "No holding with a positive value was given, so diversification, costs and risk cannot be scored. Add each holding with its value and asset class."...)
	case KindAssetClassSpread:
		return appendClassSpreadDetail(dst, r)
	case KindHoldingConcentration:
		return appendConcentrationDetail(dst, r)
	case KindSingleHolding:
		return appendSingleHoldingDetail(dst, r)
	case KindRegionSpread:
		return appendRegionSpreadDetail(dst, r)
	case KindRegionUnknown:
		return appendRegionUnknownDetail(dst, r)
	case KindFundCost:
		return appendFundCostDetail(dst, r)
	case KindPortfolioCost:
		return appendPortfolioCostDetail(dst, r)
	case KindExpenseRatioUnknown:
		return appendExpenseRatioUnknownDetail(dst, r)
	case KindGrowthTooHigh, KindGrowthTooLow:
		return appendGrowthDetail(dst, r)
	case KindSpeculative:
		return appendSpeculativeDetail(dst, r)
	case KindRiskContextMissing:
		return appendRiskContextDetail(dst, r)
	case KindEmergencyFund:
		return appendEmergencyDetail(dst, r)
	case KindExpensesMissing:
		return append(dst, "Without your annual expenses, emergency-fund coverage and progress to financial independence cannot be measured, so both are scored at half. Add your yearly spending."...)
	case KindIlliquid:
		return appendIlliquidDetail(dst, r)
	case KindFIProgress:
		return appendFIProgressDetail(dst, r)
	}
	return dst
}

// ---- Diversification details ----

// appendClassSpreadDetail explains KindAssetClassSpread: the effective
// classes, the largest class and how many classes to hold.
func appendClassSpreadDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "The portfolio spans effectively "...)
	dst = appendNum(dst, r.Value, 1)
	dst = append(dst, " asset classes (a class counts fully from "...)
	dst = appendPct(dst, ClassMinShare, 0)
	dst = append(dst, " of the portfolio) and "...)
	dst = append(dst, r.Class.String()...)
	dst = append(dst, " is "...)
	dst = appendShare(dst, r.Share)
	dst = append(dst, " of it. Holding at least "...)
	dst = appendNum(dst, r.Target, 0)
	return append(dst, ", for example equities, bonds and cash, keeps one market fall from hitting everything at once."...)
}

// appendConcentrationDetail explains KindHoldingConcentration: the HHI and
// the level that counts as unconcentrated.
func appendConcentrationDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "The concentration index (Herfindahl-Hirschman, funds looked through) is "...)
	dst = appendInt(dst, r.Value)
	dst = append(dst, "; at or below "...)
	dst = appendInt(dst, r.Target)
	return append(dst, " counts as unconcentrated. Spreading money over more holdings or a broad index fund lowers it."...)
}

// appendSingleHoldingDetail explains KindSingleHolding: the holding's share,
// its look-through exposure when smaller, and the ceiling.
func appendSingleHoldingDetail(dst []byte, r *Recommendation) []byte {
	dst = appendName(dst, r)
	dst = append(dst, " is "...)
	dst = appendShare(dst, r.Share)
	dst = append(dst, " of the portfolio"...)
	if r.Value < r.Share*0.999 {
		dst = append(dst, ", about "...)
		dst = appendShare(dst, r.Value)
		dst = append(dst, " in any one underlying position"...)
	}
	dst = append(dst, "; keep any single exposure at or below "...)
	dst = appendShare(dst, r.Target)
	return append(dst, " so one failure cannot sink the plan."...)
}

// appendRegionSpreadDetail explains KindRegionSpread: the effective regions,
// the largest region when valid, and the target.
func appendRegionSpreadDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "Your equities sit in effectively "...)
	dst = appendNum(dst, r.Value, 1)
	dst = append(dst, " regions"...)
	if r.Region > RegionUnknown && r.Region < numRegions {
		dst = append(dst, ", with "...)
		dst = append(dst, regionLabels[r.Region]...)
		dst = append(dst, " at "...)
		dst = appendShare(dst, r.Share)
	}
	dst = append(dst, ". A world index fund, or funds for other regions, brings that to at least "...)
	dst = appendNum(dst, r.Target, 0)
	return append(dst, '.')
}

// appendRegionUnknownDetail explains KindRegionUnknown: the equity share
// whose region is not stated.
func appendRegionUnknownDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "None of your equity holdings ("...)
	dst = appendShare(dst, r.Share)
	return append(dst, " of the portfolio) states a region, so regional spread is scored at half. Add the region, or \"global\" for a world fund."...)
}

// ---- Cost details ----

// appendFundCostDetail explains KindFundCost: the fund's ratio, its extra
// cost a year against an index fund and over the horizon.
func appendFundCostDetail(dst []byte, r *Recommendation) []byte {
	dst = appendName(dst, r)
	dst = append(dst, " costs "...)
	dst = appendPct(dst, r.Value, 2)
	dst = append(dst, " a year, about "...)
	dst = appendMoney(dst, r.Currency, r.Amount)
	dst = append(dst, " a year more than a "...)
	dst = appendPct(dst, r.Target, 2)
	dst = append(dst, " index fund: about "...)
	dst = appendMoney(dst, r.Currency, r.Total)
	return appendOver(dst, r.Years)
}

// appendPortfolioCostDetail explains KindPortfolioCost: the weighted ratio,
// its extra cost a year against index funds and over the horizon.
func appendPortfolioCostDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "Your holdings cost "...)
	dst = appendPct(dst, r.Value, 2)
	dst = append(dst, " a year on average (value-weighted), about "...)
	dst = appendMoney(dst, r.Currency, r.Amount)
	dst = append(dst, " a year more than "...)
	dst = appendPct(dst, r.Target, 2)
	dst = append(dst, " index funds: about "...)
	dst = appendMoney(dst, r.Currency, r.Total)
	return appendOver(dst, r.Years)
}

// appendExpenseRatioUnknownDetail explains KindExpenseRatioUnknown: how many
// holdings, of what share, have the assumed ratio.
func appendExpenseRatioUnknownDetail(dst []byte, r *Recommendation) []byte {
	dst = strconv.AppendInt(dst, int64(r.Count), 10)
	if r.Count == 1 {
		dst = append(dst, " holding ("...)
	} else {
		dst = append(dst, " holdings ("...)
	}
	dst = appendShare(dst, r.Share)
	dst = append(dst, " of the portfolio) state no expense ratio, so "...)
	dst = appendPct(dst, r.Value, 2)
	return append(dst, " a year is assumed. Add each fund's ratio, or 0 for a directly held security or property."...)
}

func appendOver(dst []byte, years int) []byte {
	dst = append(dst, " less after "...)
	dst = strconv.AppendInt(dst, int64(years), 10)
	dst = append(dst, " years, compounding at "...)
	dst = appendPct(dst, AssumedReturn, 0)
	dst = append(dst, " a year."...)
	return dst
}

// ---- Risk details ----

// appendGrowthDetail explains KindGrowthTooHigh and KindGrowthTooLow: the
// growth share, its guide, and the money to move which way.
func appendGrowthDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "Growth assets (equities and crypto, half of property, commodities and other) are "...)
	dst = appendShare(dst, r.Share)
	dst = append(dst, " of the portfolio; the guide for your age, horizon and risk tolerance is "...)
	dst = appendShare(dst, r.Target)
	dst = append(dst, ", and within "...)
	dst = appendNum(dst, GrowthBand*100, 0)
	dst = append(dst, " points of it earns full points. Moving about "...)
	dst = appendMoney(dst, r.Currency, r.Amount)
	if r.Kind == KindGrowthTooHigh {
		return append(dst, " into bonds or cash brings it in line."...)
	}
	return append(dst, " into broad equity index funds brings it in line."...)
}

// appendSpeculativeDetail explains KindSpeculative: the crypto share, the
// cap and the money above it.
func appendSpeculativeDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "Crypto is "...)
	dst = appendShare(dst, r.Share)
	dst = append(dst, " of the portfolio; for your risk tolerance keep speculative assets at or below "...)
	dst = appendShare(dst, r.Target)
	dst = append(dst, ", about "...)
	dst = appendMoney(dst, r.Currency, r.Amount)
	return append(dst, " less."...)
}

// appendRiskContextDetail explains KindRiskContextMissing, naming the
// absent inputs among age, target retirement age and risk tolerance.
func appendRiskContextDetail(dst []byte, r *Recommendation) []byte {
	dst = append(dst, "Without "...)
	n := 0
	for _, f := range [...]struct {
		bit  Missing
		text string
	}{{MissingAge, "your age"}, {MissingTargetRetirementAge, "target retirement age"}, {MissingRiskTolerance, "risk tolerance"}} {
		if r.Missing&f.bit != 0 {
			if n > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, f.text...)
			n++
		}
	}
	if n == 0 {
		dst = append(dst, "your age or risk tolerance"...)
	}
	return append(dst, " there is no guide for your share of growth assets, so it is scored at half. Add your age (best with your target retirement age), or at least your risk tolerance."...)
}

// ---- Resilience details ----

// appendEmergencyDetail explains KindEmergencyFund: the months covered (by
// the fund or, estimated, by cash holdings), the floor and the money to add.
func appendEmergencyDetail(dst []byte, r *Recommendation) []byte {
	if r.Estimated {
		dst = append(dst, "Cash holdings (no separate emergency fund was given) cover "...)
	} else {
		dst = append(dst, "Your emergency fund covers "...)
	}
	dst = appendNum(dst, r.Value, 1)
	dst = append(dst, " months of expenses; "...)
	dst = appendNum(dst, r.Target, 0)
	dst = append(dst, " is the usual floor: set aside about "...)
	dst = appendMoney(dst, r.Currency, r.Amount)
	return append(dst, " more in cash or a savings account."...)
}

// appendIlliquidDetail explains KindIlliquid: the illiquid share and the
// share with full points.
func appendIlliquidDetail(dst []byte, r *Recommendation) []byte {
	dst = appendShare(dst, r.Share)
	dst = append(dst, " of the portfolio is in holdings that cannot be sold quickly (directly held property and other assets); at or below "...)
	dst = appendShare(dst, r.Target)
	return append(dst, " leaves room to rebalance or meet a large expense without a forced sale."...)
}

// appendFIProgressDetail explains KindFIProgress: the (coast) progress to
// the FI number and either the yearly saving that closes the gap by the
// target age or the gap today.
func appendFIProgressDetail(dst []byte, r *Recommendation) []byte {
	if r.Years > 0 {
		dst = append(dst, "Growing at "...)
		dst = appendPct(dst, AssumedRealReturn, 0)
		dst = append(dst, " a year after inflation with no further saving, the portfolio reaches "...)
	} else {
		dst = append(dst, "The portfolio is "...)
	}
	dst = appendShare(dst, r.Value)
	dst = append(dst, " of your FI number of "...)
	dst = appendMoney(dst, r.Currency, r.Amount)
	dst = append(dst, " ("...)
	dst = appendNum(dst, FIMultiple, 0)
	dst = append(dst, " times annual expenses, a 4% withdrawal rate)"...)
	if r.Years > 0 {
		dst = append(dst, " by your target retirement age. Investing about "...)
		dst = appendMoney(dst, r.Currency, r.Total)
		dst = append(dst, " a year (in today's money) for "...)
		dst = strconv.AppendInt(dst, int64(r.Years), 10)
		return append(dst, " years closes the gap."...)
	}
	dst = append(dst, ": "...)
	dst = appendMoney(dst, r.Currency, r.Total)
	return append(dst, " to go."...)
}

// appendName appends the holding's name, bounded, or "holding #n".
func appendName(dst []byte, r *Recommendation) []byte {
	name := r.Name
	if name == "" {
		dst = append(dst, "holding #"...)
		return strconv.AppendInt(dst, int64(r.Holding)+1, 10)
	}
	if len(name) > maxNameBytes {
		n := maxNameBytes
		for n > 0 && !utf8.RuneStart(name[n]) {
			n--
		}
		dst = append(dst, name[:n]...)
		return append(dst, "..."...)
	}
	return append(dst, name...)
}

func sane(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.Max(-1e18, math.Min(1e18, x))
}

func appendNum(dst []byte, x float64, decimals int) []byte {
	return strconv.AppendFloat(dst, sane(x), 'f', decimals, 64)
}

// appendPct appends a fraction as a percentage with the given decimals.
func appendPct(dst []byte, frac float64, decimals int) []byte {
	dst = strconv.AppendFloat(dst, sane(frac)*100, 'f', decimals, 64)
	return append(dst, '%')
}

// appendShare appends a share of the portfolio: whole percent, one decimal
// below 10%.
func appendShare(dst []byte, frac float64) []byte {
	frac = sane(frac)
	if frac < 0.0995 && frac > 0 {
		return appendPct(dst, frac, 1)
	}
	return appendPct(dst, frac, 0)
}

// appendInt appends x rounded, with thousands separators.
func appendInt(dst []byte, x float64) []byte {
	v := int64(math.Round(sane(x)))
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var buf [32]byte
	i := len(buf)
	for n := 0; ; n++ {
		if n > 0 && n%3 == 0 {
			i--
			buf[i] = ','
		}
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}

// appendMoney appends an amount in the portfolio currency, rounded to a
// whole unit: "$1,234", "€1,234", "£1,234" or "1,234 CHF".
func appendMoney(dst []byte, currency string, x float64) []byte {
	if x < 0 {
		dst = append(dst, '-')
		x = -x
	}
	switch currency {
	case "", "USD":
		dst = append(dst, '$')
	case "EUR":
		dst = append(dst, "€"...)
	case "GBP":
		dst = append(dst, "£"...)
	default:
		dst = appendInt(dst, x)
		dst = append(dst, ' ')
		return append(dst, currency...)
	}
	return appendInt(dst, x)
}
