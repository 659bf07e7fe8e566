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

	"fiplan/compute/fi"
	"fiplan/embed"
)

// Monthly is the typed view of a monthly market series (embed.Shiller): one
// element per calendar month from FirstYear-FirstMonth, in gap-free order.
// The slices are shared; callers must not modify them.
type Monthly struct {
	FirstYear  int
	FirstMonth int       // 1-12
	Price      []float64 // stock price index, monthly average of daily closes
	Dividend   []float64 // dividends per share of the index, annual rate
	CPI        []float64 // consumer price index
	LongRate   []float64 // long-term interest rate, percent a year
	CAPE       []float64 // cyclically adjusted P/E; 0 where the file leaves it empty
}

// Len is the number of months in the series.
func (m Monthly) Len() int { return len(m.Price) }

// Last is the calendar year and month of the last element (0, 0 when empty).
func (m Monthly) Last() (year, month int) {
	if m.Len() == 0 {
		return 0, 0
	}
	k := m.FirstYear*12 + m.FirstMonth - 1 + m.Len() - 1
	return k / 12, k%12 + 1
}

// Returns is the series as the calculator's cumulative indexes (fi.NewMonthly
// documents the stock and bond return method).
func (m Monthly) Returns() fi.Monthly {
	return fi.NewMonthly(m.FirstYear, m.FirstMonth, m.Price, m.Dividend, m.CPI, m.LongRate, m.CAPE)
}

var (
	loadShiller  = sync.OnceValues(func() (Monthly, error) { return ParseMonthly(embed.Shiller) })
	shillerIndex = sync.OnceValues(func() (*fi.Monthly, error) {
		m, err := Shiller()
		if err != nil {
			return nil, err
		}
		r := m.Returns()
		return &r, nil
	})
)

// Shiller returns Robert Shiller's embedded monthly US series, January 1871
// - June 2023, parsed on the first call and shared afterwards. An error
// means the embedded file is corrupt (a build problem).
func Shiller() (Monthly, error) { return loadShiller() }

// ShillerReturns returns Shiller's series as the calculator's indexes, built
// on the first call and shared afterwards (read-only).
func ShillerReturns() (*fi.Monthly, error) { return shillerIndex() }

// ParseMonthly reads the monthly CSV format: lines starting with '#' and
// blank lines are ignored, the first other line is the header
// "month,price,dividend,cpi,longrate,cape" and every following line is one
// month "YYYY-MM,..." following the one before. Price and CPI must be
// positive, dividend and the rate at least 0, CAPE empty or positive; all
// finite.
func ParseMonthly(b []byte) (Monthly, error) {
	var m Monthly
	sc := bufio.NewScanner(bytes.NewReader(b))
	row, prev := 0, 0
	header := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !header {
			if line != "month,price,dividend,cpi,longrate,cape" {
				return Monthly{}, fmt.Errorf("cannot parse monthly history header: got %q", line)
			}
			header = true
			continue
		}
		row++
		k, err := m.add(line, prev)
		if err != nil {
			return Monthly{}, fmt.Errorf("cannot parse monthly history row %d: %w", row, err)
		}
		if row == 1 {
			m.FirstYear, m.FirstMonth = k/12, k%12+1
		}
		prev = k
	}
	if err := sc.Err(); err != nil {
		return Monthly{}, fmt.Errorf("cannot parse monthly history row %d: %w", row+1, err)
	}
	if !header || row == 0 {
		return Monthly{}, errors.New("cannot parse monthly history: no data rows")
	}
	return m, nil
}

// add appends one row and returns its month number (year*12 + month-1);
// prev is the previous row's (0 before the first).
func (m *Monthly) add(line string, prev int) (int, error) {
	f := strings.Split(line, ",")
	if len(f) != 6 {
		return 0, fmt.Errorf("want 6 fields, got %d", len(f))
	}
	ym := strings.TrimSpace(f[0])
	y, err1 := strconv.Atoi(ym[:min(4, len(ym))])
	mo, err2 := strconv.Atoi(ym[min(5, len(ym)):])
	if len(ym) != 7 || ym[4] != '-' || err1 != nil || err2 != nil || mo < 1 || mo > 12 {
		return 0, fmt.Errorf("month %q: want YYYY-MM", ym)
	}
	k := y*12 + mo - 1
	if prev != 0 && k != prev+1 {
		return 0, fmt.Errorf("month %s does not follow %04d-%02d", ym, prev/12, prev%12+1)
	}
	var v [5]float64
	for i := range v {
		s := strings.TrimSpace(f[i+1])
		if i == 4 && s == "" {
			continue // CAPE unknown
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("column %d: %w", i+2, err)
		}
		positive := i == 0 || i == 2 || i == 4
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || (positive && x == 0) {
			return 0, fmt.Errorf("column %d: value %v out of range", i+2, x)
		}
		v[i] = x
	}
	m.Price = append(m.Price, v[0])
	m.Dividend = append(m.Dividend, v[1])
	m.CPI = append(m.CPI, v[2])
	m.LongRate = append(m.LongRate, v[3])
	m.CAPE = append(m.CAPE, v[4])
	return k, nil
}
