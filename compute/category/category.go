// Package category guesses the asset category of a holding from its name,
// ticker and ISIN, with a confidence and the rule that decided. It is pure
// and allocates nothing; AppendReason writes the explanation.
//
// Rules, strongest first:
//
//  1. a ticker in the table of well-known funds and coins (exchange suffix
//     such as ".L" or ".DE" ignored);
//  2. a keyword in the name, matched as a whole word without regard to case,
//     in priority order: crypto ("bitcoin"), cash ("money market",
//     "savings"), target-date and multi-asset funds (counted as equity, their
//     larger part), bonds ("treasury", "gilt"), real estate ("REIT"),
//     commodities ("gold", but not "gold miners", which are shares) and
//     equity ("MSCI", "S&P 500");
//  3. the ISIN's prefix: XS (international, mostly eurobonds) and EU (EU
//     institutions' debt) point to bonds; IE and LU, the UCITS fund
//     domiciles, to a fund, most often an equity one; other country
//     prefixes to a listed share;
//  4. otherwise "other", with a low confidence.
//
// When a keyword and the ISIN prefix agree the confidence rises a little.
package category

// The categories, as the API names them.
const (
	Equity     = "equity"
	Bond       = "bond"
	Cash       = "cash"
	RealEstate = "real_estate"
	Crypto     = "crypto"
	Commodity  = "commodity"
	Other      = "other"
)

// Count is the number of categories.
const Count = 7

// names is the one list of categories. A category's position is its code:
// the byte stores keep beside each asset and the value of the portfolio
// health's asset class. So the list only grows, at its end, and a position
// never changes meaning.
var names = [Count]string{Equity, Bond, Cash, RealEstate, Crypto, Commodity, Other}

// Names returns every category in code order: the API's enum of asset
// categories, the stores' codes and the health classes all derive from it.
// Each call returns a new slice the caller may keep or change.
func Names() []string {
	s := make([]string, Count)
	copy(s, names[:])
	return s
}

// Name is the category of code; false for a code no category has.
func Name(code uint8) (string, bool) {
	if int(code) >= Count {
		return "", false
	}
	return names[code], true
}

// Code is the code of the category named name (exact, lower case); false
// when name is no category.
func Code(name string) (uint8, bool) {
	for i, n := range names {
		if n == name {
			return uint8(i), true
		}
	}
	return 0, false
}

// Rule says which evidence decided a Guess.
type Rule uint8

// Rules.
const (
	None Rule = iota
	Ticker
	Keyword
	ISIN
)

// Guess is a category with its confidence (0..1) and evidence.
type Guess struct {
	Category   string
	Confidence float64
	Rule       Rule
	Match      string // the ticker, keyword or ISIN prefix matched
	Agrees     bool   // the ISIN prefix agrees with the keyword
}

type keyword struct {
	word     string // lower case; may contain spaces
	category string
}

// keywords in priority order: the first match wins.
var keywords = []keyword{
	{"bitcoin", Crypto}, {"btc", Crypto}, {"ethereum", Crypto}, {"ether", Crypto}, {"solana", Crypto},
	{"crypto", Crypto}, {"cryptocurrency", Crypto}, {"stablecoin", Crypto},
	// NS&I Premium Bonds: a government-backed savings product paying prizes,
	// not a bond: capital guaranteed and repaid on demand.
	{"premium bonds", Cash}, {"premium bond", Cash},
	{"savings bond", Bond}, {"savings bonds", Bond},
	{"money market", Cash}, {"cash", Cash}, {"savings account", Cash}, {"current account", Cash},
	{"deposit", Cash}, {"checking", Cash}, {"tagesgeld", Cash}, {"festgeld", Cash},
	{"savings", Cash}, {"high-yield savings", Cash}, {"hysa", Cash},
	{"emergency fund", Cash}, {"sparkonto", Cash}, {"livret", Cash}, {"isa cash", Cash},
	// Target-date and multi-asset funds hold mostly shares until close to
	// their date: counted with equity, their larger part.
	{"target date", Equity}, {"target-date", Equity}, {"target retirement", Equity},
	{"lifecycle", Equity}, {"lifestrategy", Equity}, {"multi-asset", Equity}, {"multi asset", Equity},
	{"balanced fund", Equity}, {"asset allocation", Equity},
	{"bond", Bond}, {"bonds", Bond}, {"eurobond", Bond}, {"treasury", Bond}, {"treasuries", Bond}, {"t-bill", Bond}, {"t-bills", Bond},
	{"gilt", Bond}, {"gilts", Bond}, {"bund", Bond}, {"bunds", Bond}, {"fixed income", Bond},
	{"aggregate", Bond}, {"government", Bond}, {"govt", Bond}, {"corporate", Bond}, {"tips", Bond},
	{"inflation-linked", Bond}, {"inflation linked", Bond}, {"debenture", Bond}, {"anleihe", Bond}, {"anleihen", Bond},
	{"reit", RealEstate}, {"reits", RealEstate}, {"real estate", RealEstate}, {"property", RealEstate},
	{"properties", RealEstate}, {"immobilien", RealEstate}, {"rental", RealEstate}, {"apartment", RealEstate},
	{"gold miners", Equity}, {"gold mining", Equity}, {"miners", Equity}, {"mining", Equity},
	{"gold", Commodity}, {"silver", Commodity}, {"platinum", Commodity}, {"palladium", Commodity},
	{"commodity", Commodity}, {"commodities", Commodity}, {"oil", Commodity}, {"bullion", Commodity},
	{"precious metals", Commodity},
	{"stock", Equity}, {"stocks", Equity}, {"equity", Equity}, {"equities", Equity}, {"shares", Equity},
	{"share", Equity}, {"msci", Equity}, {"ftse", Equity}, {"s&p 500", Equity}, {"s&p", Equity},
	{"nasdaq", Equity}, {"dow jones", Equity}, {"stoxx", Equity}, {"dax", Equity}, {"nikkei", Equity},
	{"total market", Equity}, {"all-world", Equity}, {"all world", Equity}, {"small cap", Equity},
	{"dividend", Equity}, {"index", Equity}, {"etf", Equity}, {"fund", Equity},
}

