package embed

import _ "embed"

// History is the annual United States return and inflation series
// (history.csv): S&P 500 total return, 10-year Treasury bond total return and
// December-to-December CPI-U inflation, 1928-2024. The file's header comment
// records the publishers, tables, span and as-of date; data/history parses it.
//
//go:embed history.csv
var History []byte
