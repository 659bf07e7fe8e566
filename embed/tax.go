package embed

import stdembed "embed"

// Tax holds one parameter file per country under tax/countries/<cc>.json
// (lower-case ISO 3166-1 alpha-2), decoded by compute/tax.Parse, and the
// country's wrappers and statutory benefits under tax/wrappers/<cc>.json,
// decoded by compute/household.ParseRules.
//
//go:embed tax/countries/*.json tax/wrappers/*.json
var Tax stdembed.FS