type known struct {
	ticker, category string
}

// tickers are widely held funds and coins (primary listings; UCITS lines on
// the London and Xetra exchanges).
var tickers = []known{
	// US-listed equity ETFs
	{"VTI", Equity}, {"VOO", Equity}, {"SPY", Equity}, {"IVV", Equity}, {"QQQ", Equity}, {"VT", Equity},
	{"VXUS", Equity}, {"VEA", Equity}, {"VWO", Equity}, {"SCHD", Equity}, {"VIG", Equity}, {"VYM", Equity},
	{"SCHB", Equity}, {"ITOT", Equity}, {"IWM", Equity}, {"VB", Equity}, {"VO", Equity}, {"VUG", Equity},
	{"VTV", Equity}, {"IXUS", Equity}, {"IEFA", Equity}, {"IEMG", Equity}, {"VGT", Equity}, {"DIA", Equity},
	// US-listed bond and cash-like ETFs, money market funds
	{"BND", Bond}, {"AGG", Bond}, {"BNDX", Bond}, {"TLT", Bond}, {"IEF", Bond}, {"SHY", Bond}, {"VGSH", Bond},
	{"VGIT", Bond}, {"VGLT", Bond}, {"TIP", Bond}, {"SCHP", Bond}, {"LQD", Bond}, {"HYG", Bond}, {"MUB", Bond},
	{"VTIP", Bond}, {"BIV", Bond}, {"BSV", Bond}, {"BIL", Cash}, {"SGOV", Cash}, {"SHV", Cash},
	{"VMFXX", Cash}, {"SPAXX", Cash}, {"SWVXX", Cash}, {"FDRXX", Cash},
	// US-listed real estate, commodities, crypto
	{"VNQ", RealEstate}, {"SCHH", RealEstate}, {"IYR", RealEstate}, {"VNQI", RealEstate}, {"XLRE", RealEstate},
	{"GLD", Commodity}, {"IAU", Commodity}, {"SLV", Commodity}, {"GLDM", Commodity}, {"PDBC", Commodity},
	{"DBC", Commodity}, {"SGOL", Commodity},
	{"IBIT", Crypto}, {"FBTC", Crypto}, {"GBTC", Crypto}, {"ETHE", Crypto}, {"BTC", Crypto}, {"ETH", Crypto},
	{"SOL", Crypto}, {"USDC", Crypto}, {"USDT", Crypto},
	// UCITS ETFs (London, Xetra, Amsterdam tickers)
	{"VWCE", Equity}, {"VWRL", Equity}, {"VWRA", Equity}, {"VGWL", Equity}, {"IWDA", Equity}, {"SWDA", Equity},
	{"EUNL", Equity}, {"CSPX", Equity}, {"SXR8", Equity}, {"VUSA", Equity}, {"VUAA", Equity}, {"EIMI", Equity},
	{"IS3N", Equity}, {"VFEM", Equity}, {"SSAC", Equity}, {"IUSQ", Equity}, {"EXS1", Equity}, {"ISF", Equity},
	{"VEVE", Equity}, {"XDWD", Equity},
	{"AGGH", Bond}, {"IGLA", Bond}, {"VAGF", Bond}, {"VAGP", Bond}, {"IBGS", Bond}, {"IGLT", Bond}, {"VGOV", Bond},
	{"SGLN", Commodity}, {"PHAU", Commodity}, {"IGLN", Commodity}, {"4GLD", Commodity}, {"EWG2", Commodity},
	{"IWDP", RealEstate}, {"IPRP", RealEstate},
}

