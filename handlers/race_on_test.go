//go:build race

package handlers

// raceEnabled: sync.Pool drops items at random under the race detector,
// so allocation counts of pooled paths mean nothing there.
const raceEnabled = true
