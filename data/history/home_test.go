package history

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"fiplan/compute/fi"
	"fiplan/embed"
)

// Every country the tax files cover has its prices on record, and every
// series of the embedded file names its source, licence and as-of date.
func TestHomeEmbeddedCoversTaxCountries(t *testing.T) {
	h, err := EmbeddedHome()
	if err != nil {
		t.Fatal(err)
	}
	ents, err := embed.Tax.ReadDir("tax/countries")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		c := strings.ToUpper(strings.TrimSuffix(e.Name(), ".json"))
		if _, ok := h.cpi[c]; !ok {
			t.Errorf("no consumer prices for %s", c)
		}
	}
	if len(ents) < 30 {
		t.Errorf("%d tax countries read, want the 37 files", len(ents))
	}
	for _, s := range h.Series {
		if s.Source.Publisher == "" || s.Licence == "" || s.AsOf == "" {
			t.Errorf("%s: source %+v, licence %q, as of %q", s.ID, s.Source, s.Licence, s.AsOf)
		}
	}
}

// A series without a source, a licence or an as-of date fails the load.
func TestHomeRefusesSeriesWithoutProvenance(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(m map[string]any)
	}{
		{"source", "no source", func(m map[string]any) { delete(m, "source") }},
		{"publisher", "no source", func(m map[string]any) { m["source"].(map[string]any)["publisher"] = "" }},
		{"licence", "no licence", func(m map[string]any) { m["licence"] = "" }},
		{"as-of", "as-of date", func(m map[string]any) { delete(m, "asOf") }},
		{"as-of format", "as-of date", func(m map[string]any) { m["asOf"] = "June 2025" }},
		{"tag", "tag", func(m map[string]any) { m["tag"] = "guess" }},
		{"rate", "out of range", func(m map[string]any) { m["values"] = []any{1.0, 0.0} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f map[string]any
			if err := json.Unmarshal(embed.Home, &f); err != nil {
				t.Fatal(err)
			}
			series := f["series"].([]any)
			tc.edit(series[len(series)-3].(map[string]any)) // an exchange-rate series
			b, err := json.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			_, err = LoadHome(b)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
		})
	}
	if _, err := LoadHome(bytes.Clone(embed.Home)); err != nil {
		t.Fatalf("the embedded file itself: %v", err)
	}
}

// The US annual and monthly records state their licence and as-of date
// in their header comments.
func TestUSRecordsStateLicence(t *testing.T) {
	for name, b := range map[string][]byte{"history.csv": embed.History, "shiller.csv": embed.Shiller} {
		var head strings.Builder
		for line := range bytes.Lines(b) {
			if !bytes.HasPrefix(line, []byte("#")) {
				break
			}
			head.Write(line)
		}
		for _, want := range []string{"Source", "Licence:", "As of:"} {
			if !strings.Contains(head.String(), want) {
				t.Errorf("%s: header lacks %q", name, want)
			}
		}
	}
}

func TestHomeMoneyEuroBackToTheMark(t *testing.T) {
	h, err := EmbeddedHome()
	if err != nil {
		t.Fatal(err)
	}
	m := h.Money("EUR", "DE")
	if m.FXYear != 1960 || m.FXMonth != 1 || m.YearlyMonths != 132 {
		t.Fatalf("euro for Germany from %d-%02d with %d yearly months, want 1960-01 and 132 (the World Bank's mark before H.10's)",
			m.FXYear, m.FXMonth, m.YearlyMonths)
	}
	// 1960: the World Bank's 4.2000000032 marks a dollar, 1.95583 marks a euro.
	if got, want := m.PerUSD[0], 4.2000000032/1.95583; math.Abs(got-want) > 1e-12 {
		t.Errorf("January 1960 = %v euros a dollar, want %v", got, want)
	}
	// January 1971: H.10's 3.6370 marks a dollar.
	if got, want := m.PerUSD[132], 3.6370/1.95583; math.Abs(got-want) > 1e-9 {
		t.Errorf("January 1971 = %v euros a dollar, want %v", got, want)
	}
	// January 1999 is the euro's own rate: 0.8627 euros a dollar.
	if got := m.PerUSD[(1999-1960)*12]; math.Abs(got-0.8627) > 1e-4 {
		t.Errorf("January 1999 = %v, want 0.8627", got)
	}
	if m.CPIYear != 1960 || math.Abs(m.Inflation[0]-0.0153661234295201) > 1e-12 {
		t.Errorf("German prices from %d at %v, want 1960 at 1.537%%", m.CPIYear, m.Inflation[0])
	}
	// Cyprus adopted the euro without a predecessor on record: 1999 on.
	if cy := h.Money("EUR", "CY"); cy.FXYear != 1999 {
		t.Errorf("euro for Cyprus from %d, want 1999", cy.FXYear)
	}
	for _, tc := range []struct{ cur, country, want string }{
		{"EUR", "DE", "DE"}, {"EUR", "US", "EA"}, {"GBP", "", "GB"}, {"CHF", "DE", "CH"}, {"USD", "US", "US"},
	} {
		if got, ok := h.PricesCountry(tc.cur, tc.country); !ok || got != tc.want {
			t.Errorf("PricesCountry(%s, %s) = %q, %v, want %q", tc.cur, tc.country, got, ok, tc.want)
		}
	}
	if _, ok := h.PricesCountry("XYZ", ""); ok {
		t.Errorf("PricesCountry(XYZ) found a country")
	}
}

