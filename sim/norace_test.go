//go:build !race

package sim_test

// raceEnabled: the race detector is off.
const raceEnabled = false
