package sim_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// schedule writes actions as the `at` lines of a scenario, for failure messages.
func schedule(actions []sim.Action) string {
	var b strings.Builder
	for _, a := range actions {
		fmt.Fprintf(&b, "\n  at %s %s", algo.FormatDuration(a.At), a)
	}
	return b.String()
}

// termLeaders replays the state records of a trace and returns, for every term, the nodes that
// were Leader in it — a check of one-leader-per-term that does not rely on the monitor.
func termLeaders(recs []sim.Record) map[uint64][]algo.ID {
	leaders := map[uint64][]algo.ID{}
	for _, r := range recs {
		if r.Type == sim.RecState && r.New == sim.Leader && !slices.Contains(leaders[r.Term], r.Node) {
			leaders[r.Term] = append(leaders[r.Term], r.Node)
		}
	}
	return leaders
}

// docs/properties.md: Raft's one-leader-per-term holds under every fault. 5 × rapid's checks (500
// by default) random schedules of crash, recover, pause, resume, partition, cut, heal, delay, loss
// and elect on 2 to 7 nodes; each runs on both engines, whose traces must agree, and the property
// is checked by the monitor and again from the trace.
func TestRaftOneLeaderPerTermRandomSchedules(t *testing.T) {
	for range 5 {
		rapid.Check(t, func(t *rapid.T) {
			n := rapid.IntRange(2, 7).Draw(t, "nodes")
			cfg := sim.DefaultConfig(lookup(t, "raft"), n)
			cfg.Seed = rapid.Uint64().Draw(t, "seed")
			cfg.RunFor = 3 * time.Second
			cfg.Network.FIFO = rapid.Bool().Draw(t, "fifo")
			cfg.Actions = genSchedule(t, cfg.IDs, cfg.RunFor)
			if rapid.Bool().Draw(t, "check-quorum") {
				cfg.Params = algo.Params{"check-quorum": {On: true}}
			}
			failed := func(format string, args ...any) {
				t.Fatalf("%s\nseed %d, %d nodes, fifo %v, params %v, schedule:%s",
					fmt.Sprintf(format, args...), cfg.Seed, n, cfg.Network.FIFO, cfg.Params, schedule(cfg.Actions))
			}
			cfg.Engine = sim.Inline
			a := jsonl(t, cfg)
			cfg.Engine = sim.Goroutine
			recs, sum := runTrace(t, cfg)
			if b := jsonl(t, cfg); !bytes.Equal(a, b) {
				failed("the engines disagree:\n%s", firstDiff(a, b))
			}
			if p, _ := sum.Property(sim.OneLeaderPerTerm); !p.Applies || !p.Holds {
				failed("one-leader-per-term: %s", describeViolations(sum))
			}
			for term, ids := range termLeaders(recs) {
				if len(ids) > 1 {
					failed("term %d has leaders %v", term, ids)
				}
			}
		})
	}
}

// raftRun is a run of Raft on nodes 1..5 with a fixed delay of 10ms in which node 1 is asked to
// elect at boot, so that it leads term 1 from 20ms on (its REQUEST_VOTEs arrive at 10ms, the
// VOTEs at 20ms), plus the actions given.
func raftRun(t tb, e sim.Engine, runFor time.Duration, params algo.Params, actions ...sim.Action) sim.Config {
	t.Helper()
	cfg := fixed(t, "raft", 5, raftDelay, e)
	cfg.Params = params
	cfg.RunFor = runFor
	cfg.Actions = append([]sim.Action{at(0, sim.Elect, 1)}, actions...)
	return cfg
}

const (
	raftDelay     = 10 * ms
	raftHeartbeat = 50 * ms
	raftLo        = 150 * ms
	raftHi        = 300 * ms
)

func partition(d time.Duration, groups ...[]algo.ID) sim.Action {
	return sim.Action{At: d, Op: sim.Partition, Groups: groups}
}

