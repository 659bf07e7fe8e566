package category

import (
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, isin, ticker string
		want               string
		rule               Rule
	}{
		{"Vanguard Total Stock Market ETF", "", "VTI", Equity, Ticker},
		{"whatever", "", "vwce.de", Equity, Ticker},
		{"", "", "SGLN.L", Commodity, Ticker},
		{"iShares Core US Aggregate Bond ETF", "US4642872265", "", Bond, Keyword},
		{"US Treasury 10y", "", "", Bond, Keyword},
		{"UK Gilt 2030", "", "", Bond, Keyword},
		{"Xtrackers Physical Gold", "", "", Commodity, Keyword},
		{"VanEck Gold Miners UCITS ETF", "IE00BQQP9F84", "", Equity, Keyword},
		{"Realty Income REIT", "", "", RealEstate, Keyword},
		{"Rental apartment in Lisbon", "", "", RealEstate, Keyword},
		{"Vanguard Federal Money Market Fund", "", "", Cash, Keyword},
		{"Emergency cash", "", "", Cash, Keyword},
		{"Bitcoin", "", "", Crypto, Keyword},
		{"iShares Core MSCI World", "IE00B4L5Y983", "", Equity, Keyword},
		{"S&P 500 tracker", "", "", Equity, Keyword},
		{"Some eurobond", "XS1234567890", "", Bond, Keyword},
		{"ACME 2031", "XS0000000009", "", Bond, ISIN},
		{"Fonds", "LU0000000000", "", Equity, ISIN},
		{"Apple", "US0378331005", "", Equity, ISIN},
		{"My stamp collection", "", "", Other, None},
		// whole words only: iShares is not "shares", Together not "ether"
		{"Together", "", "", Other, None},
		{"Goldman", "", "", Other, None},
	}
	for _, c := range cases {
		g := Of(c.name, c.isin, c.ticker)
		if g.Category != c.want || g.Rule != c.rule {
			t.Errorf("Of(%q, %q, %q) = %s by rule %d (%q), want %s by rule %d", c.name, c.isin, c.ticker, g.Category, g.Rule, g.Match, c.want, c.rule)
		}
		if g.Confidence <= 0 || g.Confidence > 1 {
			t.Errorf("%q: confidence %v", c.name, g.Confidence)
		}
		if r := string(AppendReason(nil, g)); !strings.HasSuffix(r, ".") || len(r) < 20 {
			t.Errorf("%q: reason %q", c.name, r)
		}
	}
}

// Evidence ranks: a ticker beats a keyword beats an ISIN prefix beats nothing.
func TestConfidenceOrder(t *testing.T) {
	t.Parallel()
	ticker := Of("gold", "", "VTI").Confidence
	kw := Of("Global bond fund", "", "").Confidence
	agree := Of("Global bond fund", "XS0000000009", "").Confidence
	prefix := Of("ACME", "XS0000000009", "").Confidence
	none := Of("ACME", "", "").Confidence
	if !(ticker > agree && agree > kw && kw > prefix && prefix > none) {
		t.Fatalf("ticker %v, keyword+ISIN %v, keyword %v, prefix %v, none %v", ticker, agree, kw, prefix, none)
	}
	if r := string(AppendReason(nil, Of("Global bond fund", "XS0000000009", ""))); !strings.Contains(r, "agrees") {
		t.Fatalf("reason %q does not say the ISIN agrees", r)
	}
}

func TestKeywordTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, k := range keywords {
		if k.word != strings.ToLower(k.word) || seen[k.word] {
			t.Errorf("keyword %q: not lower case or listed twice", k.word)
		}
		seen[k.word] = true
	}
	tk := map[string]bool{}
	for _, k := range tickers {
		if k.ticker != strings.ToUpper(k.ticker) || tk[k.ticker] {
			t.Errorf("ticker %q: not upper case or listed twice", k.ticker)
		}
		tk[k.ticker] = true
	}
}

func TestAllocations(t *testing.T) {
	buf := make([]byte, 0, 256)
	n := testing.AllocsPerRun(100, func() {
		g := Of("Vanguard FTSE All-World UCITS ETF", "IE00BK5BQT80", "")
		buf = AppendReason(buf[:0], g)
	})
	if n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
