package check

import (
	"fmt"
	"testing"

	"electsim/algo"
	"electsim/sim"
)

// A partition left with every node in one group once a node is removed splits nothing — and a
// scenario refuses it, so the counterexample would not read back — so it goes with the node;
// one that still leaves a node out stays.
func TestWithoutDropsAPartitionOfOneGroup(t *testing.T) {
	p := plan{ids: []algo.ID{1, 2, 3, 4}, faults: []sim.Action{
		{Op: sim.Partition, Groups: [][]algo.ID{{1, 2, 3}}}, // 4 alone on the other side
		{Op: sim.Partition, Groups: [][]algo.ID{{1, 2}}},    // 3 and 4 on the other
	}}
	q, ok := p.without(4)
	if !ok || fmt.Sprint(q.faults) != fmt.Sprint([]sim.Action{{Op: sim.Partition, Groups: [][]algo.ID{{1, 2}}}}) {
		t.Errorf("without 4: %v", q.faults)
	}
}
