package embed

import _ "embed"

// Home is the home-country record (homehistory.json): yearly consumer-price
// inflation for every country the tax files cover and the euro area, and
// monthly exchange rates against the US dollar, each series with its
// source, licence and as-of date. data/history/genhome.go writes it from
// public copies of the publishers' data; data/history decodes and checks it.
//
//go:embed homehistory.json
var Home []byte
