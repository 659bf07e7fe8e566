//go:build ignore

// genhome builds embed/homehistory.json, the home-country record of consumer
// prices and exchange rates, from two public copies of the publishers' data:
//
//	go run ./data/history/genhome.go -cpi cpi.csv -cpi-via URL@COMMIT -cpi-asof 2025-06-05 \
//	    -fx monthly.csv -fx-via URL@COMMIT -fx-asof 2026-07-21 \
//	    -fxy data/history/wdi_fx_before_h10.csv -fxy-via URL@COMMIT -fxy-asof 2026-12-06 \
//	    -out embed/homehistory.json
//
// cpi.csv has the columns "Country,Country Code,Year,CPI": the World Bank's
// World Development Indicators series FP.CPI.TOTL.ZG (consumer prices,
// annual % change) by ISO 3166-1 alpha-3 code, as the datasets/cpi copy
// holds it. monthly.csv has "Date,Country,Exchange rate": the Federal Reserve's H.10
// monthly average exchange rates (through FRED), every value in units of the
// currency per US dollar, as the datasets/exchange-rates copy holds it.
// wdi_fx_before_h10.csv (committed beside this file, lines starting with #
// are its provenance) has "iso3,country,year,exchange_rate": the World
// Bank's series PA.NUS.FCRF (official exchange rate, units of the currency
// per US dollar, yearly average) for the countries whose currency has an
// H.10 series, from 1960; the years before a currency's first H.10 month
// become a yearly series that stands before the monthly one.
//
// One series is written per country fiplan taxes (and the euro area) for
// prices, and per currency for exchange rates: the run of consecutive years
// (months) that ends with the newest one published, so an embedded series
// has no gap. The euro's predecessors keep their own series with the
// irrevocable conversion rate, so a euro-area country's prices can be
// followed back before 1999 in its former currency. Every figure is written
// as published; the loader (data/history, home.go) turns them into rates.
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"
)

// country is one country fiplan taxes, or the euro area: its code in the
// World Bank's tables and its currency.
type country struct {
	code, wdi, currency string
}

var countries = []country{
	{"AE", "ARE", "AED"}, {"AT", "AUT", "EUR"}, {"AU", "AUS", "AUD"}, {"BE", "BEL", "EUR"},
	{"BR", "BRA", "BRL"}, {"CA", "CAN", "CAD"}, {"CH", "CHE", "CHF"}, {"CO", "COL", "COP"},
	{"CR", "CRI", "CRC"}, {"CY", "CYP", "EUR"}, {"CZ", "CZE", "CZK"}, {"DE", "DEU", "EUR"},
	{"DK", "DNK", "DKK"}, {"ES", "ESP", "EUR"}, {"FI", "FIN", "EUR"}, {"FR", "FRA", "EUR"},
	{"GB", "GBR", "GBP"}, {"GE", "GEO", "GEL"}, {"GR", "GRC", "EUR"}, {"HR", "HRV", "EUR"},
	{"IE", "IRL", "EUR"}, {"IT", "ITA", "EUR"}, {"JP", "JPN", "JPY"}, {"MT", "MLT", "EUR"},
	{"MX", "MEX", "MXN"}, {"MY", "MYS", "MYR"}, {"NL", "NLD", "EUR"}, {"NO", "NOR", "NOK"},
	{"NZ", "NZL", "NZD"}, {"PA", "PAN", "PAB"}, {"PL", "POL", "PLN"}, {"PT", "PRT", "EUR"},
	{"SE", "SWE", "SEK"}, {"SG", "SGP", "SGD"}, {"TH", "THA", "THB"}, {"US", "USA", "USD"},
	{"UY", "URY", "UYU"},
	{"EA", "EMU", "EUR"}, // the euro area, for a plan in euros without a euro country
}

// h10 names a currency's series in the H.10 copy. legacy is set for a
// currency the euro replaced: the country it was the currency of, the
// irrevocable units per euro (Council Regulation (EC) No 2866/98; for the
// drachma, No 1478/2000) and the last month it counts (the month before
// the euro became the country's currency).
type h10 struct {
	currency, name string
	legacy         *legacy
}

type legacy struct {
	Country string  `json:"country"`
	PerEUR  float64 `json:"perEUR"`
	Until   string  `json:"until"`
}

