package explore

import (
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
	"electsim/sim/check"
)

// leaseBeforeFix is the lease as it was before a recovered candidate numbered its requests on
// from its previous life: its nodes' stable storage forgets the request number, so a restarted
// candidate numbers from 1 again and takes a GRANT on its way to its previous life for its own.
// A test-only variant: the explorer must find the split brain this lets through.
func leaseBeforeFix() *algo.Info {
	info := *mustLookup("lease")
	newNode := info.New
	info.Name = "lease"
	info.New = func(id algo.ID, c *algo.Cluster) algo.Node { return amnesiac{newNode(id, c), "request"} }
	return &info
}

func mustLookup(name string) *algo.Info {
	info, err := algo.Lookup(name)
	if err != nil {
		panic(err)
	}
	return info
}

// amnesiac is a node whose stable storage forgets what it keeps under key.
type amnesiac struct {
	algo.Node
	key string
}

func (a amnesiac) Start(env algo.Env)                   { a.Node.Start(forgetful{env, a.key}) }
func (a amnesiac) Receive(env algo.Env, m algo.Message) { a.Node.Receive(forgetful{env, a.key}, m) }
func (a amnesiac) Timer(env algo.Env, name string)      { a.Node.Timer(forgetful{env, a.key}, name) }
func (a amnesiac) Elect(env algo.Env)                   { a.Node.Elect(forgetful{env, a.key}) }
func (a amnesiac) Clone() algo.Node                     { return amnesiac{a.Node.Clone(), a.key} }
func (a amnesiac) AppendState(b []byte, now time.Duration) []byte {
	return a.Node.AppendState(b, now)
}

// forgetful is an Env whose stable storage forgets key; its draws are the engine's.
type forgetful struct {
	algo.Env
	key string
}

func (f forgetful) Load(key string) (uint64, bool) {
	if key == f.key {
		return 0, false
	}
	return f.Env.Load(key)
}

func (f forgetful) Draw(n int64) int64 { return algo.Draw(f.Env, n) }

// raftVotesTwice is Raft whose followers forget their vote whenever a candidate asks for it
// in their term: a test-only variant that votes twice in a term, for the explorer to catch.
func raftVotesTwice() *algo.Info {
	info := *mustLookup("raft")
	newNode := info.New
	info.Name = "raft-votes-twice"
	info.New = func(id algo.ID, c *algo.Cluster) algo.Node {
		return &votesTwice{newNode(id, c), func() algo.Node { return newNode(id, c) }}
	}
	return &info
}

// votesTwice is a Raft node that, a follower asked for its vote in its own term, starts
// afresh from its stable storage with its vote forgotten, then answers.
type votesTwice struct {
	algo.Node
	fresh func() algo.Node
}

func (v *votesTwice) Receive(env algo.Env, m algo.Message) {
	if st := v.State(); m.Kind == algo.KindRequestVote && m.Term == st.Term && st.Status == algo.Follower {
		v.Node = v.fresh()
		v.Node.Start(forgetful{env, "votedFor"})
	}
	v.Node.Receive(env, m)
}

func (v *votesTwice) Clone() algo.Node { return &votesTwice{v.Node.Clone(), v.fresh} }

// leasePrefix is what the regression test of the lease's restart bug sets up, on nodes 1..4
// (3 the lock service, 4 the resource): 2 is down until 331ms, the link between 1 and the lock
// service takes 40ms each way, and from 50ms the lock service hears nothing from 1. When 1
// crashes and recovers is left to the explorer.
func leasePrefix() []sim.Action {
	slow := network.Delay{Min: 40 * time.Millisecond, Max: 40 * time.Millisecond}
	return []sim.Action{
		{At: 0, Op: sim.Crash, Nodes: []algo.ID{2}},
		{At: 0, Op: sim.SetDelay, Link: &network.Link{From: 1, To: 3}, Delay: slow},
		{At: 0, Op: sim.SetDelay, Link: &network.Link{From: 3, To: 1}, Delay: slow},
		{At: 50 * time.Millisecond, Op: sim.SetDrop, Link: &network.Link{From: 1, To: 3}, Drop: 100},
		{At: 331 * time.Millisecond, Op: sim.Recover, Nodes: []algo.ID{2}},
	}
}

// The lease on 4 nodes (3 the lock service, 4 the resource) with crash, recover and delay
// faults, a budget of 2, every message 10ms, terms at most 4 and numbers on stable storage at
// most 6: the lease as it is exhausts the space without two leaders. (Its old restart bug
// needs a slow link, a lost renewal and a crash and recovery, past these bounds:
// TestLeaseRestartBug gives the setup.)
func TestLeaseExhausts(t *testing.T) {
	if lighter {
		t.Skip("too slow under the race detector")
	}
	opts := Options{Base: base(t, "lease", 4), Faults: check.Crash | check.Recover | check.Delay, Budget: 2, Depth: 300,
		Delays: []time.Duration{10 * time.Millisecond}, MaxStored: 6}
	fixed := newExplorer(t, opts).Run(nil)
	if fixed.Counterexample != nil || !fixed.Exhausted || fixed.Cut == 0 {
		t.Fatalf("the lease: %+v", fixed)
	}
	if fixed.Generated != 213_870 || fixed.Distinct != 121_318 {
		t.Errorf("%d states generated, %d distinct; want 213,870 and 121,318", fixed.Generated, fixed.Distinct)
	}
}

// The lease's old restart bug found from the start, with no setup: with its fix reverted
// (leaseBeforeFix), crash, recover and delay faults with a budget of 3, every message 10ms,
// numbers on stable storage at most 6, the shortest split brain takes 38 steps — node 1
// crashes, the lock service's answers to it are delayed, node 1 recovers and takes a GRANT
// meant for its previous life. About a minute on two cores.
func TestLeaseRestartBugFromScratch(t *testing.T) {
	if testing.Short() || lighter {
		t.Skip("a million states: a minute or two")
	}
	opts := Options{Base: base(t, "lease", 4), Faults: check.Crash | check.Recover | check.Delay, Budget: 3, Depth: 300,
		Delays: []time.Duration{10 * time.Millisecond}, MaxStored: 6}
	opts.Base.Algorithm = leaseBeforeFix()
	res := newExplorer(t, opts).Run(nil)
	cx := res.Counterexample
	if cx == nil {
		t.Fatalf("the lease before its fix holds: %+v", res)
	}
	if cx.Steps != 38 || res.Distinct != 778_919 || cx.Violation.Property != sim.AtMostOneLeader {
		t.Errorf("%s after %d steps, %d distinct states; want at-most-one-leader after 38, 778,919", cx.Violation, cx.Steps, res.Distinct)
	}
	if !slices.ContainsFunc(cx.Faults, func(a sim.Action) bool { return a.Op == sim.Recover && slices.Equal(a.Nodes, []algo.ID{1}) }) {
		t.Errorf("the split brain without 1 recovering: %v", cx.Faults)
	}
}
