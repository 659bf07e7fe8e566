package category

// worldWords name an index that spans the developed and emerging markets of
// the whole world (or, for MSCI World, every developed market): a fund
// tracking one is spread over thousands of companies in every region.
var worldWords = []string{
	"all-world", "all world", "msci world", "acwi", "all country world", "total world",
	"ftse global all cap", "global all cap", "ftse global", "msci all country",
}

// WorldFund reports whether an equity holding's name says it tracks a world
// index ("Vanguard FTSE All-World", "iShares Core MSCI World", "SPDR MSCI
// ACWI IMI", "Vanguard Total World Stock"), so that its region is global.
func WorldFund(name string) bool {
	for _, w := range worldWords {
		if containsWord(name, w) {
			return true
		}
	}
	return false
}
