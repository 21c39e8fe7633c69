package explore

import (
	"slices"
	"testing"
	"time"

	"electsim/algo"
	"electsim/scenarios"
	"electsim/sim"
	"electsim/sim/check"
)

// Bully on 3 nodes with one partition allowed: the split brain is found, and the scenario
// written of it replays it.
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
	if res.Depth != cx.Steps || res.Exhausted || res.Bound != "" {
		t.Errorf("depth %d, exhausted %v, bound %q for a counterexample of %d steps", res.Depth, res.Exhausted, res.Bound, cx.Steps)
	}
	if _, err := cx.Scenario("split", "test"); err != nil {
		t.Fatal(err)
	}
}

// A fault may fall between two inputs of one instant: Bully on 3 nodes, crash and recover with
// a budget of 2, splits fastest when node 3 crashes after two nodes booted and before it boots
// itself (9 steps; between instants only, 13), and the scenario written of it — "at 0ms after
// 2 inputs crash 3" — replays it.
func TestFaultBetweenInputsOfAnInstant(t *testing.T) {
	res := newExplorer(t, Options{Base: base(t, "bully", 3), Faults: check.Crash | check.Recover, Budget: 2, Depth: 40}).Run(nil)
	cx := res.Counterexample
	if cx == nil {
		t.Fatalf("no split brain found: %+v", res)
	}
	if cx.Steps != 9 || len(cx.Faults) != 2 {
		t.Fatalf("%s after %d steps with faults %v; want 9 steps, 2 faults", cx.Violation, cx.Steps, cx.Faults)
	}
	if f := cx.Faults[0]; f.Op != sim.Crash || f.At != 0 || f.After != 2 || !slices.Equal(f.Nodes, []algo.ID{3}) {
		t.Errorf("the first fault is %v at %v after %d inputs; want crash 3 at 0ms after 2", f, f.At, f.After)
	}
	sc, err := cx.Scenario("mid", "test")
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(sc.Actions, func(st scenarios.Step) bool { return st.Op == sim.Crash }); i < 0 || sc.Actions[i].After != 2 {
		t.Errorf("the scenario's crash is not after 2 inputs: %v", sc.Actions)
	}
}

// The shortest counterexample is no longer than the random checker's, shrunk: the steps each
// takes until the property breaks, narration left out, on the nodes the shrunk one kept (it
// may drop some: Bully's split brain needs two), and it breaks no later.
func TestShorterThanRandomChecker(t *testing.T) {
	rb := base(t, "bully", 3)
	rb.Engine, rb.RunFor = sim.Inline, 0
	c, err := check.New(check.Options{Base: rb, Faults: check.Partition, Runs: 300})
	if err != nil {
		t.Fatal(err)
	}
	res := c.Run(nil)
	if len(res.Failures) == 0 {
		t.Fatal("the random checker found no split brain to compare with")
	}
	shrunk := c.Shrink(res.Failures[0])
	random := stepsToBreak(t, shrunk.Config, sim.AtMostOneLeader)
	on := base(t, "bully", 3)
	on.IDs = shrunk.Config.IDs
	x := newExplorer(t, Options{Base: on, Faults: check.Partition, Budget: 1, Depth: 40})
	cx := x.Run(nil).Counterexample
	if cx == nil {
		t.Fatalf("no split brain found on nodes %v", on.IDs)
	}
	mine := stepsToBreak(t, cx.Config, sim.AtMostOneLeader)
	if mine != cx.Steps {
		t.Errorf("the counterexample's scenario breaks the property at step %d, want %d (its schedule's steps)", mine, cx.Steps)
	}
	t.Logf("nodes %v: exhaustive: %d steps, broken at %v; random checker, shrunk: %d steps, broken at %v",
		on.IDs, mine, cx.Violation.From, random, shrunk.Violation.From)
	if mine > random || cx.Violation.From > shrunk.Violation.From {
		t.Errorf("the exhaustive counterexample takes %d steps and breaks at %v, the random checker's shrunk one %d and %v",
			mine, cx.Violation.From, random, shrunk.Violation.From)
	}
}

// stepsToBreak runs cfg and returns how many steps it takes until property breaks, leaving out
// say and break actions and the explorer's choices of delay (delay actions that are not faults).
func stepsToBreak(t *testing.T, cfg sim.Config, property string) int {
	t.Helper()
	cfg.Trace = true
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	for {
		r, ok := s.Step()
		if !ok {
			t.Fatalf("%s never breaks", property)
		}
		counted := true
		for _, rec := range r.Records {
			if rec.Action != nil && (rec.Action.Op == sim.Say || rec.Action.Op == sim.Break ||
				rec.Action.Op == sim.SetDelay && rec.Action.Delay.Max < 100*time.Millisecond) {
				counted = false
			}
		}
		if counted {
			n++
		}
		if _, bad := s.Broken(property); bad {
			return n
		}
	}
}

