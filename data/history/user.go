package history

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"fiplan/compute/fi"
)

// A user's return series: total returns of stocks and bonds, and
// optionally inflation, by year or by month, in a named currency, with the
// source and licence its owner declares. Check validates one; Record
// turns it into the record a backtest replays, as the embedded ones.

// Limits of a user series.
const (
	MaxUserSeries = 20   // series a user may keep
	MaxUserYears  = 2000 // years of rows a series may hold
	MinUserYears  = 5    // the shortest backtest window
)

// Bounds of one row's returns, as fractions: a month's return, and a
// year's.
const (
	MinMonthReturn, MaxMonthReturn = -0.9, 3.0
	MinYearReturn, MaxYearReturn   = -0.99, 100.0
)

// UserRow is one period: a calendar year, and its month (1-12) in a
// monthly series; total returns and inflation as fractions.
type UserRow struct {
	Year      int      `json:"year"`
	Month     *int     `json:"month,omitempty"`
	Stocks    float64  `json:"stocks"`
	Bonds     float64  `json:"bonds"`
	Inflation *float64 `json:"inflation,omitempty"`
}

// UserSeries is a series as stored and answered.
type UserSeries struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Currency  string    `json:"currency"`
	Frequency string    `json:"frequency"`
	Source    string    `json:"source"`
	Licence   string    `json:"licence"`
	CreatedAt string    `json:"createdAt"`
	Rows      []UserRow `json:"rows"`

	once        sync.Once
	rec         fi.History
	first, last int
}

// RowError names what is wrong with a series: the field path (rows[i].stocks
// for a row) and why.
type RowError struct {
	Path, Message string
}

func (e *RowError) Error() string { return e.Path + ": " + e.Message }

func rowErr(i int, field, format string, a ...any) *RowError {
	p := "rows[" + strconv.Itoa(i) + "]"
	if field != "" {
		p += "." + field
	}
	return &RowError{Path: p, Message: fmt.Sprintf(format, a...)}
}

// Check validates u: a frequency of yearly or monthly; rows in order
// without a gap or a duplicate (each the period after the one before), a
// month on every row of a monthly series and on none of a yearly one;
// returns finite and within the bounds (a month's -90%..+300%); inflation
// on every row or on none; between MinUserYears and MaxUserYears of rows;
// a currency known says is known.
func (u *UserSeries) Check(known func(currency string) bool) *RowError {
	switch {
	case u.Frequency != "yearly" && u.Frequency != "monthly":
		return &RowError{"frequency", "must be yearly or monthly"}
	case !known(u.Currency):
		return &RowError{"currency", "is not a currency fiplan knows (GET /api/v1/assets/summary lists the exchange-rate table)"}
	}
	monthly := u.Frequency == "monthly"
	per := 1
	lo, hi := MinYearReturn, MaxYearReturn
	if monthly {
		per, lo, hi = 12, MinMonthReturn, MaxMonthReturn
	}
	if n := len(u.Rows); n < MinUserYears*per || n > MaxUserYears*per {
		return &RowError{"rows", fmt.Sprintf("must hold %d to %d %s rows (%d to %d years); got %d", MinUserYears*per, MaxUserYears*per, u.Frequency, MinUserYears, MaxUserYears, n)}
	}
	withInflation := u.Rows[0].Inflation != nil
	prev := 0
	for i := range u.Rows {
		r := &u.Rows[i]
		if r.Year < 1 || r.Year > 9999 {
			return rowErr(i, "year", "must be 1 to 9999")
		}
		at := r.Year
		switch {
		case monthly && r.Month == nil:
			return rowErr(i, "month", "is required in a monthly series")
		case monthly && (*r.Month < 1 || *r.Month > 12):
			return rowErr(i, "month", "must be 1 to 12")
		case !monthly && r.Month != nil:
			return rowErr(i, "month", "must be absent in a yearly series")
		}
		if monthly {
			at = r.Year*12 + *r.Month - 1
		}
		if i > 0 {
			switch {
			case at == prev:
				return rowErr(i, "", "duplicates row %d (%s)", i-1, period(r))
			case at < prev:
				return rowErr(i, "", "is out of order: %s comes before row %d's period", period(r), i-1)
			case at > prev+1:
				return rowErr(i, "", "leaves a gap: %s does not follow row %d", period(r), i-1)
			}
		}
		prev = at
		for _, f := range [...]struct {
			name string
			v    float64
		}{{"stocks", r.Stocks}, {"bonds", r.Bonds}} {
			if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < lo || f.v > hi {
				return rowErr(i, f.name, "return %v is outside %v..%v for a %s row", f.v, lo, hi, strings.TrimSuffix(u.Frequency, "ly"))
			}
		}
		if (r.Inflation != nil) != withInflation {
			return rowErr(i, "inflation", "must be on every row or on none (row 0 decides)")
		}
		if r.Inflation != nil {
			if v := *r.Inflation; math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi {
				return rowErr(i, "inflation", "%v is outside %v..%v", v, lo, hi)
			}
		}
	}
	return nil
}

