package tax

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// wealthExample is one worked wealth-tax example; its comment cites the
// publication and shows the arithmetic.
type wealthExample struct {
	name   string
	src    source
	cc     string
	region string
	w      Wealth
	want   float64
	tol    float64 // currency units; 0: to the cent
}

func one(cash, inv float64) Wealth {
	return Wealth{Person: [2]Holdings{{Cash: cash, Investments: inv}}}
}

var wealthExamples = []wealthExample{
	// Netherlands, box 3 in 2026 (Wet IB 2001 art. 5.2, 5.3, 5.5, 2.13;
	// the Belastingdienst's 2026 figures as two tax advisers' summaries give
	// them, its own page not reached:
	// banktegoeden 1,28 % provisional, overige bezittingen 6,00 %, schulden
	// 2,70 % provisional, heffingvrij vermogen 59 357, schuldendrempel
	// 3 800, 36 %). No Belastingdienst worked example with the 2026 figures
	// was found. Bank 20 000 and investments 200 000: deemed return
	// 256 + 12 000 = 12 256; share above the allowance (220 000 − 59 357) /
	// 220 000; voordeel 8 949,28; tax 36 % = 3 221,74.
	{name: "NL single bank 20000 investments 200000", src: computed, cc: "nl", w: one(20000, 200000), want: 3221.74},
	// Fiscal partners share two allowances: 400 000 of investments, return
	// 24 000 × (400 000 − 118 714) / 400 000 = 16 877,16; 36 % = 6 075,78.
	{name: "NL partners investments 400000", src: computed, cc: "nl",
		w: Wealth{Person: [2]Holdings{{Investments: 250000}, {Investments: 150000}}, Couple: true}, want: 6075.78},
	// Below the heffingvrij vermogen: nothing.
	{name: "NL single bank 59357", src: computed, cc: "nl", w: one(59357, 0), want: 0},
	// Debts count above the 3 800 threshold: 10 000 of debts are 6 200;
	// rendementsgrondslag 93 800, return 1 280 − 6 200 × 2,70 % = 1 112,60,
	// times (93 800 − 59 357) / 93 800 = 408,54; 36 % = 147,08.
	{name: "NL bank 100000 debts 10000", src: computed, cc: "nl",
		w: Wealth{Person: [2]Holdings{{Cash: 100000, Debts: 10000}}}, want: 147.08},

	// Switzerland, canton and city of Zürich (StG ZH § 47, the steps of the
	// ESTV's tax data for 2024 and 2025, which the 2026 file applies because
	// the 2026 amounts were not found; Steuerfuss 2026: canton 95 %, city
	// 119 %). Computed: the Steueramt's calculator was not reachable.
	// Single, 1 000 000: ½ ‰ × 238 000 + 1 ‰ × 399 000 + 1½ ‰ × 283 000 =
	// 942,50 simple tax; × 2,14 = 2 016,95.
	{name: "CH ZH single 1000000", src: computed, cc: "ch", region: "ZH", w: one(100000, 900000), want: 2016.95},
	// Married (Verheiratetentarif, spouses' wealth together), 1 000 000:
	// ½ ‰ × 239 000 + 1 ‰ × 397 000 + 1½ ‰ × 205 000 = 824; × 2,14 = 1 763,36.
	{name: "CH ZH married 1000000", src: computed, cc: "ch", region: "ZH",
		w: Wealth{Person: [2]Holdings{{Investments: 600000}, {Investments: 400000}}, Couple: true}, want: 1763.36},
	// Single, 4 000 000, into the 3 ‰ step that starts at 3 262 000:
	// 119 + 399 + 954 + 2 ‰ × 956 000 + 2½ ‰ × 953 000 + 3 ‰ × 738 000 =
	// 7 980,50; × 2,14 = 17 078,27.
	{name: "CH ZH single 4000000", src: computed, cc: "ch", region: "ZH", w: one(0, 4e6), want: 17078.27},
	// Married, 4 000 000: 119,50 + 397 + 955,50 + 2 ‰ × 955 000 + 2½ ‰ ×
	// 955 000 + 3 ‰ × (4 000 000 − 3 342 000) = 7 743,50; × 2,14 = 16 571,09.
	{name: "CH ZH married 4000000", src: computed, cc: "ch", region: "ZH",
		w: Wealth{Person: [2]Holdings{{Investments: 2e6}, {Investments: 2e6}}, Couple: true}, want: 16571.09},
	// The first 80 000 (single) are taxed at 0 ‰.
	{name: "CH ZH single 80000", src: computed, cc: "ch", region: "ZH", w: one(80000, 0), want: 0},
	// No canton: the Confederation taxes no wealth.
	{name: "CH without canton", src: computed, cc: "ch", w: one(0, 5e6), want: 0},

	// Spain (Ley 19/1991 art. 28 and 30.1). The scale of art. 30.1 prints
	// the cuota íntegra at each step: 8 523,36 € at a base liquidable of
	// 1 336 999,51 €, i.e. a net wealth of 2 036 999,51 € less the 700 000 €
	// mínimo exento. Below 3 000 000 € of base the solidarity tax is 0.
	{name: "ES state scale 2036999.51", src: table, cc: "es", w: one(0, 2036999.51), want: 8523.36},
	// 6 000 000 €: base 5 300 000; 25 904,35 (printed at 2 673 999,01) +
	// 1,7 % × 2 626 000,99 = 70 546,37. The solidarity tax, 1,7 % ×
	// 2 300 000 = 39 100, is less than the wealth tax paid: 0.
	{name: "ES state scale 6000000", src: computed, cc: "es", w: one(0, 6e6), want: 70546.37},
	// Each spouse alone: the partner's 2 036 999,51 € pays the same as a
	// single person's; the Couple flag joins nothing.
	{name: "ES spouses assessed alone", src: table, cc: "es",
		w: Wealth{Person: [2]Holdings{{}, {Investments: 2036999.51}}, Couple: true}, want: 8523.36},
	// Madrid: the 100 % bonificación (DLeg 1/2010 art. 20) remits the
	// wealth tax; the solidarity tax (Ley 38/2022 art. 3) then charges
	// 1,7 % on the base above 3 000 000: 5 000 000 − 700 000 − 3 000 000 =
	// 1 300 000 × 1,7 % = 22 100.
	{name: "ES Madrid 5000000 (solidarity tax only)", src: computed, cc: "es", region: "MD", w: one(0, 5e6), want: 22100},
	{name: "ES Madrid 3700000", src: computed, cc: "es", region: "MD", w: one(0, 3.7e6), want: 0},

	// Norway 2026 (sktl § 4-12: shares and funds at 80 %; Finansdepartementet
	// "Skattesatser 2026": bunnfradrag 1 900 000, step 2 from 21 500 000; the
	// split municipality 0,525 %, state 0,475 % and 0,575 % is unconfirmed
	// and leaves the total unchanged; the totals, 1,0 % above
	// 1,9 million and 1,1 % above 21,5 million, as the Minister of Finance
	// stated them to Stortinget on 23 January 2026, Dokument 15:1136). No
	// Skatteetaten worked example with these figures was found. Funds 5 000 000 at 80 % plus a
	// deposit of 500 000 = 4 500 000; 2 600 000 above the bunnfradrag at
	// 1,0 % = 26 000.
	{name: "NO single funds 5000000 deposit 500000", src: computed, cc: "no", w: one(500000, 5e6), want: 26000},
	// Deposit of 25 000 000: 23 100 000 above the bunnfradrag; municipality
	// 121 275, state 0,475 % × 19 600 000 + 0,575 % × 3 500 000 = 113 225.
	{name: "NO single deposit 25000000 (state step 2)", src: computed, cc: "no", w: one(25e6, 0), want: 234500},
	// Spouses together: 24 000 000 + 2 000 000 = 26 000 000 less twice the
	// bunnfradrag = 22 200 000 at 1,0 % (the state's step 2 starts at
	// 43 000 000 for spouses) = 222 000.
	{name: "NO spouses funds 30000000 deposit 2000000", src: computed, cc: "no",
		w: Wealth{Person: [2]Holdings{{Cash: 2e6, Investments: 20e6}, {Investments: 10e6}}, Couple: true}, want: 222000},
}

