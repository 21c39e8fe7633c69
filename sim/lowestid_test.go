package sim_test

import (
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

func lowestConfig(t tb, n int, e sim.Engine) sim.Config {
	cfg := fixed(t, "lowest-id", n, 10*ms, e)
	cfg.RunFor = 3 * time.Second
	return cfg
}

// agreedAt returns when every live node first agreed on leader, after from, replaying the
// trace: -1 if never.
func agreedAt(recs []sim.Record, n int, leader algo.ID, from time.Duration) time.Duration {
	state := map[algo.ID]sim.Record{}
	for _, r := range recs {
		if r.Type != sim.RecState {
			continue
		}
		state[r.Node] = r
		if r.At < from {
			continue
		}
		ok := true
		for id := algo.ID(1); id <= algo.ID(n); id++ {
			s, seen := state[id]
			if !seen || s.New == sim.Crashed {
				continue
			}
			if s.Leader != leader {
				ok = false
			}
		}
		if ok && state[leader].New == sim.Leader {
			return r.At
		}
	}
	return -1
}

// docs/algorithms.md, Lowest-ID: for `timeout` after boot every node listens; then the lowest id
// leads.
func TestLowestIDBoot(t *testing.T) {
	for _, e := range engines {
		recs, sum := runTrace(t, lowestConfig(t, 5, e))
		if sum.Leader != 1 || sum.FirstLeader != 150*ms {
			t.Errorf("%s: leader %d first agreed at %v, want 1 at 150ms (the timeout)", e, sum.Leader, sum.FirstLeader)
		}
		for _, r := range recs {
			if r.Type == sim.RecState && r.New == sim.Leader && r.At < 150*ms {
				t.Errorf("%s: node %d led at %v, while still listening", e, r.Node, r.At)
			}
		}
		if s, _, _ := sum.Count("HEARTBEAT"); s == 0 || len(sum.Kinds) != 1 {
			t.Errorf("%s: kinds %v: lowest-id sends nothing but HEARTBEAT", e, sum.Kinds)
		}
	}
}

// A leader crash: the next lowest leads within timeout + heartbeat + max delay. The lowest
// recovers: it leads again, and at no instant are there two leaders.
func TestLowestIDCrashAndRecovery(t *testing.T) {
	for _, e := range engines {
		cfg := lowestConfig(t, 5, e)
		cfg.Actions = []sim.Action{at(500*ms, sim.Crash, 1), at(1500*ms, sim.Recover, 1)}
		recs, sum := runTrace(t, cfg)
		bound := 500*ms + 150*ms + 50*ms + 10*ms
		if got := agreedAt(recs, 5, 2, 500*ms); got < 0 || got > bound {
			t.Errorf("%s: 2 agreed at %v after 1 crashed at 500ms, want by %v", e, got, bound)
		}
		if got := agreedAt(recs, 5, 1, 1500*ms); got < 0 {
			t.Errorf("%s: 1 never led again after recovering", e)
		}
		if sum.Leader != 1 {
			t.Errorf("%s: final leader %d, want 1", e, sum.Leader)
		}
		if p, _ := sum.Property(sim.AtMostOneLeader); !p.Holds {
			t.Errorf("%s: two leaders at once: %v", e, sum.Violations)
		}
	}
}

// A partition: each side's lowest leads — two leaders, caught; a heal leaves one.
func TestLowestIDPartition(t *testing.T) {
	for _, e := range engines {
		cfg := lowestConfig(t, 5, e)
		cfg.Actions = []sim.Action{
			{At: 500 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1, 2}, {3, 4, 5}}},
			{At: 1500 * ms, Op: sim.Heal},
		}
		recs, sum := runTrace(t, cfg)
		b := beliefsAt(recs, 1400*ms)
		if b[2].Leader != 1 || b[3].New != sim.Leader || b[5].Leader != 3 {
			t.Errorf("%s: in the partition 2 follows %d, 3 is %s, 5 follows %d; want 1, leader, 3", e, b[2].Leader, b[3].New, b[5].Leader)
		}
		var split *sim.Violation
		for i, v := range sum.Violations {
			if v.Property == sim.AtMostOneLeader {
				split = &sum.Violations[i]
			}
		}
		if split == nil || !slices.Equal(split.Nodes, []algo.ID{1, 3}) || split.To < 1500*ms || split.To > 1600*ms {
			t.Errorf("%s: split brain %v, want nodes 1 and 3 until just after the heal", e, split)
		}
		if sum.Leader != 1 {
			t.Errorf("%s: after the heal, leader %d, want 1", e, sum.Leader)
		}
	}
}
