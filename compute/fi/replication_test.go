package fi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// docs/REPLICATION.md sets published safe-withdrawal figures beside the
// engine's under the closest conditions its data allow. The engine's
// figures are computed here, from the embedded datasets, every time the
// tests run: the file is compared with what this test writes, so that it
// cannot drift from the engine. -update-replication rewrites it.
var updateReplication = flag.Bool("update-replication", false, "rewrite docs/REPLICATION.md from the engine")

const replicationPath = "../../docs/REPLICATION.md"

// homeMoneyPath holds the records by which the US record is restated in
// euros with German prices and in pounds with British prices, keyed
// "EUR/DE" and "GBP/GB": what data/history reads from the embedded home
// record, written by its test (data/history imports this package, so this
// one reads a file), which fails when the file differs from the record.
const homeMoneyPath = "testdata/home_money.json"

// HomeMoney is the restating record of currency with country's prices.
func HomeMoney(currency, country string) (Money, error) {
	raw, err := os.ReadFile(homeMoneyPath)
	if err != nil {
		return Money{}, fmt.Errorf("cannot read %q: %w", homeMoneyPath, err)
	}
	var all map[string]Money
	if err := json.Unmarshal(raw, &all); err != nil {
		return Money{}, fmt.Errorf("cannot decode %q: %w", homeMoneyPath, err)
	}
	m, ok := all[currency+"/"+country]
	if !ok {
		return Money{}, fmt.Errorf("%q holds no %s/%s", homeMoneyPath, currency, country)
	}
	return m, nil
}

func TestReplication(t *testing.T) {
	t.Parallel()
	annual := readAnnual(t, "../../embed/history.csv")
	shiller := readShiller(t, "../../embed/shiller.csv")
	got := replicationDoc(t, annual, shiller)
	if *updateReplication {
		if err := os.MkdirAll("../../docs", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(replicationPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(replicationPath)
	if err != nil {
		t.Fatalf("cannot read %s (go test ./compute/fi/ -run TestReplication -update-replication writes it): %v", replicationPath, err)
	}
	if string(want) != got {
		t.Fatalf("docs/REPLICATION.md differs from what the engine computes now: read the change, then run " +
			"go test ./compute/fi/ -run TestReplication -update-replication")
	}
}

// readAnnual reads the embedded annual CSV (year,stocks,bonds,inflation).
func readAnnual(t *testing.T, path string) Series {
	t.Helper()
	var s Series
	for i, f := range csvRows(t, path) {
		if i == 0 {
			continue // header
		}
		y, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("%s: year %q: %v", path, f[0], err)
		}
		s.Years = append(s.Years, y)
		s.Stocks = append(s.Stocks, csvFloat(t, f[1]))
		s.Bonds = append(s.Bonds, csvFloat(t, f[2]))
		s.Inflation = append(s.Inflation, csvFloat(t, f[3]))
	}
	return s
}

// readShiller reads the embedded monthly CSV
// (month,price,dividend,cpi,longrate,cape) into the engine's indexes.
func readShiller(t *testing.T, path string) *Monthly {
	t.Helper()
	var price, div, cpi, rate, cape []float64
	first, firstMonth := 0, 0
	for i, f := range csvRows(t, path) {
		if i == 0 {
			continue
		}
		if i == 1 {
			var err1, err2 error
			first, err1 = strconv.Atoi(f[0][:4])
			firstMonth, err2 = strconv.Atoi(f[0][5:7])
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: month %q", path, f[0])
			}
		}
		price = append(price, csvFloat(t, f[1]))
		div = append(div, csvFloat(t, f[2]))
		cpi = append(cpi, csvFloat(t, f[3]))
		rate = append(rate, csvFloat(t, f[4]))
		c := 0.0
		if f[5] != "" {
			c = csvFloat(t, f[5])
		}
		cape = append(cape, c)
	}
	m := NewMonthly(first, firstMonth, price, div, cpi, rate, cape)
	return &m
}

func csvRows(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		rows = append(rows, strings.Split(line, ","))
	}
	return rows
}

func csvFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("number %q: %v", s, err)
	}
	return v
}

// replication is the engine's side of the comparison.
type replication struct {
	t       *testing.T
	annual  Series
	shiller *Monthly
}

