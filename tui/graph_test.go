package tui

import (
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"electsim/algo"
	"electsim/network"
	"electsim/sim"
)

// graphModel is fixedModel on a topology.
func graphModel(t *testing.T, name, topology string, n int) *Model {
	t.Helper()
	info, err := algo.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig(info, n)
	cfg.Topology = topology
	cfg.Network.Delay = network.Delay{Min: 10 * ms, Max: 10 * ms}
	cfg.Engine = sim.Inline
	m, err := New(Options{Config: cfg, Output: io.Discard, NoColor: true, SaveDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// The canvas lays a topology out as its shape and draws every edge faintly, packets on them: a
// grid as a grid, a star with its hub in the middle, a random graph by its force layout.
func TestGraphCanvasGolden(t *testing.T) {
	for _, c := range []struct {
		name, algo, topology string
		n                    int
		at                   time.Duration
	}{
		{"floodmax on a grid", "floodmax", "grid:3x3", 9, 5 * ms},
		{"echo on a star", "echo", "star", 7, 5 * ms},
		{"echo on a random graph", "echo", "random:3", 12, 5 * ms},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := graphModel(t, c.algo, c.topology, c.n)
			playTo(m, c.at)
			view := m.View()
			if !strings.Contains(view, "·") {
				t.Errorf("no edge drawn:\n%s", view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// A node whose clock drifts shows its rate beside it; one whose clock keeps true time shows none.
func TestCanvasShowsClockRate(t *testing.T) {
	m := fixedModel(t, "bully", 3, sim.Action{At: 1 * ms, Op: sim.Clock, Nodes: []algo.ID{2}, Rate: 0.5})
	playTo(m, 5*ms)
	view := m.View()
	if !strings.Contains(view, "2 ⏱0.5×") || strings.Count(view, "⏱") != 1 {
		t.Errorf("want ⏱0.5× beside node 2 alone:\n%s", view)
	}
}

// Above GraphMax nodes a general graph is drawn in rows, and the status line says so; at
// GraphMax it is laid out as its shape, and the status line says nothing of it.
func TestGraphTooBigSaysSo(t *testing.T) {
	big := graphModel(t, "echo", "random:3", 60)
	if view := big.View(); !strings.Contains(view, "echo · random:3 (over 48 nodes: in rows, no edges)") {
		t.Errorf("60 nodes: no word of the fallback:\n%s", view)
	}
	small := graphModel(t, "echo", "random:3", 48)
	if view := small.View(); strings.Contains(view, "in rows, no edges") || !strings.Contains(view, "echo · random:3 · seed") {
		t.Errorf("48 nodes:\n%s", view)
	}
}

// Above RingMax nodes a ring is drawn in rows, and the status line says so, one way or both; at
// RingMax it is drawn round its circle, and the status line says nothing of it.
func TestRingTooBigSaysSo(t *testing.T) {
	for _, c := range []struct{ algo, topology string }{{"peterson", "ring"}, {"hs", "bi-ring"}} {
		big := graphModel(t, c.algo, c.topology, 33)
		if view := big.View(); !strings.Contains(view, c.algo+" · "+c.topology+" (over 32 nodes: in rows, no edges)") {
			t.Errorf("%s on %s of 33 nodes: no word of the rows:\n%s", c.algo, c.topology, view)
		}
		small := graphModel(t, c.algo, c.topology, 32)
		if view := small.View(); strings.Contains(view, "in rows, no edges") || !strings.Contains(view, c.algo+" · "+c.topology+" · seed") {
			t.Errorf("%s on %s of 32 nodes:\n%s", c.algo, c.topology, view)
		}
	}
}

// The status line names the topology of a run that is not on the complete graph, after the
// algorithm; on the complete graph, the default, it names none.
func TestHeaderNamesTheTopology(t *testing.T) {
	for _, c := range []struct{ algo, topology, want string }{
		{"floodmax", "grid:3x4", "floodmax · grid:3x4 · seed"},
		{"ring", "ring", "ring · ring · seed"},
		{"hs", "bi-ring", "hs · bi-ring · seed"},
	} {
		if view := graphModel(t, c.algo, c.topology, 12).View(); !strings.Contains(view, c.want) {
			t.Errorf("%s on %s: no %q:\n%s", c.algo, c.topology, c.want, view)
		}
	}
	if view := newModel(t, "bully-leader-crash", nil).View(); !strings.Contains(view, "bully · seed") || strings.Contains(view, "complete") {
		t.Errorf("on the complete graph:\n%s", view)
	}
}

// The node panel's heading says the nodes are in ring order when they are placed as a ring
// topology's ring, whichever algorithm runs on it — Peterson's and HS's as Chang–Roberts's — and
// says nothing of a ring where the graph is complete, though the algorithm is Chang–Roberts.
func TestRingOrderHeadingFollowsTheTopology(t *testing.T) {
	for _, c := range []struct {
		algo, topology string
		n              int
		want           string // "" for no heading of ring order
	}{
		{"peterson", "ring", 8, "nodes  ring order ↻ clockwise"},
		{"hs", "bi-ring", 8, "nodes  ring order ↻ clockwise"},
		{"ring", "ring", 8, "nodes  ring order ↻ clockwise"},
		{"ring", "complete", 8, ""},
		{"peterson", "ring", 40, "nodes  ring order: row by row"},
		{"ring", "complete", 40, ""},
		{"floodmax", "grid:3x3", 9, ""},
	} {
		view := graphModel(t, c.algo, c.topology, c.n).View()
		if c.want == "" && strings.Contains(view, "ring order") || c.want != "" && !strings.Contains(view, c.want) {
			t.Errorf("%s on %s of %d nodes: want heading %q:\n%s", c.algo, c.topology, c.n, c.want, view)
		}
	}
}
