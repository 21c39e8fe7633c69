package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"electsim/algo"
)

// canvasOf returns the canvas part of a view: the rows from the nodes' heading to the legend,
// left of the log's bar.
func canvasOf(view string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(view, "\n") {
		if i := strings.Index(line, "│"); i >= 0 {
			line = line[:i]
		}
		switch {
		case strings.HasPrefix(line, "nodes"):
			in = true
			continue
		case strings.Contains(line, "★ leader"):
			in = false
		}
		if in {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// arrows counts the direction arrows on a canvas.
func arrows(canvas string) int {
	n := 0
	for _, r := range canvas {
		switch r {
		case '›', '‹', 'v', '^':
			n++
		}
	}
	return n
}

// A one-way ring's canvas shows which way each edge goes, an arrow midway along it; a
// bidirectional ring's shows none. Golden frames pin both (go test ./tui -update rewrites them).
func TestRingArrowsGolden(t *testing.T) {
	for _, c := range []struct {
		name, algo, topology string
		n                    int
		arrows               bool
	}{
		{"peterson on a one-way ring", "peterson", algo.UniRing, 6, true},
		{"chang-roberts on a one-way ring", "ring", algo.UniRing, 8, true},
		{"hs on a bi-ring", "hs", algo.BiRing, 6, false},
		{"peterson on a one-way ring of 4", "peterson", algo.UniRing, 4, true}, // its edges, not every pair
	} {
		t.Run(c.name, func(t *testing.T) {
			m := graphModel(t, c.algo, c.topology, c.n)
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			playTo(m, 3*ms) // messages sent, none half way: the arrows are not covered
			view := m.View()
			got := arrows(canvasOf(view))
			if c.arrows && got < c.n || !c.arrows && got != 0 {
				t.Errorf("%d arrows on the canvas, want %s:\n%s", got, map[bool]string{true: "one per edge", false: "none"}[c.arrows], view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}
