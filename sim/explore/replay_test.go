package explore

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
	"electsim/sim/check"
)

// Any schedule the explorer can take — faults at any step boundary, losses, delays and draws
// chosen, among the base's own actions at the same instants — written as a run (the actions
// in the order they came, each after the inputs of its instant before it) replays exactly: the
// same inputs reach the same nodes at the same times, the same faults fall between them, and
// the nodes end in the same states.
func TestScheduleReplaysExactly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom([]string{"bully", "raft", "lease", "ring"}).Draw(t, "algo")
		n := 3
		if name == "lease" {
			n = 4
		}
		info, err := algo.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg := sim.DefaultConfig(info, n)
		ms := time.Millisecond
		// Base actions at instants the schedule reaches, some that do not commute with faults.
		for _, a := range []sim.Action{
			{At: 0, Op: sim.Partition, Groups: [][]algo.ID{{1, 2}, {3}}},
			{At: 0, Op: sim.Heal},
			{At: 5 * ms, Op: sim.Elect, Nodes: []algo.ID{1}},
			{At: 15 * ms, Op: sim.SetDelay, Link: &network.Link{From: 1, To: 2}, Delay: network.Delay{Min: 5 * ms, Max: 5 * ms}},
			{At: 15 * ms, After: 1, Op: sim.Cut, Link: &network.Link{From: 2, To: 1}},
			{At: 50 * ms, Op: sim.Heal},
			{At: 60 * ms, Op: sim.SetDelay, Delay: network.Delay{Min: 15 * ms, Max: 15 * ms}},
		} {
			if rapid.Bool().Draw(t, "base "+a.String()) {
				cfg.Actions = append(cfg.Actions, a)
			}
		}
		faults := check.Crash | check.Recover | check.Partition | check.Delay | check.Pause | check.Loss
		x, err := New(Options{Base: cfg, Faults: faults, Budget: 3, Depth: 40, Spike: 40 * ms})
		if err != nil {
			t.Fatal(err)
		}
		x.base.Trace = true
		var path []uint32
		w := worker{x: x}
		for range rapid.IntRange(1, 40).Draw(t, "steps") {
			w.path = w.path[:0]
			for _, p := range slices.Backward(path) {
				w.path = append(w.path, p)
			}
			used := 0
			for _, p := range path {
				used += cost(p)
			}
			kids := w.children(w.rebuild(), used, nil)
			if len(kids) == 0 {
				break
			}
			path = append(path, rapid.SampledFrom(kids).Draw(t, "transition").t)
		}
		// The schedule goes on, taking first choices, to the end of the instant it reached: the
		// run written of it is compared to the end of that instant.
		s, _, _ := x.replay(path)
		end := s.Now()
		for {
			c := s.Clone()
			if st, ok := c.StepChoosing(0); !ok || st.At > end {
				break
			}
			path, s = append(path, 0), c
		}
		s, cx, ran := x.replay(path)
		ran = x.rest(s, ran)
		replayCfg := x.config(ran, end)
		replayCfg.Draws, replayCfg.Trace, replayCfg.Engine = cx.Draws, true, sim.Inline
		replayCfg.RunFor = end + lossSpan
		replayCfg.Actions = slices.DeleteFunc(replayCfg.Actions, func(a sim.Action) bool { return a.At > replayCfg.RunFor })
		r, err := sim.New(replayCfg)
		if err != nil {
			t.Fatalf("the schedule as a run: %v\n%s", err, actionsText(replayCfg.Actions))
		}
		var want, got []string
		walk, used := x.root(), 0
		for _, p := range path {
			x.begin(walk, p>>faultShift)
			used += cost(p)
			x.allow(walk, used)
			st, _ := walk.StepChoosing(p & vecMask)
			want = append(want, inputs(st.Records)...)
		}
		for {
			st, ok := r.StepUntil(end)
			if !ok {
				break
			}
			got = append(got, inputs(st.Records)...)
		}
		if w, g := strings.Join(want, "\n"), strings.Join(got, "\n"); w != g {
			t.Fatalf("the run does not replay the schedule.\nschedule:\n%s\nreplay:\n%s\nactions:\n%s", w, g, actionsText(replayCfg.Actions))
		}
		for _, id := range cfg.IDs {
			if a, b := s.StatusOf(id), r.StatusOf(id); a != b {
				t.Fatalf("node %d ends %v in the schedule, %v in the run", id, a, b)
			}
		}
	})
}

// inputs writes what a step's records say happened to the nodes and the network, leaving out
// the records of delay and drop actions, which a run written of a schedule adds.
func inputs(recs []sim.Record) []string {
	var out []string
	for _, r := range recs {
		if r.Type == sim.RecFault && r.Action != nil && (r.Action.Op == sim.SetDelay || r.Action.Op == sim.SetDrop) {
			continue
		}
		line := fmt.Sprintf("%v %s %d %v %s %v %v→%v %d %s", r.At, r.Type, r.Node, r.Msg, r.Timer, r.DeliverAt, r.Old, r.New, r.Leader, r.Reason)
		if r.Action != nil {
			line += " " + r.Action.String()
		}
		out = append(out, line)
	}
	return out
}

func actionsText(as []sim.Action) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "  at %v after %d: %s\n", a.At, a.After, a)
	}
	return b.String()
}
