package sim_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
	"electsim/sim/bench"
)

func ringConfig(t tb, ring []algo.ID, e sim.Engine) sim.Config {
	cfg := sim.DefaultConfig(lookup(t, "ring"), len(ring))
	cfg.IDs = ring
	cfg.Engine = e
	cfg.Network.Delay = network.Delay{Min: 1 * ms, Max: 20 * ms}
	cfg.RunFor = 2 * time.Second
	return cfg
}

func seq(from, to, step int) []algo.ID {
	var ids []algo.ID
	for i := from; i != to+step; i += step {
		ids = append(ids, algo.ID(i))
	}
	return ids
}

// docs/algorithms.md, Ring's cost: all nodes alive and initiating at boot, any delays (FIFO or not)
// — ELECTION = Σ over nodes of the hops to the next larger id clockwise: 2n−1 with ids increasing
// round the ring, n(n+1)/2 decreasing; ELECTED = n; the maximum leads and every node agrees. The
// random rings' counts come from bench's oracle, which its own test checks against a count hop by
// hop.
func TestRingExactCounts(t *testing.T) {
	type tc struct {
		name string
		ring []algo.ID
		want int
	}
	var cases []tc
	for _, n := range []int{3, 8, 20} {
		cases = append(cases,
			tc{fmt.Sprintf("increasing/n=%d", n), seq(1, n, 1), 2*n - 1},
			tc{fmt.Sprintf("decreasing/n=%d", n), seq(n, 1, -1), n * (n + 1) / 2})
	}
	rng := rand.New(rand.NewPCG(2026, 11))
	for i := range 20 {
		n := 5 + rng.IntN(26)
		ring := make([]algo.ID, n)
		for j, p := range rng.Perm(n) {
			ring[j] = algo.ID(3*p + 2) // ids need not be 1..n
		}
		cases = append(cases, tc{fmt.Sprintf("random%d/n=%d", i, n), ring, int(bench.ChangRoberts(ring))})
	}
	for i, c := range cases {
		e := engines[i%2]
		t.Run(c.name+"/"+e.String(), func(t *testing.T) {
			cfg := ringConfig(t, c.ring, e)
			cfg.Seed = uint64(i)
			// With FIFO off, ELECTED can overtake a slow ELECTION; the late ELECTION reaches a
			// node that already follows the winner, which swallows it: the counts still hold.
			cfg.Network.FIFO = i%3 != 0
			sum := run(t, cfg)
			if s, _, _ := sum.Count("ELECTION"); s != int64(c.want) {
				t.Errorf("ELECTION sent %d, want %d", s, c.want)
			}
			if s, d, _ := sum.Count("ELECTED"); s != int64(len(c.ring)) || d != s {
				t.Errorf("ELECTED sent %d, delivered %d, want %d", s, d, len(c.ring))
			}
			if want := slices.Max(c.ring); sum.Leader != want {
				t.Errorf("leader %d, want the maximum %d", sum.Leader, want)
			}
			if len(sum.Violations) > 0 {
				t.Errorf("violations: %v", sum.Violations)
			}
		})
	}
}

// A dead successor is skipped — whether it is down from time 0 or crashes mid-election — and
// the highest live id wins, agreed by every live node.
func TestRingSkipsDeadSuccessors(t *testing.T) {
	ring := []algo.ID{3, 9, 4, 1, 7, 6, 2, 8, 5}
	cases := map[string]struct {
		actions []sim.Action
		want    algo.ID
	}{
		"max down from 0":       {[]sim.Action{at(0, sim.Crash, 9)}, 8},
		"two down from 0":       {[]sim.Action{at(0, sim.Crash, 9, 4)}, 8},
		"max crashes mid-round": {[]sim.Action{at(15*ms, sim.Crash, 9)}, 8},
		"middle crashes mid":    {[]sim.Action{at(12*ms, sim.Crash, 1)}, 9},
		"next crashes mid":      {[]sim.Action{at(8*ms, sim.Crash, 8, 5)}, 9},
	}
	for name, c := range cases {
		for _, e := range engines {
			t.Run(name+"/"+e.String(), func(t *testing.T) {
				cfg := ringConfig(t, ring, e)
				cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
				cfg.Actions = c.actions
				recs, sum := runTrace(t, cfg)
				if sum.Leader != c.want {
					t.Fatalf("leader %d, want %d; violations %v", sum.Leader, c.want, sum.Violations)
				}
				skipped := false
				for _, r := range recs {
					if r.Type == sim.RecTimer && r.Timer == "answer" {
						skipped = true
					}
				}
				if !skipped {
					t.Error("no successor was ever skipped after an answer timeout")
				}
			})
		}
	}
}

// A leader crash brings a new election; the old leader's recovery, as the highest id, wins it
// back; a partition makes two leaders, which the monitor catches; a heal leaves one.
func TestRingCrashRecoverPartition(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			cfg := ringConfig(t, seq(1, 6, 1), e)
			cfg.Network.Delay = network.Delay{Min: 5 * ms, Max: 15 * ms}
			cfg.Actions = []sim.Action{at(500*ms, sim.Crash, 6), at(1500*ms, sim.Recover, 6)}
			cfg.RunFor = 2500 * ms
			recs, sum := runTrace(t, cfg)
			if b := beliefsAt(recs, 1400*ms); b[1].Leader != 5 || b[4].Leader != 5 {
				t.Errorf("after the crash of 6: nodes follow %d and %d, want 5", b[1].Leader, b[4].Leader)
			}
			if sum.Leader != 6 || len(sum.Recoveries) != 1 {
				t.Errorf("leader %d, recoveries %v; want 6 back, and one recovery", sum.Leader, sum.Recoveries)
			}
			// The recovering 6 wins its own election: its ELECTION goes round (6 hops) and it
			// leads, while 5 leads too until ELECTED(6) has come round to it (5 more hops).
			var became time.Duration = -1
			for _, r := range recs {
				if r.Type == sim.RecState && r.Node == 6 && r.New == sim.Leader && r.At >= 1500*ms {
					became = r.At
					break
				}
			}
			if became < 0 || became > 1500*ms+6*15*ms {
				t.Errorf("6 led again at %v after recovering at 1500ms, want within 6 hops", became)
			}
			if len(sum.Violations) != 1 || sum.Violations[0].From != became || !slices.Equal(sum.Violations[0].Nodes, []algo.ID{5, 6}) ||
				sum.Violations[0].To > became+5*15*ms {
				t.Errorf("violations %v, want the brief split brain of 5 and 6 from %v", sum.Violations, became)
			}

			cfg.Actions = []sim.Action{
				{At: 500 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1, 2, 3}, {4, 5, 6}}},
				{At: 1500 * ms, Op: sim.Heal},
			}
			recs, sum = runTrace(t, cfg)
			if b := beliefsAt(recs, 1400*ms); b[1].Leader != 3 || b[3].New != sim.Leader || b[4].Leader != 6 {
				t.Errorf("in the partition: 1 follows %d, 3 is %s, 4 follows %d; want 3, leader, 6", b[1].Leader, b[3].New, b[4].Leader)
			}
			var split *sim.Violation
			for i, v := range sum.Violations {
				if v.Property == sim.AtMostOneLeader {
					split = &sum.Violations[i]
				}
			}
			if split == nil || !slices.Equal(split.Nodes, []algo.ID{3, 6}) || split.From < 500*ms || split.To < 1500*ms {
				t.Errorf("split brain %v, want nodes 3 and 6 from after 500ms to after the heal", split)
			}
			if sum.Leader != 6 {
				t.Errorf("after the heal: leader %d, want 6", sum.Leader)
			}
		})
	}
}
