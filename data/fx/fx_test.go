package fx_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"fiplan/data/fx"
)

// required lists the currencies the table must cover, or name in
// meta.notCovered.
var required = []string{
	"USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD", "JPY", "SGD", "THB",
	"MYR", "AED", "MXN", "CRC", "PAB", "COP", "BRL", "UYU", "GEL", "SEK",
	"DKK", "NOK", "PLN", "CZK", "HUF", "RON", "BGN", "TRY", "CNY", "HKD",
	"KRW", "TWD", "INR", "IDR", "PHP", "VND", "ZAR", "ILS", "ISK", "ARS",
	"CLP", "PEN", "MAD", "EGP", "KES", "QAR", "SAR", "BHD", "OMR", "KWD",
}

func embedded(t testing.TB) *fx.Table {
	t.Helper()
	tab, err := fx.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestEmbeddedLoads(t *testing.T) {
	tab := embedded(t)
	m := tab.Meta()
	if tab.AsOf() != m.AsOf || !strings.HasPrefix(m.AsOf, "2025-") {
		t.Errorf("AsOf = %q, meta.asOf = %q; want a 2025 date", tab.AsOf(), m.AsOf)
	}
	if m.Base != "USD" || m.Dataset == "" || m.Method == "" || len(m.Sources) == 0 {
		t.Errorf("incomplete meta: %+v", m)
	}
	codes := tab.Codes()
	if len(codes) < 30 || !slices.IsSorted(codes) {
		t.Errorf("Codes() = %v; want 30 or more, sorted", codes)
	}
	for _, code := range codes {
		c, ok := tab.Currency(code)
		if !ok || c.Code != code || c.Source.URL == "" || c.Date > tab.AsOf() {
			t.Errorf("Currency(%q) = %+v, %v", code, c, ok)
		}
	}
	if again, _ := fx.Embedded(); again != tab {
		t.Error("Embedded() decoded the table twice")
	}
}

func TestRequiredCurrencies(t *testing.T) {
	tab := embedded(t)
	gaps := make(map[string]string)
	for _, g := range tab.Meta().NotCovered {
		gaps[g.Code] = g.Reason
	}
	for _, code := range required {
		_, left := gaps[code]
		switch has := tab.Has(code); {
		case has && left:
			t.Errorf("%s is both in the table and in notCovered", code)
		case !has && !left:
			t.Errorf("%s is neither in the table nor in notCovered", code)
		}
	}
	for code, reason := range gaps {
		if strings.TrimSpace(reason) == "" {
			t.Errorf("notCovered %s has no reason", code)
		}
	}
}

func TestPegs(t *testing.T) {
	tab := embedded(t)
	exact := map[string]float64{"USD": 1, "AED": 3.6725, "PAB": 1, "SAR": 3.75, "QAR": 3.64, "BHD": 0.376}
	for code, want := range exact {
		if got, ok := tab.PerUSD(code); !ok || got != want {
			t.Errorf("PerUSD(%s) = %v, %v; want exactly %v", code, got, ok, want)
		}
	}
	eur, _ := tab.PerUSD("EUR")
	bgn, _ := tab.PerUSD("BGN")
	if want := 1.95583 * eur; math.Abs(bgn-want) > 1e-12*want {
		t.Errorf("BGN per USD = %v; want 1.95583 × EUR per USD = %v", bgn, want)
	}
	if omr, _ := tab.PerUSD("OMR"); math.Abs(omr*2.6008-1) > 1e-12 {
		t.Errorf("OMR per USD = %v; want 1/2.6008", omr)
	}
}

func TestConvert(t *testing.T) {
	tab := embedded(t)
	eur, _ := tab.PerUSD("EUR")
	if got, ok := tab.Convert(100, "EUR", "USD"); !ok || math.Abs(got-100/eur) > 1e-9 {
		t.Errorf("Convert(100, EUR, USD) = %v, %v; want %v", got, ok, 100/eur)
	}
	if got, ok := tab.Convert(116.11, "USD", "EUR"); !ok || math.Abs(got-100) > 1e-9 {
		t.Errorf("Convert(116.11, USD, EUR) = %v, %v; want 100 (ECB 1.1611 USD per EUR)", got, ok)
	}
	if got, ok := tab.Convert(42.5, "JPY", "JPY"); !ok || got != 42.5 {
		t.Errorf("Convert to the same currency = %v, %v; want the amount unchanged", got, ok)
	}
	for _, bad := range [][2]string{
		{"usd", "EUR"}, {"EUR", "eur"}, {"XXX", "USD"}, {"USD", ""}, {"US", "EUR"},
		{"USDX", "EUR"}, {"UYU", "USD"}, {"USD", "KWD"}, {"ÉUR", "USD"},
	} {
		if got, ok := tab.Convert(1, bad[0], bad[1]); ok || got != 0 {
			t.Errorf("Convert(1, %q, %q) = %v, %v; want 0, false", bad[0], bad[1], got, ok)
		}
	}
}

func TestConvertRoundTrip(t *testing.T) {
	tab := embedded(t)
	codes := tab.Codes()
	for _, a := range codes {
		for _, b := range codes {
			for _, amount := range []float64{1, 1234.56, 7.5e9} {
				mid, ok1 := tab.Convert(amount, a, b)
				back, ok2 := tab.Convert(mid, b, a)
				if !ok1 || !ok2 || math.Abs(back-amount) > 1e-9*amount {
					t.Fatalf("%v %s → %v %s → %v %s; want %v back", amount, a, mid, b, back, a, amount)
				}
			}
		}
	}
}

func TestLookupsDoNotAllocate(t *testing.T) {
	tab := embedded(t)
	var sink float64
	allocs := testing.AllocsPerRun(200, func() {
		v, _ := tab.Convert(1000, "GBP", "THB")
		r, _ := tab.PerUSD("MXN")
		_, miss := tab.Convert(1, "usd", "EUR")
		if tab.Has("CHF") && !miss {
			sink += v + r
		}
	})
	if allocs != 0 {
		t.Errorf("lookups allocate %v times per run; want 0", allocs)
	}
	_ = sink
}

func TestReadOnly(t *testing.T) {
	tab := embedded(t)
	codes := tab.Codes()
	codes[0] = "ZZZ"
	m := tab.Meta()
	m.Sources[0].Publisher = "changed"
	m.NotCovered[0].Code = "ZZZ"
	c, _ := tab.Currency("JPY")
	c.Quote.Value = 1
	if tab.Codes()[0] == "ZZZ" || tab.Meta().Sources[0].Publisher == "changed" ||
		tab.Meta().NotCovered[0].Code == "ZZZ" {
		t.Error("changing a returned slice changed the table")
	}
	if c2, _ := tab.Currency("JPY"); c2.Quote.Value == 1 {
		t.Error("changing a returned quote changed the table")
	}
}

// valid is the smallest table Load accepts; the cases below break it in one
// place each.
const valid = `{
 "meta": {"dataset": "test", "asOf": "2025-07-24", "base": "USD", "method": "m",
  "sources": [{"publisher": "p", "title": "t", "url": "https://example.org/"}],
  "notCovered": [{"code": "GEL", "reason": "r"}]},
 "currencies": [
  {"code": "USD", "name": "US dollar", "perUSD": 1, "date": "2025-07-24", "basis": "b",
   "source": {"publisher": "p", "title": "t", "url": "https://example.org/"}},
  {"code": "EUR", "name": "Euro", "perUSD": 0.8, "date": "2025-07-24", "basis": "b",
   "quote": {"value": 1.25, "of": "USD", "per": "EUR"},
   "source": {"publisher": "p", "title": "t", "url": "https://example.org/"}},
  {"code": "BGN", "name": "Lev", "perUSD": 1.564664, "date": "2025-07-23", "basis": "b",
   "quote": {"value": 1.95583, "of": "BGN", "per": "EUR"},
   "source": {"publisher": "p", "title": "t", "url": "https://example.org/", "via": "http://example.org/x"}}
 ]}`

func TestLoadValid(t *testing.T) {
	tab, err := fx.Load([]byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.Codes(); !slices.Equal(got, []string{"BGN", "EUR", "USD"}) {
		t.Errorf("Codes() = %v", got)
	}
	if got, ok := tab.Convert(1.95583, "BGN", "EUR"); !ok || math.Abs(got-1) > 1e-12 {
		t.Errorf("Convert(1.95583, BGN, EUR) = %v, %v; want 1", got, ok)
	}
}

func TestLoadRejects(t *testing.T) {
	cases := []struct {
		name     string
		old, new string // replaced once in valid
		want     string // substring of the error
	}{
		{"not JSON", `{`, `[`, "invalid character"},
		{"trailing data", ` ]}`, ` ]} {}`, "trailing data"},
		{"unknown field", `"dataset": "test"`, `"dataset": "test", "extra": 1`, "unknown field"},
		{"missing meta", `"meta"`, `"notmeta"`, "unknown field"},
		{"bad asOf", `"asOf": "2025-07-24"`, `"asOf": "24.07.2025"`, `meta: asOf "24.07.2025"`},
		{"base not USD", `"base": "USD"`, `"base": "EUR"`, `meta: base "EUR"`},
		{"empty method", `"method": "m"`, `"method": " "`, "meta: method is empty"},
		{"no sources", `"sources": [{"publisher": "p", "title": "t", "url": "https://example.org/"}],`, `"sources": [],`, "meta: no sources"},
		{"meta source without url", `"url": "https://example.org/"}],`, `"url": ""}],`, "meta: sources[0]: url"},
		{"bad notCovered code", `"code": "GEL"`, `"code": "gel"`, `notCovered[0]: code "gel"`},
		{"notCovered present", `"code": "GEL"`, `"code": "BGN"`, `notCovered "BGN" is in the table`},
		{"lower-case code", `"code": "BGN"`, `"code": "xx"`, `currency "xx": code is not an ISO 4217 code`},
		{"four-letter code", `"code": "BGN"`, `"code": "BGNX"`, `currency "BGNX": code`},
		{"negative rate", `"perUSD": 1.564664`, `"perUSD": -1.564664`, `currency "BGN": perUSD -1.564664`},
		{"zero rate", `"perUSD": 1.564664`, `"perUSD": 0`, `currency "BGN": perUSD 0`},
		{"infinite rate", `"perUSD": 1.564664`, `"perUSD": 1e999`, "cannot unmarshal number 1e999"},
		{"USD not 1", `"perUSD": 1,`, `"perUSD": 1.0001,`, `currency "USD": missing or not exactly 1`},
		{"USD missing", `"code": "USD"`, `"code": "CAD"`, `currency "CAD": no quote`},
		{"bad date", `"date": "2025-07-23"`, `"date": "2025-13-01"`, `currency "BGN": date "2025-13-01"`},
		{"date not YYYY-MM-DD", `"date": "2025-07-23"`, `"date": "2025-7-23"`, `currency "BGN": date "2025-7-23"`},
		{"date after asOf", `"date": "2025-07-23"`, `"date": "2025-07-25"`, `currency "BGN": date 2025-07-25 is after`},
		{"empty name", `"name": "Lev"`, `"name": ""`, `currency "BGN": name is empty`},
		{"no source publisher", `"publisher": "p", "title": "t", "url": "https://example.org/", "via"`, `"publisher": "", "title": "t", "url": "https://example.org/", "via"`, `currency "BGN": source: publisher and title are required`},
		{"source url not http", `"url": "https://example.org/", "via"`, `"url": "example.org", "via"`, `currency "BGN": source: url "example.org"`},
		{"bad via", `"via": "http://example.org/x"`, `"via": "ftp://x"`, `currency "BGN": source: via "ftp://x"`},
		{"duplicate code", `"code": "BGN"`, `"code": "EUR"`, `currency "EUR": listed twice`},
		{"missing quote", `"quote": {"value": 1.95583, "of": "BGN", "per": "EUR"},`, ``, `currency "BGN": no quote`},
		{"quote off its rate", `"value": 1.95583`, `"value": 1.9558`, `currency "BGN": perUSD 1.564664 does not match its quote`},
		{"quote to unknown currency", `"of": "BGN", "per": "EUR"`, `"of": "BGN", "per": "CHF"`, `currency "BGN": quote refers to CHF`},
		{"quote not involving currency", `"of": "BGN", "per": "EUR"`, `"of": "USD", "per": "EUR"`, `currency "BGN": quote USD per EUR does not involve BGN`},
		{"quote value zero", `"value": 1.95583`, `"value": 0`, `currency "BGN": quote value 0`},
		{"quote on USD", `"code": "USD", "name": "US dollar", "perUSD": 1, "date": "2025-07-24", "basis": "b",`, `"code": "USD", "name": "US dollar", "perUSD": 1, "date": "2025-07-24", "basis": "b", "quote": {"value": 1, "of": "USD", "per": "EUR"},`, `currency "USD": the base currency takes no quote`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(valid, tc.old, tc.new, 1)
			if doc == valid {
				t.Fatalf("case does not change the document: %q not found", tc.old)
			}
			tab, err := fx.Load([]byte(doc))
			if err == nil {
				t.Fatalf("Load accepted the document (%d codes)", len(tab.Codes()))
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "cannot load fx table: ") || !strings.Contains(msg, tc.want) {
				t.Errorf("error = %q; want the prefix %q and %q", msg, "cannot load fx table: ", tc.want)
			}
		})
	}
}

func TestLoadRejectsEmpty(t *testing.T) {
	noCurrencies := valid[:strings.Index(valid, `"currencies"`)] + `"currencies": []}`
	for _, tc := range []struct{ doc, want string }{
		{``, "EOF"},
		{`{}`, "missing meta"},
		{`{"currencies": []}`, "missing meta"},
		{noCurrencies, "no currencies"},
	} {
		_, err := fx.Load([]byte(tc.doc))
		if err == nil || !strings.HasPrefix(err.Error(), "cannot load fx table: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) error = %v; want %q", tc.doc, err, tc.want)
		}
	}
}