// becameLeader returns the state records in which a node of ids became leader at or after
// from, in order.
func becameLeader(recs []sim.Record, from time.Duration, ids ...algo.ID) []sim.Record {
	var out []sim.Record
	for _, r := range recs {
		if r.Type == sim.RecState && r.New == sim.Leader && r.Old != sim.Leader && r.At >= from && slices.Contains(ids, r.Node) {
			out = append(out, r)
		}
	}
	return out
}

// steppedDown returns the first state record at or after from in which node id stopped leading.
func steppedDown(recs []sim.Record, from time.Duration, id algo.ID) (sim.Record, bool) {
	for _, r := range recs {
		if r.Type == sim.RecState && r.Node == id && r.Old == sim.Leader && r.New != sim.Leader && r.At >= from {
			return r, true
		}
	}
	return sim.Record{}, false
}

// The setup of the partition tests: node 1 leads term 1, and every node follows it, well
// before the partition at 500ms.
func wantStableLeader1(t *testing.T, recs []sim.Record) {
	t.Helper()
	for id, r := range beliefsAt(recs, 499*ms) {
		if r.Leader != 1 || r.Term != 1 {
			t.Fatalf("setup: at 499ms node %d names %d in term %d, want 1 in term 1", id, r.Leader, r.Term)
		}
	}
}

// "a candidate with votes from a majority of the full membership becomes leader": the side of a
// partition with a majority elects a leader of a new term within election-timeout's high end
// plus a few delays of the last APPEND it heard; the side without a majority never elects
// anyone, however often it tries — with the old leader or without it.
func TestRaftMajoritySideElectsMinorityCannot(t *testing.T) {
	const p = 500 * ms
	cases := []struct {
		name             string
		minority, major  []algo.ID
		leaderInMinority bool
	}{
		{"old leader in the minority", []algo.ID{1, 2}, []algo.ID{3, 4, 5}, true},
		{"old leader in the majority", []algo.ID{2, 3}, []algo.ID{1, 4, 5}, false},
	}
	for _, c := range cases {
		for _, e := range engines {
			t.Run(c.name+"/"+e.String(), func(t *testing.T) {
				cfg := raftRun(t, e, 3*time.Second, nil, partition(p, c.minority, c.major))
				recs, sum := runTrace(t, cfg)
				wantStableLeader1(t, recs)
				// The minority never leads a term newer than the partition's, 1.
				for _, r := range becameLeader(recs, p, c.minority...) {
					t.Errorf("minority node %d became leader of term %d at %v", r.Node, r.Term, r.At)
				}
				final := map[algo.ID]sim.NodeView{}
				for _, v := range sum.Nodes {
					final[v.ID] = v
				}
				if !c.leaderInMinority {
					// The majority keeps its leader; the minority tries and tries, in vain.
					if got := becameLeader(recs, p, c.major...); len(got) != 0 {
						t.Errorf("the majority elected again: %v", got)
					}
					for _, id := range c.minority {
						if v := final[id]; v.Status != sim.Candidate && v.Status != sim.Follower || v.Term < 4 {
							t.Errorf("minority node %d ends %s in term %d: want it still trying, terms rising", id, v.Status, v.Term)
						}
					}
					return
				}
				// The old leader keeps believing, and its side follows it.
				if v := final[1]; v.Status != sim.Leader || v.Term != 1 || final[2].Leader != 1 {
					t.Errorf("minority at the end: 1 %+v, 2 %+v; want 1 still leading term 1, 2 following it", final[1], final[2])
				}
				got := becameLeader(recs, p, c.major...)
				if len(got) == 0 {
					t.Fatal("the majority elected no leader")
				}
				l := got[0]
				// The majority heard 1's last APPEND at 480ms (sent at 470ms); their election
				// timers run out by 480ms + 300ms; REQUEST_VOTE and VOTE take a delay each.
				if bound := 470*ms + raftDelay + raftHi + 2*raftDelay; l.At > bound || l.Term != 2 {
					t.Errorf("the majority elected %d in term %d at %v, want in term 2 by %v", l.Node, l.Term, l.At, bound)
				}
				for _, id := range c.major {
					if r := beliefsAt(recs, l.At+raftDelay)[id]; r.Leader != l.Node || r.Term != l.Term {
						t.Errorf("one delay after the election node %d names %d in term %d, want %d in %d", id, r.Leader, r.Term, l.Node, l.Term)
					}
				}
			})
		}
	}
}

