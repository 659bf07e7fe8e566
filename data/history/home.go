package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"fiplan/compute/fi"
	"fiplan/embed"
)

// The home-country record (embed.Home, homehistory.json, written by
// genhome.go): yearly consumer-price inflation for every country fiplan
// taxes and the euro area, and monthly exchange rates against the US dollar
// for the currencies a licensed source covers. Every series carries its
// publisher, title, address, licence, as-of date and tag; LoadHome refuses
// a file where one lacks any of them.

// Source is where a series comes from: its publisher, the publication's
// title and address and, when the figures were read from a copy, the copy.
type Source struct {
	Publisher string `json:"publisher"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Via       string `json:"via,omitempty"`
}

// Legacy marks a currency the euro replaced: the country it was the
// currency of, its irrevocable units per euro and the last month (YYYY-MM)
// before the euro replaced it.
type Legacy struct {
	Country string  `json:"country"`
	PerEUR  float64 `json:"perEUR"`
	Until   string  `json:"until"`
	until   int     // Until as year*12 + month-1
}

// HomeSeries is one series of the record as the file holds it: Values are
// percent changes a year (kind cpi) or units per US dollar (kind fx),
// monthly or yearly averages, from First (YYYY or YYYY-MM) without a gap.
// A yearly exchange-rate series stands before the monthly one of its
// currency, for the years the monthly series does not reach.
type HomeSeries struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Country   string    `json:"country,omitempty"`
	Currency  string    `json:"currency"`
	Frequency string    `json:"frequency"`
	Unit      string    `json:"unit"`
	Source    Source    `json:"source"`
	Licence   string    `json:"licence"`
	AsOf      string    `json:"asOf"`
	Tag       string    `json:"tag"`
	First     string    `json:"first"`
	Legacy    *Legacy   `json:"legacy,omitempty"`
	Values    []float64 `json:"values"`
	year, mon int       // First parsed (mon 1-12 for fx, 0 for cpi)
}

// Home is the typed record; read-only and safe for concurrent use.
type Home struct {
	Meta struct {
		Dataset string `json:"dataset"`
		Method  string `json:"method"`
	} `json:"meta"`
	Series []HomeSeries           `json:"series"`
	cpi    map[string]*HomeSeries // by country
	fx     map[string]*HomeSeries // by currency
	legacy map[string]*HomeSeries // the euro's predecessor, by country
	yearly map[string]*HomeSeries // yearly rates before a monthly series, by currency
}

var loadHome = sync.OnceValues(func() (*Home, error) { return LoadHome(embed.Home) })

// EmbeddedHome is the embedded record, parsed on the first call.
func EmbeddedHome() (*Home, error) { return loadHome() }

// LoadHome decodes and checks a record: every series has a source
// (publisher, title, address), a licence, an as-of date (YYYY-MM-DD) and a
// tag (official, table or computed), a known kind and frequency, and finite
// values (rates above zero).
func LoadHome(b []byte) (*Home, error) {
	var h Home
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&h); err != nil {
		return nil, fmt.Errorf("cannot decode home history: %w", err)
	}
	h.cpi, h.fx, h.legacy, h.yearly = map[string]*HomeSeries{}, map[string]*HomeSeries{}, map[string]*HomeSeries{}, map[string]*HomeSeries{}
	for i := range h.Series {
		s := &h.Series[i]
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("cannot load home series %q: %w", s.ID, err)
		}
		switch {
		case s.Kind == "cpi":
			h.cpi[s.Country] = s
		case s.Frequency == "yearly":
			h.yearly[s.Currency] = s
		case s.Legacy != nil:
			h.legacy[s.Legacy.Country] = s
		default:
			h.fx[s.Currency] = s
		}
	}
	return &h, nil
}

func (s *HomeSeries) check() error {
	switch {
	case s.ID == "":
		return errors.New("no id")
	case s.Source.Publisher == "" || s.Source.Title == "" || s.Source.URL == "":
		return errors.New("no source (publisher, title and url)")
	case s.Licence == "":
		return errors.New("no licence")
	case s.Tag != "official" && s.Tag != "table" && s.Tag != "computed":
		return fmt.Errorf("tag %q, want official, table or computed", s.Tag)
	case len(s.Currency) != 3:
		return fmt.Errorf("currency %q", s.Currency)
	case len(s.Values) == 0:
		return errors.New("no values")
	}
	if _, err := time.Parse(time.DateOnly, s.AsOf); err != nil {
		return fmt.Errorf("as-of date %q: %w", s.AsOf, err)
	}
	var err error
	switch {
	case s.Kind == "cpi" && s.Frequency == "yearly":
		if len(s.Country) != 2 {
			return fmt.Errorf("country %q", s.Country)
		}
		_, err = fmt.Sscanf(s.First, "%4d", &s.year)
	case s.Kind == "fx" && s.Frequency == "yearly":
		_, err = fmt.Sscanf(s.First, "%4d", &s.year)
		s.mon = 1
	case s.Kind == "fx" && s.Frequency == "monthly":
		_, err = fmt.Sscanf(s.First, "%4d-%2d", &s.year, &s.mon)
		if err == nil && (s.mon < 1 || s.mon > 12) {
			err = fmt.Errorf("month %d", s.mon)
		}
	default:
		return fmt.Errorf("kind %q with frequency %q", s.Kind, s.Frequency)
	}
	if err != nil {
		return fmt.Errorf("first %q: %w", s.First, err)
	}
	for i, v := range s.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) || s.Kind == "fx" && v <= 0 || s.Kind == "cpi" && v <= -100 {
			return fmt.Errorf("value %d: %v out of range", i, v)
		}
	}
	if l := s.Legacy; l != nil {
		var y, m int
		if _, err := fmt.Sscanf(l.Until, "%4d-%2d", &y, &m); err != nil || m < 1 || m > 12 || l.PerEUR <= 0 || len(l.Country) != 2 {
			return fmt.Errorf("legacy %+v", *l)
		}
		l.until = y*12 + m - 1
	}
	return nil
}

// PricesCountry is the country whose consumer prices index spending in
// currency for a plan taxed in country (empty: none): country itself when
// its prices are on record in that currency, else the one country fiplan
// taxes in currency, else for the euro the euro area (EA); ok is false
// when no series fits.
func (h *Home) PricesCountry(currency, country string) (string, bool) {
	if s, ok := h.cpi[country]; ok && s.Currency == currency {
		return country, true
	}
	found, n := "", 0
	for c, s := range h.cpi {
		if s.Currency == currency && c != "EA" {
			found, n = c, n+1
		}
	}
	if n == 1 {
		return found, true
	}
	if s, ok := h.cpi["EA"]; ok && s.Currency == currency {
		return "EA", true
	}
	return "", false
}

// Money is the record of currency against the US dollar and of country's
// consumer prices as compute/fi converts with it. For the euro and a
// country the euro replaced a currency in, the months before the euro are
// that currency's rates divided by its conversion rate. Before the first
// month of the monthly rates, a yearly series of the currency (or of the
// euro's predecessor) carries each month of a year at the year's figure.
func (h *Home) Money(currency, country string) fi.Money {
	var m fi.Money
	if s, ok := h.cpi[country]; ok {
		m.CPIYear = s.year
		m.Inflation = make([]float64, len(s.Values))
		for i, v := range s.Values {
			m.Inflation[i] = v / 100
		}
	}
	s, ok := h.fx[currency]
	if !ok {
		return m
	}
	start := s.year*12 + s.mon - 1
	rates := s.Values
	if l, ok := h.legacy[country]; ok && currency == "EUR" {
		lstart, until := l.year*12+l.mon-1, l.Legacy.until
		end := start + len(s.Values) // exclusive
		spliced := make([]float64, 0, end-lstart)
		for k := lstart; k < end; k++ {
			switch {
			case k <= until && k-lstart < len(l.Values):
				spliced = append(spliced, l.Values[k-lstart]/l.Legacy.PerEUR)
			case k >= start:
				spliced = append(spliced, s.Values[k-start])
			default: // a gap between the two: keep the run that ends with the euro
				spliced = spliced[:0]
			}
		}
		start, rates = end-len(spliced), spliced
	}
	perEUR := 1.0
	yc := currency
	if l, ok := h.legacy[country]; ok && currency == "EUR" {
		yc, perEUR = l.Currency, l.Legacy.PerEUR
	}
	if y, ok := h.yearly[yc]; ok {
		monthly := start
		start, rates = y.before(start, rates, perEUR)
		m.YearlyMonths = monthly - start
	}
	m.FXYear, m.FXMonth, m.PerUSD = start/12, start%12+1, rates
	return m
}

// before puts the yearly rates of y (divided by div) ahead of the monthly
// run rates that starts at month start (year*12 + month-1), each month of
// a year at that year's figure, up to the month before start. A yearly
// series that ends before the year before start leaves rates as they are:
// the record keeps no gap.
func (y *HomeSeries) before(start int, rates []float64, div float64) (int, []float64) {
	first := y.year * 12
	if first >= start || (y.year+len(y.Values))*12 < start {
		return start, rates
	}
	out := make([]float64, 0, start-first+len(rates))
	for k := first; k < start; k++ {
		out = append(out, y.Values[k/12-y.year]/div)
	}
	return first, append(out, rates...)
}

// Currencies lists the currencies with exchange rates on record, besides
// the US dollar.
func (h *Home) Currencies() []string {
	out := make([]string, 0, len(h.fx))
	for c := range h.fx {
		out = append(out, c)
	}
	return out
}
