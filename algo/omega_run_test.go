package algo_test

import (
	"testing"

	"electsim/algo"
	"electsim/algo/algotest"
)

// Ω keeps what it declares: copies and encodings, both engines alike, every fault class
// survived, its rows of the matrix — eventual-leader under every fault —, and the lowest id
// trusted by every process when nothing fails (algotest.Algorithm).
func TestOmegaConforms(t *testing.T) {
	info, err := algo.Lookup("omega")
	if err != nil {
		t.Fatal(err)
	}
	algotest.Algorithm(t, info, 10)
}
