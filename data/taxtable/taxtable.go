// Package taxtable loads the country tax parameter files once and serves
// them by country code.
package taxtable

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"fiplan/compute/household"
	"fiplan/compute/tax"
)

// Dir is where the country files live inside the embedded file system.
const Dir = "tax/countries"

// WrapperDir is where the countries' wrapper files live (one per country
// that has one, named like its tax file).
const WrapperDir = "tax/wrappers"

// Table is every loaded country system. It is read-only after Load and safe
// for concurrent use.
type Table struct {
	byCC     map[string]*tax.System
	wrappers map[string]*household.Rules
	order    []*tax.System
	codes    []string
}

// Load decodes every <cc>.json under Dir in fsys (for example embed.Tax).
// A file whose name does not match its country code is an error.
func Load(fsys fs.FS) (*Table, error) {
	names, err := fs.Glob(fsys, Dir+"/*.json")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("taxtable: no country files under %s", Dir)
	}
	t := &Table{byCC: make(map[string]*tax.System, len(names))}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		s, err := tax.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("taxtable: %s: %w", name, err)
		}
		cc := strings.TrimSuffix(path.Base(name), ".json")
		if strings.ToUpper(cc) != s.Country {
			return nil, fmt.Errorf("taxtable: %s holds country %s", name, s.Country)
		}
		if _, dup := t.byCC[s.Country]; dup {
			return nil, fmt.Errorf("taxtable: country %s twice", s.Country)
		}
		t.byCC[s.Country] = s
		t.order = append(t.order, s)
	}
	if err := t.loadWrappers(fsys); err != nil {
		return nil, err
	}
	sort.Slice(t.order, func(i, j int) bool { return t.order[i].Country < t.order[j].Country })
	for _, s := range t.order {
		t.codes = append(t.codes, s.Country)
	}
	return t, nil
}

// ByCountry returns the system for an ISO alpha-2 code (any case).
func (t *Table) ByCountry(cc string) (*tax.System, bool) {
	if len(cc) != 2 {
		return nil, false
	}
	var b [2]byte
	for i := 0; i < 2; i++ {
		c := cc[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		b[i] = c
	}
	s, ok := t.byCC[string(b[:])]
	return s, ok
}

// Countries lists every system, sorted by country code.
func (t *Table) Countries() []*tax.System { return t.order }

// Codes lists the country codes, sorted.
func (t *Table) Codes() []string { return t.codes }

// loadWrappers decodes every <cc>.json under WrapperDir; each must name a
// country with a tax file.
func (t *Table) loadWrappers(fsys fs.FS) error {
	names, err := fs.Glob(fsys, WrapperDir+"/*.json")
	if err != nil {
		return err
	}
	t.wrappers = make(map[string]*household.Rules, len(names))
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		r, err := household.ParseRules(b)
		if err != nil {
			return fmt.Errorf("taxtable: %s: %w", name, err)
		}
		cc := strings.TrimSuffix(path.Base(name), ".json")
		if strings.ToUpper(cc) != r.Country {
			return fmt.Errorf("taxtable: %s holds country %s", name, r.Country)
		}
		if _, ok := t.byCC[r.Country]; !ok {
			return fmt.Errorf("taxtable: %s: no tax file for %s", name, r.Country)
		}
		t.wrappers[r.Country] = r
	}
	return nil
}

// Wrappers returns a country's wrappers and statutory benefits (upper-case
// code); nil when it has none on file.
func (t *Table) Wrappers(cc string) *household.Rules { return t.wrappers[cc] }

// System is country cc's tax system (upper case), nil when it has none on
// file: the form plan.Inputs reads.
func (t *Table) System(cc string) *tax.System {
	sys, _ := t.ByCountry(cc)
	return sys
}
