package history

import (
	"math"
	"strings"
	"testing"

	"fiplan/compute/fi"
)

func us(t *testing.T) Series {
	t.Helper()
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestEmbeddedSeriesShape(t *testing.T) {
	s := us(t)
	if s.Len() != 97 || s.First() != 1928 || s.Last() != 2024 {
		t.Fatalf("want 1928-2024 (97 years), got %d-%d (%d)", s.First(), s.Last(), s.Len())
	}
	if len(s.Stocks) != 97 || len(s.Bonds) != 97 || len(s.Inflation) != 97 {
		t.Fatal("ragged columns")
	}
	again, _ := Embedded()
	if &again.Years[0] != &s.Years[0] {
		t.Fatal("the series should be parsed once and shared")
	}
	// Spot values from the published tables (percent, as printed).
	spot := []struct {
		year                   int
		stocks, bonds, infl    float64
		stockDp, bondDp, infDp int
	}{
		{1928, 43.81, 0.84, -1.2, 2, 2, 1},
		{1931, -43.84, -2.56, -9.3, 2, 2, 1},
		{1946, -8.43, 3.13, 18.1, 2, 2, 1},
		{1974, -25.90, 1.99, 12.3, 2, 2, 1},
		{1980, 31.74, -2.99, 12.5, 2, 2, 1},
		{2008, -36.55, 20.10, 0.09, 2, 2, 2},
		{2022, -18.04, -17.83, 6.5, 2, 2, 1},
		{2024, 24.88, -1.64, 2.9, 2, 2, 1},
	}
	round := func(x float64, dp int) float64 { p := math.Pow(10, float64(dp)); return math.Round(x*100*p) / p }
	for _, c := range spot {
		i := c.year - 1928
		if round(s.Stocks[i], c.stockDp) != c.stocks || round(s.Bonds[i], c.bondDp) != c.bonds || round(s.Inflation[i], c.infDp) != c.infl {
			t.Errorf("%d: %.4f %.4f %.4f, published %.2f %.2f %.2f", c.year, s.Stocks[i], s.Bonds[i], s.Inflation[i], c.stocks, c.bonds, c.infl)
		}
	}
}

func mean(v []float64) float64 {
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	return sum / float64(len(v))
}

func growth(v []float64) float64 {
	g := 1.0
	for _, x := range v {
		g *= 1 + x
	}
	return g
}

// The aggregates the publishers print must come out of the embedded years.
//
// Damodaran, "Historical Returns on Stocks, Bonds and Bills: 1928-2024"
// (January 2025): S&P 500 arithmetic average 11.79% and geometric average
// 9.94% over 1928-2024 (also reported in the press in January 2025 as "an
// average of 11.8% since 1928", "a compounded annual return of 9.94%", "$100
// invested in 1928 would be worth $982,920", "positive in 71 of the last 97
// years"). The same table's compounded value of $100 at the end of 1946 is
// $206.65 in stocks and $184.26 in T.Bonds, at the end of 1959 $1,608.95 and
// $214.56. BLS CPI-U December index: 17.3 for 1927, 315.605 for 2024.
func TestAggregatesMatchPublished(t *testing.T) {
	s := us(t)
	if a := mean(s.Stocks) * 100; math.Abs(a-11.79) > 0.006 {
		t.Errorf("stocks arithmetic mean %.4f%%, published 11.79%%", a)
	}
	if g := (math.Pow(growth(s.Stocks), 1/97.0) - 1) * 100; math.Abs(g-9.94) > 0.006 {
		t.Errorf("stocks geometric mean %.4f%%, published 9.94%%", g)
	}
	if v := 100 * growth(s.Stocks); math.Abs(v/982_920-1) > 0.0005 {
		t.Errorf("$100 in 1928 grows to %.2f, published about 982,920", v)
	}
	pos := 0
	for _, x := range s.Stocks {
		if x > 0 {
			pos++
		}
	}
	if pos != 71 {
		t.Errorf("%d positive stock years, published 71 of 97", pos)
	}
	checks := []struct {
		through       int
		stocks, bonds float64
	}{{1946, 206.65, 184.26}, {1959, 1608.95, 214.56}}
	for _, c := range checks {
		n := c.through - 1928 + 1
		if v := 100 * growth(s.Stocks[:n]); math.Abs(v-c.stocks) > 0.02 {
			t.Errorf("stocks $100 through %d: %.2f, published %.2f", c.through, v, c.stocks)
		}
		if v := 100 * growth(s.Bonds[:n]); math.Abs(v-c.bonds) > 0.02 {
			t.Errorf("T.Bonds $100 through %d: %.2f, published %.2f", c.through, v, c.bonds)
		}
	}
	if v := 17.3 * growth(s.Inflation); math.Abs(v/315.605-1) > 1e-4 {
		t.Errorf("CPI-U chained from Dec 1927 reaches %.3f, BLS Dec 2024 is 315.605", v)
	}
}

// Bengen (1994) and the Trinity study (Cooley, Hubbard and Walz 1998): an
// inflation-adjusted 4% first-year withdrawal from a balanced stock/bond
// portfolio lasted 30 years in about 95% of historical periods. The worst
// starts are the late 1960s.
func TestTrinityFourPercentRule(t *testing.T) {
	s := fi.Series(us(t))
	for _, share := range []float64{0.5, 0.6} {
		in := fi.Defaults()
		in.WithdrawalRate = 0.04
		in.StockShare = share
		r := fi.Backtest(&in, s, 30)
		if r.Periods != 68 {
			t.Fatalf("%d windows of 30 years in 1928-2024, want 68", r.Periods)
		}
		if r.SuccessRate < 0.90 || r.SuccessRate > 1 {
			t.Errorf("%.0f/%.0f: 4%% over 30 years succeeds in %.1f%% of periods, want about 95%%",
				share*100, (1-share)*100, r.SuccessRate*100)
		}
		if r.WorstStartYear < 1960 || r.WorstStartYear > 1973 || !r.WorstFailed || r.WorstFailYear <= r.WorstStartYear {
			t.Errorf("worst period %+v, expected a failed late-1960s start", r)
		}
		t.Logf("%.0f/%.0f: success %.1f%% (%d/%d), worst start %d ran out in %d",
			share*100, (1-share)*100, r.SuccessRate*100, r.Successes, r.Periods, r.WorstStartYear, r.WorstFailYear)
	}

	// The highest rate that never failed must be below 4% and the 95% rate
	// must be between it and a 4.5% rate that clearly fails more often.
	in := fi.Defaults()
	in.StockShare = 0.6
	all, _ := fi.MaxWithdrawalRate(&in, s, 30, 1, 0.2)
	p95, _ := fi.MaxWithdrawalRate(&in, s, 30, 0.95, 0.2)
	if !(0.03 < all && all < 0.04 && all <= p95 && p95 < 0.045) {
		t.Errorf("max safe rates: 100%% -> %.4f, 95%% -> %.4f", all, p95)
	}
	in.WithdrawalRate = all
	if r := fi.Backtest(&in, s, 30); r.SuccessRate != 1 {
		t.Errorf("rate %.4f should never fail: %+v", all, r)
	}
	in.WithdrawalRate = all + 0.0002
	if r := fi.Backtest(&in, s, 30); r.SuccessRate == 1 {
		t.Errorf("rate %.4f should fail somewhere", all+0.0002)
	}
	t.Logf("60/40, 30 years: highest rate with no failure %.2f%%, with 95%% success %.2f%%", all*100, p95*100)
}

func TestParse(t *testing.T) {
	ok := "# comment\n\nyear,stocks,bonds,inflation\n2000,0.1,0.05,0.02\n2001,-0.1,0.03,0.01\n"
	s, err := Parse([]byte(ok))
	if err != nil || s.Len() != 2 || s.Stocks[1] != -0.1 || s.Years[1] != 2001 {
		t.Fatalf("%+v %v", s, err)
	}
	bad := []struct{ text, want string }{
		{"year,stocks,bonds,inflation\n2000,0.1,0.05\n", "cannot parse history row 1: want 4 fields"},
		{"year,stocks,bonds,inflation\n2000,0.1,0.05,0.02\n2002,0.1,0.05,0.02\n", "cannot parse history row 2: year 2002 does not follow 2000"},
		{"year,stocks,bonds,inflation\n2000,abc,0.05,0.02\n", "cannot parse history row 1: column 2"},
		{"year,stocks,bonds,inflation\n2000,0.1,-1,0.02\n", "cannot parse history row 1: column 3"},
		{"year,stocks,bonds,inflation\nx,0.1,0.05,0.02\n", "cannot parse history row 1: year"},
		{"year,stocks,bonds,inflation\n2000,NaN,0.05,0.02\n", "cannot parse history row 1"},
		{"year,stocks,bonds\n", "cannot parse history header"},
		{"# only comments\n", "no data rows"},
	}
	for _, c := range bad {
		if _, err := Parse([]byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// sampleStdDev is the standard deviation with n-1 in the denominator.
func sampleStdDev(v []float64) float64 {
	m := mean(v)
	ss := 0.0
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(v)-1))
}

// The engine's default Monte Carlo spreads are the series' own, rounded to
// the percent: a yearly rebalanced mix at the default stock share, and CPI-U.
func TestMonteCarloDefaultsMatchSeries(t *testing.T) {
	s := us(t)
	share := fi.Defaults().StockShare
	mix := make([]float64, s.Len())
	for i := range mix {
		mix[i] = share*s.Stocks[i] + (1-share)*s.Bonds[i]
	}
	d := fi.DefaultMonteCarlo()
	if sd := sampleStdDev(mix); math.Round(sd*100)/100 != d.ReturnStdDev {
		t.Errorf("mix return sd %.4f rounds to %.2f, default %.2f", sd, math.Round(sd*100)/100, d.ReturnStdDev)
	}
	if sd := sampleStdDev(s.Inflation); math.Round(sd*100)/100 != d.InflationStdDev {
		t.Errorf("inflation sd %.4f rounds to %.2f, default %.2f", sd, math.Round(sd*100)/100, d.InflationStdDev)
	}
}
