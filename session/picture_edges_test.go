package session

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// pictureOf returns a session of algorithm name on topology with n nodes, played to at.
func pictureOf(t *testing.T, name, topology string, n int) (*Session, *Picture) {
	t.Helper()
	info, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, n)
	cfg.Topology = topology
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.Engine = sim.Inline
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	s.PlayTo(15 * ms)
	var p Picture
	s.Picture(&p, 0)
	return s, &p
}

// TestPictureJSONRing pins the picture's JSON of a one-way ring — its topology, edges in ring
// order and direction, what a web page reads to draw the ring and its arrows (go test ./session
// -update rewrites it; review the diff).
func TestPictureJSONRing(t *testing.T) {
	_, p := pictureOf(t, "peterson", algo.UniRing, 4)
	out, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, append(out, '\n'))
}

// The picture carries the topology's edges while its layout shows them — a ring up to RingMax,
// a graph up to GraphMax — the same slice every frame, and none for the complete graph or where
// the nodes are in rows.
func TestPictureEdges(t *testing.T) {
	for _, c := range []struct {
		algo, topology string
		n              int
		layout         string
		edges          int
		directed       bool
	}{
		{"peterson", algo.UniRing, 5, "ring", 5, true},
		{"hs", algo.BiRing, 6, "ring", 6, false},
		{"floodmax", "grid:3x4", 12, "graph", 17, false},
		{"echo", "tree:2", 7, "graph", 6, false},
		{"bully", algo.Complete, 5, "ring", 0, false},
		{"peterson", algo.UniRing, RingMax + 1, "grid", 0, true},
		{"floodmax", "random:3", GraphMax + 1, "grid", 0, false},
	} {
		s, p := pictureOf(t, c.algo, c.topology, c.n)
		if p.Layout != c.layout || len(p.Edges) != c.edges || p.Directed != c.directed {
			t.Errorf("%s on %s of %d: layout %q, %d edges, directed %v; want %q, %d, %v",
				c.algo, c.topology, c.n, p.Layout, len(p.Edges), p.Directed, c.layout, c.edges, c.directed)
		}
		if want := c.topology; c.topology == algo.Complete && p.Topology != "" || c.topology != algo.Complete && p.Topology != want {
			t.Errorf("%s on %s: topology %q", c.algo, c.topology, p.Topology)
		}
		top := s.Topology()
		for _, e := range p.Edges {
			if !top.HasEdge(e[0], e[1]) {
				t.Errorf("%s on %s: edge %v is not the topology's", c.algo, c.topology, e)
			}
		}
		if c.edges > 0 && !reflect.DeepEqual(p.Edges, Links(top.Edges())) {
			t.Errorf("%s on %s: edges %v, want %v", c.algo, c.topology, p.Edges, top.Edges())
		}
		// The next frame reuses the edges and the places: they are not worked out again.
		before := p.Edges
		places := p.Nodes[0].X
		s.Next()
		s.Picture(p, 0)
		if len(before) > 0 && &before[0] != &p.Edges[0] {
			t.Errorf("%s on %s: the edges were built again for the next frame", c.algo, c.topology)
		}
		if p.Nodes[0].X != places {
			t.Errorf("%s on %s: node moved between frames", c.algo, c.topology)
		}
	}
}

// A restart keeps the picture's shape: the same places and edges as before it.
func TestPictureEdgesAfterRestart(t *testing.T) {
	s, p := pictureOf(t, "floodmax", "random:3", 10)
	want := *p
	want.Nodes = append([]PicNode(nil), p.Nodes...)
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	s.PlayTo(15 * ms)
	s.Picture(p, 0)
	if !reflect.DeepEqual(p.Edges, want.Edges) || p.Layout != want.Layout {
		t.Errorf("after a restart: %v %q, want %v %q", p.Edges, p.Layout, want.Edges, want.Layout)
	}
	for i := range p.Nodes {
		if p.Nodes[i].X != want.Nodes[i].X || p.Nodes[i].Y != want.Nodes[i].Y {
			t.Errorf("node %d moved on restart", p.Nodes[i].ID)
		}
	}
}
