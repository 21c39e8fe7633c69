package algo

import (
	"slices"
	"strings"
	"testing"
)

func cluster(t *testing.T, topology string, ring ...ID) *Cluster {
	t.Helper()
	c, err := NewClusterOn(ring, topology, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Each topology's edges, neighbours and HasEdge agree with one another and with the ring order
// given, which is not the ids' order.
func TestTopologies(t *testing.T) {
	ring := []ID{3, 7, 1, 9}
	for _, c := range []struct {
		name     string
		edges    [][2]ID
		directed bool
		nbrs     map[ID][]ID
	}{
		{Complete, nil, false, map[ID][]ID{3: {1, 7, 9}, 9: {1, 3, 7}}},
		{UniRing, [][2]ID{{3, 7}, {7, 1}, {1, 9}, {9, 3}}, true, map[ID][]ID{3: {7}, 9: {3}, 1: {9}}},
		{BiRing, [][2]ID{{3, 7}, {7, 1}, {1, 9}, {9, 3}}, false, map[ID][]ID{3: {7, 9}, 9: {1, 3}, 1: {7, 9}}},
	} {
		top := cluster(t, c.name, ring...).Topology
		if top.Name() != c.name || top.Directed() != c.directed {
			t.Errorf("%s: name %q directed %v", c.name, top.Name(), top.Directed())
		}
		if got := top.Edges(); !slices.Equal(got, c.edges) {
			t.Errorf("%s: edges %v, want %v", c.name, got, c.edges)
		}
		for id, want := range c.nbrs {
			if got := top.Neighbours(id); !slices.Equal(got, want) {
				t.Errorf("%s: neighbours of %d %v, want %v", c.name, id, got, want)
			}
		}
		for _, a := range ring {
			for _, b := range append(slices.Clone(ring), 5) {
				want := slices.Contains(top.Neighbours(a), b)
				if got := top.HasEdge(a, b); got != want {
					t.Errorf("%s: HasEdge(%d, %d) = %v, but the neighbours of %d are %v", c.name, a, b, got, a, top.Neighbours(a))
				}
			}
		}
	}
}

// The small rings: two nodes on a bi-ring are one edge; one node has none.
func TestSmallRings(t *testing.T) {
	two := cluster(t, BiRing, 4, 2).Topology
	if got := two.Edges(); !slices.Equal(got, [][2]ID{{4, 2}}) || !two.HasEdge(2, 4) || !two.HasEdge(4, 2) {
		t.Errorf("bi-ring of 2: edges %v", got)
	}
	if got := two.Neighbours(4); !slices.Equal(got, []ID{2}) {
		t.Errorf("bi-ring of 2: neighbours %v", got)
	}
	one := cluster(t, UniRing, 5).Topology
	if one.Edges() != nil || one.HasEdge(5, 5) || one.Neighbours(5) != nil {
		t.Errorf("ring of 1: edges %v", one.Edges())
	}
}

func TestUnknownTopology(t *testing.T) {
	_, err := NewClusterOn([]ID{1, 2}, "torus", 0, nil)
	if err == nil || err.Error() != `unknown topology "torus" (choose one of complete, ring, bi-ring, line, star, grid:RxC, tree:K, random:D, file:PATH)` {
		t.Errorf("torus: %v", err)
	}
	if CheckTopology("") != nil || CheckTopology(BiRing) != nil {
		t.Error("CheckTopology refuses a topology that exists")
	}
}

// An algorithm refuses a topology it does not declare, naming those it does.
func TestInfoCheckTopology(t *testing.T) {
	a := &Info{Name: "x", Topologies: []string{BiRing}}
	if err := a.CheckTopology(UniRing); err == nil || !strings.HasSuffix(err.Error(), "it runs on bi-ring") {
		t.Errorf("x on ring: %v", err)
	}
	b := &Info{Name: "y"}
	if b.CheckTopology("") != nil || b.CheckTopology(Complete) != nil || b.CheckTopology(UniRing) == nil {
		t.Error("an algorithm declaring no topology runs on the complete graph, and only there")
	}
}

// Register adds an algorithm after electsim's own, refuses a name taken, and its undo leaves
// the registry as it was.
func TestRegister(t *testing.T) {
	before := Names()
	a := &Info{Name: "throwaway-x", New: func(id ID, c *Cluster) Node { return NewHS(id, c) }}
	undo := Register(a)
	if got, err := Lookup("throwaway-x"); err != nil || got != a || Names()[len(Names())-1] != "throwaway-x" {
		t.Errorf("after Register: %v, %v, names %v", got, err, Names())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Register of a name taken did not panic")
			}
		}()
		Register(&Info{Name: "ring", New: a.New})
	}()
	undo()
	if !slices.Equal(Names(), before) {
		t.Errorf("after undo: names %v, want %v", Names(), before)
	}
}
