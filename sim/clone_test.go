package sim_test

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/report"
	"electsim/sim"
)

// stepper records a run's trace, step by step, as JSON Lines.
type stepper struct {
	s   *sim.Sim
	buf bytes.Buffer
	w   *report.JSONL
}

func newStepper(s *sim.Sim, prefix []byte) *stepper {
	st := &stepper{s: s}
	st.buf.Write(prefix)
	st.w = report.NewJSONL(&st.buf)
	return st
}

// step takes one step, recording it, and reports whether there was one.
func (st *stepper) step(t tb) bool { return st.stepUntil(t, st.s.Config().RunFor) }

// stepUntil takes one step due by time limit, recording it, and reports whether there was one.
func (st *stepper) stepUntil(t tb, limit time.Duration) bool {
	r, ok := st.s.StepUntil(limit)
	for i := range r.Records {
		if err := st.w.Write(&r.Records[i]); err != nil {
			t.Fatal(err)
		}
	}
	return ok
}

// trace returns what has been recorded.
func (st *stepper) trace(t tb) []byte {
	if err := st.w.Flush(); err != nil {
		t.Fatal(err)
	}
	return slices.Clone(st.buf.Bytes())
}

// How the original and its copy go on after Clone.
const (
	originalFirst = iota // the original to its end, then the copy
	copyFirst            // the copy to its end, then the original
	inTurn               // a step of one, a step of the other
	atOnce               // each on a goroutine of its own, at the same time (for the race detector)
	copyInBulk           // the original step by step, the copy with Run: the summary only
	forkInTurn           // each given faults of its own, then a step of one, a step of the other
	forkAtOnce           // each given faults of its own, then both at the same time
	ways
)

// A copy made at any step of any run — every algorithm, random faults of every kind, either
// engine — and the original, each run to the end in any order or at the same time, give
// exactly the trace and summary of the same run never copied.
func TestCloneGoesOnAsTheOriginal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(algo.Names()).Draw(t, "algo")
		n := rapid.IntRange(minNodes(name), 6).Draw(t, "nodes")
		ids := rapid.Permutation(seq(1, n, 1)).Draw(t, "ring")
		cfg := sim.DefaultConfig(lookup(t, name), n)
		cfg.IDs = ids
		cfg.Seed = rapid.Uint64().Draw(t, "seed")
		cfg.RunFor = 1500 * ms
		cfg.Network = network.Config{
			Delay: network.Delay{Min: 1 * ms, Max: time.Duration(rapid.IntRange(1, 30).Draw(t, "max delay")) * ms},
			Drop:  float64(rapid.IntRange(0, 10).Draw(t, "drop %")) / 100,
			FIFO:  rapid.Bool().Draw(t, "fifo"),
		}
		cfg.Actions = genSchedule(t, ids, cfg.RunFor)
		cfg.Engine = rapid.SampledFrom(engines).Draw(t, "engine")
		cfg.Trace = true

		want, wantSum := jsonlAndSummary(t, cfg)
		steps := bytes.Count(want, []byte(`"step"`)) // an upper bound on the steps is enough
		at := rapid.IntRange(0, steps+1).Draw(t, "clone at step")
		way := rapid.IntRange(0, ways-1).Draw(t, "way")

		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		orig := newStepper(s, nil)
		for range at {
			if !orig.step(t) {
				break
			}
		}
		c := s.Clone()
		cp := newStepper(c, orig.trace(t))
		wantCopy, wantCopySum := want, wantSum
		if way == forkInTurn || way == forkAtOnce {
			// Each goes its own way: faults of its own from now on, and the run that had them
			// scheduled from the start is what each must give.
			mine, theirs := forkActions(t, s), forkActions(t, s)
			want, wantSum = jsonlAndSummary(t, withActions(cfg, mine))
			wantCopy, wantCopySum = jsonlAndSummary(t, withActions(cfg, theirs))
			scheduleAll(t, s, mine)
			scheduleAll(t, c, theirs)
		}
		switch way {
		case originalFirst:
			for orig.step(t) {
			}
			for cp.step(t) {
			}
		case copyFirst, copyInBulk:
			if way == copyInBulk {
				c.Run()
			} else {
				for cp.step(t) {
				}
			}
			for orig.step(t) {
			}
		case inTurn, forkInTurn:
			for a, b := true, true; a || b; {
				a = orig.step(t) && a
				b = cp.step(t) && b
			}
		case atOnce, forkAtOnce:
			var wg sync.WaitGroup
			wg.Go(func() {
				for cp.step(t) {
				}
			})
			for orig.step(t) {
			}
			wg.Wait()
		}
		if got := orig.trace(t); !bytes.Equal(got, want) {
			t.Fatalf("the original, copied at step %d (%s), went on differently:\n%s", at, wayName(way), firstDiff(want, got))
		}
		if got := fmt.Sprint(s.Summary()); got != wantSum {
			t.Fatalf("the original, copied at step %d (%s), sums up differently:\n%s\nnot\n%s", at, wayName(way), got, wantSum)
		}
		if way != copyInBulk {
			if got := cp.trace(t); !bytes.Equal(got, wantCopy) {
				t.Fatalf("the copy made at step %d (%s) went on differently:\n%s", at, wayName(way), firstDiff(wantCopy, got))
			}
		}
		if got := fmt.Sprint(c.Summary()); got != wantCopySum {
			t.Fatalf("the copy made at step %d (%s) sums up differently:\n%s\nnot\n%s", at, wayName(way), got, wantCopySum)
		}
	})
}

