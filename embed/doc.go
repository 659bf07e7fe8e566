// Package embed holds the raw files compiled into the fiplan binary: the
// city and tax tables, the historical return series and web assets. Each
// dataset is one file that records its own sources and as-of date; the
// typed views over them live in data/.
package embed
