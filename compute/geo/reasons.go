package geo

import (
	"math"
	"strconv"
)

// Reason is one line of why a city is recommended.
type Reason uint8

// The reasons, in the order they are given.
const (
	ReasonBudget         Reason = iota // the cost against the budget; always first
	ReasonSafety                       // safety index at least safeFrom
	ReasonHealthcare                   // healthcare index at least goodCareFrom
	ReasonClimate                      // the climate band and its highs; always given
	ReasonRetirementVisa               // a retirement route, unless the query asks for a nomad route
	ReasonNomadVisa                    // a digital-nomad route, unless the query asks for a retirement route
	ReasonTaxProgram                   // a special tax program for newcomers
	ReasonEnglish                      // English native or spoken widely (very high or high)
	ReasonInternet                     // broadband at least fastMbps
)

// Thresholds of the reasons.
const (
	verySafeFrom   = 80
	safeFrom       = 65
	strongCareFrom = 80
	goodCareFrom   = 70
)

// AppendReasons appends the reasons that apply to the recommendation r of
// city c for q, in order.
func AppendReasons(dst []Reason, q *Query, c *City, r *Result) []Reason {
	dst = append(dst, ReasonBudget)
	if c.Safety >= safeFrom {
		dst = append(dst, ReasonSafety)
	}
	if c.Healthcare >= goodCareFrom {
		dst = append(dst, ReasonHealthcare)
	}
	dst = append(dst, ReasonClimate)
	if c.RetirementVisa != "" && q.Visa != NomadVisa {
		dst = append(dst, ReasonRetirementVisa)
	}
	if c.NomadVisa != "" && q.Visa != RetirementVisa {
		dst = append(dst, ReasonNomadVisa)
	}
	if c.TaxProgram != "" {
		dst = append(dst, ReasonTaxProgram)
	}
	if c.English >= Native && c.English <= High {
		dst = append(dst, ReasonEnglish)
	}
	if c.InternetMbps >= fastMbps {
		dst = append(dst, ReasonInternet)
	}
	return dst
}

// AppendReason appends the text of one reason for the recommendation r of
// city c for q.
func AppendReason(dst []byte, why Reason, q *Query, c *City, r *Result) []byte {
	switch why {
	case ReasonBudget:
		if r.Tight {
			dst = append(dst, "Fits only just: "...)
		}
		dst = appendUSD(dst, r.Cost)
		dst = append(dst, " a month for "...)
		dst = strconv.AppendInt(dst, int64(q.Household), 10)
		if q.Household == 1 {
			dst = append(dst, " person, "...)
		} else {
			dst = append(dst, " people, "...)
		}
		dst = strconv.AppendInt(dst, int64(math.Round(r.Share*100)), 10)
		dst = append(dst, "% of your "...)
		dst = appendUSD(dst, roundInt(q.Budget))
		return append(dst, " budget"...)
	case ReasonSafety:
		if c.Safety >= verySafeFrom {
			dst = append(dst, "Very safe: safety index "...)
		} else {
			dst = append(dst, "Safe: safety index "...)
		}
		dst = strconv.AppendInt(dst, int64(c.Safety), 10)
		return append(dst, " of 100"...)
	case ReasonHealthcare:
		if c.Healthcare >= strongCareFrom {
			dst = append(dst, "Strong healthcare: index "...)
		} else {
			dst = append(dst, "Good healthcare: index "...)
		}
		dst = strconv.AppendInt(dst, int64(c.Healthcare), 10)
		return append(dst, " of 100"...)
	case ReasonClimate:
		if band := c.Band.String(); band != "" {
			dst = append(dst, band[0]&^0x20)
			dst = append(dst, band[1:]...)
		}
		dst = append(dst, " climate: average highs from "...)
		dst = appendTenths(dst, c.ColdestHighC)
		dst = append(dst, " °C in the coldest month to "...)
		dst = appendTenths(dst, c.WarmestHighC)
		return append(dst, " °C in the warmest"...)
	case ReasonRetirementVisa:
		return append(append(dst, "Retirement visa: "...), c.RetirementVisa...)
	case ReasonNomadVisa:
		return append(append(dst, "Digital nomad visa: "...), c.NomadVisa...)
	case ReasonTaxProgram:
		return append(append(dst, "Special tax program for newcomers: "...), c.TaxProgram...)
	case ReasonEnglish:
		if c.English == Native {
			return append(dst, "English is the main language"...)
		}
		dst = append(dst, "English widely spoken (EF band "...)
		dst = append(dst, c.English.String()...)
		return append(dst, ')')
	case ReasonInternet:
		dst = append(dst, "Fast internet: about "...)
		dst = strconv.AppendInt(dst, int64(c.InternetMbps), 10)
		return append(dst, " Mbps"...)
	}
	return dst
}

// appendUSD appends v as dollars with thousands separators: $1,234.
func appendUSD(dst []byte, v int) []byte {
	dst = append(dst, '$')
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(v), 10)
	for i, ch := range d {
		if i > 0 && (len(d)-i)%3 == 0 && d[i-1] != '-' {
			dst = append(dst, ',')
		}
		dst = append(dst, ch)
	}
	return dst
}

// appendTenths appends x rounded half away from zero to one decimal, a
// trailing .0 dropped: 22.35 -> 22.4, 12.04 -> 12, -0.04 -> 0. Magnitudes
// of 1e14 and more are written as whole numbers.
func appendTenths(dst []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(dst, "null"...)
	}
	n := math.Round(x * 10)
	if math.Abs(n) >= 1e15 {
		return strconv.AppendFloat(dst, math.Round(x), 'f', -1, 64)
	}
	t := int64(n)
	if t < 0 {
		dst = append(dst, '-')
		t = -t
	}
	dst = strconv.AppendInt(dst, t/10, 10)
	if t%10 != 0 {
		dst = append(dst, '.', byte('0'+t%10))
	}
	return dst
}
