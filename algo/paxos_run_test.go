package algo_test

import (
	"testing"

	"electsim/algo"
	"electsim/algo/algotest"
)

// Paxos keeps what it declares: copies and encodings, both engines alike, every fault class
// survived, its rows of the matrix, a leader every node names (algotest.Algorithm).
func TestPaxosConforms(t *testing.T) {
	info, err := algo.Lookup("paxos")
	if err != nil {
		t.Fatal(err)
	}
	algotest.Algorithm(t, info, 10)
}
