package main

import (
	"strings"
	"testing"
)

// ringArrows counts the direction arrows (› ‹ v ^) on the canvas of a screen: the node panel
// between its heading and its legend, left of the log.
func ringArrows(screen string) int {
	n := 0
	for y, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "★ leader") {
			break
		}
		if y < 4 {
			continue // the title, status, counts and the panel's heading
		}
		left, _, _ := strings.Cut(line, "│")
		n += strings.Count(left, "›") + strings.Count(left, "‹") + strings.Count(left, "v") + strings.Count(left, "^")
	}
	return n
}

// On a one-way ring the canvas shows which way each edge goes — at the start, after steps typed
// one at a time and after steps in a burst; on a bidirectional ring it shows no arrow.
func TestTUIUnderTmuxRingArrows(t *testing.T) {
	for _, c := range []struct {
		algo, topology string
		arrows         bool
	}{
		{"peterson", "ring", true},
		{"hs", "bi-ring", false},
	} {
		t.Run(c.topology, func(t *testing.T) {
			p := startPane(t, "tui", "--algo", c.algo, "--topology", c.topology, "--nodes", "6", "--no-color")
			p.shows("the first screen", "electsim · "+c.algo+", 6 nodes")
			check := func(when string, s string) {
				t.Helper()
				if n := ringArrows(s); c.arrows && n < 4 || !c.arrows && n != 0 {
					t.Errorf("%s on %s, %s: %d arrows on the canvas:\n%s", c.algo, c.topology, when, n, s)
				}
			}
			check("at the start", p.screen())
			p.key("l", "l")
			check("after two steps one at a time", p.shows("two steps", "step 2 "))
			p.burst("llll")
			check("after four steps in a burst", p.shows("four steps in a burst", "step 6 "))
			p.burst("hh")
			check("after two steps back in a burst", p.shows("two steps back", "step 4 "))
			p.key("q")
			if code := p.exitStatus(); code != 0 {
				t.Errorf("after q the process exited with status %d", code)
			}
		})
	}
}
