package category

import (
	"strings"
	"testing"
)

// Savings accounts and target-date or multi-asset funds are named in many
// ways; none of these is "other".
func TestSavingsAndMultiAsset(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, isin, want, reason string
	}{
		{"High-yield savings", "", Cash, `"savings"`},
		{"Ally HYSA", "", Cash, `"hysa"`},
		{"12-month certificate of deposit", "", Cash, `"deposit"`},
		{"Emergency fund", "", Cash, "emergency fund"},
		{"Livret A", "", Cash, "livret"},
		{"Vanguard Target Retirement 2050 Fund", "", Equity, "target-date or multi-asset fund"},
		{"Fidelity target-date 2045", "", Equity, "target-date or multi-asset fund"},
		{"Vanguard LifeStrategy 60% Equity UCITS ETF", "IE00BMVB5P51", Equity, "target-date or multi-asset fund"},
		{"BlackRock multi-asset income", "", Equity, "target-date or multi-asset fund"},
		{"Vanguard Balanced Fund", "", Equity, "target-date or multi-asset fund"},
	}
	for _, c := range cases {
		g := Of(c.name, c.isin, "")
		if g.Category != c.want || g.Rule != Keyword {
			t.Errorf("Of(%q) = %s by rule %d (%q), want %s by keyword", c.name, g.Category, g.Rule, g.Match, c.want)
		}
		if r := string(AppendReason(nil, g)); !strings.Contains(r, c.reason) {
			t.Errorf("Of(%q): reason %q does not say %q", c.name, r, c.reason)
		}
	}
	// a savings bond is a bond, not cash
	if g := Of("Series I savings bonds", "", ""); g.Category != Bond {
		t.Errorf("savings bonds: %s (%q)", g.Category, g.Match)
	}
}