// The number of workers changes nothing: the same counts, the same counterexample.
func TestWorkersSameResult(t *testing.T) {
	cases := []Options{
		{Base: base(t, "bully", 3), Faults: check.Crash | check.Recover, Budget: 2, Depth: 25},
		{Base: base(t, "bully", 3), Faults: check.Partition, Budget: 1, Depth: 40},
		{Base: base(t, "raft", 3), Faults: check.Crash | check.Recover, Budget: 1, Depth: 12, Property: sim.OneLeaderPerTerm},
	}
	if lighter {
		cases[0].Depth, cases[2].Depth = 15, 8
	}
	for _, opts := range cases {
		var first Result
		for _, w := range []int{1, 2, 3} {
			opts.Workers = w
			res := newExplorer(t, opts).Run(nil)
			if w == 1 {
				first = res
				continue
			}
			if res.Generated != first.Generated || res.Distinct != first.Distinct || res.Depth != first.Depth ||
				res.Exhausted != first.Exhausted || res.Bound != first.Bound {
				t.Errorf("%s, %d workers: %+v; 1 worker: %+v", opts.Base.Algorithm.Name, w, res, first)
			}
			if (res.Counterexample == nil) != (first.Counterexample == nil) ||
				res.Counterexample != nil && !slices.EqualFunc(res.Counterexample.Config.Actions, first.Counterexample.Config.Actions,
					func(a, b sim.Action) bool { return a.String() == b.String() && a.At == b.At }) {
				t.Errorf("%s, %d workers: another counterexample than with 1", opts.Base.Algorithm.Name, w)
			}
		}
	}
}

// Bully with crashes settles: the space is exhausted, and every state in it was counted.
func TestBullyCrashExhausts(t *testing.T) {
	res := newExplorer(t, Options{Base: base(t, "bully", 3), Faults: check.Crash, Budget: 1, Depth: 100}).Run(nil)
	if !res.Exhausted || res.Bound != "" || res.Counterexample != nil || res.Depth >= 100 {
		t.Fatalf("%+v", res)
	}
	// Bounded by the states: the verdict covers the levels done.
	small := newExplorer(t, Options{Base: base(t, "bully", 3), Faults: check.Crash, Budget: 1, Depth: 100, MaxStates: 500}).Run(nil)
	if small.Exhausted || small.Bound != BoundStates || small.Distinct != 500 || small.Covered >= small.Depth {
		t.Fatalf("max-states 500: %+v", small)
	}
}