// docs/properties.md: under a partition Raft does not keep at-most-one-leader — the old leader
// keeps believing it leads in the minority while the majority elects a new one — but it keeps
// one-leader-per-term: the two leaders lead different terms. After the heal, the old leader hears
// the higher term and steps down within a heartbeat and two delays.
func TestRaftPartitionSplitBrainButOneLeaderPerTerm(t *testing.T) {
	const p, heal = 500 * ms, 1500 * ms
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			cfg := raftRun(t, e, 2*time.Second, nil, partition(p, []algo.ID{1, 2}), sim.Action{At: heal, Op: sim.Heal})
			recs, sum := runTrace(t, cfg)
			wantStableLeader1(t, recs)
			got := becameLeader(recs, p, 3, 4, 5)
			if len(got) != 1 {
				t.Fatalf("the majority became leader %d times: %v", len(got), got)
			}
			l := got[0]
			down, ok := steppedDown(recs, p, 1)
			if !ok {
				t.Fatal("node 1 never stepped down")
			}
			if down.At <= heal || down.At > heal+raftHeartbeat+2*raftDelay || down.Term < l.Term {
				t.Errorf("node 1 stepped down at %v in term %d, want after the heal at %v, within a heartbeat and two delays, in term ≥ %d",
					down.At, down.Term, heal, l.Term)
			}
			want := sim.Violation{Property: sim.AtMostOneLeader, From: l.At, To: down.At, Nodes: []algo.ID{1, l.Node}}
			slices.Sort(want.Nodes)
			if len(sum.Violations) != 1 || fmt.Sprint(sum.Violations[0]) != fmt.Sprint(want) {
				t.Errorf("violations %v, want only %v", sum.Violations, want)
			}
			if p, _ := sum.Property(sim.AtMostOneLeader); p.Holds {
				t.Error("at-most-one-leader holds")
			}
			if p, _ := sum.Property(sim.OneLeaderPerTerm); !p.Applies || !p.Holds {
				t.Error("one-leader-per-term does not hold")
			}
			leaders := termLeaders(recs)
			if !slices.Equal(leaders[1], []algo.ID{1}) || !slices.Equal(leaders[l.Term], []algo.ID{l.Node}) {
				t.Errorf("leaders by term %v", leaders)
			}
			if sum.Leader != l.Node {
				t.Errorf("final leader %d, want %d, the majority's", sum.Leader, l.Node)
			}
		})
	}
}

