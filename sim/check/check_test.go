package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/sim"
)

func TestParseFaults(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"none", "none"},
		{"crash", "crash"},
		{"recover", "crash,recover"}, // a recovery needs a crash
		{"loss,partition, crash", "crash,partition,loss"},
		{"crash,recover,partition,delay,pause,loss", "crash,recover,partition,delay,pause,loss"},
	} {
		f, err := ParseFaults(tt.in)
		if err != nil || f.String() != tt.want {
			t.Errorf("ParseFaults(%q) = %v, %v; want %s", tt.in, f, err, tt.want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"crash,explode", `unknown fault class "explode" (choose from crash, recover, partition, delay, pause, loss, drift, or none)`},
		{"", "expected fault classes separated by commas, such as crash,partition (or none)"},
		{"crash,", "expected fault classes separated by commas, such as crash,partition (or none)"},
	} {
		if _, err := ParseFaults(tt.in); err == nil || err.Error() != tt.want {
			t.Errorf("ParseFaults(%q): error %v, want %s", tt.in, err, tt.want)
		}
	}
}

func TestProperties(t *testing.T) {
	want := map[string]string{
		"bully": "at-most-one-leader agreement eventual-leader",
		"raft":  "at-most-one-leader one-leader-per-term agreement eventual-leader",
		"lease": "at-most-one-leader one-leader-per-term agreement eventual-leader no-stale-write",
	}
	for name, props := range want {
		info, _ := algo.Lookup(name)
		if got := strings.Join(Properties(info), " "); got != props {
			t.Errorf("%s: %s, want %s", name, got, props)
		}
	}
	bully, _ := algo.Lookup("bully")
	for prop, want := range map[string]string{
		"no-stale-write": `bully has no property "no-stale-write" (its properties are at-most-one-leader, agreement, eventual-leader)`,
		"liveness":       `unknown property "liveness" (choose one of at-most-one-leader, agreement, eventual-leader)`,
	} {
		if err := ValidateProperty(bully, prop); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", prop, err, want)
		}
	}
}

// Options that cannot make a check say what to change.
func TestNewErrors(t *testing.T) {
	short := base(t, "bully", 5)
	short.RunFor = time.Second
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{Base: base(t, "bully", 5), Runs: 0}, "check: 0 runs: expected at least 1"},
		{Options{Base: base(t, "bully", 5), Runs: 1, Property: "no-stale-write"}, `bully has no property "no-stale-write" (its properties are at-most-one-leader, agreement, eventual-leader)`},
		{Options{Base: short, Runs: 1}, "a run of 1s leaves no time for faults: bully needs 1.3s to settle after them; expected a run of at least 1.4s"},
	} {
		if _, err := New(tt.opts); err == nil || err.Error() != tt.want {
			t.Errorf("error %v, want %s", err, tt.want)
		}
	}
}

// The result is the same whatever the number of workers: outcomes are taken in run order.
func TestDeterministicAcrossWorkers(t *testing.T) {
	all, _ := ParseFaults("crash,recover,partition,delay,pause,loss")
	var want string
	for _, workers := range []int{1, 3} {
		c := newCheck(t, Options{Base: base(t, "ring", 5), Faults: all, Runs: 80, Workers: workers, Keep: 3})
		res := c.Run(nil)
		got := fmt.Sprint(res.Runs, res.Failed, res.Halted)
		for _, f := range res.Failures {
			cx := c.Shrink(f)
			got += fmt.Sprintf("\n%d %d %v %v | %v %v", f.Run, f.Seed, f.Violation, f.Schedule, cx.Schedule, cx.Violation)
		}
		if workers == 1 {
			want = got
			if res.Failed == 0 {
				t.Fatal("no failure to compare")
			}
		} else if got != want {
			t.Fatalf("%d workers:\n%s\n1 worker:\n%s", workers, got, want)
		}
	}
}

// StopAfter ends the check at the run of the n-th failure, as if Runs had been that many.
func TestStopAfter(t *testing.T) {
	full := newCheck(t, Options{Base: base(t, "bully", 5), Faults: Partition, Runs: 50, Keep: 50}).Run(nil)
	if len(full.Failures) < 3 {
		t.Fatalf("want 3 failures to stop at, got %d", len(full.Failures))
	}
	third := full.Failures[2].Run
	stopped := newCheck(t, Options{Base: base(t, "bully", 5), Faults: Partition, Runs: 50, Keep: 50, StopAfter: 3}).Run(nil)
	if stopped.Runs != third+1 || stopped.Failed != 3 || stopped.Failures[2].Run != third {
		t.Errorf("stopped after %d runs with %d failures, want %d runs and 3", stopped.Runs, stopped.Failed, third+1)
	}
}