// Raft on 3 nodes, crash and recover with a budget of 2: one-leader-per-term holds to the
// depth explored (docs/properties.md quotes a deeper run).
func TestRaftOneLeaderPerTerm(t *testing.T) {
	depth := 14
	if lighter {
		depth = 10
	}
	res := newExplorer(t, Options{Base: base(t, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2, Depth: depth,
		Property: sim.OneLeaderPerTerm}).Run(nil)
	if res.Counterexample != nil {
		t.Fatalf("one-leader-per-term broken: %s", res.Counterexample.Violation)
	}
	if res.Bound != BoundDepth || res.Covered != depth || res.Distinct < 1000 {
		t.Fatalf("%+v", res)
	}
}

// The lease's restart bug: with its fix reverted (leaseBeforeFix), the explorer finds the split
// brain it lets through; the lease as it is holds in the same bounds. The setup is the bug's
// regression test's (leasePrefix); when node 1 crashes and recovers is the explorer's choice.
func TestLeaseRestartBug(t *testing.T) {
	opts := Options{Base: base(t, "lease", 4), Faults: check.Crash | check.Recover, Budget: 2, Depth: 40,
		Delays: []time.Duration{10 * time.Millisecond}}
	opts.Base.Actions = leasePrefix()
	fixed := newExplorer(t, opts).Run(nil)
	if fixed.Counterexample != nil {
		t.Fatalf("the lease breaks: %s", fixed.Counterexample.Violation)
	}
	opts.Base.Algorithm = leaseBeforeFix()
	buggy := newExplorer(t, opts).Run(nil)
	cx := buggy.Counterexample
	if cx == nil {
		t.Fatalf("the lease before its fix holds: %+v", buggy)
	}
	if !slices.ContainsFunc(cx.Faults, func(a sim.Action) bool { return a.Op == sim.Recover && slices.Equal(a.Nodes, []algo.ID{1}) }) {
		t.Errorf("the split brain without 1 recovering: %v", cx.Faults)
	}
	t.Logf("fixed: %d distinct states to depth %d; before the fix: %s after %d steps (%v)", fixed.Distinct, fixed.Covered,
		cx.Violation, cx.Steps, cx.Faults)
}

// Raft on 3 nodes, crash and recover with a budget of 2, each draw of an election timeout the
// low or the high end of its range, terms at most 4, every message 10ms: one-leader-per-term
// holds in every schedule, and the space is exhausted. The counts are pinned: a change to the
// engine, the fingerprint or the explorer that changes them must say why.
func TestRaftExhausts(t *testing.T) {
	if lighter {
		t.Skip("a quarter of a million states: too slow under the race detector")
	}
	res := newExplorer(t, Options{Base: base(t, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2, Depth: 300,
		Property: sim.OneLeaderPerTerm, Delays: []time.Duration{10 * time.Millisecond}}).Run(nil)
	if res.Counterexample != nil {
		t.Fatalf("one-leader-per-term broken: %s", res.Counterexample.Violation)
	}
	if !res.Exhausted || res.Bound != "" || res.Cut == 0 {
		t.Fatalf("not exhausted within terms ≤ 4: %+v", res)
	}
	if res.Generated != 267_926 || res.Distinct != 146_410 {
		t.Errorf("%d states generated, %d distinct; want 267,926 and 146,410", res.Generated, res.Distinct)
	}
	t.Logf("%d generated, %d distinct, %d past term 4, %d steps deep", res.Generated, res.Distinct, res.Cut, res.Depth)
}

// A Raft whose followers vote twice in a term: the explorer finds two leaders of one term in
// the shortest schedule, with the draws it chose, and the scenario written of it replays it
// (Scenario runs it and checks); the real Raft holds in the same bounds (TestRaftExhausts).
func TestRaftVotesTwice(t *testing.T) {
	info := raftVotesTwice()
	defer algo.Register(info)()
	opts := Options{Base: base(t, "raft", 3), Faults: check.Crash | check.Recover, Budget: 2, Depth: 300,
		Property: sim.OneLeaderPerTerm, Delays: []time.Duration{10 * time.Millisecond}}
	opts.Base.Algorithm = info
	res := newExplorer(t, opts).Run(nil)
	cx := res.Counterexample
	if cx == nil {
		t.Fatalf("voting twice, one-leader-per-term holds: %+v", res)
	}
	if cx.Violation.Property != sim.OneLeaderPerTerm || len(cx.Draws) == 0 {
		t.Fatalf("found %s with faults %v and draws %v", cx.Violation, cx.Faults, cx.Draws)
	}
	if res.Depth != cx.Steps || cx.Steps != 12 {
		t.Errorf("depth %d for a counterexample of %d steps; want 12", res.Depth, cx.Steps)
	}
	sc, err := cx.Scenario("twice", "test")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(sc.Draws, cx.Draws, func(a, b sim.NodeDraws) bool { return a.Node == b.Node && slices.Equal(a.Points, b.Points) }) {
		t.Errorf("the scenario's draws %v, the schedule's %v", sc.Draws, cx.Draws)
	}
	t.Logf("%s after %d steps, faults %v, draws %v", cx.Violation, cx.Steps, cx.Faults, cx.Draws)
}

// Loss as a choice: Bully on 3 nodes, one link allowed to lose its messages of an instant,
// splits in the shortest schedule — a lost message its only fault — which replays as a drop
// of 100% for that instant; with no loss allowed the same space is safe.
func TestBullyLossSplitBrain(t *testing.T) {
	res := newExplorer(t, Options{Base: base(t, "bully", 3), Faults: check.Loss, Budget: 1, Depth: 40}).Run(nil)
	cx := res.Counterexample
	if cx == nil {
		t.Fatalf("no split brain found: %+v", res)
	}
	if cx.Violation.Property != sim.AtMostOneLeader || len(cx.Faults) != 0 || len(cx.Losses) != 1 || cx.FaultCount() != 1 {
		t.Fatalf("found %s with faults %v and losses %v", cx.Violation, cx.Faults, cx.Losses)
	}
	if _, err := cx.Scenario("lost", "test"); err != nil {
		t.Fatal(err)
	}
	safe := newExplorer(t, Options{Base: base(t, "bully", 3), Faults: check.Loss, Budget: 0, Depth: 40}).Run(nil)
	if safe.Counterexample != nil || !safe.Exhausted {
		t.Fatalf("no loss allowed: %+v", safe)
	}
	t.Logf("%s after %d steps, lost %v; %d distinct states", cx.Violation, cx.Steps, cx.Losses, res.Distinct)
}