func wayName(way int) string {
	return [...]string{"original first", "copy first", "in turn", "at once", "copy in bulk",
		"a fork, in turn", "a fork, at once"}[way]
}

// forkActions draws faults for a run from its next millisecond to its end.
func forkActions(t *rapid.T, s *sim.Sim) []sim.Action {
	cfg := s.Config()
	from := s.Now().Truncate(time.Millisecond) + time.Millisecond
	if from >= cfg.RunFor {
		return nil
	}
	actions := genSchedule(t, cfg.IDs, cfg.RunFor-from)
	for i := range actions {
		actions[i].At += from
	}
	return actions
}

func withActions(cfg sim.Config, more []sim.Action) sim.Config {
	cfg.Actions = append(slices.Clone(cfg.Actions), more...)
	return cfg
}

func scheduleAll(t tb, s *sim.Sim, actions []sim.Action) {
	for _, a := range actions {
		if err := s.Schedule(a); err != nil {
			t.Fatal(err)
		}
	}
}

// jsonlAndSummary runs cfg never copied and returns its trace and summary.
func jsonlAndSummary(t tb, cfg sim.Config) ([]byte, string) {
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := newStepper(s, nil)
	for st.step(t) {
	}
	return st.trace(t), fmt.Sprint(s.Summary())
}

// A fork: at a moment when a split brain is under way, a node is paused with messages held for
// it and an action has been scheduled already, the run is copied, and each side is given faults
// of its own — "what if 3 had crashed instead?". Stepped in turn, each goes on as the run with
// its faults scheduled from the start: nothing one side changes — the actions scheduled, the
// inputs held, the split brain, the leaders and recoveries and violations recorded — reaches the
// other. Every algorithm, both engines.
func TestCloneForks(t *testing.T) {
	act := at
	base := []sim.Action{
		{At: 100 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1, 2, 3}, {4, 5}}},
		act(150*ms, sim.Pause, 2),
	}
	before := act(510*ms, sim.Say) // scheduled on the original before it is copied
	before.Text = "scheduled before the copy"
	// Mine splits the brain three ways while theirs keeps the split as it is, then ends it.
	mine := []sim.Action{{At: 550 * ms, Op: sim.Partition, Groups: [][]algo.ID{{1}, {2, 3}, {4, 5}}},
		act(650*ms, sim.Resume, 2), {At: 900 * ms, Op: sim.Heal}, act(1000*ms, sim.Crash, 5), act(1100*ms, sim.Recover, 5)}
	theirs := []sim.Action{act(550*ms, sim.Crash, 4), act(700*ms, sim.Resume, 2), {At: 1000 * ms, Op: sim.Heal},
		act(1100*ms, sim.Crash, 5), act(1200*ms, sim.Recover, 4)}
	for _, name := range algo.Names() {
		for _, e := range engines {
			cfg := fixed(t, name, 5, 10*ms, e)
			cfg.Actions, cfg.RunFor, cfg.Trace = base, 1500*ms, true
			want, wantSum := jsonlAndSummary(t, withActions(cfg, append([]sim.Action{before}, mine...)))
			wantFork, wantForkSum := jsonlAndSummary(t, withActions(cfg, append([]sim.Action{before}, theirs...)))

			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			orig := newStepper(s, nil)
			for orig.stepUntil(t, 500*ms) {
			}
			// An algorithm that recovers and always elects the same winner elects one on each side
			// of the partition — unless a leader needs a majority, as Zab's does; Raft, a lease and
			// ZooKeeper's recipe lead nowhere here, and the ring catalog, which does not recover,
			// elects once before the partition.
			info := lookup(t, name)
			if split := info.Recovers && info.Winner != algo.AnyWinner && !info.Quorum; split && len(s.Leaders()) < 2 {
				t.Errorf("%s/%s: no split brain under way when the run is copied: leaders %v", name, e, s.Leaders())
			}
			scheduleAll(t, s, []sim.Action{before})
			c := s.Clone()
			for i := range max(len(mine), len(theirs)) { // in turn: each side's list grows as the other's does
				if i < len(mine) {
					scheduleAll(t, s, mine[i:i+1])
				}
				if i < len(theirs) {
					scheduleAll(t, c, theirs[i:i+1])
				}
			}
			fork := newStepper(c, orig.trace(t))
			for a, b := true, true; a || b; {
				a = orig.step(t) && a
				b = fork.step(t) && b
			}
			if got := orig.trace(t); !bytes.Equal(got, want) {
				t.Errorf("%s/%s: the original went on differently beside its fork:\n%s", name, e, firstDiff(want, got))
			}
			if got := fork.trace(t); !bytes.Equal(got, wantFork) {
				t.Errorf("%s/%s: the fork differs from the run with its faults from the start:\n%s", name, e, firstDiff(wantFork, got))
			}
			if got := fmt.Sprint(s.Summary()); got != wantSum {
				t.Errorf("%s/%s: the original sums up as\n%s\nnot\n%s", name, e, got, wantSum)
			}
			if got := fmt.Sprint(c.Summary()); got != wantForkSum {
				t.Errorf("%s/%s: the fork sums up as\n%s\nnot\n%s", name, e, got, wantForkSum)
			}
		}
	}
}

