// Package fx is the typed view over the reference exchange-rate table
// (embed/fx.json): one rate per currency, in units of the currency per US
// dollar, all for one as-of date.
//
// The rates are reference figures from the authority that sets or publishes
// them: the ECB euro foreign exchange reference rates crossed through the US
// dollar, legal pegs (AED, SAR, BGN, ...) and, for the other currencies, the
// official rate of the national central bank. Each entry keeps the figure as
// published (Quote), its date and its source; Load recomputes the per-dollar
// rate from the quote and rejects a table where the two disagree. Currencies
// without an authoritative figure are left out and listed in Meta.NotCovered.
//
// Load decodes and validates the raw bytes; the resulting Table is read-only
// and safe for concurrent use. Lookups (Has, PerUSD, Convert) index a fixed
// array by the three letters of the code and do not allocate.
package fx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// Base is the currency every rate is expressed against.
const Base = "USD"

// quoteTolerance is the largest relative gap allowed between a stored
// per-dollar rate and the one recomputed from its quote.
const quoteTolerance = 1e-9

// Quote is a rate as its authority publishes it: Value units of Of per one
// unit of Per (172.22 JPY per EUR, 3.6725 AED per USD, 2.6008 USD per OMR).
// Of or Per is the entry's own currency; the other is USD or a currency of
// the table.
type Quote struct {
	Value float64 `json:"value"`
	Of    string  `json:"of"`
	Per   string  `json:"per"`
}

