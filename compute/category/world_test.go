package category

import "testing"

func TestWorldFund(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"Vanguard FTSE All-World UCITS ETF":  true,
		"iShares Core MSCI World":            true,
		"SPDR MSCI ACWI IMI":                 true,
		"Vanguard Total World Stock ETF":     true,
		"Vanguard FTSE Global All Cap Index": true,
		"msci world small cap":               true,
		"Vanguard S&P 500":                   false,
		"iShares MSCI Emerging Markets":      false,
		"Worldline SA":                       false,
		"Acwiser Holdings":                   false,
		"":                                   false,
	} {
		if got := WorldFund(name); got != want {
			t.Errorf("WorldFund(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestFund(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"Vanguard U.K. Government Bond Index":    true,
		"iShares Core UK Gilts UCITS ETF":        true,
		"Legal & General All Stocks Gilt Index":  true,
		"Fidelity Index World Fund P Acc":        true,
		"Royal London Short Duration Gilts OEIC": true,
		"Treasury 4 1/4% 2036":                   false,
		"NS&I Premium Bonds":                     false,
		"Apple Inc.":                             false,
		"Refund Holdings":                        false,
		"":                                       false,
	} {
		if got := Fund(name); got != want {
			t.Errorf("Fund(%q) = %v, want %v", name, got, want)
		}
	}
}

// NS&I Premium Bonds are savings repaid on demand, not a bond.
func TestPremiumBondsAreCash(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"NS&I Premium Bonds", "premium bond holding"} {
		if g := Of(name, "", ""); g.Category != Cash || g.Rule != Keyword {
			t.Errorf("Of(%q) = %+v, want cash by keyword", name, g)
		}
	}
	if g := Of("UK Treasury Gilt 2030", "", ""); g.Category != Bond {
		t.Errorf("a gilt is %q, want bond", g.Category)
	}
}

// BenchmarkFund reads a fund's name, as the health score does for every
// holding. Target: under 300 ns for the two names and 0 allocs/op.
func BenchmarkFund(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if Fund("Vanguard U.K. Government Bond Index") {
			n++
		}
		if Fund("ACME Corporation Class A") {
			n++
		}
	}
	if n == 0 {
		b.Fatal("no fund found")
	}
}
