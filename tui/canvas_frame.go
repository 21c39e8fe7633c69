package tui

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/session"
)

// canvasFrame is one drawing of a picture on the canvas: where each node's label sits, which lines
// show and the cells each takes. drawCanvas fills it in order — places, lines, arrows, what
// flies, timers, nodes — each later layer drawn over the earlier.
type canvasFrame struct {
	m      *Model
	p      *session.Picture
	c      *canvas
	width  int
	height int
	labels []string
	boxes  []box
	index  map[algo.ID]int       // a node's place in p.Nodes
	show   map[linePair]uint8    // the lines drawn, by the cell style they take
	paths  map[linePair][][2]int // the cells of each line drawn
}

// linePair is the line between the nodes at two places in a picture's Nodes, lower first.
type linePair struct{ a, b int }

func lineKey(a, b int) linePair {
	if a > b {
		a, b = b, a
	}
	return linePair{a, b}
}

// drawCanvas draws the picture on a canvas of width×height cells and returns its lines, and
// where each node's label is (for the mouse).
func (m *Model) drawCanvas(p *session.Picture, width, height int) ([]string, []box) {
	f := &canvasFrame{m: m, p: p, c: newCanvas(width, height), width: width, height: height}
	f.place()
	f.chooseLines()
	f.drawLines()
	f.drawArrows()
	f.drawFlights()
	f.drawTimers()
	f.drawNodes()
	return f.c.lines(m.cellStyle), f.boxes
}

// place puts each node's label where the picture places the node, moved up or down a row or
// two where it would overlap a label already placed.
func (f *canvasFrame) place() {
	n := len(f.p.Nodes)
	f.labels = make([]string, n)
	maxW := 0
	for i := range f.p.Nodes {
		f.labels[i] = f.m.nodeLabel(&f.p.Nodes[i])
		maxW = max(maxW, ansi.StringWidth(f.labels[i])+2)
	}
	f.boxes = make([]box, n)
	f.index = make(map[algo.ID]int, n)
	mx := float64(max(maxW/2+1, timerBar/2+1))
	for i := range f.p.Nodes {
		nd := &f.p.Nodes[i]
		f.index[nd.ID] = i
		w := ansi.StringWidth(f.labels[i]) + 2
		fx := mx + nd.X*(float64(f.width)-2*mx)
		fy := 1 + nd.Y*float64(max(0, f.height-3))
		x := max(0, min(int(math.Round(fx))-w/2, f.width-w))
		y := max(0, min(int(math.Round(fy)), f.height-1))
		for _, alt := range []int{y, y - 1, y + 1, y - 2, y + 2} {
			if alt >= 0 && alt < f.height && !overlaps(f.boxes[:i], x, alt, w) {
				y = alt
				break
			}
		}
		f.boxes[i] = box{x, y, w}
	}
}

func (f *canvasFrame) centre(i int) (float64, float64) {
	return float64(f.boxes[i].x) + float64(f.boxes[i].w)/2, float64(f.boxes[i].y)
}

// chooseLines picks the lines to draw: those that carry a message, are blocked or lost one a
// moment ago; a topology's edges while its layout shows its shape; every pair with few nodes
// on the complete graph; and, for an algorithm of groups, each member's line to its coordinator.
func (f *canvasFrame) chooseLines() {
	p, n := f.p, len(f.p.Nodes)
	f.show = map[linePair]uint8{}
	if n <= allLinesUpTo && p.Topology == "" { // the complete graph: a topology draws its own edges, below
		for a := range n {
			for b := a + 1; b < n; b++ {
				f.show[linePair{a, b}] = cellLine
			}
		}
	}
	for _, e := range p.Edges {
		a, okA := f.index[e[0]]
		b, okB := f.index[e[1]]
		if okA && okB && a != b {
			f.show[lineKey(a, b)] = cellLine
		}
	}
	for _, pk := range p.Packets {
		if k := lineKey(f.index[pk.From], f.index[pk.To]); f.show[k] == 0 {
			f.show[k] = cellLine
		}
	}
	for _, d := range p.Drops {
		if k := lineKey(f.index[d.From], f.index[d.To]); f.show[k] == 0 {
			f.show[k] = cellLine
		}
	}
	for _, bl := range p.Blocked {
		k := lineKey(f.index[bl.From], f.index[bl.To])
		if _, ok := f.show[k]; ok || bl.Why == "cut" {
			f.show[k] = cellBlocked
		}
	}
	if f.m.opts.Config.Algorithm.Groups {
		f.chooseGroupLines()
	}
}

// chooseGroupLines draws each member's line to the coordinator of its group bold (an algorithm
// of groups, algo.Info.Groups): the groups, shaded on the canvas.
func (f *canvasFrame) chooseGroupLines() {
	p := f.p
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		c, ok := f.index[nd.Leader]
		if !ok || c == i || nd.Status == "crashed" || nd.Status == session.NotStarted {
			continue
		}
		if co := &p.Nodes[c]; co.Status != "leader" && co.Status != "paused" || co.Term != nd.Term {
			continue // a coordinator that is not there, or coordinates another group now
		}
		if k := lineKey(i, c); f.show[k] != cellBlocked {
			f.show[k] = cellGroup
		}
	}
}

