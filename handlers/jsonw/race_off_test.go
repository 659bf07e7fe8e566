//go:build !race

package jsonw

const raceEnabled = false
