package bench

import (
	"strings"
	"testing"

	"electsim/algo"
	"electsim/sim"
)

// Every registered algorithm with a theory is measured beside it, read from the registry: a
// bound the count keeps, or for a randomised algorithm the mean over many seeds beside the
// expected value; and an algorithm with a bad-case ring order is measured on it too.
func TestRegistryTheories(t *testing.T) {
	for _, info := range algo.Algorithms() {
		th := info.Theory
		if th == nil || info.Name == "ring" || info.Name == "bully" {
			continue // those two have exact oracles (oracle.go)
		}
		for _, worst := range []bool{false, true} {
			if worst && th.WorstIDs == nil {
				continue
			}
			r, err := Measure(info.Name, 64, 1, sim.Inline, Options{Worst: worst})
			if err != nil {
				t.Fatal(err)
			}
			if th.OnGraph != nil && th.GraphExact {
				exact, ok := r.TheoryOf(info.Kinds[0])
				if r.Stopped != "" || !ok || exact.Note != th.GraphBound || exact.Exact <= 0 || len(r.Misses()) > 0 {
					t.Errorf("%s: stopped %q, theory %+v, misses %v", info.Name, r.Stopped, r.Theory, r.Misses())
				}
				continue
			}
			bound := th.Bound
			if th.OnGraph != nil {
				bound = th.GraphBound
			}
			all, ok := r.TheoryOf(AllKinds)
			switch {
			case r.Stopped != "":
				t.Errorf("%s: stopped: %s", info.Name, r.Stopped)
			case !ok || all.Note != bound:
				t.Errorf("%s: theory %+v, want the registry's %q", info.Name, r.Theory, th.Bound)
			case th.Expected && (r.Runs != Samples(64) || r.MeanSent <= 0 || all.Mean <= 0):
				t.Errorf("%s: %d runs, mean %v, expected %v", info.Name, r.Runs, r.MeanSent, all.Mean)
			case th.Expected && (r.MeanSent < 0.8*all.Mean || r.MeanSent > 1.2*all.Mean):
				t.Errorf("%s: %v messages on average over %d seeds, far from the expected %v", info.Name, r.MeanSent, r.Runs, all.Mean)
			case !th.Expected && (all.Bound <= 0 || len(r.Misses()) > 0):
				t.Errorf("%s: bound %d, misses %v", info.Name, all.Bound, r.Misses())
			}
		}
	}
}

// A count above its bound is reported as a miss, as an exact count that differs is.
func TestBoundMiss(t *testing.T) {
	r := Result{Kinds: []string{"A", "B"}, Sent: []int64{60, 50}, Steps: 1,
		Theory: []Theory{{Kind: AllKinds, Exact: -1, Bound: 100}}}
	if got := strings.Join(r.Misses(), "; "); got != "messages 110 > 100" {
		t.Errorf("misses %q", got)
	}
	r.Sent[1] = 40
	if got := r.Misses(); len(got) != 0 {
		t.Errorf("misses %q at the bound", got)
	}
}
