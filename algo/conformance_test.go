package algo_test

import (
	"testing"

	"electsim/algo"
	"electsim/algo/algotest"
)

// Every algorithm's nodes copy deeply and faithfully, and fingerprint canonically, relative to
// now (algotest.Check says what that means) — with the default parameters and with each switch
// that changes what a node keeps.
func TestConformance(t *testing.T) {
	variants := map[string][]algo.Params{
		"ring":      {{"ack": {On: false}}},
		"raft":      {{"check-quorum": {On: true}}},
		"lease":     {{"fencing": {On: false}}},
		"zookeeper": {{"watch": {Choice: algo.WatchLeader}}, {"fencing": {On: false}}},
		"paxos":     {{"backoff": {On: false}}, {"slots": {Count: 2}}},
		"k8s-lease": {{"fencing": {On: true}}},
	}
	for _, info := range algo.Algorithms() {
		t.Run(info.Name, func(t *testing.T) {
			algotest.Conformance(t, info, nil)
			for _, p := range variants[info.Name] {
				t.Run(p.Keys()[0], func(t *testing.T) { algotest.Conformance(t, info, p) })
			}
		})
	}
}
