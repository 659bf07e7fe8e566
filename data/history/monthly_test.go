package history

import (
	"math"
	"strings"
	"testing"

	"fiplan/compute/fi"
)

func shiller(t *testing.T) Monthly {
	t.Helper()
	m, err := Shiller()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestShillerShape(t *testing.T) {
	m := shiller(t)
	ly, lm := m.Last()
	if m.Len() != 1830 || m.FirstYear != 1871 || m.FirstMonth != 1 || ly != 2023 || lm != 6 {
		t.Fatalf("want 1871-01..2023-06 (1830 months), got %d-%02d..%d-%02d (%d)", m.FirstYear, m.FirstMonth, ly, lm, m.Len())
	}
	if len(m.Dividend) != m.Len() || len(m.CPI) != m.Len() || len(m.LongRate) != m.Len() || len(m.CAPE) != m.Len() {
		t.Fatal("ragged columns")
	}
	again, _ := Shiller()
	if &again.Price[0] != &m.Price[0] {
		t.Fatal("the series should be parsed once and shared")
	}
	// Spot values as the source tabulates them (table figures).
	spot := []struct {
		year, month                          int
		price, dividend, cpi, longRate, cape float64
	}{
		{1871, 1, 4.44, 0.26, 12.46, 5.32, 0},
		{2023, 6, 4345.3729, 68.71, 305.11, 3.75, 29.94},
	}
	for _, c := range spot {
		i := (c.year*12 + c.month - 1) - (m.FirstYear*12 + m.FirstMonth - 1)
		if m.Price[i] != c.price || m.Dividend[i] != c.dividend || m.CPI[i] != c.cpi || m.LongRate[i] != c.longRate || m.CAPE[i] != c.cape {
			t.Errorf("%d-%02d: %v %v %v %v %v", c.year, c.month, m.Price[i], m.Dividend[i], m.CPI[i], m.LongRate[i], m.CAPE[i])
		}
	}
	// CAPE needs ten years of earnings: unknown through 1880, known after.
	for i, c := range m.CAPE {
		if (i < 120) != (c == 0) {
			t.Fatalf("month %d: CAPE %v", i, c)
		}
	}
}

// The stock index rebuilt from Shiller's monthly averages tracks the annual
// series (year-end closes): over 1928-2022 their compound annual returns
// agree to within half a point, stocks and inflation alike.
func TestShillerAgreesWithAnnualSeries(t *testing.T) {
	r, err := ShillerReturns()
	if err != nil {
		t.Fatal(err)
	}
	a := us(t)
	at := func(year int) int { return (year-r.FirstYear)*12 + 1 - r.FirstMonth } // January
	from, to := 1928, 2022
	years := float64(to - from + 1)
	cagr := func(x, y float64) float64 { return math.Pow(y/x, 1/years) - 1 }
	ms := cagr(r.Stocks[at(from)], r.Stocks[at(to+1)])
	mi := cagr(r.CPI[at(from)], r.CPI[at(to+1)])
	as, ai := 1.0, 1.0
	for i, y := range a.Years {
		if y >= from && y <= to {
			as *= 1 + a.Stocks[i]
			ai *= 1 + a.Inflation[i]
		}
	}
	as, ai = math.Pow(as, 1/years)-1, math.Pow(ai, 1/years)-1
	t.Logf("1928-2022 a year: stocks %.2f%% (monthly) vs %.2f%% (annual); inflation %.2f%% vs %.2f%%", ms*100, as*100, mi*100, ai*100)
	if math.Abs(ms-as) > 0.005 || math.Abs(mi-ai) > 0.005 {
		t.Errorf("the two series disagree: stocks %.4f vs %.4f, inflation %.4f vs %.4f", ms, as, mi, ai)
	}
}

func TestParseMonthly(t *testing.T) {
	head := "# c\nmonth,price,dividend,cpi,longrate,cape\n"
	good := head + "1900-11,1,0.1,10,3,\n1900-12,1.1,0.1,10.1,3.1,12\n1901-01,1.2,0.1,10.2,3.2,13\n"
	m, err := ParseMonthly([]byte(good))
	if err != nil || m.Len() != 3 || m.FirstYear != 1900 || m.FirstMonth != 11 || m.CAPE[0] != 0 || m.CAPE[2] != 13 {
		t.Fatalf("%+v %v", m, err)
	}
	if y, mo := m.Last(); y != 1901 || mo != 1 {
		t.Fatalf("last %d-%d", y, mo)
	}
	for _, c := range []struct{ body, want string }{
		{"", "no data rows"},
		{"month,price\n", "header"},
		{head, "no data rows"},
		{head + "1900-01,1,0,1,1\n", "want 6 fields"},
		{head + "1900-13,1,0,1,1,\n", "YYYY-MM"},
		{head + "1900/01,1,0,1,1,\n", "YYYY-MM"},
		{head + "1900-01,1,0,1,1,\n1900-03,1,0,1,1,\n", "does not follow 1900-01"},
		{head + "1900-01,0,0,1,1,\n", "column 2"},
		{head + "1900-01,1,-1,1,1,\n", "column 3"},
		{head + "1900-01,1,0,0,1,\n", "column 4"},
		{head + "1900-01,1,0,1,NaN,\n", "column 5"},
		{head + "1900-01,1,0,1,1,x\n", "column 6"},
	} {
		_, err := ParseMonthly([]byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "cannot parse monthly history") {
			t.Errorf("%q: %v, want an error about %q", c.body, err, c.want)
		}
	}
}

// Published success rates of the inflation-adjusted 4% rule over 30 years
// against the two embedded datasets. The Trinity study (Cooley, Hubbard and
// Walz, AAII Journal, February 1998: S&P 500 and long-term high-grade
// corporate bonds, Ibbotson data 1926-1995, 41 start years) reports 95% for
// 100% stocks, 98% for 75/25, 95% for 50/50 and 71% for 25/75. FIRECalc
// (annual data from 1871) has been reported at about 95% for its default
// portfolio. Over the study's span the monthly series lands within five
// points of each Trinity figure (95.8, 96.0, 94.8, 67.4%) and the annual one
// a little lower (92.3, 94.9, 92.3, 64.1% of 39 start years from 1928). The
// gaps: our bonds are 10-year Treasuries, which yielded less than the
// study's long corporates, so bond-heavy mixes fare worse (25/75 most of
// all); the monthly windows start in every month (481 of them), so a bad
// start year weighs by its months rather than as one of 41; and the study
// withdraws monthly where we withdraw yearly. Over the full spans the monthly
// series' 1871-1927 starts add many good decades (96-97% for 50/50 and 75/25),
// while the annual series' 68 start years (1928-1995) count the failed
// mid-to-late-1960s starts as four or five of 68 (93-94%); FIRECalc's figure
// sits between the two.
func TestFourPercentOnBothDatasets(t *testing.T) {
	r, err := ShillerReturns()
	if err != nil {
		t.Fatal(err)
	}
	a := fi.Series(us(t))
	for _, c := range []struct {
		share    float64
		lo, hi   float64 // accepted success range, both datasets
		trinity  float64
		datasets [2]fi.History
	}{
		{0.5, 0.85, 1, 0.95, [2]fi.History{a, r}},
		{0.75, 0.90, 1, 0.98, [2]fi.History{a, r}},
	} {
		in := fi.Defaults()
		in.WithdrawalRate, in.StockShare = 0.04, c.share
		for k, h := range c.datasets {
			res := fi.Backtest(&in, h, 30)
			name := [2]string{"annual 1928-2024", "monthly 1871-2023"}[k]
			t.Logf("%s, %.0f/%.0f: success %.1f%% of %d windows (Trinity %.0f%%), worst start %d-%02d",
				name, c.share*100, (1-c.share)*100, res.SuccessRate*100, res.Periods, c.trinity*100, res.WorstStartYear, res.WorstStartMonth)
			if res.SuccessRate < c.lo || res.SuccessRate > c.hi {
				t.Errorf("%s, %.0f%% stocks: success %.3f outside [%.2f, %.2f]", name, c.share*100, res.SuccessRate, c.lo, c.hi)
			}
		}
	}
	// Over the study's own span, 1926-1995, with the same 4% and 30 years.
	m := shiller(t)
	from, to := (1926-m.FirstYear)*12, (1996-m.FirstYear)*12+1 // January 1926 .. January 1996
	span := fi.NewMonthly(1926, 1, m.Price[from:to], m.Dividend[from:to], m.CPI[from:to], m.LongRate[from:to], m.CAPE[from:to])
	y0 := 1928 - a.Years[0]
	annual := fi.Series{Years: a.Years[y0 : y0+68], Stocks: a.Stocks[y0 : y0+68], Bonds: a.Bonds[y0 : y0+68], Inflation: a.Inflation[y0 : y0+68]}
	for _, c := range []struct {
		share, trinity float64
	}{{1, 0.95}, {0.75, 0.98}, {0.5, 0.95}, {0.25, 0.71}} {
		in := fi.Defaults()
		in.WithdrawalRate, in.StockShare = 0.04, c.share
		ra, rm := fi.Backtest(&in, annual, 30), fi.Backtest(&in, &span, 30)
		t.Logf("1926-1995, %3.0f%% stocks: Trinity %.0f%%; annual (1928-1995) %.1f%% of %d; monthly %.1f%% of %d",
			c.share*100, c.trinity*100, ra.SuccessRate*100, ra.Periods, rm.SuccessRate*100, rm.Periods)
		if ra.Periods != 39 || rm.Periods != 70*12+1-360 || math.Abs(rm.SuccessRate-c.trinity) > 0.05 {
			t.Errorf("%.0f%% stocks over 1926-1995: annual %+v, monthly %+v", c.share*100, ra, rm)
		}
	}
	if res := fi.Backtest(&fi.Input{WithdrawalRate: 0.04, StockShare: 0.6}, r, 30); res.Periods != 1830-360 {
		t.Fatalf("%d monthly windows of 30 years, want %d", res.Periods, 1830-360)
	}
}