// prefixes maps ISIN prefixes that carry a category hint.
var prefixes = []known{{"XS", Bond}, {"EU", Bond}, {"IE", Equity}, {"LU", Equity}}

// Of guesses the category of a holding. isin, when not empty, is a valid
// ISIN (checked by the caller).
func Of(name, isin, ticker string) Guess {
	if t := baseTicker(ticker); t != "" {
		for i := range tickers {
			if equalFold(tickers[i].ticker, t) {
				return Guess{Category: tickers[i].category, Confidence: 0.95, Rule: Ticker, Match: tickers[i].ticker}
			}
		}
	}
	var p Guess
	if len(isin) >= 2 {
		p = Guess{Category: Equity, Confidence: 0.4, Rule: ISIN, Match: isin[:2]}
		for i := range prefixes {
			if prefixes[i].ticker == isin[:2] {
				p.Category, p.Match = prefixes[i].category, prefixes[i].ticker
				p.Confidence = 0.5
				if p.Category == Bond {
					p.Confidence = 0.6
				}
			}
		}
	}
	for i := range keywords {
		if containsWord(name, keywords[i].word) {
			g := Guess{Category: keywords[i].category, Confidence: 0.85, Rule: Keyword, Match: keywords[i].word}
			if g.Category == Equity {
				g.Confidence = 0.7
			}
			if p.Rule == ISIN && p.Category == g.Category {
				g.Confidence += 0.05
				g.Agrees = true
			}
			return g
		}
	}
	if p.Rule == ISIN {
		return p
	}
	return Guess{Category: Other, Confidence: 0.2}
}

// AppendReason appends a one-sentence explanation of g to dst.
func AppendReason(dst []byte, g Guess) []byte {
	switch g.Rule {
	case Ticker:
		dst = append(dst, "Known ticker "...)
		dst = append(dst, g.Match...)
		dst = append(dst, " is "...)
		dst = appendArticle(dst, g.Category)
		return append(dst, " fund or asset."...)
	case Keyword:
		dst = append(dst, `The name contains "`...)
		dst = append(dst, g.Match...)
		dst = append(dst, `", which points to `...)
		if multiAsset(g.Match) {
			dst = append(dst, "a target-date or multi-asset fund, counted as equity, its larger part"...)
		} else {
			dst = appendArticle(dst, g.Category)
			dst = append(dst, " holding"...)
		}
		if g.Agrees {
			dst = append(dst, "; the ISIN prefix agrees"...)
		}
		return append(dst, '.')
	case ISIN:
		dst = append(dst, "The ISIN prefix "...)
		dst = append(dst, g.Match...)
		switch g.Match {
		case "XS":
			dst = append(dst, " marks an international security, most often a eurobond"...)
		case "EU":
			dst = append(dst, " marks debt of an EU institution"...)
		case "IE", "LU":
			dst = append(dst, " is a UCITS fund domicile, most often of an equity fund"...)
		default:
			dst = append(dst, " names the issuer's country; with no other hint, a listed share is most likely"...)
		}
		return append(dst, '.')
	}
	return append(dst, "No known ticker, keyword or ISIN prefix; set the category yourself."...)
}

// multiAsset reports whether a matched keyword names a target-date or
// multi-asset fund.
func multiAsset(word string) bool {
	switch word {
	case "target date", "target-date", "target retirement", "lifecycle", "lifestrategy", "multi-asset", "multi asset", "balanced fund", "asset allocation":
		return true
	}
	return false
}

func appendArticle(dst []byte, category string) []byte {
	switch category {
	case Equity:
		return append(dst, "an equity"...)
	case RealEstate:
		return append(dst, "a real estate"...)
	case Other:
		return append(dst, "an other"...)
	}
	dst = append(dst, "a "...)
	return append(dst, category...)
}

// baseTicker strips an exchange suffix (".L", ".DE", ":XETRA") and spaces.
func baseTicker(t string) string {
	for i := 0; i < len(t); i++ {
		if t[i] == '.' || t[i] == ':' || t[i] == ' ' {
			return t[:i]
		}
	}
	return t
}

// containsWord reports whether s contains word (lower case ASCII) as a
// whole word, ignoring ASCII case.
func containsWord(s, word string) bool {
	n := len(word)
	for i := 0; i+n <= len(s); i++ {
		if (i == 0 || !wordByte(s[i-1])) && (i+n == len(s) || !wordByte(s[i+n])) && equalFold(s[i:i+n], word) {
			return true
		}
	}
	return false
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '&'
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
