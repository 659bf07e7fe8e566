package jsonw

import "unsafe"

// unsafeString views b as a string without copying. The caller must not
// keep the string past the lifetime of b or modify b while it is in use.
func unsafeString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