// success is the success rate, in whole percent, of a constant
// withdrawal of rate from a mix of stock stocks and bonds over h, without
// fees.
func (r *replication) success(h History, years int, rate, stock float64) int {
	return r.successFee(h, years, rate, stock, 0)
}

// successFee is success with a yearly fee.
func (r *replication) successFee(h History, years int, rate, stock, fee float64) int {
	res := Backtest(&Input{WithdrawalRate: rate, StockShare: stock, Fee: fee}, h, years)
	if res.Periods == 0 {
		r.t.Fatalf("no window of %d years in %+v", years, h)
	}
	return int(math.Round(100 * res.SuccessRate))
}

// safemax is the highest rate every window of h survives, and the start of
// the window that fails first one basis point above it.
func (r *replication) safemax(h History, years int, stock float64) (rate float64, worst WindowStart) {
	in := Input{StockShare: stock}
	rate, _ = MaxWithdrawalRate(&in, h, years, 1, 0.2)
	in.WithdrawalRate = rate + RateStep
	res := Backtest(&in, h, years)
	return rate, WindowStart{res.WorstStartYear, res.WorstStartMonth}
}

// failing lists the start years, from first to last, of the windows of
// years whose constant withdrawal of rate from the mix fails, one window
// per start year: a January start in a monthly record.
func (r *replication) failing(rec History, first, last, years int, rate, stock float64) string {
	var out []string
	for y := first; y <= last; y++ {
		h := Sampled{Record: rec, Sample: Sample{From: y, To: y + years - 1, January: true}}
		if Windows(h, years) != 1 {
			r.t.Fatalf("%d: %d windows, want 1", y, Windows(h, years))
		}
		if res := Backtest(&Input{WithdrawalRate: rate, StockShare: stock}, h, years); res.Successes == 0 {
			out = append(out, strconv.Itoa(y))
		}
	}
	if out == nil {
		return "none"
	}
	return strings.Join(out, ", ")
}

// points is fiplan's figure less the published one, in percentage points
// to two places, signed.
func points(fiplan, published float64) string {
	v := math.Round((fiplan-published)*100) / 100
	out := strconv.FormatFloat(v, 'f', -1, 64)
	if v > 0 {
		out = "+" + out
	}
	return out
}

func (w WindowStart) String() string {
	if w.Month == 0 {
		return strconv.Itoa(w.Year)
	}
	return fmt.Sprintf("%d-%02d", w.Year, w.Month)
}

func pct2(rate float64) string { return strconv.FormatFloat(100*rate, 'f', 2, 64) + "%" }

