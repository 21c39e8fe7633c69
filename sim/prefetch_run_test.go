package sim

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"electsim/algo"
	"electsim/network"
)

// Among enough nodes for the engine to fetch ahead, a run with faults — crashes, a recovery, a
// pause — is the same with the fetching as without it, record for record, on both engines and
// with fixed and random delays; and all along, the engine's array of state addresses names
// each node's state.
func TestPrefetchChangesNothing(t *testing.T) {
	const n = prefetchNodes + 100
	a, err := algo.Lookup("ring")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Engine{Inline, Goroutine} {
		for _, delay := range []network.Delay{{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond}, {Min: 5 * time.Millisecond, Max: 15 * time.Millisecond}} {
			t.Run(fmt.Sprintf("%s/%s", e, delay), func(t *testing.T) {
				cfg := DefaultConfig(a, n)
				cfg.Engine, cfg.Trace, cfg.RunFor = e, true, 150*time.Millisecond
				cfg.Network.Delay = delay
				cfg.StallSteps = math.MaxInt // thousands of steps at one instant are no loop here
				ms := time.Millisecond
				cfg.Actions = []Action{
					// While the ELECTIONs of every node are in flight.
					{At: 5 * ms, Op: Crash, Nodes: []algo.ID{5, 6}},
					{At: 8 * ms, Op: Pause, Nodes: []algo.ID{7}},
					{At: 12 * ms, Op: Recover, Nodes: []algo.ID{5}},
					{At: 15 * ms, Op: Resume, Nodes: []algo.ID{7}},
					{At: 18 * ms, Op: Crash, Nodes: []algo.ID{n}},
				}
				with := prefetchRun(t, cfg, true)
				without := prefetchRun(t, cfg, false)
				if len(with) < 3*n {
					t.Fatalf("only %d records: the run is too short to mean anything", len(with))
				}
				if !reflect.DeepEqual(with, without) {
					for i := range min(len(with), len(without)) {
						if !reflect.DeepEqual(with[i], without[i]) {
							t.Fatalf("record %d differs: %+v with the fetching ahead, %+v without", i, with[i], without[i])
						}
					}
					t.Fatalf("%d records with the fetching ahead, %d without", len(with), len(without))
				}
			})
		}
	}
}

// prefetchRun runs cfg, fetching ahead or not, and returns its records. Fetching, it checks after
// every action's instant and every 100 steps that the state addresses are the
// nodes' states, and that every queued key names its payload's node — what prefetch reads.
func prefetchRun(t *testing.T, cfg Config, fetch bool) []Record {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.prefetcher.states == nil {
		t.Fatal("no fetching ahead among", len(s.nodes), "nodes")
	}
	if !fetch {
		s.prefetcher.states = nil
	}
	synced := func() {
		for i := range s.nodes {
			if got, want := s.prefetcher.states[i], statePtr(s.nodes[i].node); got != want {
				t.Fatalf("at %s: node %d's state is at %p, the array says %p", s.now, s.nodeID(&s.nodes[i]), want, got)
			}
		}
		s.q.each(func(k qkey) {
			if e := s.q.event(k.idx); k.node != e.node {
				t.Fatalf("at %s: a queued key names node index %d, its event is for %d", s.now, k.node, e.node)
			}
		})
	}
	var due []time.Duration // the times of the actions not yet checked after
	for _, a := range cfg.Actions {
		due = append(due, a.At)
	}
	var recs []Record
	for {
		r, ok := s.Step()
		if !ok {
			break
		}
		recs = append(recs, r.Records...)
		if fetch && r.Step%100 == 0 {
			synced()
		}
		for fetch && len(due) > 0 && r.At > due[0] {
			synced() // the first step after an action's instant
			due = due[1:]
		}
	}
	if fetch {
		synced()
	}
	if h := s.Summary().Halted; h != "" {
		t.Fatalf("the run halted: %s", h)
	}
	return recs
}
