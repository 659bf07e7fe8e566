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

// Fund reports whether a holding's name says it is a pooled fund
// ("Vanguard U.K. Government Bond Index", "iShares Core UK Gilts UCITS
// ETF"): a word fund, index, ETF, UCITS, tracker, OEIC or SICAV, or "unit
// trust". Such a holding holds many securities, not one. One pass over the
// name's words: the health score asks it of every holding.
func Fund(name string) bool {
	var buf, prev [8]byte
	pn := 0
	for i := 0; i < len(name); {
		for i < len(name) && !wordByte(name[i]) {
			i++
		}
		j := i
		for j < len(name) && wordByte(name[j]) {
			j++
		}
		n := j - i
		if n > len(buf) {
			n = 0 // longer than any of the words
		}
		for k := 0; k < n; k++ {
			c := name[i+k]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[k] = c
		}
		switch string(buf[:n]) {
		case "fund", "funds", "index", "etf", "etfs", "ucits", "tracker", "oeic", "sicav":
			return true
		case "trust":
			if string(prev[:pn]) == "unit" {
				return true
			}
		}
		prev, pn, i = buf, n, j
	}
	return false
}
