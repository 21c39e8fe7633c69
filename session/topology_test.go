package session

import (
	"slices"
	"testing"

	"electsim/algo"
)

// A session shows its run's topology: a unidirectional ring's edges in ring order, each from a
// node to its successor — the direction a picture draws — and the complete graph's as none.
func TestTopology(t *testing.T) {
	s := open(t, "peterson-relays", nil)
	top := s.Topology()
	want := [][2]algo.ID{{3, 7}, {7, 1}, {1, 9}, {9, 4}, {4, 8}, {8, 2}, {2, 6}, {6, 3}}
	if top.Name() != algo.UniRing || !top.Directed() || !slices.Equal(top.Edges(), want) {
		t.Errorf("peterson-relays: %s, directed %v, edges %v", top.Name(), top.Directed(), top.Edges())
	}
	if c := open(t, "bully-boot", nil).Topology(); !c.IsComplete() || c.Edges() != nil {
		t.Errorf("bully-boot: %s, edges %v", c.Name(), c.Edges())
	}
}
