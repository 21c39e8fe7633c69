package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/human"
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

// kindGlyphs gives each message kind of an algorithm a letter that tells it without colour: its
// first letter, or the first of its words after, or of its letters, not taken by a kind before
// it; routine kinds (heartbeats) in lower case, so that background traffic stays quiet.
func kindGlyphs(info *algo.Info) map[string]rune {
	out := map[string]rune{}
	used := map[rune]bool{}
	for _, k := range info.Kinds {
		var cands []rune
		for i, r := range k {
			if i == 0 || k[i-1] == '_' {
				cands = append(cands, unicode.ToUpper(r))
			}
		}
		for _, r := range k {
			cands = append(cands, unicode.ToUpper(r))
		}
		g := '?'
		for _, r := range cands {
			if unicode.IsLetter(r) && !used[r] {
				g = r
				break
			}
		}
		used[g] = true
		if info.IsRoutine(k) {
			g = unicode.ToLower(g)
		}
		out[k] = g
	}
	return out
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
	if n.Status == "down" {
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

// drawCanvas draws the picture on a canvas of width×height cells and returns its lines, and
// where each node's label is (for the mouse).
func (m *Model) drawCanvas(p *session.Picture, width, height int) ([]string, []box) {
	c := newCanvas(width, height)
	n := len(p.Nodes)
	labels := make([]string, n)
	maxW := 0
	for i := range p.Nodes {
		labels[i] = m.nodeLabel(&p.Nodes[i])
		maxW = max(maxW, ansi.StringWidth(labels[i])+2)
	}
	boxes := make([]box, n)
	index := make(map[algo.ID]int, n)
	mx := float64(max(maxW/2+1, timerBar/2+1))
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		index[nd.ID] = i
		w := ansi.StringWidth(labels[i]) + 2
		fx := mx + nd.X*(float64(width)-2*mx)
		fy := 1 + nd.Y*float64(max(0, height-3))
		x := max(0, min(int(math.Round(fx))-w/2, width-w))
		y := max(0, min(int(math.Round(fy)), height-1))
		for _, alt := range []int{y, y - 1, y + 1, y - 2, y + 2} {
			if alt >= 0 && alt < height && !overlaps(boxes[:i], x, alt, w) {
				y = alt
				break
			}
		}
		boxes[i] = box{x, y, w}
	}
	centre := func(i int) (float64, float64) {
		return float64(boxes[i].x) + float64(boxes[i].w)/2, float64(boxes[i].y)
	}

	// The lines: those that carry a message, are blocked or lost one a moment ago; all of them
	// with few nodes.
	type pair struct{ a, b int }
	show := map[pair]uint8{}
	key := func(a, b int) pair {
		if a > b {
			a, b = b, a
		}
		return pair{a, b}
	}
	if n <= allLinesUpTo && p.Topology == "" { // the complete graph: a topology draws its own edges, below
		for a := range n {
			for b := a + 1; b < n; b++ {
				show[pair{a, b}] = cellLine
			}
		}
	}
	// Every edge of a topology that is not the complete graph, while its layout shows its shape
	// (the picture carries its edges then): a ring round its circle, a general graph as laid out.
	for _, e := range p.Edges {
		a, okA := index[e[0]]
		b, okB := index[e[1]]
		if okA && okB && a != b {
			show[key(a, b)] = cellLine
		}
	}
	for _, pk := range p.Packets {
		if k := key(index[pk.From], index[pk.To]); show[k] == 0 {
			show[k] = cellLine
		}
	}
	for _, d := range p.Drops {
		if k := key(index[d.From], index[d.To]); show[k] == 0 {
			show[k] = cellLine
		}
	}
	for _, bl := range p.Blocked {
		k := key(index[bl.From], index[bl.To])
		if _, ok := show[k]; ok || bl.Why == "cut" {
			show[k] = cellBlocked
		}
	}
	// An algorithm of groups (algo.Info.Groups): each member's line to the coordinator of its
	// group is drawn bold — the groups, shaded on the canvas.
	if m.opts.Config.Algorithm.Groups {
		for i := range p.Nodes {
			nd := &p.Nodes[i]
			c, ok := index[nd.Leader]
			if !ok || c == i || nd.Status == "crashed" || nd.Status == "down" {
				continue
			}
			if co := &p.Nodes[c]; co.Status != "leader" && co.Status != "paused" || co.Term != nd.Term {
				continue // a coordinator that is not there, or coordinates another group now
			}
			if k := key(i, c); show[k] != cellBlocked {
				show[k] = cellGroup
			}
		}
	}
	paths := map[pair][][2]int{}
	for k, st := range show {
		ax, ay := centre(k.a)
		bx, by := centre(k.b)
		path := segment(ax, ay, bx, by, boxes)
		paths[k] = path
		r := '·'
		switch st {
		case cellBlocked:
			r = '╳'
		case cellGroup:
			r = '•'
		}
		for _, pt := range path {
			c.set(pt[0], pt[1], r, st)
		}
	}
	// A one-way ring's direction: an arrow midway along each edge not blocked, pointing the way
	// its messages go.
	if p.Directed {
		for _, e := range p.Edges {
			a, b := index[e[0]], index[e[1]]
			if show[key(a, b)] != cellLine {
				continue
			}
			ax, ay := centre(a)
			bx, by := centre(b)
			if pt, r, ok := arrowOn(paths[key(a, b)], bx-ax, by-ay); ok {
				c.set(pt[0], pt[1], r, cellLine)
			}
		}
	}
	// along returns the cell at fraction f of the way from node a to node b.
	along := func(a, b int, f float64) ([2]int, bool) {
		path := paths[key(a, b)]
		if len(path) == 0 {
			return [2]int{}, false
		}
		if a > b {
			f = 1 - f
		}
		return path[max(0, min(len(path)-1, int(math.Round(f*float64(len(path)-1)))))], true
	}
	kinds := m.opts.Config.Algorithm.Kinds
	for _, d := range p.Drops {
		f := 0.15 + 0.7*d.Fraction
		if pt, ok := along(index[d.From], index[d.To], f); ok {
			c.set(pt[0], pt[1], '✗', cellDrop)
		}
	}
	for _, pk := range p.Packets {
		if !pk.Newest {
			continue
		}
		pt, ok := along(index[pk.From], index[pk.To], pk.Fraction)
		if !ok {
			continue
		}
		st := cellKind + uint8(max(0, indexOf(kinds, pk.Kind)))
		c.set(pt[0], pt[1], m.glyphs[pk.Kind], st)
		var after string
		if pk.Flag {
			after = "✓" // a vote granted, a yes: what the class must tell from a refusal
		}
		if pk.Others > 0 {
			after += fmt.Sprint(pk.Others + 1)
		}
		if r := c.at(pt[0]+1, pt[1]); after != "" && (r == ' ' || r == '·' || r == '╳') {
			c.text(pt[0]+1, pt[1], after, st)
		}
	}
	// Each node's timer bar under it, then beside each bar its name and time left where the
	// cells are free, and held inputs above a paused node; then the nodes over everything.
	barAt := make([]int, n) // the column of node i's bar, or -1
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		b := boxes[i]
		barAt[i] = -1
		if n <= timerBarsUpTo && len(nd.Timers) > 0 && nd.Timers[0].Total > 0 && b.y+1 < height {
			x := max(1, min(b.x+(b.w-timerBar)/2, width-timerBar-1))
			c.set(x-1, b.y+1, ' ', cellPlain)
			c.text(x, b.y+1, bar(nd.Timers[0].Left, nd.Timers[0].Total), cellTimer)
			c.set(x+timerBar, b.y+1, ' ', cellPlain)
			barAt[i] = x
		}
	}
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		b := boxes[i]
		if x := barAt[i]; x >= 0 {
			// Its name and time left up to timerNameUpTo nodes, or the time left alone up to
			// timeLeftUpTo, where the cells are free.
			left := human.Tenths(nd.Timers[0].Left)
			for _, text := range []string{nd.Timers[0].Name + " " + left, left} {
				w := len([]rune(text))
				if (text == left && n <= timeLeftUpTo || n <= timerNameUpTo) && c.free(x+timerBar+1, b.y+1, w+1, boxes) {
					c.text(x+timerBar+1, b.y+1, text, cellTimer)
					break
				}
			}
		}
		if len(nd.Held) > 0 && b.y > 0 {
			h := heldText(nd.Held, m.glyphs)
			c.text(max(0, min(b.x, width-len([]rune(h)))), b.y-1, h, cellHeld)
		}
	}
	sel := m.nodes[m.sel]
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		b := boxes[i]
		st := statusCell(nd.Status)
		if nd.ID == sel {
			c.set(b.x, b.y, '[', cellSelected)
			c.text(b.x+1, b.y, labels[i], cellSelected)
			c.set(b.x+b.w-1, b.y, ']', cellSelected)
		} else {
			c.set(b.x, b.y, ' ', cellPlain)
			c.text(b.x+1, b.y, labels[i], st)
			c.set(b.x+b.w-1, b.y, ' ', cellPlain)
		}
	}
	return c.lines(m.cellStyle), boxes
}

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
