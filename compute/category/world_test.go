package category

import "testing"

func TestWorldFund(t *testing.T) {
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
