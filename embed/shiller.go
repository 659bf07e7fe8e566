package embed

import _ "embed"

// Shiller is Robert Shiller's monthly United States series (shiller.csv):
// S&P Composite price and dividends, consumer prices, the long interest rate
// and CAPE, January 1871 - June 2023. The file's header comment records the
// source, the copy it was taken from and the as-of date; data/history parses
// it.
//
//go:embed shiller.csv
var Shiller []byte
