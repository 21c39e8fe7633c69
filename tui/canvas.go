package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"electsim/report"
	"electsim/session"
	"electsim/sim"
)

// The canvas draws session's Picture in a grid of cells: the nodes where the picture places
// them, each with its term and the leader it believes in, its nearest timer as a bar that runs
// down under it and what it holds while paused above it; a line between two nodes while a
// message is on it, the newest message there as its kind's letter at the fraction of its flight,
// with how many share the line; ✗ where a message was lost a moment ago; ╳ on a line a fault
// blocks. With few nodes every line shows, faintly.

// allLinesUpTo is the most nodes for which every line between two nodes is drawn: above it, only
// the lines that carry a message or are cut, or a complete graph hides the nodes.
const allLinesUpTo = 4

// timerBarsUpTo is the most nodes for which each node's timer bar is drawn under it: with more,
// the bars crowd the labels, and the selected node's panel lists its timers.
const timerBarsUpTo = 16

// timerNameUpTo is the most nodes for which the nearest timer's name is written beside its bar
// too, where it fits: Bully's answer-timeout and a follower's suspicion read apart.
const timerNameUpTo = 5

// timeLeftUpTo is the most nodes for which the time left of each node's nearest timer is
// written beside its bar: with more, the numbers crowd the canvas.
const timeLeftUpTo = 8

// timerBar is the width of a node's timer bar, in cells.
const timerBar = 6

// Cell styles: what the canvas draws with; kinds' styles follow, from cellKind on.
const (
	cellPlain uint8 = iota
	cellLine
	cellBlocked
	cellDrop
	cellTimer
	cellHeld
	cellLeader
	cellCandidate
	cellCrashed
	cellPaused
	cellSelected
	cellGroup // a member's line to its group's coordinator (an algorithm of groups)
	cellKind  // + the kind's index
)

// canvas is a grid of cells, each a rune and a style.
type canvas struct {
	w, h  int
	runes []rune
	style []uint8
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w, h: h, runes: make([]rune, w*h), style: make([]uint8, w*h)}
	for i := range c.runes {
		c.runes[i] = ' '
	}
	return c
}

func (c *canvas) set(x, y int, r rune, s uint8) {
	if x >= 0 && y >= 0 && x < c.w && y < c.h {
		c.runes[y*c.w+x], c.style[y*c.w+x] = r, s
	}
}

// free reports whether the w cells from (x, y) are on the canvas and hold nothing but blank or
// a line, and no node's label will be drawn there.
func (c *canvas) free(x, y, w int, boxes []box) bool {
	if x < 0 || y < 0 || y >= c.h || x+w > c.w {
		return false
	}
	for i := x; i < x+w; i++ {
		if r := c.runes[y*c.w+i]; r != ' ' && r != '·' {
			return false
		}
		for _, b := range boxes {
			if b.holds(i, y) {
				return false
			}
		}
	}
	return true
}

func (c *canvas) at(x, y int) rune {
	if x >= 0 && y >= 0 && x < c.w && y < c.h {
		return c.runes[y*c.w+x]
	}
	return 0
}

// text writes s from (x, y), one cell per rune (the canvas's text is single-width).
func (c *canvas) text(x, y int, s string, st uint8) {
	for _, r := range s {
		c.set(x, y, r, st)
		x++
	}
}

