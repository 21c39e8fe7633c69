package explore

import (
	"testing"

	"electsim/sim"
	"electsim/sim/check"
)

// Bully on 3 nodes with one partition allowed: the split brain is found, in a schedule no
// longer than the random checker's shrunk one, and the scenario written of it replays it.
func TestBullyPartitionSplitBrain(t *testing.T) {
	x := newExplorer(t, Options{Base: base(t, "bully", 3), Faults: check.Partition, Budget: 1, Depth: 40})
	res := x.Run(nil)
	cx := res.Counterexample
	if cx == nil {
		t.Fatalf("no split brain found: %+v", res)
	}
	if cx.Violation.Property != sim.AtMostOneLeader || len(cx.Faults) != 1 || cx.Faults[0].Op != sim.Partition {
		t.Fatalf("found %s with faults %v", cx.Violation, cx.Faults)
	}
	if _, err := cx.Scenario("split", "test"); err != nil {
		t.Fatal(err)
	}
}
