package embed

import _ "embed"

// Programs is the special tax programs dataset (expat, retiree and
// new-resident regimes): a top-level "meta" object with its as-of date and
// method, and the "programs" list. data/program decodes and validates it.
//
//go:embed tax/programs.json
var Programs []byte