// lines renders the canvas, each run of cells of one style through that style.
func (c *canvas) lines(style func(uint8) lipgloss.Style) []string {
	out := make([]string, c.h)
	var b, run strings.Builder
	for y := range c.h {
		b.Reset()
		cur := uint8(255)
		flush := func() {
			if run.Len() == 0 {
				return
			}
			if cur == cellPlain {
				b.WriteString(run.String())
			} else {
				b.WriteString(style(cur).Render(run.String()))
			}
			run.Reset()
		}
		for x := range c.w {
			i := y*c.w + x
			if s := c.style[i]; s != cur && !(c.runes[i] == ' ' && cur == cellPlain) {
				flush()
				cur = s
			}
			if c.runes[i] == ' ' && cur != cellPlain {
				flush()
				cur = cellPlain
			}
			run.WriteRune(c.runes[i])
		}
		flush()
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// cellStyle is the style of a canvas cell.
func (m *Model) cellStyle(s uint8) lipgloss.Style {
	st := &m.st
	switch s {
	case cellLine:
		return st.line
	case cellBlocked:
		return st.fault
	case cellDrop:
		return st.errText
	case cellTimer:
		return st.timer
	case cellHeld:
		return st.paused
	case cellLeader:
		return st.leader
	case cellCandidate:
		return st.candidate
	case cellCrashed:
		return st.crashed
	case cellPaused:
		return st.paused
	case cellSelected:
		return st.reverse
	case cellGroup:
		return st.leader
	}
	if s >= cellKind {
		return st.kinds[int(s-cellKind)%len(st.kinds)]
	}
	return lipgloss.NewStyle()
}

// statusCell is the cell style of a node status.
func statusCell(status string) uint8 {
	switch status {
	case "leader":
		return cellLeader
	case "candidate":
		return cellCandidate
	case "crashed":
		return cellCrashed
	case "paused":
		return cellPaused
	}
	return cellPlain
}

// nodeLabel is a node as the canvas shows it: status glyph and id, its term (t3), the leader
// it believes in (→4), its partition group (/A).
func (m *Model) nodeLabel(n *session.PicNode) string {
	status := sim.Follower
	switch n.Status {
	case "leader":
		status = sim.Leader
	case "candidate":
		status = sim.Candidate
	case "crashed":
		status = sim.Crashed
	case "paused":
		status = sim.Paused
	}
	if n.Role != "" && n.Status != "crashed" && n.Status != "paused" {
		s := "▣" + report.ID(n.ID)
		if n.Leader != 0 {
			s += "→" + report.ID(n.Leader)
		}
		return s
	}
	g := glyph(status)
	if n.Status == session.NotStarted {
		g = notBooted
	}
	s := g + report.ID(n.ID)
	if n.Term != 0 && n.Status != "crashed" {
		s += " t" + fmt.Sprint(n.Term)
	}
	switch {
	case n.Status == "leader" || n.Status == "crashed" || n.Leader == 0:
	case n.Leader == n.ID:
		s += "★"
	default:
		s += "→" + report.ID(n.Leader)
	}
	if n.Group != 0 {
		s += "/" + string(rune('A'+(n.Group-1)%26))
	}
	if c := m.ss.Clock(n.ID); c.Rate != 1 && n.Status != "crashed" {
		s += " ⏱" + strconv.FormatFloat(c.Rate, 'g', 3, 64) + "×" // its clock drifts: the rate it runs at
	}
	return s
}

// box is a node's label on the canvas: its cells are x..x+w-1 on row y.
type box struct{ x, y, w int }

func (b box) holds(x, y int) bool { return y == b.y && x >= b.x-1 && x <= b.x+b.w }

func overlaps(boxes []box, x, y, w int) bool {
	for _, b := range boxes {
		if b.y == y && x < b.x+b.w+1 && b.x < x+w+1 {
			return true
		}
	}
	return false
}

func indexOf(kinds []string, k string) int {
	for i, x := range kinds {
		if x == k {
			return i
		}
	}
	return -1
}

// segment returns the cells of the straight line from (ax, ay) to (bx, by), in order, without
// those under a node's label or next to it. A cell is about twice as tall as it is wide, so a
// line is stepped along its longer extent on screen.
func segment(ax, ay, bx, by float64, boxes []box) [][2]int {
	dx, dy := bx-ax, by-ay
	steps := int(math.Max(math.Abs(dx), math.Abs(dy)*2)) + 1
	var out [][2]int
	last := [2]int{-1, -1}
	for s := 0; s <= steps; s++ {
		f := float64(s) / float64(steps)
		pt := [2]int{int(math.Round(ax + f*dx)), int(math.Round(ay + f*dy))}
		if pt == last {
			continue
		}
		last = pt
		hidden := false
		for _, b := range boxes {
			if b.holds(pt[0], pt[1]) {
				hidden = true
				break
			}
		}
		if !hidden {
			out = append(out, pt)
		}
	}
	return out
}

// bar is a timer's bar: █ for the time left, ░ for the time gone, of timerBar cells; the cell
// where they meet is filled in eighths (▏ to ▉), so that two timers a few per cent apart look
// apart.
func bar(left, total time.Duration) string {
	eighths := timerBar * 8
	if total > 0 {
		eighths = int(math.Ceil(float64(left) / float64(total) * float64(timerBar*8)))
	}
	eighths = max(0, min(timerBar*8, eighths))
	var b strings.Builder
	for i := range timerBar {
		switch e := eighths - 8*i; {
		case e >= 8:
			b.WriteRune('█')
		case e <= 0:
			b.WriteRune('░')
		default:
			b.WriteRune([]rune("▏▎▍▌▋▊▉")[e-1])
		}
	}
	return b.String()
}

// heldText is what a paused node holds, above it: "⧗E1 h3 +2".
func heldText(held []session.Held, glyphs map[string]rune) string {
	var parts []string
	for i, h := range held {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("+%d", len(held)-i))
			break
		}
		switch h.Kind {
		case "message":
			g, ok := glyphs[h.MsgKind]
			if !ok {
				g = '?'
			}
			parts = append(parts, string(g)+report.ID(h.From))
		case "timer":
			parts = append(parts, h.Label)
		default:
			parts = append(parts, h.Label)
		}
	}
	return "held " + strings.Join(parts, " ")
}
