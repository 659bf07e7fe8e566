package history

import (
	"math"
	"strings"
	"testing"

	"fiplan/compute/fi"
)

// annualAsUser is the embedded annual record as a user's yearly series.
func annualAsUser(t testing.TB) *UserSeries {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	u := &UserSeries{Name: "US", Currency: "USD", Frequency: "yearly", Source: "s", Licence: "l"}
	for i := range s.Years {
		infl := s.Inflation[i]
		u.Rows = append(u.Rows, UserRow{Year: s.Years[i], Stocks: s.Stocks[i], Bonds: s.Bonds[i], Inflation: &infl})
	}
	return u
}

// shillerAsUser is Shiller's monthly record as a user's monthly series:
// each month's returns read off the indexes.
func shillerAsUser(t testing.TB) (*UserSeries, *fi.Monthly) {
	m, err := ShillerReturns()
	if err != nil {
		t.Fatal(err)
	}
	u := &UserSeries{Name: "Shiller", Currency: "USD", Frequency: "monthly", Source: "s", Licence: "l"}
	for k := 0; k+1 < m.Len(); k++ {
		at := m.FirstYear*12 + m.FirstMonth - 1 + k
		month := at%12 + 1
		infl := m.CPI[k+1]/m.CPI[k] - 1
		u.Rows = append(u.Rows, UserRow{Year: at / 12, Month: &month, Stocks: m.Stocks[k+1]/m.Stocks[k] - 1, Bonds: m.Bonds[k+1]/m.Bonds[k] - 1, Inflation: &infl})
	}
	return u, m
}

func known(c string) bool { return c == "USD" || c == "EUR" }

// A user series that holds an embedded record replays the same backtest.
func TestUserSeriesReplaysAsEmbedded(t *testing.T) {
	u := annualAsUser(t)
	if err := u.Check(known); err != nil {
		t.Fatal(err)
	}
	rec, first, last := u.Record()
	emb, _ := Embedded()
	in := fi.Defaults()
	a, b := fi.Backtest(&in, rec, 30), fi.Backtest(&in, fi.Series(emb), 30)
	if a.Periods != b.Periods || a.SuccessRate != b.SuccessRate || a.MedianEndBalance != b.MedianEndBalance || first != 1928 || last != 2024 {
		t.Fatalf("yearly: %+v (%d-%d), embedded %+v", a, first, last, b)
	}
	mu, m := shillerAsUser(t)
	if err := mu.Check(known); err != nil {
		t.Fatal(err)
	}
	mrec, _, _ := mu.Record()
	a, b = fi.Backtest(&in, mrec, 30), fi.Backtest(&in, m, 30)
	if a.Periods != b.Periods || a.SuccessRate != b.SuccessRate || math.Abs(a.MedianEndBalance/b.MedianEndBalance-1) > 1e-9 {
		t.Fatalf("monthly: %+v, embedded %+v", a, b)
	}
}

func TestUserSeriesCheckNamesTheRow(t *testing.T) {
	month := func(m int) *int { return &m }
	base := func() *UserSeries {
		u := &UserSeries{Currency: "EUR", Frequency: "monthly"}
		for i := range 60 {
			u.Rows = append(u.Rows, UserRow{Year: 2000 + i/12, Month: month(i%12 + 1), Stocks: 0.01, Bonds: 0.001})
		}
		return u
	}
	for _, c := range []struct {
		name, path string
		edit       func(u *UserSeries)
	}{
		{"gap", "rows[13]", func(u *UserSeries) { u.Rows[13].Month = month(3) }},
		{"duplicate", "rows[13]", func(u *UserSeries) { u.Rows[13].Month = month(1) }},
		{"below -90%", "rows[5].stocks", func(u *UserSeries) { u.Rows[5].Stocks = -0.95 }},
		{"above +300%", "rows[6].bonds", func(u *UserSeries) { u.Rows[6].Bonds = 3.01 }},
		{"not a number", "rows[7].stocks", func(u *UserSeries) { u.Rows[7].Stocks = math.NaN() }},
		{"no month", "rows[2].month", func(u *UserSeries) { u.Rows[2].Month = nil }},
		{"currency", "currency", func(u *UserSeries) { u.Currency = "XQQ" }},
		{"frequency", "frequency", func(u *UserSeries) { u.Frequency = "daily" }},
		{"too long", "rows", func(u *UserSeries) {
			u.Frequency = "yearly"
			u.Rows = make([]UserRow, MaxUserYears+1)
		}},
	} {
		u := base()
		c.edit(u)
		err := u.Check(known)
		if err == nil || err.Path != c.path {
			t.Errorf("%s: %v, want one naming %s", c.name, err, c.path)
		}
	}
	if err := base().Check(known); err != nil {
		t.Errorf("a good series: %v", err)
	}
}

func TestParseUserCSV(t *testing.T) {
	rows, err := ParseUserCSV([]byte("# mine\nYear, Stocks, Bonds, Inflation\n2000,0.1,0.02,\n2001,-0.1,0.05,0.02\n"))
	if err != nil || len(rows) != 2 || rows[0].Inflation != nil || *rows[1].Inflation != 0.02 || rows[1].Stocks != -0.1 {
		t.Fatalf("rows %+v, %v", rows, err)
	}
	for in, path := range map[string]string{
		"year,stocks\n2000,0.1\n":               "header",
		"year,stocks,bonds,cash\n":              "header",
		"year,stocks,bonds\n2000,0.1\n":         "rows[0]",
		"year,stocks,bonds\n2000,x,0\n":         "rows[0].stocks",
		"year,stocks,bonds\n2000,0,0\nyy,0,0\n": "rows[1].year",
		"":                                      "header",
	} {
		if _, err := ParseUserCSV([]byte(in)); err == nil || !strings.HasPrefix(err.Path, path) {
			t.Errorf("%q: %v, want %s", in, err, path)
		}
	}
}
