// Package bytesconv converts between byte slices and strings without
// copying, for the hot paths that only read a request's bytes while the
// request is being served (map lookups, parsing, comparisons).
package bytesconv

import "unsafe"

// String views b as a string without copying. The caller must neither keep
// the string past the lifetime of b nor modify b while the string is in use.
func String(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Bytes views s as a byte slice without copying. The caller must never
// modify the slice.
func Bytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