func TestWealthExamples(t *testing.T) {
	t.Parallel()
	for _, ex := range wealthExamples {
		s := loadSystem(t, ex.cc)
		got, err := WealthTax(s, 2026, ex.region, &ex.w)
		if err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		tol := math.Max(ex.tol, 0.005)
		if math.Abs(got-ex.want) > tol {
			t.Errorf("%s: wealth tax %.2f, want %.2f", ex.name, got, ex.want)
		}
	}
}

// Which residences tax wealth, and the errors for years and regions the
// data does not model.
func TestHasWealthTax(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cc, region string
		year       int
		want       bool
	}{
		{"nl", "", 2026, true}, {"ch", "ZH", 2026, true}, {"ch", "", 2026, false}, {"ch", "ZG", 2026, false},
		{"es", "MD", 2026, true}, {"es", "", 2026, true}, {"es", "CT", 2026, false}, {"no", "", 2026, true},
		{"nl", "", 2024, false}, {"us", "", 2026, false}, {"de", "", 2026, false}, {"gb", "", 2026, false},
	}
	for _, c := range cases {
		s := loadSystem(t, c.cc)
		if got := s.HasWealthTax(c.year, c.region); got != c.want {
			t.Errorf("%s %s %d: HasWealthTax %v, want %v", c.cc, c.region, c.year, got, c.want)
		}
	}
	w := one(0, 1e7)
	if _, err := WealthTax(loadSystem(t, "ch"), 2026, "ZG", &w); !errors.Is(err, ErrRegion) {
		t.Errorf("ZG: %v, want ErrRegion", err)
	}
	if _, err := WealthTax(loadSystem(t, "us"), 2026, "", &w); !errors.Is(err, ErrYear) {
		t.Errorf("US: %v, want ErrYear", err)
	}
}

