package sim_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// docs/algorithms.md, Bully's cost: with a fixed delay below answer-timeout/2, node n down from
// time 0 and every other node booting, ELECTION is sent n(n−1)/2 times (n−1 of them to the dead
// node), OK (n−1)(n−2)/2 times, COORDINATOR n−1 times (n−2 delivered), and n−1 is elected.
func TestBullyExactCounts(t *testing.T) {
	for _, n := range []int{3, 5, 8, 20} {
		for _, e := range engines {
			t.Run(fmt.Sprintf("n=%d/%s", n, e), func(t *testing.T) {
				cfg := fixed(t, "bully", n, 10*ms, e)
				cfg.Actions = []sim.Action{at(0, sim.Crash, algo.ID(n))}
				cfg.RunFor = 2000 * ms
				sum := run(t, cfg)

				check := func(kind string, wantSent, wantDelivered, wantDropped int) {
					t.Helper()
					s, d, x := sum.Count(kind)
					if s != int64(wantSent) || d != int64(wantDelivered) || x != int64(wantDropped) {
						t.Errorf("%s: sent/delivered/dropped = %d/%d/%d, want %d/%d/%d",
							kind, s, d, x, wantSent, wantDelivered, wantDropped)
					}
				}
				check("ELECTION", n*(n-1)/2, n*(n-1)/2-(n-1), n-1)
				check("OK", (n-1)*(n-2)/2, (n-1)*(n-2)/2, 0)
				check("COORDINATOR", n-1, n-2, 1)
				if sum.Leader != algo.ID(n-1) {
					t.Errorf("leader = %d, want %d", sum.Leader, n-1)
				}
				for _, v := range sum.Nodes {
					if v.ID == algo.ID(n) {
						if v.Status != sim.Crashed {
							t.Errorf("node %d: %s, want crashed", v.ID, v.Status)
						}
						continue
					}
					if v.Leader != algo.ID(n-1) {
						t.Errorf("node %d believes in %d, want %d", v.ID, v.Leader, n-1)
					}
				}
				if len(sum.Violations) != 0 {
					t.Errorf("violations: %v", sum.Violations)
				}
			})
		}
	}
}

// leaderAt returns the leader every live node named at virtual time t, from the trace: the
// state records up to t replayed.
func beliefsAt(recs []sim.Record, t time.Duration) map[algo.ID]sim.Record {
	last := map[algo.ID]sim.Record{}
	for _, r := range recs {
		if r.At > t {
			break
		}
		if r.Type == sim.RecState {
			last[r.Node] = r
		}
	}
	return last
}

// A leader crash elects the next highest; the old leader's recovery bullies it back.
func TestBullyLeaderCrashAndRecovery(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			cfg := fixed(t, "bully", 5, 10*ms, e)
			cfg.Actions = []sim.Action{at(500*ms, sim.Crash, 5), at(1500*ms, sim.Recover, 5)}
			cfg.RunFor = 2500 * ms
			recs, sum := runTrace(t, cfg)

			// Before the crash every node follows 5; between crash and recovery, 4.
			for when, want := range map[time.Duration]algo.ID{400 * ms: 5, 1400 * ms: 4} {
				for id, r := range beliefsAt(recs, when) {
					if id == 5 && want == 4 {
						continue
					}
					if r.Leader != want {
						t.Errorf("at %v node %d believes in %d, want %d", when, id, r.Leader, want)
					}
				}
			}
			if sum.Leader != 5 {
				t.Errorf("after the recovery the leader is %d, want 5 (it bullies its way back)", sum.Leader)
			}
			// 5 crashed at 500ms: followers suspect it after timeout (150ms) past the last
			// heartbeat, and 4 wins after answer-timeout.
			if len(sum.Recoveries) != 1 || sum.Recoveries[0] > 150*ms+50*ms+50*ms+20*ms {
				t.Errorf("recoveries %v: want one, within timeout + heartbeat + answer-timeout + 2 delays", sum.Recoveries)
			}
			// The recovery makes two leaders until 5's COORDINATOR reaches 4: one delay.
			if len(sum.Violations) != 1 {
				t.Fatalf("violations %v, want the brief split brain of the recovery", sum.Violations)
			}
			v := sum.Violations[0]
			if v.Property != sim.AtMostOneLeader || v.From != 1500*ms || v.To != 1510*ms || !slices.Equal(v.Nodes, []algo.ID{4, 5}) {
				t.Errorf("violation %v, want at-most-one-leader 1500ms–1510ms nodes 4 5", v)
			}
		})
	}
}

// Pausing the leader past `timeout` gives two leaders, which the monitor reports with the
// interval and the nodes.
func TestBullyPausedLeaderSplitBrain(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			cfg := fixed(t, "bully", 5, 10*ms, e)
			cfg.Actions = []sim.Action{at(500*ms, sim.Pause, 5), at(1000*ms, sim.Resume, 5)}
			cfg.RunFor = 1500 * ms
			recs, sum := runTrace(t, cfg)
			var became, stepped time.Duration = -1, -1
			for _, r := range recs {
				if r.Type == sim.RecState && r.Node == 4 && r.New == sim.Leader {
					became = r.At
				}
				if r.Type == sim.RecState && r.Node == 4 && r.Old == sim.Leader {
					stepped = r.At
				}
			}
			want := sim.Violation{Property: sim.AtMostOneLeader, From: became, To: stepped, Nodes: []algo.ID{4, 5}}
			if len(sum.Violations) != 1 || !reflect.DeepEqual(sum.Violations[0], want) {
				t.Fatalf("violations %v, want %v", sum.Violations, want)
			}
			// 4 takes over once the followers' patience (150ms after the last heartbeat, sent at
			// 450ms) and its answer-timeout (50ms) run out; it steps down one delay after 5
			// resumes.
			if became != 460*ms+150*ms+50*ms || stepped != 1010*ms {
				t.Errorf("split brain %v–%v, want 660ms–1010ms", became, stepped)
			}
			if sum.SplitBrain != stepped-became {
				t.Errorf("split brain total %v, want %v", sum.SplitBrain, stepped-became)
			}
			if p, _ := sum.Property(sim.AtMostOneLeader); p.Holds {
				t.Error("at-most-one-leader reported as holding")
			}
			if sum.Leader != 5 {
				t.Errorf("final leader %d, want 5", sum.Leader)
			}
		})
	}
}
