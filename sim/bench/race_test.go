//go:build race

package bench

// raceEnabled: the race detector is on, and every frame larger.
const raceEnabled = true
