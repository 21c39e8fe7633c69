package algo_test

import (
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/algo/algotest"
	"electsim/sim"
)

// The invitation algorithm passes the whole conformance check: Clone and AppendState, both
// engines alike, every fault class survived, its declared guarantees held, its election of
// the highest id (algotest.Algorithm).
func TestInvitationConforms(t *testing.T) {
	info, err := algo.Lookup("invitation")
	if err != nil {
		t.Fatal(err)
	}
	algotest.Algorithm(t, info, 10)
}

// partitionRun runs info among five nodes, 10ms a message, cut 1 2 3 | 4 5 from 500ms to
// 1500ms, to 3s, and returns its summary.
func partitionRun(t *testing.T, info *algo.Info) sim.Summary {
	t.Helper()
	cfg := sim.DefaultConfig(info, 5)
	cfg.Network.Delay.Min, cfg.Network.Delay.Max = 10*time.Millisecond, 10*time.Millisecond
	cfg.RunFor, cfg.Engine = 3000*time.Millisecond, sim.Inline
	cfg.Actions = []sim.Action{
		{At: 500 * time.Millisecond, Op: sim.Partition, Groups: [][]algo.ID{{1, 2, 3}, {4, 5}}},
		{At: 1500 * time.Millisecond, Op: sim.Heal},
	}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s.Run()
}

// Under a partition the invitation algorithm has two groups, each with one coordinator, and one
// after the heal; at-most-one-leader is not judged, its own properties hold. Its broken
// variants are caught: a member that makes itself coordinator of its old group breaks
// one-coordinator-per-group; coordinators that never merge break eventual-merge.
func TestInvitationMonitorsCatchBrokenVariants(t *testing.T) {
	info, _ := algo.Lookup("invitation")
	sum := partitionRun(t, info)
	if len(sum.Groups) != 3 {
		t.Fatalf("groups noted %d times, want before the partition, before the heal and at the end", len(sum.Groups))
	}
	before, end := sum.Groups[1], sum.Groups[2]
	if len(before.Groups) != 2 || before.Groups[0].Coordinator != 3 || !slices.Equal(before.Groups[0].Members, []algo.ID{1, 2, 3}) ||
		before.Groups[1].Coordinator != 5 || !slices.Equal(before.Groups[1].Members, []algo.ID{4, 5}) {
		t.Errorf("before the heal: %+v, want {1 2 3} led by 3 and {4 5} led by 5", before)
	}
	if len(end.Groups) != 1 || end.Groups[0].Coordinator != 5 || len(end.Groups[0].Members) != 5 || !end.Groups[0].Led {
		t.Errorf("at the end: %+v, want one group of five led by 5", end)
	}
	if len(sum.Violations) != 0 {
		t.Errorf("violations %v, want none", sum.Violations)
	}
	if p, _ := sum.Property(sim.AtMostOneLeader); p.Applies {
		t.Errorf("at-most-one-leader is judged: %+v", p)
	}

	for bug, property := range map[string]string{"stale-recovery": algo.OneCoordinatorPerGroup, "never-merge": algo.EventualMerge} {
		sum := partitionRun(t, algo.BrokenInvitation(bug))
		if p, _ := sum.Property(property); p.Holds {
			t.Errorf("%s: %s holds, want it broken; violations %v", bug, property, sum.Violations)
		}
	}
}