// Run k has seed Seed+k, and a check of that seed alone finds and shrinks the same failure:
// what the printed reproduction command relies on.
func TestReproduceBySeed(t *testing.T) {
	b := base(t, "bully", 5)
	b.Seed = 40
	res := newCheck(t, Options{Base: b, Faults: Pause, Runs: 100, StopAfter: 1}).Run(nil)
	if res.Failed == 0 {
		t.Fatal("no failure")
	}
	f := res.Failures[0]
	if f.Seed != 40+uint64(f.Run) {
		t.Fatalf("run %d has seed %d", f.Run, f.Seed)
	}
	b.Seed = f.Seed
	c := newCheck(t, Options{Base: b, Faults: Pause, Runs: 1})
	again := c.Run(nil)
	if again.Failed != 1 || fmt.Sprint(again.Failures[0].Schedule) != fmt.Sprint(f.Schedule) {
		t.Fatalf("seed %d alone: %d failures, schedule %v; want %v", f.Seed, again.Failed, again.Failures, f.Schedule)
	}
	a, z := c.Shrink(f), c.Shrink(again.Failures[0])
	if fmt.Sprint(a.Config.Actions, a.Config.IDs) != fmt.Sprint(z.Config.Actions, z.Config.IDs) {
		t.Errorf("the same failure shrank two ways:\n%s\n%s", lines(a.Config.Actions), lines(z.Config.Actions))
	}
}

// Bully under a partition shrinks to at most 3 actions, whichever failing run is shrunk.
func TestBullyPartitionShrinks(t *testing.T) {
	c := newCheck(t, Options{Base: base(t, "bully", 5), Faults: Partition, Runs: 200, Keep: 5})
	res := c.Run(nil)
	if len(res.Failures) < 5 {
		t.Fatalf("%d failures, want 5", len(res.Failures))
	}
	fewerNodes, earlier := 0, 0
	for _, f := range res.Failures {
		cx := c.Shrink(f)
		if n := cx.Schedule.Size().Actions; n > 3 {
			t.Errorf("run %d (seed %d) shrank from %v to %v:\n%s", f.Run, f.Seed, f.Schedule.Size(), cx.Schedule.Size(), lines(cx.Schedule.Actions))
		}
		if cx.Schedule.Size().Nodes < f.Schedule.Size().Nodes {
			fewerNodes++
		}
		if firstFault(cx.Schedule.Actions) < firstFault(f.Schedule.Actions) {
			earlier++
		}
	}
	// Two leaders need no more than two nodes, and the partition need not wait.
	if fewerNodes == 0 || earlier == 0 {
		t.Errorf("of %d counterexamples %d shrank to fewer nodes and %d to an earlier partition, want some of each",
			len(res.Failures), fewerNodes, earlier)
	}
}

// firstFault is the time of the schedule's first partition.
func firstFault(as []sim.Action) time.Duration {
	for _, a := range as {
		if a.Op == sim.Partition {
			return a.At
		}
	}
	return -1
}

// Every schedule ends with its faults undone: applying the closing logic once more to the whole
// schedule finds nothing left to undo, and at the end of the window no node is paused, no link
// cut and — when recoveries are checked — no node crashed.
func TestSchedulesEndHealed(t *testing.T) {
	all, _ := ParseFaults("crash,recover,partition,delay,pause,loss")
	for _, faults := range []Faults{all, Crash | Partition | Pause} {
		c := newCheck(t, Options{Base: base(t, "bully", 5), Faults: faults, Runs: 1})
		rapid.Check(t, func(rt *rapid.T) {
			sc := c.schedule(c.generate(rapidSource{rt}))
			if rest := c.closing(sc.IDs, sc.Actions, sc.End); len(rest) > 0 {
				rt.Fatalf("left to undo after the closing: %v\n%s", rest, lines(sc.Actions))
			}
			for _, a := range sc.Actions {
				if a.At > sc.End || a.Op == sim.Say {
					rt.Fatalf("action after the window or narration: %v", a)
				}
			}
			cfg := c.config(c.planOf(sc), 1, nil)
			s, err := sim.New(cfg)
			if err != nil {
				rt.Fatal(err)
			}
			defer s.Close()
			s.RunUntil(sc.End)
			if s.Partition() != nil || len(s.Cuts()) > 0 {
				rt.Fatalf("partition %v, cuts %v after the window", s.Partition(), s.Cuts())
			}
			for _, n := range s.Nodes() {
				if n.Status == sim.Paused || n.Status == sim.Crashed && faults.Has(Recover) {
					rt.Fatalf("node %d is %s after the window\n%s", n.ID, n.Status, lines(sc.Actions))
				}
			}
		})
	}
}

// planOf turns a whole schedule back into a plan whose closing is empty: for running
// it as it stands.
func (c *Check) planOf(sc Schedule) plan {
	return plan{ids: sc.IDs, faults: slices.Clone(sc.Actions), end: sc.End}
}