func period(r *UserRow) string {
	if r.Month != nil {
		return fmt.Sprintf("%04d-%02d", r.Year, *r.Month)
	}
	return strconv.Itoa(r.Year)
}

// ParseUserCSV reads rows from CSV: a header naming the columns year,
// month (monthly series only), stocks, bonds and inflation (optional), in
// any order, and one row a line; blank lines and lines starting with '#'
// are skipped. An empty inflation cell leaves the row without one.
func ParseUserCSV(b []byte) ([]UserRow, *RowError) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	col := map[string]int{}
	var rows []UserRow
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, ",")
		if len(col) == 0 {
			for i, name := range f {
				name = strings.ToLower(strings.TrimSpace(name))
				switch name {
				case "year", "month", "stocks", "bonds", "inflation":
					col[name] = i
				default:
					return nil, &RowError{"header", fmt.Sprintf("unknown column %q (year, month, stocks, bonds, inflation)", name)}
				}
			}
			for _, need := range []string{"year", "stocks", "bonds"} {
				if _, ok := col[need]; !ok {
					return nil, &RowError{"header", "lacks the column " + need}
				}
			}
			continue
		}
		i := len(rows)
		if len(f) != len(col) {
			return nil, rowErr(i, "", "has %d fields, the header %d", len(f), len(col))
		}
		var r UserRow
		var err error
		if r.Year, err = strconv.Atoi(strings.TrimSpace(f[col["year"]])); err != nil {
			return nil, rowErr(i, "year", "is not a whole number")
		}
		if k, ok := col["month"]; ok {
			m, err := strconv.Atoi(strings.TrimSpace(f[k]))
			if err != nil {
				return nil, rowErr(i, "month", "is not a whole number")
			}
			r.Month = &m
		}
		if r.Stocks, err = strconv.ParseFloat(strings.TrimSpace(f[col["stocks"]]), 64); err != nil {
			return nil, rowErr(i, "stocks", "is not a number")
		}
		if r.Bonds, err = strconv.ParseFloat(strings.TrimSpace(f[col["bonds"]]), 64); err != nil {
			return nil, rowErr(i, "bonds", "is not a number")
		}
		if k, ok := col["inflation"]; ok {
			if s := strings.TrimSpace(f[k]); s != "" {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, rowErr(i, "inflation", "is not a number")
				}
				r.Inflation = &v
			}
		}
		rows = append(rows, r)
		if len(rows) > MaxUserYears*12 {
			return nil, &RowError{"rows", fmt.Sprintf("more than %d rows", MaxUserYears*12)}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, rowErr(len(rows), "", "cannot be read: %v", err)
	}
	if len(col) == 0 {
		return nil, &RowError{"header", "no header line (year, month, stocks, bonds, inflation)"}
	}
	return rows, nil
}

// Record is the record a backtest replays, with its first and last
// calendar years, for a series Check accepted, made on the first call and
// shared afterwards (read-only; u's rows must not change after the first
// call): a yearly series as the
// annual record (each row one year); a monthly one as total-return and
// price indexes that start at 1 at the start of its first month and move
// by each row's returns over the month (without inflation the returns
// count as real: prices stay put).
func (u *UserSeries) Record() (h fi.History, first, last int) {
	u.once.Do(func() { u.rec, u.first, u.last = u.record() })
	return u.rec, u.first, u.last
}

func (u *UserSeries) record() (h fi.History, first, last int) {
	n := len(u.Rows)
	first, last = u.Rows[0].Year, u.Rows[n-1].Year
	if u.Frequency == "yearly" {
		s := fi.Series{Years: make([]int, n), Stocks: make([]float64, n), Bonds: make([]float64, n), Inflation: make([]float64, n)}
		for i, r := range u.Rows {
			s.Years[i], s.Stocks[i], s.Bonds[i] = r.Year, r.Stocks, r.Bonds
			if r.Inflation != nil {
				s.Inflation[i] = *r.Inflation
			}
		}
		return s, first, last
	}
	st, bd, cpi := make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
	st[0], bd[0], cpi[0] = 1, 1, 1
	for i, r := range u.Rows {
		infl := 0.0
		if r.Inflation != nil {
			infl = *r.Inflation
		}
		st[i+1], bd[i+1], cpi[i+1] = st[i]*(1+r.Stocks), bd[i]*(1+r.Bonds), cpi[i]*(1+infl)
	}
	m := fi.MonthlyIndexes(first, *u.Rows[0].Month, st, bd, cpi, nil)
	// the index's last point is the end of the last month
	end := first*12 + *u.Rows[0].Month - 1 + n
	return &m, first, end / 12
}