// drawLines draws the lines chosen, in the order of their ends, so that where two cross the
// same one is drawn over the other in every canvasFrame.
func (f *canvasFrame) drawLines() {
	keys := make([]linePair, 0, len(f.show))
	for k := range f.show {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y linePair) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	f.paths = make(map[linePair][][2]int, len(keys))
	for _, k := range keys {
		st := f.show[k]
		ax, ay := f.centre(k.a)
		bx, by := f.centre(k.b)
		path := segment(ax, ay, bx, by, f.boxes)
		f.paths[k] = path
		r := '·'
		switch st {
		case cellBlocked:
			r = '╳'
		case cellGroup:
			r = '•'
		}
		for _, pt := range path {
			f.c.set(pt[0], pt[1], r, st)
		}
	}
}

// drawArrows shows a one-way ring's direction: an arrow midway along each edge not blocked,
// pointing the way its messages go.
func (f *canvasFrame) drawArrows() {
	if !f.p.Directed {
		return
	}
	for _, e := range f.p.Edges {
		a, b := f.index[e[0]], f.index[e[1]]
		if f.show[lineKey(a, b)] != cellLine {
			continue
		}
		ax, ay := f.centre(a)
		bx, by := f.centre(b)
		if pt, r, ok := arrowOn(f.paths[lineKey(a, b)], bx-ax, by-ay); ok {
			f.c.set(pt[0], pt[1], r, cellLine)
		}
	}
}

// along returns the cell at fraction frac of the way from node a to node b.
func (f *canvasFrame) along(a, b int, frac float64) ([2]int, bool) {
	path := f.paths[lineKey(a, b)]
	if len(path) == 0 {
		return [2]int{}, false
	}
	if a > b {
		frac = 1 - frac
	}
	return path[max(0, min(len(path)-1, int(math.Round(frac*float64(len(path)-1)))))], true
}

// drawFlights draws the messages lost a moment ago as ✗ and the newest message on each line as
// its kind's letter where its flight has got to, with ✓ after a granted vote and how many share
// the line.
func (f *canvasFrame) drawFlights() {
	kinds := f.m.opts.Config.Algorithm.Kinds
	for _, d := range f.p.Drops {
		if pt, ok := f.along(f.index[d.From], f.index[d.To], 0.15+0.7*d.Fraction); ok {
			f.c.set(pt[0], pt[1], '✗', cellDrop)
		}
	}
	for _, pk := range f.p.Packets {
		if !pk.Newest {
			continue
		}
		pt, ok := f.along(f.index[pk.From], f.index[pk.To], pk.Fraction)
		if !ok {
			continue
		}
		st := cellKind + uint8(max(0, indexOf(kinds, pk.Kind)))
		f.c.set(pt[0], pt[1], f.m.glyphs[pk.Kind], st)
		var after string
		if pk.Flag {
			after = "✓" // a vote granted, a yes: what the class must tell from a refusal
		}
		if pk.Others > 0 {
			after += fmt.Sprint(pk.Others + 1)
		}
		if r := f.c.at(pt[0]+1, pt[1]); after != "" && (r == ' ' || r == '·' || r == '╳') {
			f.c.text(pt[0]+1, pt[1], after, st)
		}
	}
}

// drawTimers draws each node's timer bar under it, then beside each bar its name and time left
// where the cells are free, and held inputs above a paused node.
func (f *canvasFrame) drawTimers() {
	p, n, c := f.p, len(f.p.Nodes), f.c
	barAt := make([]int, n) // the column of node i's bar, or -1
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		b := f.boxes[i]
		barAt[i] = -1
		if n <= timerBarsUpTo && len(nd.Timers) > 0 && nd.Timers[0].Total > 0 && b.y+1 < f.height {
			x := max(1, min(b.x+(b.w-timerBar)/2, f.width-timerBar-1))
			c.set(x-1, b.y+1, ' ', cellPlain)
			c.text(x, b.y+1, bar(nd.Timers[0].Left, nd.Timers[0].Total), cellTimer)
			c.set(x+timerBar, b.y+1, ' ', cellPlain)
			barAt[i] = x
		}
	}
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		b := f.boxes[i]
		if x := barAt[i]; x >= 0 {
			// Its name and time left up to timerNameUpTo nodes, or the time left alone up to
			// timeLeftUpTo, where the cells are free.
			left := human.Tenths(nd.Timers[0].Left)
			for _, text := range []string{nd.Timers[0].Name + " " + left, left} {
				w := len([]rune(text))
				if (text == left && n <= timeLeftUpTo || n <= timerNameUpTo) && c.free(x+timerBar+1, b.y+1, w+1, f.boxes) {
					c.text(x+timerBar+1, b.y+1, text, cellTimer)
					break
				}
			}
		}
		if len(nd.Held) > 0 && b.y > 0 {
			h := heldText(nd.Held, f.m.glyphs)
			c.text(max(0, min(b.x, f.width-len([]rune(h)))), b.y-1, h, cellHeld)
		}
	}
}

// drawNodes draws each node's label over everything, the selected one in brackets.
func (f *canvasFrame) drawNodes() {
	sel := f.m.nodes[f.m.sel]
	for i := range f.p.Nodes {
		nd := &f.p.Nodes[i]
		b := f.boxes[i]
		if nd.ID == sel {
			f.c.set(b.x, b.y, '[', cellSelected)
			f.c.text(b.x+1, b.y, f.labels[i], cellSelected)
			f.c.set(b.x+b.w-1, b.y, ']', cellSelected)
		} else {
			f.c.set(b.x, b.y, ' ', cellPlain)
			f.c.text(b.x+1, b.y, f.labels[i], statusCell(nd.Status))
			f.c.set(b.x+b.w-1, b.y, ' ', cellPlain)
		}
	}
}
