package example_test

import (
	"testing"

	"electsim/algo/algotest"
	"electsim/algo/algotest/example"
)

// The example of docs/writing-an-algorithm.md passes the conformance check it describes.
func TestLeLannConforms(t *testing.T) {
	algotest.Algorithm(t, example.Info(), 10)
}