// check-quorum bounds the stale leader: cut off from the majority at 500ms, node 1 steps down
// at one of its heartbeats (20ms + k × 50ms) within election-timeout's low end plus a heartbeat
// of the partition — not at the heal. Its side never elects anyone. Without faults, a
// check-quorum leader never steps down.
func TestRaftCheckQuorumBoundsStaleLeader(t *testing.T) {
	const p = 500 * ms
	on := algo.Params{"check-quorum": {On: true}}
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			cfg := raftRun(t, e, 2*time.Second, on, partition(p, []algo.ID{1, 2}))
			recs, sum := runTrace(t, cfg)
			wantStableLeader1(t, recs)
			down, ok := steppedDown(recs, p, 1)
			if !ok {
				t.Fatal("node 1 never stepped down")
			}
			if down.At <= p || down.At > p+raftLo+raftHeartbeat || (down.At-20*ms)%raftHeartbeat != 0 {
				t.Errorf("node 1 stepped down at %v, want at a heartbeat within (%v, %v]", down.At, p, p+raftLo+raftHeartbeat)
			}
			if down.New != sim.Follower || down.Term != 1 || !strings.Contains(down.Note, "check-quorum") {
				t.Errorf("step down %+v, want to follower of term 1 by check-quorum", down)
			}
			for _, r := range becameLeader(recs, p, 1, 2) {
				t.Errorf("minority node %d became leader of term %d at %v", r.Node, r.Term, r.At)
			}
			// Two leaders at most from the majority's election to the step-down.
			if sum.SplitBrain > raftLo+raftHeartbeat {
				t.Errorf("split brain for %v, more than check-quorum allows", sum.SplitBrain)
			}
			if p, _ := sum.Property(sim.OneLeaderPerTerm); !p.Holds {
				t.Error("one-leader-per-term does not hold")
			}

			calm := raftRun(t, e, 5*time.Second, on)
			recs, sum = runTrace(t, calm)
			if _, ok := steppedDown(recs, 0, 1); ok || sum.Leader != 1 || sum.LeaderChanges != 1 {
				t.Errorf("no faults: leader %d after %d changes; node 1 stepped down: %v", sum.Leader, sum.LeaderChanges, ok)
			}
		})
	}
}

// Raft's votes must survive a crash (Figure 2 keeps currentTerm and votedFor on stable
// storage): 1 wins term 1 with 2's vote while 3, cut off from 1, hears nothing; 2 crashes and
// recovers; 3 times out and asks for term 1. A node that had forgotten its vote would grant it,
// and 1 and 3 would both lead term 1. Node 2 recovers in term 1 and refuses.
func TestRaftVoteSurvivesCrash(t *testing.T) {
	for _, e := range engines {
		t.Run(e.String(), func(t *testing.T) {
			cfg := fixed(t, "raft", 3, raftDelay, e)
			cfg.RunFor = 600 * ms
			cfg.Actions = []sim.Action{
				{At: 0, Op: sim.Cut, Link: &network.Link{From: 1, To: 3}},
				at(0, sim.Elect, 1),
				at(50*ms, sim.Crash, 2),
				at(60*ms, sim.Recover, 2),
			}
			recs, sum := runTrace(t, cfg)
			if r := beliefsAt(recs, 60*ms)[2]; r.New != sim.Follower || r.Term != 1 {
				t.Errorf("node 2 recovered as %s of term %d, want a follower of term 1", r.New, r.Term)
			}
			var refused bool
			for _, r := range recs {
				if r.Type == sim.RecSend && r.Msg.Kind == "VOTE" && r.Msg.From == 2 && r.Msg.To == 3 && r.Msg.Term == 1 {
					refused = !r.Msg.Flag
				}
			}
			if !refused {
				t.Error("node 2 did not refuse 3's REQUEST_VOTE of term 1")
			}
			if p, _ := sum.Property(sim.OneLeaderPerTerm); !p.Holds {
				t.Errorf("one-leader-per-term: %s", describeViolations(sum))
			}
		})
	}
}

// A Raft node's vote is an id on stable storage, not a number that grows: MaxStored, an
// explorer's bound on stored numbers, reads the term alone.
func TestMaxStoredLeavesVotesOut(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		cfg := fixed(t, "raft", 3, 10*time.Millisecond, sim.Inline)
		cfg.RunFor, cfg.Seed = time.Second, seed
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		leader, term := s.Summary().Leader, s.MaxTerm()
		if leader < 2 || term == 0 || term >= uint64(leader) {
			continue // the test needs a leader whose id is above the term
		}
		if got := s.MaxStored(); got != term {
			t.Errorf("seed %d: MaxStored = %d with leader %d of term %d; want the term, %d", seed, got, leader, term, term)
		}
		return
	}
	t.Fatal("no seed of 1..20 elects a leader whose id is above its term")
}
