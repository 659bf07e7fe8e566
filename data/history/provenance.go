package history

import (
	"bytes"
	"strings"

	"fiplan/embed"
)

// Provenance is the header comment of the embedded annual series: its
// columns, publishers, tables and as-of date, as the file states them.
func Provenance() string {
	var b strings.Builder
	for line := range bytes.Lines(embed.History) {
		rest, ok := bytes.CutPrefix(line, []byte("#"))
		if !ok {
			break
		}
		b.Write(bytes.TrimPrefix(rest, []byte(" ")))
	}
	return b.String()
}
