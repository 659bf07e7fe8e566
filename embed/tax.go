package embed

import stdembed "embed"

// Tax holds one parameter file per country under tax/countries/<cc>.json
// (lower-case ISO 3166-1 alpha-2), decoded by compute/tax.Parse.
//
//go:embed tax/countries/*.json
var Tax stdembed.FS