// A yearly exchange-rate series of the mark stands before its monthly H.10
// run: the euro for Germany then starts in January of the yearly series'
// first year, every month of a year at that year's figure over the mark's
// conversion rate, and a German backtest in euros is restated from the
// first year with a December before it. The yearly figures here replace
// the embedded ones with a fixture (4.20, then 4.00 marks a dollar).
func TestHomeMoneyYearlyRatesBeforeMonthly(t *testing.T) {
	var f map[string]any
	if err := json.Unmarshal(embed.Home, &f); err != nil {
		t.Fatal(err)
	}
	vals := make([]any, 11) // 1960-1970
	for i := range vals {
		vals[i] = 4.0
	}
	vals[0] = 4.2
	found := false
	for _, s := range f["series"].([]any) {
		if s := s.(map[string]any); s["id"] == "fx/DEM/yearly" {
			s["values"], found = vals, true
		}
	}
	if !found {
		t.Fatal("no fx/DEM/yearly series in the embedded file")
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	h, err := LoadHome(b)
	if err != nil {
		t.Fatal(err)
	}
	m := h.Money("EUR", "DE")
	if m.FXYear != 1960 || m.FXMonth != 1 {
		t.Fatalf("euro for Germany from %d-%02d, want 1960-01", m.FXYear, m.FXMonth)
	}
	for _, tc := range []struct {
		month int // months after January 1960
		want  float64
	}{{0, 4.2 / 1.95583}, {11, 4.2 / 1.95583}, {12, 4.0 / 1.95583}, {131, 4.0 / 1.95583}, {132, 3.6370 / 1.95583}} {
		if got := m.PerUSD[tc.month]; math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("month %d = %v euros a dollar, want %v", tc.month, got, tc.want)
		}
	}
	euro := h.fx["EUR"]
	if got, want := len(m.PerUSD), euro.year*12+euro.mon-1+len(euro.Values)-1960*12; got != want {
		t.Errorf("%d months, want %d (January 1960 to the euro's last month)", got, want)
	}
	// The backtest in euros: 1960 lacks December 1959, so 1961 is the first
	// year restated; the year 1961 earns 4.0/4.2 against the dollar.
	us, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	eur, cov := fi.Series(us).In(m)
	if cov.From != 1961 {
		t.Errorf("coverage from %d, want 1961 (was 1972 on the monthly rates alone)", cov.From)
	}
	i := 1961 - us.Years[0]
	if got, want := 1+eur.Stocks[i], (1+us.Stocks[i])*4.0/4.2; math.Abs(got-want) > 1e-12 {
		t.Errorf("1961 stocks in euros %v, want %v", got-1, want-1)
	}
	// The same yearly series after the monthly one starts, or ending with a
	// gap before it, leaves the monthly run alone.
	late := &HomeSeries{year: 1971, Values: []float64{1}}
	if start, _ := late.before(1971*12, []float64{2}, 1); start != 1971*12 {
		t.Errorf("a yearly series from the monthly start moved it to %d", start)
	}
	gap := &HomeSeries{year: 1960, Values: []float64{1}}
	if start, r := gap.before(1971*12, []float64{2}, 1); start != 1971*12 || len(r) != 1 {
		t.Errorf("a yearly series ending 1960 joined a 1971 run: start %d, %d months", start, len(r))
	}
}

// The yearly rates embedded are the committed World Bank rows for the
// years before each currency's H.10 series, and in the overlap year (the
// first of the H.10 series, kept in the rows for this check) the World
// Bank's yearly average and the mean of H.10's twelve months agree within
// 2%: the two publishers' rates join without a jump.
func TestHomeYearlyRatesMatchTheirSourceAndH10(t *testing.T) {
	h, err := EmbeddedHome()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("wdi_fx_before_h10.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[int]float64{}
	for line := range strings.Lines(string(b)) {
		f := strings.Split(strings.TrimSpace(line), ",")
		if strings.HasPrefix(line, "#") || f[0] == "iso3" {
			continue
		}
		y, err1 := strconv.Atoi(f[2])
		v, err2 := strconv.ParseFloat(f[3], 64)
		if len(f) != 4 || err1 != nil || err2 != nil {
			t.Fatalf("row %q", line)
		}
		if rows[f[0]] == nil {
			rows[f[0]] = map[int]float64{}
		}
		rows[f[0]][y] = v
	}
	if len(h.yearly) < 20 {
		t.Errorf("%d yearly series, want the 20 currencies of the rows", len(h.yearly))
	}
	for cur, y := range h.yearly {
		iso := y.Source.Title[len(y.Source.Title)-3:]
		if y.Tag != "table" || y.Licence != "CC BY 4.0" || !strings.Contains(y.Source.Via, "70cbfae9610381ace1a893f7beb143fc1de991b5") {
			t.Errorf("%s: tag %q, licence %q, via %q", cur, y.Tag, y.Licence, y.Source.Via)
		}
		for i, v := range y.Values {
			if want, ok := rows[iso][y.year+i]; !ok || v != want {
				t.Errorf("%s %d: embedded %v, rows %v", cur, y.year+i, v, want)
			}
		}
		mon := h.fx[cur]
		if mon == nil {
			for _, l := range h.legacy {
				if l.Currency == cur {
					mon = l
				}
			}
		}
		if mon == nil || mon.mon != 1 || mon.year != y.year+len(y.Values) {
			t.Errorf("%s: yearly to %d does not meet a monthly series starting in January of the next year", cur, y.year+len(y.Values)-1)
			continue
		}
		sum := 0.0
		for _, v := range mon.Values[:12] {
			sum += v
		}
		wdi, ok := rows[iso][mon.year]
		if !ok {
			t.Errorf("%s: no World Bank row for the overlap year %d", cur, mon.year)
			continue
		}
		if d := wdi/(sum/12) - 1; math.Abs(d) > 0.02 {
			t.Errorf("%s %d: World Bank %v, H.10 mean %v (%.1f%% apart)", cur, mon.year, wdi, sum/12, 100*d)
		}
	}
}