var rates = []h10{
	{"AUD", "Australia", nil}, {"BRL", "Brazil", nil}, {"CAD", "Canada", nil}, {"CHF", "Switzerland", nil},
	{"DKK", "Denmark", nil}, {"EUR", "Euro", nil}, {"GBP", "United Kingdom", nil}, {"JPY", "Japan", nil},
	{"MXN", "Mexico", nil}, {"MYR", "Malaysia", nil}, {"NOK", "Norway", nil}, {"NZD", "New Zealand", nil},
	{"SEK", "Sweden", nil}, {"SGD", "Singapore", nil}, {"THB", "Thailand", nil},
	{"ATS", "Austria", &legacy{"AT", 13.7603, "1998-12"}},
	{"BEF", "Belgium", &legacy{"BE", 40.3399, "1998-12"}},
	{"DEM", "Germany", &legacy{"DE", 1.95583, "1998-12"}},
	{"ESP", "Spain", &legacy{"ES", 166.386, "1998-12"}},
	{"FIM", "Finland", &legacy{"FI", 5.94573, "1998-12"}},
	{"FRF", "France", &legacy{"FR", 6.55957, "1998-12"}},
	{"GRD", "Greece", &legacy{"GR", 340.750, "2000-12"}},
	{"IEP", "Ireland", &legacy{"IE", 0.787564, "1998-12"}},
	{"ITL", "Italy", &legacy{"IT", 1936.27, "1998-12"}},
	{"NLG", "Netherlands", &legacy{"NL", 2.20371, "1998-12"}},
	{"PTE", "Portugal", &legacy{"PT", 200.482, "1998-12"}},
}

// wdiFX names the country whose World Bank yearly rates stand before a
// currency's H.10 series. Left out: SGD, THB and GRD (H.10 starts in 1981;
// their rates were not gathered), MXN and BRL (H.10 starts in the 1990s,
// after decades of high inflation a yearly figure cannot stand for months).
var wdiFX = map[string]string{
	"AUD": "AUS", "CAD": "CAN", "CHF": "CHE", "DKK": "DNK", "GBP": "GBR", "JPY": "JPN", "MYR": "MYS",
	"NOK": "NOR", "NZD": "NZL", "SEK": "SWE", "ATS": "AUT", "BEF": "BEL", "DEM": "DEU", "ESP": "ESP",
	"FIM": "FIN", "FRF": "FRA", "IEP": "IRL", "ITL": "ITA", "NLG": "NLD", "PTE": "PRT",
}

// pegs are currencies fixed by law to the US dollar over the whole span
// the series cover: the Panamanian balboa at par since 1904.
var pegs = []struct {
	currency, first string
	perUSD          float64
	law             string
}{
	{"PAB", "1971-01", 1, "Panama: the balboa at par with the US dollar since 1904 (Convenio Monetario of 1904)"},
}

