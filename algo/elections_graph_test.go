package algo_test

import (
	"testing"

	"electsim/algo"
	"electsim/algo/algotest"
)

// FloodMax and echo pass the whole conformance check on every topology they declare
// (algotest.Algorithm).
func TestGraphElectionsConform(t *testing.T) {
	for _, name := range []string{"floodmax", "echo"} {
		info, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { algotest.Algorithm(t, info, 10) })
	}
}
