package store

import (
	"slices"
	"testing"

	"fiplan/compute/category"
	"fiplan/compute/health"
)

// TestCategoryCodesPinned fails when a stored category code changes
// meaning: files written earlier would then read back with the wrong
// category. Add a new category with a new code and a new row here; never
// edit a row.
func TestCategoryCodesPinned(t *testing.T) {
	pinned := []struct {
		code uint8
		name string
	}{
		{CategoryEquity, "equity"}, {0, "equity"},
		{CategoryBond, "bond"}, {1, "bond"},
		{CategoryCash, "cash"}, {2, "cash"},
		{CategoryRealEstate, "real_estate"}, {3, "real_estate"},
		{CategoryCrypto, "crypto"}, {4, "crypto"},
		{CategoryCommodity, "commodity"}, {5, "commodity"},
		{CategoryOther, "other"}, {6, "other"},
	}
	for _, p := range pinned {
		if n, ok := CategoryName(p.code); !ok || n != p.name {
			t.Errorf("CategoryName(%d) = %q, %v; want %q", p.code, n, ok, p.name)
		}
		if c, ok := CategoryCode(p.name); !ok || c != p.code {
			t.Errorf("CategoryCode(%q) = %d, %v; want %d", p.name, c, ok, p.code)
		}
	}
	if category.Count != 7 {
		t.Errorf("%d category codes, the pinned table has 7: pin the new one", category.Count)
	}
	if _, ok := CategoryName(7); ok {
		t.Error("code 7 is not assigned yet")
	}
	if _, ok := CategoryCode("stocks"); ok {
		t.Error(`CategoryCode("stocks") is not a category`)
	}
}

// TestCategoryCodesMatchClasses: the API accepts the portfolio-health class
// names as categories, and today's handlers store a class's position in
// that list; each must be a code of the same name.
func TestCategoryCodesMatchClasses(t *testing.T) {
	for i, name := range health.AssetClasses() {
		c, ok := CategoryCode(name)
		if !ok {
			t.Errorf("class %q has no category code", name)
			continue
		}
		if int(c) != i {
			t.Errorf("class %q is at position %d of health.AssetClasses(), its stored code is %d", name, i, c)
		}
	}
	for _, n := range category.Names() {
		if !slices.Contains(health.AssetClasses(), n) {
			t.Errorf("category %q is not a health asset class", n)
		}
	}
}

// TestEveryCategoryHasACode: a category added to the one list is stored
// under its own code and reads back as itself, never as a code the store
// does not know (a byte of 255 from a failed lookup).
func TestEveryCategoryHasACode(t *testing.T) {
	seen := map[uint8]bool{}
	for i, name := range category.Names() {
		c, ok := CategoryCode(name)
		if !ok || int(c) != i || seen[c] {
			t.Errorf("category %q: code %d, %v (position %d)", name, c, ok, i)
		}
		seen[c] = true
		if back, ok := CategoryName(c); !ok || back != name {
			t.Errorf("code %d reads back as %q, %v; want %q", c, back, ok, name)
		}
	}
}
