//go:build race

package sim_test

// raceEnabled: the race detector is on, and every frame larger.
const raceEnabled = true
