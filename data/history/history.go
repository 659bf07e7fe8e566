// Package history is the typed view of the embedded return histories, each
// parsed once, on first use:
//
//   - US (embed.History): one row per calendar year, 1928-2024, with the S&P
//     500 total return, the 10-year US Treasury bond total return and
//     December-to-December CPI-U inflation, all as decimal fractions. The
//     Series type has the same fields as fi.Series, so a value converts
//     directly: fi.Series(s).
//   - Shiller (embed.Shiller): Robert Shiller's monthly US series, January
//     1871 - June 2023: S&P Composite price and dividends, CPI, the long
//     interest rate and CAPE as published. ShillerReturns turns it into the
//     calculator's monthly total-return indexes (fi.NewMonthly states how).
package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"fiplan/embed"
)

// Series holds parallel slices, one element per calendar year, in ascending
// and gap-free year order. The slices are shared; callers must not modify them.
type Series struct {
	Years     []int
	Stocks    []float64
	Bonds     []float64
	Inflation []float64
}

// Len is the number of years in the series.
func (s Series) Len() int { return len(s.Years) }

// First and Last are the first and last calendar years (0 when empty).
func (s Series) First() int {
	if len(s.Years) == 0 {
		return 0
	}
	return s.Years[0]
}

// Last is the last calendar year of the series (0 when empty).
func (s Series) Last() int {
	if len(s.Years) == 0 {
		return 0
	}
	return s.Years[len(s.Years)-1]
}

var load = sync.OnceValues(func() (Series, error) { return Parse(embed.History) })

// Embedded returns the embedded United States series, parsed on the first call and
// shared afterwards. An error means the embedded file is corrupt (a build
// problem); the same error is returned on every call.
func Embedded() (Series, error) { return load() }

// Parse reads the history CSV format: lines starting with '#' and blank lines
// are ignored, the first other line is the header "year,stocks,bonds,inflation"
// and every following line is one year. Years must be consecutive; returns must
// be greater than -1 (a total loss) and finite.
func Parse(b []byte) (Series, error) {
	var s Series
	sc := bufio.NewScanner(bytes.NewReader(b))
	row := 0
	header := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !header {
			if line != "year,stocks,bonds,inflation" {
				return Series{}, fmt.Errorf("cannot parse history header: got %q", line)
			}
			header = true
			continue
		}
		row++
		if err := s.add(line); err != nil {
			return Series{}, fmt.Errorf("cannot parse history row %d: %w", row, err)
		}
	}
	if err := sc.Err(); err != nil {
		return Series{}, fmt.Errorf("cannot parse history row %d: %w", row+1, err)
	}
	if !header || row == 0 {
		return Series{}, errors.New("cannot parse history: no data rows")
	}
	return s, nil
}

func (s *Series) add(line string) error {
	f := strings.Split(line, ",")
	if len(f) != 4 {
		return fmt.Errorf("want 4 fields, got %d", len(f))
	}
	year, err := strconv.Atoi(strings.TrimSpace(f[0]))
	if err != nil {
		return fmt.Errorf("year: %w", err)
	}
	if n := len(s.Years); n > 0 && year != s.Years[n-1]+1 {
		return fmt.Errorf("year %d does not follow %d", year, s.Years[n-1])
	}
	var v [3]float64
	for i := range v {
		x, err := strconv.ParseFloat(strings.TrimSpace(f[i+1]), 64)
		if err != nil {
			return fmt.Errorf("column %d: %w", i+2, err)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) || x <= -1 {
			return fmt.Errorf("column %d: value %v out of range", i+2, x)
		}
		v[i] = x
	}
	s.Years = append(s.Years, year)
	s.Stocks = append(s.Stocks, v[0])
	s.Bonds = append(s.Bonds, v[1])
	s.Inflation = append(s.Inflation, v[2])
	return nil
}
