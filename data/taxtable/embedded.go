package taxtable

import (
	"sync"

	"fiplan/embed"
)

var embedded = sync.OnceValues(func() (*Table, error) { return Load(embed.Tax) })

// Embedded is the table of the country files compiled into the binary,
// decoded once.
func Embedded() (*Table, error) { return embedded() }