// replicationDoc writes docs/REPLICATION.md.
func replicationDoc(t *testing.T, annual Series, shiller *Monthly) string {
	r := &replication{t: t, annual: annual, shiller: shiller}
	var b strings.Builder
	b.WriteString(replicationIntro)

	trinity := Sampled{Record: shiller, Sample: Sample{From: 1926, To: 1995, January: true, MonthlyWithdrawals: true}}
	for _, c := range []struct{ years, n int }{{15, 56}, {20, 51}, {25, 46}, {30, 41}} {
		// The paper's own count of overlapping periods 1926-1995.
		if n := Windows(trinity, c.years); n != c.n {
			t.Fatalf("Trinity sample: %d windows of %d years, the paper counts %d", n, c.years, c.n)
		}
	}
	update := Sampled{Record: shiller, Sample: Sample{From: 1926, To: 2009, January: true, MonthlyWithdrawals: true}}
	shillerJan := Sampled{Record: shiller, Sample: Sample{January: true}}
	annualTo2017 := Sampled{Record: annual, Sample: Sample{To: 2017}}
	jan1926To2017 := Sampled{Record: shiller, Sample: Sample{From: 1926, To: 2017, January: true}}

	// Headline rows.
	bengenA, bengenAWorst := r.safemax(annual, 30, 0.5)
	bengenS, bengenSWorst := r.safemax(Sampled{Record: shiller, Sample: Sample{From: 1926, January: true}}, 30, 0.5)
	b.WriteString("## Headline\n\n")
	b.WriteString("| study (where published) | published figure | its conditions | fiplan, closest conditions | fiplan | why they differ |\n|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| Bengen 1994 (Journal of Financial Planning, October 1994) | SAFEMAX 4.15%%, worst start 1966 | 50/50 S&P 500 and intermediate-term government bonds, 30 years, SBBI data from 1926, withdrawal at each year's end | annual dataset 1928-2024, every start year, 50/50; shiller-monthly January starts from 1926 | %s (worst %s); %s (worst %s) | %s and %s points; the same worst cohort. fiplan takes each year's withdrawal at its start, a year's return before Bengen's year-end withdrawal, and its 10-year bonds lost more than intermediate ones as rates rose from the mid-1960s |\n",
		pct2(bengenA), bengenAWorst, pct2(bengenS), bengenSWorst,
		points(math.Round(10000*bengenA)/100, 4.15), points(math.Round(10000*bengenS)/100, 4.15))
	tr100 := r.success(trinity, 30, 0.04, 1)
	tr75 := r.success(trinity, 30, 0.04, 0.75)
	tr50 := r.success(trinity, 30, 0.04, 0.5)
	fmt.Fprintf(&b, "| Trinity 1998 (Cooley, Hubbard, Walz; AAII Journal, February 1998; Table 3) | 4%%, 30 years: 95%% (100%% stocks), 98%% (75/25), 95%% (50/50) | S&P 500 and long-term high-grade corporate bonds, 1926-1995, 41 January starts, monthly withdrawals raised yearly by CPI | shiller-monthly, from 1926, to 1995, january, monthly | %d%%, %d%%, %d%% | %s, %s and %s points: the same 41 windows and timing; the bonds differ (a 10-year government bond against long corporates) and Shiller's prices are monthly averages, which move other cells (see the grid below) |\n",
		tr100, tr75, tr50, points(float64(tr100), 95), points(float64(tr75), 98), points(float64(tr50), 95))
	up50, up50at5 := r.success(update, 30, 0.04, 0.5), r.success(update, 30, 0.05, 0.5)
	fmt.Fprintf(&b, "| Trinity update 2011 (Cooley, Hubbard, Walz; Journal of Financial Planning, April 2011) | inflation-adjusted initial rates of 4%% to 5%% for portfolios of 50%% stocks or more | large-company stocks and high-grade corporate bonds, January 1926 - December 2009, monthly withdrawals | shiller-monthly, from 1926, to 2009, january, monthly; 50/50, 30 years | 4%%: %d%%, 5%%: %d%% | consistent at 4%%, short of it at 5%%: the paper's summary states a range, not a cell, so no gap is measured; the bonds differ as in 1998 |\n",
		up50, up50at5)
	p4, p5, p6 := r.success(annualTo2017, 30, 0.04, 0.5), r.success(annualTo2017, 30, 0.05, 0.5), r.success(annualTo2017, 30, 0.06, 0.5)
	q4, q5, q6 := r.success(jan1926To2017, 30, 0.04, 0.5), r.success(jan1926To2017, 30, 0.05, 0.5), r.success(jan1926To2017, 30, 0.06, 0.5)
	fmt.Fprintf(&b, "| Pfau 2018 (Forbes, 16 January 2018, \"The Trinity Study And Portfolio Success Rates (Updated To 2018)\") | 50/50, 30 years: 100%% at 4%%, 68%% at 5%%, 43%% at 6%% | S&P 500 and intermediate-term government bonds (as his 2012 re-creation of the table states), windows from 1926 | annual dataset to 2017; shiller-monthly January starts 1926-2017, start of year | %d/%d/%d%%; %d/%d/%d%% | %s, %s, %s points (annual): at 4%% fiplan's 50/50 fails for the starts %s (annual) and %s (January), the 1960s cohorts whose 10-year bonds lost to rising rates, which intermediate bonds carried through; windows end by 2017 here (the article's end year is assumed) and the annual record starts in 1928 |\n",
		p4, p5, p6, q4, q5, q6, points(float64(p4), 100), points(float64(p5), 68), points(float64(p6), 43),
		r.failing(annual, 1928, 1988, 30, 0.04, 0.5), r.failing(shiller, 1926, 1988, 30, 0.04, 0.5))
	ern := map[float64]float64{}
	for _, s := range []float64{1, 0.75, 0.6} {
		ern[s], _ = r.safemax(shiller, 60, s)
	}
	fmt.Fprintf(&b, "| Early Retirement Now, Safe Withdrawal Rate Series (earlyretirementnow.com) | 3.25%% as the series' safe rate for early retirees' long horizons (quoted secondhand, with no horizon or mix attached; the series itself is not in the stored sources) | Shiller's data from 1871, every start month (the series' own conditions not checked) | shiller-monthly, all start months, 60 years, start of year | 100/0: %s, 75/25: %s, 60/40: %s | the quoted figure names no mix, horizon or sample end, so the gap (%s points at 75/25, 60 years) is indicative only |\n",
		pct2(ern[1]), pct2(ern[0.75]), pct2(ern[0.6]), points(math.Round(10000*ern[0.75])/100, 3.25))
	fc := r.successFee(Sampled{Record: shiller, Sample: Sample{To: 2017, January: true}}, 30, 0.04, 0.75, 0.0018)
	fc60 := r.successFee(Sampled{Record: shiller, Sample: Sample{To: 2017, January: true}}, 60, 0.04, 0.75, 0.0018)
	fc11 := r.successFee(Sampled{Record: shiller, Sample: Sample{To: 2011, January: true}}, 30, 0.04, 0.75, 0.0018)
	fmt.Fprintf(&b, "| FIRECalc (firecalc.com; figures posted by users: forum.earlyretirementextreme.com, 9 June 2018; early-retirement.org, 2011) | 4%%, 30 years: 94.9%% success in 2018 (60 years: 82.8%%); 94.6%% with data 1871-2011 | annual data from 1871, one start a year, FIRECalc's default portfolio and its default 0.18%% fee | shiller-monthly January starts to 2017 (and to 2011), 75/25, fee 0.18%%, start of year | %d%% (60 years: %d%%); %d%% | %s points (60 years: %s; 1871-2011: %s): FIRECalc's default portfolio and bond series are its own (75/25 is assumed here, not checked), and it replays annual figures, where fiplan compounds Shiller's months |\n",
		fc, fc60, fc11, points(float64(fc), 94.9), points(float64(fc60), 82.8), points(float64(fc11), 94.6))
	cf := r.success(shillerJan, 30, 0.04, 0.75)
	fmt.Fprintf(&b, "| cFIREsim (cfiresim.com) | no 4%%/30-year figure of its own found in the stored sources | Shiller's data from 1871, one start a year, updated from Shiller's site | shiller-monthly January starts 1871-2023, 75/25, start of year | %d%% | nothing published to compare; the row records fiplan's figure under cFIREsim's data |\n\n",
		cf)

	// Trinity Table 3 under its conditions.
	b.WriteString("## Trinity Table 3 under its conditions\n\n")
	b.WriteString("fiplan's success rates, shiller-monthly, `from` 1926, `to` 1995, `startMonths` january, `withdrawalTiming` monthly " +
		"(56, 51, 46 and 41 windows of 15, 20, 25 and 30 years: the paper's counts). In brackets: the same with the year's withdrawal " +
		"at its start, to show what the timing is worth. The published cells checked here are the 30-year 4% column above; " +
		"the rest of the paper's table is not in the stored sources, so it is not copied.\n\n")
	b.WriteString("| mix | years | 3% | 4% | 5% | 6% | 7% |\n|---|---|---|---|---|---|---|\n")
	startOfYear := Sampled{Record: shiller, Sample: Sample{From: 1926, To: 1995, January: true}}
	for _, stock := range []float64{1, 0.75, 0.5, 0.25, 0} {
		for _, years := range []int{15, 20, 25, 30} {
			fmt.Fprintf(&b, "| %d/%d | %d |", int(100*stock), 100-int(100*stock), years)
			for _, rate := range []float64{0.03, 0.04, 0.05, 0.06, 0.07} {
				fmt.Fprintf(&b, " %d (%d) |", r.success(trinity, years, rate, stock), r.success(startOfYear, years, rate, stock))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")

	// The 2011 update's sample.
	b.WriteString("## The 2011 update's sample\n\n")
	b.WriteString("shiller-monthly, `from` 1926, `to` 2009, `startMonths` january, `withdrawalTiming` monthly, 30 years.\n\n")
	b.WriteString("| mix | 3% | 4% | 5% | 6% | 7% |\n|---|---|---|---|---|---|\n")
	for _, stock := range []float64{1, 0.75, 0.5, 0.25, 0} {
		fmt.Fprintf(&b, "| %d/%d |", int(100*stock), 100-int(100*stock))
		for _, rate := range []float64{0.03, 0.04, 0.05, 0.06, 0.07} {
			fmt.Fprintf(&b, " %d |", r.success(update, 30, rate, stock))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	r.home(&b)
	b.WriteString(replicationData)
	return b.String()
}

// home writes the home-country section: the annual record restated in
// euros with German prices and in pounds with British prices, beside the
// dollar figures of the same windows.
func (r *replication) home(b *strings.Builder) {
	b.WriteString(replicationHomeIntro)
	b.WriteString("| household | windows | years restated | 60/40 SAFEMAX (worst) | 60/40 at 4% | 100/0 SAFEMAX (worst) | 100/0 at 4% |\n|---|---|---|---|---|---|---|\n")
	households := []struct{ name, currency, country string }{
		{"US, dollars, US prices", "USD", ""},
		{"German, euros, German prices", "EUR", "DE"},
		{"British, pounds, British prices", "GBP", "GB"},
	}
	for _, from := range []int{1960, 1971} {
		for _, hh := range households {
			rec, restated := r.annual, "none (the record as it is)"
			if hh.currency != "USD" {
				m, err := HomeMoney(hh.currency, hh.country)
				if err != nil {
					r.t.Fatal(err)
				}
				var cov Coverage
				rec, cov = r.annual.In(m)
				// A year's change runs from the December before it.
				if cov.From == 0 || cov.From > from+1 {
					r.t.Fatalf("%s: restated %d-%d, want from %d or earlier", hh.currency, cov.From, cov.To, from+1)
				}
				restated = fmt.Sprintf("%d-%d", cov.From, cov.To)
			}
			h := Sampled{Record: rec, Sample: Sample{From: from}}
			n := Windows(h, 30)
			fmt.Fprintf(b, "| %s | %d starts, %d-%d | %s |", hh.name, n, from, from+n-1, restated)
			for _, stock := range []float64{0.6, 1} {
				rate, worst := r.safemax(h, 30, stock)
				fmt.Fprintf(b, " %s (%s) | %d%% |", pct2(rate), worst, r.success(h, 30, 0.04, stock))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	b.WriteString(replicationHomePublished)
}

const replicationIntro = `# Replication: fiplan's backtest beside the published studies

This file is written by a test (` + "`go test ./compute/fi/ -run TestReplication -update-replication`" + `);
without the flag the test fails when the file differs from what the engine computes now, so the
figures below are always the engine's. They come from compute/fi directly (Backtest and
MaxWithdrawalRate), on the datasets fiplan embeds, under the conditions the calculator's
` + "`historical`" + ` fields set (` + "`dataset`, `from`, `to`, `startMonths`, `withdrawalTiming`" + `).

A success rate is the share of windows in which every year's inflation-adjusted withdrawal was
paid in full, rounded to the whole percent as the papers round. A SAFEMAX is the highest rate, in
whole basis points, every window survives; "worst" is the start of the window that fails first a
basis point above it. Published figures are quoted with where they appear; where the primary
source was not available to check, the row says so.

`

const replicationData = `## Why the figures cannot match exactly

- Bonds. fiplan's bonds are a 10-year government bond: a constant-maturity bond repriced from the
  yield (the annual dataset, 1928-2024) or from Shiller's long rate month by month (shiller-monthly).
  Trinity (1998, 2011) used long-term high-grade corporate bonds from Ibbotson's SBBI; Bengen (1994)
  and Pfau used intermediate-term government bonds. Corporates paid a credit premium; intermediate
  bonds are less volatile. Neither series is in fiplan, so the bond half of every mix differs.
- Stocks. shiller-monthly is Shiller's S&P Composite with dividends, priced at monthly averages of
  daily closes, which smooths month-to-month moves a little; the annual dataset is the S&P 500
  total return by calendar year from 1928 (not 1926).
- Timing. The papers' monthly withdrawals are replayed exactly with ` + "`withdrawalTiming` monthly" + `;
  Bengen withdrew at each year's end, which fiplan does not model (start of year is the nearer
  and more conservative choice).
- Samples. ` + "`from`/`to`" + ` bound the windows as the papers do; where a study's end year is not
  stated in the stored sources, the row says which one is assumed.
- Fees. None unless the row says so (FIRECalc's default 0.18% is applied in its row).

## What was checked, and where

- Trinity's conditions: monthly withdrawals, raised once a year by the CPI, are stated in the
  2011 update's summary (Journal of Financial Planning, April 2011) and in the authors' 1999
  article on the same method (Journal of Financial Counseling and Planning, vol. 10, no. 1); the
  counts of overlapping periods 1926-1995 (56, 51, 46, 41) are in the 1998 tables' notes, and
  this test fails if the sample does not give them. The 1998 Table 3 cells at 4% and 30 years
  (95%, 98%, 95%) are as secondary summaries of the paper and Pfau quote them.
- Bengen's SAFEMAX, its 50/50 mix, its bonds, its year-end withdrawals and its worst cohort
  (1966, living through 1995) are as Pfau describes the 1994 article.
- Pfau's 100/68/43% are from the 2018 article as republished on retirementresearcher.com.
- FIRECalc's figures are its output as users posted them, not a publication of its own; ERN's
  figure is quoted secondhand. No standing cFIREsim figure was found.
`

const replicationHomeIntro = "## A German or British household on the US market\n\n" +
	"The annual dataset restated as `historical.currency` restates it: each year's US returns carried into the " +
	"currency by the dollar's change from the December average before the year to the December average that ends it " +
	"(the World Bank's yearly official rates for the years before the Federal Reserve's H.10 monthly rates, which " +
	"start in 1971), and spending indexed by the country's consumer prices (World Bank). The market is still the " +
	"US one: stocks are the S&P 500, bonds the 10-year Treasury, held by someone who spends euros or pounds. " +
	"Windows of 30 years start from 1960 (the first year both the rates and the prices reach; a year's change runs " +
	"from the December before it, so the annual record is restated from 1961 and 1960 keeps its US returns in real " +
	"terms) and from 1971 " +
	"(the first year of monthly rates) and end by 2024; the dollar rows are the same windows for a US household, " +
	"so a row's gap to the dollar row above it is what the currency and home inflation change.\n\n"

const replicationHomePublished = `### What a published UK or German figure would need

The published home-country figures are for a household holding its own country's stocks and bonds in
its own currency, not for the US market restated, so none of them is a row of the table above:

- Pfau, "An International Perspective on Safe Withdrawal Rates from Retirement Savings: The Demise of the
  4 Percent Rule?", Journal of Financial Planning, December 2010 (GRIPS Discussion Paper 10-12; SSRN
  abstract 1699526): 109 years of market data for 17 developed countries; a 4% real withdrawal would have
  been safe in only 4 of the 17 even with the allocation chosen in hindsight each year, and a fixed 50/50
  stocks and bonds failed at some point in all 17 (the abstract). The four are Canada, Sweden, Denmark and
  the United States; at 4% over 30 years, 62.5% of the historical cases failed in Italy and 42.5% in France;
  five countries had maximum sustainable rates of 1.56% or lower (Pfau's answers in ThinkAdvisor, 22 April
  2011). With the hindsight allocation and two more countries, SAFEMAX was 4.4% for Canada, 4.1% for New
  Zealand, Sweden, Denmark and the GDP-weighted world portfolio, and 4% for the US (Pfau, "The Shocking
  International Experience of the 4% Rule", retirementresearcher.com, 5 May 2012).
- Pfau's UK and German cells themselves were not in the stored sources; they are quoted secondhand only:
  3.0% for a UK investor holding 50% UK equities and 50% UK bonds, 3.2% with global ones
  (retirementinvestingtoday.com, 2017, citing Pfau); Germany, France and Belgium in the 1% to 2% range and
  the UK and the Netherlands in the 3% range (isgam.ch, May 2017). No UK or German figure is compared with
  fiplan's here, and no gap is measured.

Reproducing them needs German or British equity and bond returns year by year from 1900: the
Dimson-Marsh-Staunton database (commercial), MSCI's country indexes (redistribution prohibited) or the
JST Macrohistory Database (CC BY-NC-SA, which forbids integration by data providers). None of them may
be kept in this repository, as a fixture or otherwise, so the figures cannot be recomputed here and no
test claims to. A user who holds a licence can load such a series (` + "`/api/v1/user/series`" + `) and run
the backtest on it (` + "`historical.dataset: \"user:<id>\"`" + `) under the conditions above.

`
