package store

import "fiplan/compute/category"

// Category codes are the byte stored before each asset's JSON (and the
// category column of the PostgreSQL store). They are part of the stored
// format: a code never changes meaning and a retired code is never reused.
// A code is the category's position in package category's list, which only
// grows at its end, so a new category has its code the moment it exists.
// The constants name the codes written since the first release.
const (
	CategoryEquity     uint8 = 0 // "equity"
	CategoryBond       uint8 = 1 // "bond"
	CategoryCash       uint8 = 2 // "cash"
	CategoryRealEstate uint8 = 3 // "real_estate"
	CategoryCrypto     uint8 = 4 // "crypto"
	CategoryCommodity  uint8 = 5 // "commodity"
	CategoryOther      uint8 = 6 // "other"
)

// CategoryName is the wire name of code; false for an unknown code.
func CategoryName(code uint8) (string, bool) { return category.Name(code) }

// CategoryCode is the code of the category named name; false when unknown.
func CategoryCode(name string) (uint8, bool) { return category.Code(name) }
