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
