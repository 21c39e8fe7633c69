package sim_test

import (
	"testing"
	"time"

	"electsim/algo"
	"electsim/sim"
)

// firstCandidate runs cfg until a node stands for election, returning it and when.
func firstCandidate(t *testing.T, cfg sim.Config) (algo.ID, time.Duration) {
	t.Helper()
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, ok := s.Step(); !ok {
			t.Fatal("no node stood for election")
		}
		for _, id := range cfg.IDs {
			if s.StatusOf(id) == sim.Status(algo.Candidate) {
				return id, s.Now()
			}
		}
	}
}

// Pinned draws take the points of the range they name, in order, on either engine: Raft's
// election timeout of 150ms..300ms is 150ms at low, 300ms at high, 225ms at middle.
func TestPinnedDraws(t *testing.T) {
	for _, e := range engines {
		cfg := fixed(t, "raft", 3, 10*time.Millisecond, e)
		cfg.RunFor = 2 * time.Second
		cfg.Draws = []sim.NodeDraws{{Node: 1, Points: []sim.DrawPoint{sim.DrawHigh}},
			{Node: 2, Points: []sim.DrawPoint{sim.DrawMiddle}}, {Node: 3, Points: []sim.DrawPoint{sim.DrawHigh}}}
		if id, at := firstCandidate(t, cfg); id != 2 || at != 225*time.Millisecond {
			t.Errorf("%s: node %d stood first, at %s; want node 2 at 225ms", e, id, at)
		}
		cfg.Draws = []sim.NodeDraws{{Node: 3, Points: []sim.DrawPoint{sim.DrawLow}}}
		if id, at := firstCandidate(t, cfg); id != 3 || at != 150*time.Millisecond {
			t.Errorf("%s: node %d stood first, at %s; want node 3 at 150ms", e, id, at)
		}
	}
	cfg := fixed(t, "raft", 3, 10*time.Millisecond, sim.Inline)
	cfg.Draws = []sim.NodeDraws{{Node: 4, Points: []sim.DrawPoint{sim.DrawLow}}}
	if _, err := sim.New(cfg); err == nil {
		t.Error("draws of node 4, not in the cluster: no error")
	}
}