// Shrinking removes nodes with the faults that name them, and keeps the base's own actions.
func TestWithout(t *testing.T) {
	p := plan{ids: []algo.ID{1, 2, 3}, fixed: []sim.Action{{Op: sim.Crash, Nodes: []algo.ID{3}}}, faults: []sim.Action{
		{Op: sim.Partition, Groups: [][]algo.ID{{1}, {2, 3}}},
		{Op: sim.Pause, Nodes: []algo.ID{2}},
		{Op: sim.Crash, Nodes: []algo.ID{1, 2}},
	}}
	q, ok := p.without(2)
	if !ok || fmt.Sprint(q.ids, q.faults) != fmt.Sprint([]algo.ID{1, 3}, []sim.Action{
		{Op: sim.Partition, Groups: [][]algo.ID{{1}, {3}}},
		{Op: sim.Crash, Nodes: []algo.ID{1}},
	}) {
		t.Errorf("without 2: %v %v", q.ids, q.faults)
	}
	if len(p.faults) != 3 || len(p.ids) != 3 {
		t.Errorf("without changed the plan it was given: %v %v", p.ids, p.faults)
	}
	if _, ok := p.without(3); ok {
		t.Error("removed node 3, which an action of the base names")
	}
}

func TestBisect(t *testing.T) {
	for _, tt := range []struct{ lo, hi, first, want time.Duration }{
		{0, 100, 37, 37}, {0, 100, 0, 0}, {5, 100, 100, 100}, {10, 10, 10, 10},
	} {
		calls := 0
		got := bisect(tt.lo, tt.hi, func(v time.Duration) bool { calls++; return v >= tt.first })
		if got != tt.want || calls > 9 {
			t.Errorf("bisect(%d, %d) for ≥%d = %d in %d calls", tt.lo, tt.hi, tt.first, got, calls)
		}
	}
}

// eventual-leader is not owed where no leader can be: a Raft minority, a lease without its lock
// service, ZooKeeper's recipe without its coordination service. agreement, judged at the end of the run, is.
func TestEventualLeaderExcusesImpossibleCases(t *testing.T) {
	for _, name := range []string{"raft", "lease", "zookeeper"} {
		b := base(t, name, 5)
		el := newCheck(t, Options{Base: b, Faults: Crash, Property: EventualLeader, Runs: 120}).Run(nil)
		ag := newCheck(t, Options{Base: b, Faults: Crash, Property: sim.Agreement, Runs: 120}).Run(nil)
		if el.Failed != 0 || ag.Failed == 0 {
			t.Errorf("%s under crashes: eventual-leader broken in %d runs, agreement in %d; want 0 and some", name, el.Failed, ag.Failed)
		}
	}
}

// Every algorithm that declares it recovers (algo.Info.Recovers) settles after any mix of
// faults: eventual-leader holds. One that declares it does not is shown not to: the
// declaration is honest both ways.
func TestEventualLeader(t *testing.T) {
	all, _ := ParseFaults("crash,recover,partition,delay,pause,loss")
	for _, info := range algo.Algorithms() {
		name := info.Name
		res := newCheck(t, Options{Base: base(t, name, 5), Faults: all, Property: EventualLeader, Runs: 60}).Run(nil)
		switch {
		case res.Halted > 0:
			t.Errorf("%s: %d runs halted; first: %v", name, res.Halted, res.Failures)
		case info.Recovers && res.Failed > 0:
			t.Errorf("%s: eventual-leader broken in %d runs; first: %v", name, res.Failed, res.Failures)
		case !info.Recovers && res.Failed == 0:
			t.Errorf("%s declares it does not recover after faults, but eventual-leader held in every run", name)
		}
	}
}

// The narration of a split brain that lasts no time — one node becomes a leader as another
// stops, at the same instant — says so in words, not "until" the time it began.
func TestExplainSaysASplitOfNoDurationInWords(t *testing.T) {
	c := newCheck(t, Options{Base: base(t, "lowest-id", 5), Faults: Pause, Runs: 1})
	z := Size{Actions: 2, Nodes: 5, RunFor: 2 * time.Second}
	for _, tt := range []struct {
		to   time.Duration
		want string
	}{
		{614 * time.Millisecond, "At 614ms, for an instant, nodes 1 and 5 both believe they lead: at-most-one-leader is broken. "},
		{620 * time.Millisecond, "At 614ms nodes 1 and 5 both believe they lead, until 620ms: at-most-one-leader is broken. "},
	} {
		v := sim.Violation{Property: sim.AtMostOneLeader, From: 614 * time.Millisecond, To: tt.to, Nodes: []algo.ID{1, 5}}
		if got := c.explain(v, z, z); !strings.HasPrefix(got, tt.want) {
			t.Errorf("until %v: %q, want it to begin %q", tt.to, got, tt.want)
		}
	}
}
