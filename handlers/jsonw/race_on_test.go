//go:build race

package jsonw

// raceEnabled: the instrumented build runs the writers about ten times
// slower, so the differential tests draw fewer random values there; the
// plain build draws them all.
const raceEnabled = true