// Over every country that taxes wealth: more wealth never costs less tax,
// the tax never exceeds the wealth's yearly top rate, and it allocates
// nothing.
func TestWealthTaxMonotone(t *testing.T) {
	for _, s := range loadAll(t) {
		for _, wy := range s.wealth {
			regions := append([]string{""}, wy.Regions...)
			for _, region := range regions {
				prev := 0.0
				for x := 0.0; x <= 5e7; x += 37500 {
					w := Wealth{Person: [2]Holdings{{Cash: x / 4, Investments: x}}}
					got, err := WealthTax(s, wy.Year, region, &w)
					if err != nil {
						t.Fatalf("%s %s: %v", s.Country, region, err)
					}
					if got < prev-1e-6 || got > 0.05*1.25*x+1e-9 {
						t.Fatalf("%s %s %d: tax %v at %v after %v", s.Country, region, wy.Year, got, x, prev)
					}
					prev = got
				}
				w := one(1e5, 2e6)
				if n := testing.AllocsPerRun(50, func() { _, _ = WealthTax(s, wy.Year, region, &w) }); n != 0 {
					t.Errorf("%s %s: WealthTax allocates %v", s.Country, region, n)
				}
			}
		}
	}
}

// Parse rejects wealth-tax data that cannot be charged.
func TestWealthParseErrors(t *testing.T) {
	t.Parallel()
	base := `{"country":"XX","name":"X","currency":"XXX","documents":{"d":{"publisher":"p","title":"t"}},
"years":[{"year":2026,"rules":[{"id":"r","label":"r","category":"income","src":[{"doc":"d","sec":"1"}],"layers":[{"base":{"parts":{"employment":1}},"bands":[{"from":0,"rate":0.1}]}]}]}],
"wealthTax":[{"year":2026,"valuation":"yearStart","unit":"person","charges":[%s]}]}`
	good := `{"id":"w","label":"w","src":[{"doc":"d","sec":"1"}],"bands":[{"from":0,"rate":0.01}]}`
	if _, err := Parse([]byte(sprintf(base, good))); err != nil {
		t.Fatalf("good charge: %v", err)
	}
	for _, bad := range []string{
		`{"id":"w","label":"w","bands":[{"from":0,"rate":0.01}]}`,                                                // no source
		`{"id":"w","label":"w","src":[{"doc":"d","sec":"1"}],"bands":[{"from":5,"rate":0.01}]}`,                  // bands not from 0
		`{"id":"w","label":"w","src":[{"doc":"d","sec":"1"}],"bands":[{"from":0,"rate":1.5}]}`,                   // rate
		`{"id":"w","label":"w","src":[{"doc":"d","sec":"1"}],"bands":[{"from":0,"rate":0.01}],"relief":2}`,       // relief
		`{"id":"w","label":"w","src":[{"doc":"d","sec":"1"}],"bands":[{"from":0,"rate":0.01}],"less":["nope"]}`,  // less
		`{"id":"w","label":"w","src":[{"doc":"d","sec":"1"}],"bands":[{"from":0,"rate":0.01}],"regions":["ZZ"]}`, // region
	} {
		if _, err := Parse([]byte(sprintf(base, bad))); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func sprintf(format, arg string) string {
	for i := 0; i+1 < len(format); i++ {
		if format[i] == '%' && format[i+1] == 's' {
			return format[:i] + arg + format[i+2:]
		}
	}
	return format
}

// Every wealth-tax year of every country, in each region it charges
// wealth in (and with none), has at least two worked examples.
func TestWealthExamplesCover(t *testing.T) {
	t.Parallel()
	for _, s := range loadAll(t) {
		for _, wy := range s.wealth {
			if wy.Year != 2026 {
				t.Errorf("%s %d: the examples are of 2026 only; add a year to wealthExample", s.Country, wy.Year)
			}
			for _, region := range append([]string{""}, wy.Regions...) {
				if !s.HasWealthTax(wy.Year, region) {
					continue
				}
				n := 0
				for _, ex := range wealthExamples {
					if strings.EqualFold(ex.cc, s.Country) && strings.EqualFold(ex.region, region) {
						n++
					}
				}
				if n < 2 {
					t.Errorf("%s %q %d: %d wealth-tax examples, want at least 2", s.Country, region, wy.Year, n)
				}
			}
		}
	}
}
