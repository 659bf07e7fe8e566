package handlers

import (
	"strconv"
	"unsafe"
)

// b2s views b as a string without copying, for calls that only read the
// string while b is alive (map lookups, parsing, logging).
func b2s(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func itoa(i int) string { return strconv.Itoa(i) }
