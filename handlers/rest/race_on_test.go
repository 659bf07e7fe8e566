//go:build race

package rest

// raceEnabled: under the race detector sync.Pool drops pooled values at
// random, so allocation pins of pooled encoders hold only in the plain build.
const raceEnabled = true
