package embed

import _ "embed"

// FX is the reference exchange-rate table (fx.json): a meta object (dataset,
// asOf, base "USD", method, sources, notCovered) and the currencies, each in
// units per US dollar with the published figure it was computed from, its
// date and its source. data/fx decodes and validates it.
//
//go:embed fx.json
var FX []byte