type source struct {
	Publisher string `json:"publisher"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Via       string `json:"via,omitempty"`
}

type series struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Country   string    `json:"country,omitempty"`
	Currency  string    `json:"currency"`
	Frequency string    `json:"frequency"`
	Unit      string    `json:"unit"`
	Source    source    `json:"source"`
	Licence   string    `json:"licence"`
	AsOf      string    `json:"asOf"`
	Tag       string    `json:"tag"`
	First     string    `json:"first"`
	Legacy    *legacy   `json:"legacy,omitempty"`
	Values    []float64 `json:"values"`
}

type file struct {
	Meta struct {
		Dataset string `json:"dataset"`
		Method  string `json:"method"`
	} `json:"meta"`
	Series []series `json:"series"`
}

// methodYearly is added to the method when yearly rates stand before the
// monthly ones.
const methodYearly = " Before a currency's first H.10 month: the World Bank's World Development Indicators series PA.NUS.FCRF (official exchange rate, units of the currency per US dollar, yearly average), one value per year as published, each month of a year taken at the year's figure (under the Bretton Woods par values, which moved rarely, until 1971)."

const method = "Consumer prices: the World Bank's World Development Indicators series FP.CPI.TOTL.ZG (inflation, consumer prices, annual %), one value per calendar year as published, for every country fiplan taxes and the euro area; each series is the run of consecutive years ending with the newest published. Exchange rates: the Federal Reserve Board's H.10 monthly averages of daily noon buying rates in New York, in units of the currency per US dollar (series quoted as US dollars per unit inverted by the copy), one value per month as published; the euro's predecessors carry their irrevocable conversion rate to the euro and the last month before the euro replaced them; pegs fixed by law carry the legal rate. Generated by data/history/genhome.go from the copies named in each series' source.via."

func main() {
	cpiPath := flag.String("cpi", "", "World Bank CPI inflation CSV (Country,Country Code,Year,CPI)")
	cpiVia := flag.String("cpi-via", "", "where the CPI copy was taken from (URL@commit)")
	cpiAsOf := flag.String("cpi-asof", "", "the copy's last update, YYYY-MM-DD")
	fxPath := flag.String("fx", "", "H.10 monthly CSV (Date,Country,Exchange rate)")
	fxVia := flag.String("fx-via", "", "where the H.10 copy was taken from (URL@commit)")
	fxAsOf := flag.String("fx-asof", "", "the copy's last update, YYYY-MM-DD")
	fxyPath := flag.String("fxy", "", "World Bank yearly rates CSV (iso3,country,year,exchange_rate); optional")
	fxyVia := flag.String("fxy-via", "", "where the yearly rates were taken from (URL@commit)")
	fxyAsOf := flag.String("fxy-asof", "", "the day the yearly rates were read, YYYY-MM-DD")
	out := flag.String("out", "embed/homehistory.json", "file to write")
	flag.Parse()
	if *fxyPath != "" && (*fxyVia == "" || *fxyAsOf == "") {
		log.Fatal("genhome: -fxy needs -fxy-via and -fxy-asof")
	}
	if *cpiPath == "" || *fxPath == "" || *cpiAsOf == "" || *fxAsOf == "" || *cpiVia == "" || *fxVia == "" {
		log.Fatal("genhome: -cpi, -cpi-via, -cpi-asof, -fx, -fx-via and -fx-asof are required")
	}
	var f file
	f.Meta.Dataset = "fiplan home-country consumer prices and exchange rates against the US dollar"
	f.Meta.Method = method
	if *fxyPath != "" {
		f.Meta.Method += methodYearly
	}
	cpi, err := readCPI(*cpiPath)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range countries {
		years, ok := cpi[c.wdi]
		if !ok {
			log.Fatalf("genhome: no consumer prices for %s (%s)", c.code, c.wdi)
		}
		first, vals := lastRun(years)
		f.Series = append(f.Series, series{
			ID: "cpi/" + c.code, Kind: "cpi", Country: c.code, Currency: c.currency, Frequency: "yearly",
			Unit:    "percent change of the consumer price index over the calendar year (annual average)",
			Source:  source{Publisher: "World Bank", Title: "World Development Indicators: Inflation, consumer prices (annual %), FP.CPI.TOTL.ZG, " + c.wdi, URL: "https://data.worldbank.org/indicator/FP.CPI.TOTL.ZG?locations=" + c.wdi, Via: *cpiVia},
			Licence: "CC BY 4.0", AsOf: *cpiAsOf, Tag: "official", First: strconv.Itoa(first), Values: vals,
		})
	}
	fx, err := readFX(*fxPath)
	if err != nil {
		log.Fatal(err)
	}
	var fxy map[string]map[int]float64
	if *fxyPath != "" {
		if fxy, err = readWDIFX(*fxyPath); err != nil {
			log.Fatal(err)
		}
	}
	newest := 0 // the newest month an H.10 series reaches
	for _, r := range rates {
		months, ok := fx[r.name]
		if !ok {
			log.Fatalf("genhome: no H.10 rates for %s (%s)", r.currency, r.name)
		}
		first, vals := lastRun(months)
		newest = max(newest, first+len(vals)-1)
		f.Series = append(f.Series, series{
			ID: "fx/" + r.currency, Kind: "fx", Currency: r.currency, Frequency: "monthly",
			Unit:    r.currency + " per US dollar, monthly average",
			Source:  source{Publisher: "Board of Governors of the Federal Reserve System", Title: "H.10 Foreign Exchange Rates, monthly averages: " + r.name, URL: "https://www.federalreserve.gov/releases/h10/hist/", Via: *fxVia},
			Licence: "public domain (a work of the US federal government)", AsOf: *fxAsOf, Tag: "official",
			First: fmt.Sprintf("%04d-%02d", first/12, first%12+1), Legacy: r.legacy, Values: vals,
		})
		wdi, ok := wdiFX[r.currency]
		if fxy == nil || !ok {
			continue
		}
		before := map[int]float64{} // the years that begin before the first H.10 month
		for y, v := range fxy[wdi] {
			if y*12 < first {
				before[y] = v
			}
		}
		if len(before) == 0 {
			log.Fatalf("genhome: no World Bank rates for %s (%s) before %d", r.currency, wdi, first/12)
		}
		y0, yvals := lastRun(before)
		if (y0+len(yvals))*12 < first {
			log.Fatalf("genhome: World Bank rates for %s end in %d, before the H.10 series starts in %d", r.currency, y0+len(yvals)-1, first/12)
		}
		f.Series = append(f.Series, series{
			ID: "fx/" + r.currency + "/yearly", Kind: "fx", Currency: r.currency, Frequency: "yearly",
			Unit:    r.currency + " per US dollar, yearly average of the official rate; each month of a year before the H.10 series is taken at the year's figure",
			Source:  source{Publisher: "World Bank", Title: "World Development Indicators: Official exchange rate (LCU per US$, period average), PA.NUS.FCRF, " + wdi, URL: "https://data.worldbank.org/indicator/PA.NUS.FCRF?locations=" + wdi, Via: *fxyVia},
			Licence: "CC BY 4.0", AsOf: *fxyAsOf, Tag: "table", First: strconv.Itoa(y0), Values: yvals,
		})
	}
	for _, p := range pegs {
		y, m := 0, 0
		if _, err := fmt.Sscanf(p.first, "%d-%d", &y, &m); err != nil {
			log.Fatalf("genhome: peg %s: first %q: %v", p.currency, p.first, err)
		}
		n := newest - (y*12 + m - 1) + 1
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = p.perUSD
		}
		f.Series = append(f.Series, series{
			ID: "fx/" + p.currency, Kind: "fx", Currency: p.currency, Frequency: "monthly",
			Unit:    p.currency + " per US dollar, legal rate",
			Source:  source{Publisher: "Law", Title: p.law, URL: "https://www.imf.org/external/np/mfd/er/index.aspx"},
			Licence: "a fact of law (not subject to copyright)", AsOf: *fxAsOf, Tag: "official", First: p.first, Values: vals,
		})
	}
	b, err := encode(&f)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatalf("cannot write %q: %v", *out, err)
	}
}

// encode writes one series a line, so a refresh reads as a short diff.
func encode(f *file) ([]byte, error) {
	var b bytes.Buffer
	meta, err := json.Marshal(f.Meta)
	if err != nil {
		return nil, err
	}
	b.WriteString("{\"meta\":")
	b.Write(meta)
	b.WriteString(",\n\"series\":[\n")
	for i := range f.Series {
		s, err := json.Marshal(&f.Series[i])
		if err != nil {
			return nil, err
		}
		b.Write(s)
		if i < len(f.Series)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// lastRun is the run of consecutive keys that ends with the largest one,
// with its first key.
func lastRun(m map[int]float64) (int, []float64) {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	i := len(keys) - 1
	for i > 0 && keys[i-1] == keys[i]-1 {
		i--
	}
	vals := make([]float64, 0, len(keys)-i)
	for _, k := range keys[i:] {
		vals = append(vals, m[k])
	}
	return keys[i], vals
}

func readCPI(path string) (map[string]map[int]float64, error) {
	rows, err := readCSV(path, "Country,Country Code,Year,CPI")
	if err != nil {
		return nil, err
	}
	out := map[string]map[int]float64{}
	for _, r := range rows {
		if strings.TrimSpace(r[3]) == "" {
			continue
		}
		y, err := strconv.Atoi(r[2])
		if err != nil {
			return nil, fmt.Errorf("cannot parse year %q: %w", r[2], err)
		}
		v, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			return nil, fmt.Errorf("cannot parse CPI %q: %w", r[3], err)
		}
		if out[r[1]] == nil {
			out[r[1]] = map[int]float64{}
		}
		out[r[1]][y] = v
	}
	return out, nil
}

// readFX keys each month as year*12 + month-1.
func readFX(path string) (map[string]map[int]float64, error) {
	rows, err := readCSV(path, "Date,Country,Exchange rate")
	if err != nil {
		return nil, err
	}
	out := map[string]map[int]float64{}
	for _, r := range rows {
		if strings.TrimSpace(r[2]) == "" {
			continue
		}
		var y, m, d int
		if _, err := fmt.Sscanf(r[0], "%d-%d-%d", &y, &m, &d); err != nil {
			return nil, fmt.Errorf("cannot parse date %q: %w", r[0], err)
		}
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("cannot parse rate %q", r[2])
		}
		if out[r[1]] == nil {
			out[r[1]] = map[int]float64{}
		}
		out[r[1]][y*12+m-1] = v
	}
	return out, nil
}

// readWDIFX reads the World Bank's yearly rates by country code and year;
// lines starting with # state the file's provenance.
func readWDIFX(path string) (map[string]map[int]float64, error) {
	rows, err := readCSV(path, "iso3,country,year,exchange_rate")
	if err != nil {
		return nil, err
	}
	out := map[string]map[int]float64{}
	for _, r := range rows {
		y, err := strconv.Atoi(r[2])
		if err != nil {
			return nil, fmt.Errorf("cannot parse year %q: %w", r[2], err)
		}
		v, err := strconv.ParseFloat(r[3], 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("cannot parse rate %q", r[3])
		}
		if out[r[0]] == nil {
			out[r[0]] = map[int]float64{}
		}
		if _, dup := out[r[0]][y]; dup {
			return nil, fmt.Errorf("cannot read %q: %s %d twice", path, r[0], y)
		}
		out[r[0]][y] = v
	}
	return out, nil
}

func readCSV(path, header string) ([][]string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open %q: %w", path, err)
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	r.Comment = '#'
	var rows [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read %q: %w", path, err)
		}
		if rows == nil && len(rec) > 0 && strings.Join(rec, ",") == header {
			rows = [][]string{}
			continue
		}
		if rows == nil {
			return nil, fmt.Errorf("cannot read %q: header %q, want %q", path, strings.Join(rec, ","), header)
		}
		rows = append(rows, rec)
	}
	return rows, nil
}
