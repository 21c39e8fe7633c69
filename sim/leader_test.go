package sim_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// `leader` is the node every live node names at the instant the action happens. On Bully among
// 1..5 with a fixed delay, 5 leads until it crashes at 500ms; 4 leads from 660ms. So `crash
// leader` at 500ms crashes 5, `pause leader` at 800ms pauses 4, and `partition leader | 1` at
// 900ms cuts 4 and 1 off — the run is the run of those ids, step for step, on either engine;
// only the fault records say, besides, that the node was the leader.
func TestLeaderIsTheAgreedLeaderAtTheInstant(t *testing.T) {
	named := []sim.Action{
		at(500*ms, sim.Crash, sim.AgreedLeader),
		at(800*ms, sim.Pause, sim.AgreedLeader),
		{At: 900 * ms, Op: sim.Partition, Groups: [][]algo.ID{{sim.AgreedLeader}, {1}}},
	}
	ids := []sim.Action{
		at(500*ms, sim.Crash, 5),
		at(800*ms, sim.Pause, 4),
		{At: 900 * ms, Op: sim.Partition, Groups: [][]algo.ID{{4}, {1}}},
	}
	for _, e := range engines {
		cfg := fixed(t, "bully", 5, 10*ms, e)
		cfg.RunFor = 1200 * ms
		cfg.Actions = named
		got, sum := runTrace(t, cfg)
		cfg.Actions = ids
		want, _ := runTrace(t, cfg)
		if sum.Halted != "" || len(got) != len(want) {
			t.Fatalf("%s: halted %q, %d records, want %d", e, sum.Halted, len(got), len(want))
		}
		var faults []string
		for i := range got {
			g, w := got[i], want[i]
			if g.Type == sim.RecFault {
				faults = append(faults, g.Action.String()+" · "+g.Note)
				if !slices.Equal(g.Action.NodeIDs(), w.Action.NodeIDs()) || g.Node != w.Node {
					t.Errorf("%s: %s names %v (node %d), want %v (node %d)", e, g.Action, g.Action.NodeIDs(), g.Node, w.Action.NodeIDs(), w.Node)
				}
				g.Action, g.Note, w.Action, w.Note = nil, "", nil, ""
			}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: record %d is %+v, want %+v as with the ids", e, i, g, w)
			}
		}
		wantFaults := []string{
			"crash leader (node 5) · the leader, node 5: every live node names it",
			"pause leader (node 4) · the leader, node 4: every live node names it",
			"partition leader (node 4) | 1 · ",
		}
		if !slices.Equal(faults, wantFaults) {
			t.Errorf("%s: fault records\n%s\nwant\n%s", e, strings.Join(faults, "\n"), strings.Join(wantFaults, "\n"))
		}
	}
}

// When no node leads at the instant an action names `leader`, the run stops there: the step of
// the action says why, Summary.Halted too, and Summary.HaltAction is the action. Nothing after
// it happens. 5 crashes at 500ms; at 600ms the others still name it, and nobody leads.
func TestLeaderWhenNoneLeadsStopsTheRun(t *testing.T) {
	for _, e := range engines {
		cfg := fixed(t, "bully", 5, 10*ms, e)
		cfg.RunFor = 2 * time.Second
		cfg.Actions = []sim.Action{at(500*ms, sim.Crash, 5), at(600*ms, sim.Crash, 3, sim.AgreedLeader), at(700*ms, sim.Crash, 1)}
		recs, sum := runTrace(t, cfg)
		why := "crash 3 leader: no node leads at 600ms — the live nodes do not all name one live leader: nodes 1 2 3 4 name 5, which is crashed"
		if sum.Halted != why || sum.End != 600*ms || sum.HaltAction == nil || sum.HaltAction.String() != "crash 3 leader" {
			t.Fatalf("%s: halted %q at %v by %v, want %q at 600ms by crash 3 leader", e, sum.Halted, sum.End, sum.HaltAction, why)
		}
		last := recs[len(recs)-1]
		if last.Type != sim.RecFault || last.At != 600*ms || last.Note != why+"; the run stops here" {
			t.Fatalf("%s: last record %+v, want the fault at 600ms saying why the run stops", e, last)
		}
		// Nothing reads `leader` as an id: the record names node 3 alone, and writes leader.
		if last.Action.String() != "crash leader 3" || !slices.Equal(last.Action.Nodes, []algo.ID{3}) || last.Node != 3 {
			t.Errorf("%s: the record's action %q, nodes %v, node %d", e, last.Action, last.Action.Nodes, last.Node)
		}
		for _, n := range sum.Nodes {
			if n.ID != 5 && n.Status == sim.Crashed {
				t.Errorf("%s: node %d crashed, though the run stopped before", e, n.ID)
			}
		}
	}
}

// The reasons a `leader` action cannot happen: before the nodes boot, and naming the leader's
// id besides.
func TestLeaderRefusals(t *testing.T) {
	for _, tt := range []struct {
		a    sim.Action
		want string
	}{
		{at(0, sim.Pause, sim.AgreedLeader), "pause leader: no node leads at 0ms — the actions of 0ms come before the nodes boot"},
		{at(300*ms, sim.Crash, sim.AgreedLeader, 5), "crash leader 5: the leader is node 5, which it names as well"},
		{sim.Action{At: 300 * ms, Op: sim.Partition, Groups: [][]algo.ID{{sim.AgreedLeader}, {5}}}, "partition leader | 5: the leader is node 5, which it names as well"},
	} {
		cfg := fixed(t, "bully", 5, 10*ms, sim.Inline)
		cfg.RunFor = time.Second
		cfg.Actions = []sim.Action{tt.a}
		if sum := run(t, cfg); sum.Halted != tt.want || sum.End != tt.a.At {
			t.Errorf("%s: halted %q at %v, want %q", tt.a, sum.Halted, sum.End, tt.want)
		}
	}
	// Recover, resume and links do not take it: the configuration is refused.
	for _, a := range []sim.Action{at(time.Second, sim.Recover, sim.AgreedLeader), at(time.Second, sim.Resume, 2, sim.AgreedLeader)} {
		cfg := fixed(t, "bully", 5, 10*ms, sim.Inline)
		cfg.Actions = []sim.Action{a}
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "takes node ids, not leader") {
			t.Errorf("%s: %v, want it refused", a, err)
		}
	}
}