// Source is where a rate comes from: the authority that sets or publishes it
// and its page. Via, when set, is the page the figure was read from when the
// authority's own publication could not be consulted (a stored copy or a
// press report that cites it).
type Source struct {
	Publisher string `json:"publisher"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Via       string `json:"via,omitempty"`
}

// Currency is one entry of the table.
type Currency struct {
	// Code is the ISO 4217 code.
	Code string `json:"code"`
	Name string `json:"name"`
	// PerUSD is the number of units of the currency per US dollar.
	PerUSD float64 `json:"perUSD"`
	// Date (YYYY-MM-DD) is the day the rate applies to, on or before the
	// table's as-of date.
	Date string `json:"date"`
	// Basis says what kind of rate it is (ECB cross, legal peg, ...).
	Basis string `json:"basis"`
	// Quote is the published figure PerUSD derives from; nil only for USD.
	Quote  *Quote `json:"quote,omitempty"`
	Source Source `json:"source"`
	Note   string `json:"note,omitempty"`
}

// Gap is a currency the table leaves out, with the reason.
type Gap struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Meta describes the table as a whole.
type Meta struct {
	Dataset string `json:"dataset"`
	// AsOf (YYYY-MM-DD) is the date of the table; no entry is dated later.
	AsOf string `json:"asOf"`
	// Base is always "USD".
	Base string `json:"base"`
	// Method says how the rates were obtained and cross rates computed.
	Method     string   `json:"method"`
	Sources    []Source `json:"sources"`
	NotCovered []Gap    `json:"notCovered"`
}

// Table is the validated, read-only rate table.
type Table struct {
	meta       Meta
	currencies []Currency // sorted by code
	codes      []string   // sorted
	perUSD     [26 * 26 * 26]float64
}

type file struct {
	Meta       *Meta      `json:"meta"`
	Currencies []Currency `json:"currencies"`
}

// Load decodes and validates a rate table. It does no I/O. Unknown fields,
// trailing data and any invalid entry are errors.
func Load(b []byte) (*Table, error) {
	t, err := load(b)
	if err != nil {
		return nil, fmt.Errorf("cannot load fx table: %w", err)
	}
	return t, nil
}

func load(b []byte) (*Table, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the top-level object")
	}
	if f.Meta == nil {
		return nil, errors.New("missing meta")
	}
	if err := f.Meta.validate(); err != nil {
		return nil, fmt.Errorf("meta: %w", err)
	}
	if len(f.Currencies) == 0 {
		return nil, errors.New("no currencies")
	}
	t := &Table{meta: *f.Meta, currencies: f.Currencies}
	for i := range t.currencies {
		c := &t.currencies[i]
		if err := c.validate(t.meta.AsOf); err != nil {
			return nil, fmt.Errorf("currency %q: %w", c.Code, err)
		}
		k, _ := index(c.Code)
		if t.perUSD[k] != 0 {
			return nil, fmt.Errorf("currency %q: listed twice", c.Code)
		}
		t.perUSD[k] = c.PerUSD
	}
	if r, _ := t.PerUSD(Base); r != 1 {
		return nil, fmt.Errorf("currency %q: missing or not exactly 1", Base)
	}
	for i := range t.currencies {
		c := &t.currencies[i]
		if err := t.checkQuote(c); err != nil {
			return nil, fmt.Errorf("currency %q: %w", c.Code, err)
		}
	}
	seen := make(map[string]bool, len(t.meta.NotCovered))
	for _, g := range t.meta.NotCovered {
		switch {
		case seen[g.Code]:
			return nil, fmt.Errorf("meta: notCovered %q listed twice", g.Code)
		case t.Has(g.Code):
			return nil, fmt.Errorf("meta: notCovered %q is in the table", g.Code)
		}
		seen[g.Code] = true
	}
	slices.SortFunc(t.currencies, func(a, b Currency) int { return strings.Compare(a.Code, b.Code) })
	t.codes = make([]string, len(t.currencies))
	for i, c := range t.currencies {
		t.codes[i] = c.Code
	}
	return t, nil
}

// AsOf returns the table's as-of date (YYYY-MM-DD).
func (t *Table) AsOf() string { return t.meta.AsOf }

// Dataset is the table's name, as its meta block gives it.
func (t *Table) Dataset() string { return t.meta.Dataset }

// Meta returns the table's meta block. The slices are the caller's.
func (t *Table) Meta() Meta {
	m := t.meta
	m.Sources = slices.Clone(m.Sources)
	m.NotCovered = slices.Clone(m.NotCovered)
	return m
}

// Codes returns the codes of the table, sorted. The slice is the caller's.
func (t *Table) Codes() []string { return slices.Clone(t.codes) }

// Has reports whether the table has a rate for code (three upper-case
// letters).
func (t *Table) Has(code string) bool {
	_, ok := t.PerUSD(code)
	return ok
}

// PerUSD returns the units of code per US dollar.
func (t *Table) PerUSD(code string) (float64, bool) {
	k, ok := index(code)
	if !ok || t.perUSD[k] == 0 {
		return 0, false
	}
	return t.perUSD[k], true
}

// Convert converts amount from one currency to another through the US
// dollar. It reports false when either code is not in the table; codes are
// three upper-case letters.
func (t *Table) Convert(amount float64, from, to string) (float64, bool) {
	rf, ok := t.PerUSD(from)
	if !ok {
		return 0, false
	}
	rt, ok := t.PerUSD(to)
	if !ok {
		return 0, false
	}
	if from == to {
		return amount, true
	}
	return amount / rf * rt, true
}

// Currency returns the entry for code, with its quote and source.
func (t *Table) Currency(code string) (Currency, bool) {
	if !t.Has(code) {
		return Currency{}, false
	}
	i, _ := slices.BinarySearch(t.codes, code)
	c := t.currencies[i]
	if c.Quote != nil {
		q := *c.Quote
		c.Quote = &q
	}
	return c, true
}

// index maps a code of three upper-case ASCII letters to its slot.
func index(code string) (int, bool) {
	if len(code) != 3 {
		return 0, false
	}
	k := 0
	for i := 0; i < 3; i++ {
		c := code[i]
		if c < 'A' || c > 'Z' {
			return 0, false
		}
		k = k*26 + int(c-'A')
	}
	return k, true
}

func validCode(code string) bool {
	_, ok := index(code)
	return ok
}

func validDate(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func positiveFinite(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

func (m *Meta) validate() error {
	if strings.TrimSpace(m.Dataset) == "" {
		return errors.New("dataset is empty")
	}
	if !validDate(m.AsOf) {
		return fmt.Errorf("asOf %q is not a YYYY-MM-DD date", m.AsOf)
	}
	if m.Base != Base {
		return fmt.Errorf("base %q is not %q", m.Base, Base)
	}
	if strings.TrimSpace(m.Method) == "" {
		return errors.New("method is empty")
	}
	if len(m.Sources) == 0 {
		return errors.New("no sources")
	}
	for i, s := range m.Sources {
		if err := s.validate(); err != nil {
			return fmt.Errorf("sources[%d]: %w", i, err)
		}
	}
	for i, g := range m.NotCovered {
		if !validCode(g.Code) {
			return fmt.Errorf("notCovered[%d]: code %q is not an ISO 4217 code", i, g.Code)
		}
		if strings.TrimSpace(g.Reason) == "" {
			return fmt.Errorf("notCovered[%d] (%q): reason is empty", i, g.Code)
		}
	}
	return nil
}

func (s Source) validate() error {
	if strings.TrimSpace(s.Publisher) == "" || strings.TrimSpace(s.Title) == "" {
		return errors.New("publisher and title are required")
	}
	if !webURL(s.URL) {
		return fmt.Errorf("url %q is not an http(s) URL", s.URL)
	}
	if s.Via != "" && !webURL(s.Via) {
		return fmt.Errorf("via %q is not an http(s) URL", s.Via)
	}
	return nil
}

func webURL(s string) bool {
	return (strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")) &&
		!strings.ContainsAny(s, " \t\n")
}

func (c *Currency) validate(asOf string) error {
	if !validCode(c.Code) {
		return errors.New("code is not an ISO 4217 code (three upper-case letters)")
	}
	if strings.TrimSpace(c.Name) == "" {
		return errors.New("name is empty")
	}
	if !positiveFinite(c.PerUSD) {
		return fmt.Errorf("perUSD %v is not a positive finite number", c.PerUSD)
	}
	if !validDate(c.Date) {
		return fmt.Errorf("date %q is not a YYYY-MM-DD date", c.Date)
	}
	if c.Date > asOf {
		return fmt.Errorf("date %s is after the table's asOf %s", c.Date, asOf)
	}
	if strings.TrimSpace(c.Basis) == "" {
		return errors.New("basis is empty")
	}
	if err := c.Source.validate(); err != nil {
		return fmt.Errorf("source: %w", err)
	}
	if c.Code == Base {
		if c.Quote != nil {
			return errors.New("the base currency takes no quote")
		}
		return nil
	}
	if c.Quote == nil {
		return errors.New("no quote")
	}
	q := c.Quote
	if !positiveFinite(q.Value) {
		return fmt.Errorf("quote value %v is not a positive finite number", q.Value)
	}
	if !validCode(q.Of) || !validCode(q.Per) || q.Of == q.Per {
		return fmt.Errorf("quote %s per %s does not name two ISO 4217 codes", q.Of, q.Per)
	}
	if q.Of != c.Code && q.Per != c.Code {
		return fmt.Errorf("quote %s per %s does not involve %s", q.Of, q.Per, c.Code)
	}
	return nil
}

// checkQuote recomputes c.PerUSD from its quote, which relates c to USD or to
// another currency of the table, and compares.
func (t *Table) checkQuote(c *Currency) error {
	q := c.Quote
	if q == nil {
		return nil
	}
	other := q.Per
	if q.Per == c.Code {
		other = q.Of
	}
	otherPerUSD, ok := t.PerUSD(other)
	if !ok {
		return fmt.Errorf("quote refers to %s, which is not in the table", other)
	}
	var want float64
	if q.Of == c.Code {
		want = q.Value * otherPerUSD // c per other × other per USD
	} else {
		want = otherPerUSD / q.Value // other per USD ÷ other per c
	}
	if math.Abs(want-c.PerUSD) > quoteTolerance*c.PerUSD {
		return fmt.Errorf("perUSD %v does not match its quote (%v %s per %s gives %v)",
			c.PerUSD, q.Value, q.Of, q.Per, want)
	}
	return nil
}
