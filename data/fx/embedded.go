package fx

import (
	"sync"

	"fiplan/embed"
)

var embedded = sync.OnceValues(func() (*Table, error) { return Load(embed.FX) })

// Embedded returns the table compiled into the binary, decoded once.
func Embedded() (*Table, error) { return embedded() }
