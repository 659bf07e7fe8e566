package policyengine

import (
	"strings"
)

// ukReasons explains each kind of difference uk_differences.txt lists; a
// line may name several, joined by "+". Each is a reading of the statute
// that makes fiplan right where PolicyEngine-UK differs, or a rule fiplan
// does not model, never left unnamed.
var ukReasons = map[string]string{
	"savings-starting-rate": "PolicyEngine reduces the £5,000 starting rate for savings only by the taxable non-savings " +
		"income (already net of the Personal Allowance) above £17,570, the Personal Allowance counted twice; ITA 2007 " +
		"s.12 and GOV.UK \"Tax on savings interest\" reduce the band by every pound of taxable non-savings income " +
		"(none left from £17,570 of non-savings income): fiplan charges more",
	"scottish-psa": "PolicyEngine sets a Scottish taxpayer's Personal Savings Allowance by the Scottish bands (£500 from " +
		"the Scottish higher rate, nil from the advanced rate); the allowance (ITA 2007 s.12B) is reserved to " +
		"Westminster and turns on the UK higher and additional rates, on which a Scottish taxpayer's savings and " +
		"dividends are charged (HMRC: savings allowance by the UK bands): fiplan uses the UK bands",
	"scottish-top-rate": "PolicyEngine charges the Scottish top rate (48%) from £112,570 of taxable income (£125,140 less " +
		"a full Personal Allowance); the Scottish rate resolution sets the advanced rate limit at £125,140 of " +
		"taxable income (gov.scot: top rate above £125,140, where no Personal Allowance is left): fiplan charges " +
		"45% up to £125,140",
	"dividend-bands-2025": "PolicyEngine's dividend bands for 2025/26 keep the old limits (upper rate from £37,500, " +
		"additional rate from £150,000 of taxable income); dividends are charged by the basic rate limit £37,700 and " +
		"the higher rate limit £125,140 of ITA 2007 s.10 (s.13; GOV.UK Income Tax rates 2025 to 2026), which " +
		"PolicyEngine uses from 2026/27: fiplan charges more",
	"open": "not yet explained: a difference to study",
}

// ukReasonFor proposes the reasons of a difference for -update, from the
// person's income and PolicyEngine's adjusted net income and Personal
// Allowance; the file it writes is read line by line before it is
// committed.
func ukReasonFor(c *ukCase, what string, mine, theirs float64) string {
	if what != "income-tax" {
		return "open"
	}
	nonSavings := c.Employment + c.Pension + c.StatePension
	nsTaxable := nonSavings - c.PE.PA
	taxable := c.PE.ANI - c.PE.PA
	var out []string
	if c.Interest > 0 && nsTaxable > 0 && nsTaxable < 22570 {
		out = append(out, "savings-starting-rate")
	}
	if c.Region == "SCT" && c.Interest > 0 && psaUK(taxable) != psaScottish(taxable) {
		out = append(out, "scottish-psa")
	}
	if c.Region == "SCT" && nsTaxable > 112570 {
		out = append(out, "scottish-top-rate")
	}
	if c.Year == 2025 && c.Dividends > 0 {
		lo, hi := taxable-c.Dividends, taxable
		if (lo < 37700 && hi > 37500) || (lo < 150000 && hi > 125140) {
			out = append(out, "dividend-bands-2025")
		}
	}
	if len(out) == 0 {
		return "open"
	}
	return strings.Join(out, "+")
}

// psaUK is the Personal Savings Allowance by the UK bands of taxable
// income; psaScottish the one PolicyEngine gives by the Scottish bands
// (2025/26 and 2026/27: higher rate from £31,092, advanced from £62,430).
func psaUK(taxable float64) int {
	switch {
	case taxable >= 125140:
		return 0
	case taxable > 37700:
		return 500
	}
	return 1000
}

func psaScottish(taxable float64) int {
	switch {
	case taxable >= 62430:
		return 0
	case taxable >= 31092:
		return 500
	}
	return 1000
}