// metronome is a test algorithm with more timers than a node's record keeps inline: node i
// sets six timers, t0 … t5, each firing every (k+1)×7ms, and leads while t5 has fired an odd
// number of times.
type metronome struct {
	id    algo.ID
	beats int
}

func (n *metronome) Start(env algo.Env) {
	for k := range 6 {
		env.SetTimer(fmt.Sprintf("t%d", k), time.Duration(k+1)*7*ms)
	}
}
func (n *metronome) Receive(env algo.Env, m algo.Message) {}
func (n *metronome) Timer(env algo.Env, name string) {
	k := int(name[1] - '0')
	env.SetTimer(name, time.Duration(k+1)*7*ms)
	if k == 5 {
		n.beats++
	}
}
func (n *metronome) Elect(env algo.Env) {}
func (n *metronome) State() algo.State {
	if n.beats%2 == 1 {
		return algo.State{Status: algo.Leader, Leader: n.id}
	}
	return algo.State{}
}
func (n *metronome) Clone() algo.Node { c := *n; return &c }
func (n *metronome) AppendState(b []byte, _ time.Duration) []byte {
	return fmt.Appendf(b, "%d %d;", n.id, n.beats)
}

// The timers a node keeps beyond its record's own are copied too: crashing a node in the fork
// stops its timers there, not in the original.
func TestCloneForksManyTimers(t *testing.T) {
	info := &algo.Info{Name: "metronome", New: func(id algo.ID, c *algo.Cluster) algo.Node { return &metronome{id: id} }}
	for _, e := range engines {
		cfg := sim.DefaultConfig(info, 2)
		cfg.Engine, cfg.RunFor, cfg.Trace = e, 300*ms, true
		crash := []sim.Action{at(100*ms, sim.Crash, 2), at(150*ms, sim.Recover, 2)}
		want, _ := jsonlAndSummary(t, cfg)
		wantFork, _ := jsonlAndSummary(t, withActions(cfg, crash))
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		orig := newStepper(s, nil)
		for orig.stepUntil(t, 60*ms) {
		}
		c := s.Clone()
		scheduleAll(t, c, crash)
		fork := newStepper(c, orig.trace(t))
		for a, b := true, true; a || b; {
			a = orig.step(t) && a
			b = fork.step(t) && b
		}
		if got := orig.trace(t); !bytes.Equal(got, want) {
			t.Errorf("%s: the original went on differently beside its fork:\n%s", e, firstDiff(want, got))
		}
		if got := fork.trace(t); !bytes.Equal(got, wantFork) {
			t.Errorf("%s: the fork differs from the run with the crash from the start:\n%s", e, firstDiff(wantFork, got))
		}
	}
}

// A copy of a run that has ended has ended; a copy of a copy goes on as the original; a copy
// on the goroutine engine starts no goroutines until it steps, and Close stops those it
// started.
func TestCloneLifecycle(t *testing.T) {
	cfg := stormy(t, "raft", 3, sim.Goroutine)
	cfg.Trace = true
	want, wantSum := jsonlAndSummary(t, cfg)

	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := newStepper(s, nil)
	for range 300 {
		st.step(t)
	}
	prefix := st.trace(t)
	var copies []*sim.Sim
	before := runtime.NumGoroutine()
	for range 50 {
		copies = append(copies, s.Clone()) // checkpoints: none may start goroutines
	}
	if started := runtime.NumGoroutine() - before; started > 0 {
		t.Errorf("50 copies of a run of %d nodes, never stepped, started %d goroutines", len(cfg.IDs), started)
	}
	cc := s.Clone().Clone()
	second := newStepper(cc, prefix)
	for second.step(t) {
	}
	if got := second.trace(t); !bytes.Equal(got, want) {
		t.Errorf("a copy of a copy went on differently:\n%s", firstDiff(want, got))
	}
	for _, c := range copies {
		c.Close()
		if _, ok := c.Step(); ok {
			t.Error("a closed copy stepped")
		}
	}
	s.Run()
	ended := s.Clone()
	if !ended.Done() {
		t.Error("the copy of a run that has ended has not")
	}
	if _, ok := ended.Step(); ok {
		t.Error("the copy of a run that has ended took a step")
	}
	if got := fmt.Sprint(ended.Summary()); got != wantSum {
		t.Errorf("the copy of an ended run sums up as\n%s\nnot\n%s", got, wantSum)
	}
}
