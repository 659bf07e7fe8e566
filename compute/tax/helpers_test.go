package tax

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const countryDir = "../../embed/tax/countries"

func loadSystem(t testing.TB, cc string) *System {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(countryDir, strings.ToLower(cc)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func loadAll(t testing.TB) []*System {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(countryDir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no country files: %v", err)
	}
	sort.Strings(names)
	var out []*System
	for _, n := range names {
		out = append(out, loadSystem(t, strings.TrimSuffix(filepath.Base(n), ".json")))
	}
	return out
}

// source says where an example's expected figures come from.
type source uint8

const (
	// computed: our arithmetic on the authority's published schedule, rates
	// and thresholds (the comment shows it). It tests the data against the
	// law as we read it, not against the authority's own result.
	computed source = iota
	// table: a result the authority prints for a given amount: a row of its
	// tax table or statutory scale, a published maximum or threshold.
	table
	// official: the authority's own worked example or calculator output.
	official
)

// example is one worked example; its comment cites the publication.
type example struct {
	name   string
	src    source
	year   int
	region string
	in     Income
	// expected results; 0 means "not checked", zero means "expect 0"
	income, social, capital, regional, total float64
	// tolerance in currency units (0 = exact to the cent)
	tol float64
}

// zero marks an expected amount of exactly 0 (an unset field is not checked).
const zero = math.SmallestNonzeroFloat64

func runExamples(t *testing.T, cc string, ex []example) {
	t.Helper()
	s := loadSystem(t, cc)
	for _, e := range ex {
		t.Run(e.name, func(t *testing.T) {
			var r Result
			if err := Calculate(s, e.year, &e.in, e.region, &r); err != nil {
				t.Fatal(err)
			}
			tol := e.tol + 0.005
			check := func(what string, got, want float64) {
				if want == 0 {
					return
				}
				if want == zero {
					want = 0
				}
				if math.Abs(got-want) > tol {
					t.Errorf("%s: got %.2f, want %.2f", what, got, want)
				}
			}
			check("incomeTax", r.IncomeTax, e.income)
			check("socialContributions", r.SocialContributions, e.social)
			check("capitalTax", r.CapitalTax, e.capital)
			check("regionalTax", r.RegionalTax, e.regional)
			check("totalTax", r.TotalTax, e.total)
			if t.Failed() {
				for _, l := range r.Breakdown() {
					t.Logf("%-14s %-9s %-50s base %12.2f rate %.4f amount %12.2f", l.Rule, l.Kind, l.Label, l.Base, l.Rate, l.Amount)
				}
			}
		})
	}
}
