package store

// Category codes are the byte stored before each asset's JSON (and the
// category column of the PostgreSQL store). They are part of the stored
// format: a code never changes meaning and a retired code is never reused;
// a new category takes the next free code. The values are those written
// since the first release, when the byte was the position of the class in
// the portfolio-health class list.
const (
	CategoryEquity     uint8 = 0 // "equity"
	CategoryBond       uint8 = 1 // "bond"
	CategoryCash       uint8 = 2 // "cash"
	CategoryRealEstate uint8 = 3 // "real_estate"
	CategoryCrypto     uint8 = 4 // "crypto"
	CategoryCommodity  uint8 = 5 // "commodity"
	CategoryOther      uint8 = 6 // "other"
)

// categoryNames maps each code to the category's wire name.
var categoryNames = [...]string{
	CategoryEquity:     "equity",
	CategoryBond:       "bond",
	CategoryCash:       "cash",
	CategoryRealEstate: "real_estate",
	CategoryCrypto:     "crypto",
	CategoryCommodity:  "commodity",
	CategoryOther:      "other",
}

// CategoryName is the wire name of code; false for an unknown code.
func CategoryName(code uint8) (string, bool) {
	if int(code) >= len(categoryNames) {
		return "", false
	}
	return categoryNames[code], true
}

// CategoryCode is the code of the category named name; false when unknown.
func CategoryCode(name string) (uint8, bool) {
	for c, n := range categoryNames {
		if n == name {
			return uint8(c), true
		}
	}
	return 0, false
}
