package embed

import _ "embed"

// Cities is the world-city cost-of-living dataset (cities.json): a meta
// object (asOf, method, sources, currencyNote), the per-country inputs and
// the cities. Typed access lives in fiplan/data/geo; the file is generated
// by data/geo/gencities.go.
//
//go:embed cities.json
var Cities []byte
