package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// spot is where a node's label stands on the canvas: the column of its middle, and its row.
type spot struct{ x, y int }

// nodeSpots reads the node labels off a screen's node panel (left of its │, above its legend):
// a status glyph followed by the id.
func nodeSpots(screen string) map[int]spot {
	spots := map[int]spot{}
	for y, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "★ leader") {
			break
		}
		if y < 4 {
			continue
		}
		left, _, _ := strings.Cut(line, "│")
		rs := []rune(left)
		for x := 0; x < len(rs); x++ {
			if !strings.ContainsRune("○◆●★✗⏸", rs[x]) {
				continue
			}
			end := x + 1
			for end < len(rs) && unicode.IsDigit(rs[end]) {
				end++
			}
			id, err := strconv.Atoi(string(rs[x+1 : end]))
			if err != nil {
				continue
			}
			for end < len(rs) && rs[end] != ']' && !(rs[end] == ' ' && (end+1 == len(rs) || rs[end+1] == ' ')) {
				end++ // the rest of the label: " t2→5/B", up to two spaces
			}
			spots[id] = spot{(x + end) / 2, y}
		}
	}
	return spots
}

// edgeDrawn reports whether the canvas has an edge's dots about halfway between a and b.
func edgeDrawn(screen string, a, b spot) bool { return lineDrawn(screen, a, b, '·') }

// lineDrawn reports whether the canvas has a line of r about halfway between a and b.
func lineDrawn(screen string, a, b spot, r rune) bool {
	lines := strings.Split(screen, "\n")
	mx, my := (a.x+b.x)/2, (a.y+b.y)/2
	for y := my - 1; y <= my+1; y++ {
		if y < 0 || y >= len(lines) {
			continue
		}
		left, _, _ := strings.Cut(lines[y], "│")
		rs := []rune(left)
		for x := mx - 2; x <= mx+2; x++ {
			if x >= 0 && x < len(rs) && rs[x] == r {
				return true
			}
		}
	}
	return false
}

// The canvas lays each topology out as its shape, in a real terminal, and keeps it while the
// run is stepped with keys one at a time and in a burst: a 3×4 grid as three rows of four,
// each column under the one above, its edges dotted between neighbours; a binary tree by
// levels, each child below its parent, the left one left; a random graph with a dotted line
// for each of its edges (those of run --json's topology).
func TestTUIUnderTmuxTopologyLayouts(t *testing.T) {
	t.Run("grid", func(t *testing.T) {
		p := startPane(t, "tui", "--algo", "floodmax", "--topology", "grid:3x4", "--nodes", "12", "--no-color")
		screen := p.shows("the grid", "○12", "step 0 ")
		s := nodeSpots(screen)
		for r := range 3 {
			for c := range 4 {
				id := 1 + 4*r + c
				if s[id].y != s[1+4*r].y {
					t.Errorf("node %d is not on row %d's line:\n%s", id, r+1, screen)
				}
				if c > 0 && s[id].x <= s[id-1].x {
					t.Errorf("node %d is not right of node %d:\n%s", id, id-1, screen)
				}
				if r > 0 && (s[id].y <= s[id-4].y || abs(s[id].x-s[id-4].x) > 1) {
					t.Errorf("node %d is not under node %d:\n%s", id, id-4, screen)
				}
				if c > 0 && !edgeDrawn(screen, s[id-1], s[id]) || r > 0 && !edgeDrawn(screen, s[id-4], s[id]) {
					t.Errorf("node %d's edges to its left and upper neighbours are not drawn:\n%s", id, screen)
				}
			}
		}
		p.key("l", "l", "l")
		p.shows("three steps typed", "step 3 ")
		p.burst("lllll")
		after := p.shows("five in a burst", "step 8 ")
		if got := nodeSpots(after); len(got) != 12 || got[1] != s[1] || got[12] != s[12] {
			t.Errorf("the layout moved while stepping:\n%s", after)
		}
		p.key("q")
		if code := p.exitStatus(); code != 0 {
			t.Errorf("after q the process exited with status %d", code)
		}
	})
	t.Run("tree", func(t *testing.T) {
		p := startPane(t, "tui", "--algo", "echo", "--topology", "tree:2", "--nodes", "7", "--no-color")
		screen := p.shows("the tree", "○7", "step 0 ")
		s := nodeSpots(screen)
		for child := 2; child <= 7; child++ {
			parent := child / 2
			if s[child].y <= s[parent].y {
				t.Errorf("node %d is not below its parent %d:\n%s", child, parent, screen)
			}
			if !edgeDrawn(screen, s[parent], s[child]) {
				t.Errorf("the edge %d–%d is not drawn:\n%s", parent, child, screen)
			}
		}
		if s[2].x >= s[1].x || s[3].x <= s[1].x || s[4].x >= s[5].x || s[5].x >= s[6].x || s[6].x >= s[7].x {
			t.Errorf("the tree's levels are not in order, left to right:\n%s", screen)
		}
		p.burst("llll")
		p.shows("four steps in a burst", "step 4 ")
		p.key("h")
		p.shows("one back", "step 3 ")
		p.key("q")
		if code := p.exitStatus(); code != 0 {
			t.Errorf("after q the process exited with status %d", code)
		}
	})
	t.Run("random", func(t *testing.T) {
		code, out, errOut := call("run", "--algo", "echo", "--topology", "random:3", "--nodes", "7", "--quiet", "--json")
		if code != 0 {
			t.Fatalf("run --json: exit %d, %s", code, errOut)
		}
		var run struct {
			Topology struct {
				Edges [][2]int `json:"edges"`
			} `json:"topology"`
		}
		if err := json.Unmarshal([]byte(out), &run); err != nil || len(run.Topology.Edges) < 6 {
			t.Fatalf("run --json's topology: %v, %d edges", err, len(run.Topology.Edges))
		}
		p := startPane(t, "tui", "--algo", "echo", "--topology", "random:3", "--nodes", "7", "--no-color")
		screen := p.shows("the random graph", "step 0 ")
		s := p.waitFor("all seven nodes", func(sc string) bool { return len(nodeSpots(sc)) == 7 })
		spots := nodeSpots(s)
		missing := 0
		for _, e := range run.Topology.Edges {
			if !edgeDrawn(s, spots[e[0]], spots[e[1]]) {
				missing++
				t.Logf("edge %d–%d: no dots about halfway", e[0], e[1])
			}
		}
		if missing > len(run.Topology.Edges)/4 { // a crossing or a label can hide a midpoint
			t.Errorf("%d of %d edges not drawn:\n%s", missing, len(run.Topology.Edges), screen)
		}
		p.key("l")
		p.burst("ll")
		p.shows("three steps, one typed and two in a burst", "step 3 ")
		p.key("q")
		if code := p.exitStatus(); code != 0 {
			t.Errorf("after q the process exited with status %d", code)
		}
	})
}

func abs(x int) int { return max(x, -x) }
