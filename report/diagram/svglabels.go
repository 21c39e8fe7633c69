package diagram

import (
	"bufio"
	"fmt"
	"math"
	"unicode/utf8"

	"electsim/algo"
	"electsim/report"
	"electsim/sim"
)

// labelSpot is where a label is drawn: text anchored at (x, y) — "start", "end" or "middle";
// "" leaves the anchor unsaid, which is "start" — turned by rotate degrees about (rx, ry).
type labelSpot struct {
	x, y, rotate, rx, ry float64
	anchor               string
}

// box is the room a label or a mark takes: a rectangle, turned as its text is, by its corners
// in order round it.
type box [4][2]float64

// rect is an upright box.
func rect(x0, y0, x1, y1 float64) box { return box{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} }

// overlaps reports whether a and b overlap by more than a pixel: whether no side of either
// separates them (the separating axis theorem, for convex shapes).
func (a box) overlaps(b box) bool {
	for _, q := range []box{a, b} {
		for i := range 2 {
			// The axis across side i of q.
			ax, ay := q[i+1][1]-q[i][1], q[i][0]-q[i+1][0]
			n := math.Hypot(ax, ay)
			if n == 0 {
				continue
			}
			ax, ay = ax/n, ay/n
			amin, amax := a.project(ax, ay)
			bmin, bmax := b.project(ax, ay)
			if min(amax, bmax)-max(amin, bmin) <= 1 {
				return false
			}
		}
	}
	return true
}

// project returns the extent of the box along the axis (ax, ay).
func (a box) project(ax, ay float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range a {
		p := c[0]*ax + c[1]*ay
		lo, hi = min(lo, p), max(hi, p)
	}
	return lo, hi
}

// font is a label's font, for the room its text takes: its size, and the width of an average
// character in em.
type font struct{ size, char float64 }

// The labels' fonts: the messages' monospace (0.6 em a character), and the sans-serif of the
// state changes, timers and partitions (some 0.56 em).
var (
	lblFont   = font{11, 0.6}
	stateFont = font{11, 0.56}
	timerFont = font{10, 0.56}
	bandFont  = font{10, 0.56}
)

// box is the room text in font takes at the spot: its characters' widths, from 0.75 em above
// the baseline to 0.2 em below, turned as the text is.
func (s labelSpot) box(text string, fn font) box {
	fontSize := fn.size
	w := float64(utf8.RuneCountInString(text)) * fn.char * fontSize
	left := 0.0
	switch s.anchor {
	case "end":
		left = -w
	case "middle":
		left = -w / 2
	}
	b := rect(s.x+left, s.y-0.75*fontSize, s.x+left+w, s.y+0.2*fontSize)
	if s.rotate != 0 {
		a := s.rotate * math.Pi / 180
		for i, c := range b {
			dx, dy := c[0]-s.rx, c[1]-s.ry
			b[i] = [2]float64{s.rx + dx*math.Cos(a) - dy*math.Sin(a), s.ry + dx*math.Sin(a) + dy*math.Cos(a)}
		}
	}
	return b
}

// attrs writes the spot as a text element's attributes.
func (s labelSpot) attrs() string {
	a := fmt.Sprintf(`x="%s" y="%s"`, f(s.x), f(s.y))
	if s.rotate != 0 {
		a += fmt.Sprintf(` transform="rotate(%s %s %s)"`, f(s.rotate), f(s.rx), f(s.ry))
	}
	if s.anchor != "" {
		a += ` text-anchor="` + s.anchor + `"`
	}
	return a
}

// labels are where the diagram's labels go, chosen so that none covers another (see
// placeLabels).
type labels struct {
	taken map[int][]box     // the room taken, by band of labelBand pixels down the diagram
	state map[int]labelSpot // by record index: a state change's label, and a timer's
	msg   map[*dgMsg]labelSpot
	stub  map[*dgMsg][2]float64 // where the stub of a message lost at its send ends
	band  map[*sim.Action]labelSpot
}

// labelBand is the height of the bands the room taken is filed in: a label is checked against
// those of the bands it spans only, so placing them all takes time in proportion to their
// number, not its square.
const labelBand = 64

// bands returns the bands b spans.
func (b box) bands() (lo, hi int) {
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, c := range b {
		y0, y1 = min(y0, c[1]), max(y1, c[1])
	}
	return int(math.Floor(y0 / labelBand)), int(math.Floor(y1 / labelBand))
}

// take files b as taken.
func (l *labels) take(b box) {
	lo, hi := b.bands()
	for i := lo; i <= hi; i++ {
		l.taken[i] = append(l.taken[i], b)
	}
}

// covers counts the boxes taken that b overlaps (one filed in two bands may count twice).
func (l *labels) covers(b box) int {
	n := 0
	lo, hi := b.bands()
	for i := lo; i <= hi; i++ {
		for _, t := range l.taken[i] {
			if b.overlaps(t) {
				n++
			}
		}
	}
	return n
}

// place returns the first of spots where text is clear of every label placed so far — or,
// when none is, the first of those it covers fewest labels at — and takes its room.
func (l *labels) place(text string, fn font, spots ...labelSpot) labelSpot {
	best, fewest := 0, -1
	for i, s := range spots {
		n := l.covers(s.box(text, fn))
		if fewest < 0 || n < fewest {
			best, fewest = i, n
		}
		if n == 0 {
			break
		}
	}
	l.take(spots[best].box(text, fn))
	return spots[best]
}

// placeLabels chooses where every label goes. What matters most is placed first, each where it
// is usually drawn if that is clear, else the next clear place it has: the state marks and the
// partitions' labels; the state changes' labels, right of the lifeline or else left; the
// timers', above their row right or left, or else below it; the stubs of messages lost at their send, fanned
// further down; then the messages' labels, near the arrowhead or further along the arrow.
func (d *svgLayout) placeLabels() {
	l := &labels{taken: map[int][]box{}, state: map[int]labelSpot{}, msg: map[*dgMsg]labelSpot{}, stub: map[*dgMsg][2]float64{}}
	d.labels = l
	for _, row := range d.rows {
		for _, it := range row.items {
			r := &d.v.recs[it.i]
			if x, ok := d.colX[r.Node]; ok && r.Type == sim.RecState {
				l.take(rect(x-8, row.y-8, x+8, row.y+8))
			}
		}
	}
	l.band = map[*sim.Action]labelSpot{}
	right := svgAxisW + d.colW*float64(len(d.v.ids))
	for _, bd := range d.bands() {
		l.band[bd.a] = l.place(bd.a.String(), bandFont, labelSpot{x: svgAxisW + 4, y: bd.y0 + 11},
			labelSpot{x: right - 4, y: bd.y0 + 11, anchor: "end"}, labelSpot{x: svgAxisW + 4, y: bd.y0 + 24})
	}
	for _, row := range d.rows {
		for _, it := range row.items {
			r := &d.v.recs[it.i]
			x, ok := d.colX[r.Node]
			if !ok || r.Type != sim.RecState {
				continue
			}
			text := d.stateLabel(r)
			l.state[it.i] = l.place(text, stateFont, labelSpot{x: x + 10, y: row.y + 16}, labelSpot{x: x - 10, y: row.y + 16, anchor: "end"},
				labelSpot{x: x + 10, y: row.y + 29}, labelSpot{x: x - 10, y: row.y + 29, anchor: "end"})
		}
	}
	for _, row := range d.rows {
		for _, it := range row.items {
			r := &d.v.recs[it.i]
			x, ok := d.colX[r.Node]
			if !ok || r.Type != sim.RecTimer {
				continue
			}
			l.state[it.i] = l.place("timer "+r.Timer, timerFont, labelSpot{x: x + 10, y: row.y - 5}, labelSpot{x: x - 10, y: row.y - 5, anchor: "end"},
				labelSpot{x: x + 10, y: row.y + 9}, labelSpot{x: x - 10, y: row.y + 9, anchor: "end"})
		}
	}
	recs := d.v.recs
	for _, m := range d.v.msgs {
		s := &recs[m.send]
		xs, ok1 := d.colX[s.Msg.From]
		_, ok2 := d.colX[s.Msg.To]
		if !ok1 || !ok2 || !m.lostAtSend(recs) {
			continue
		}
		// Stubs of one step fan out downward; one whose label would cover another's goes further.
		row := d.rowOf[m.send]
		i := 0
		for _, it := range row.items {
			if it.i == m.send {
				break
			}
			if it.msg != nil && it.i == it.msg.send && it.msg.lostAtSend(recs) {
				i++
			}
		}
		dir := d.dir(s.Msg)
		xe := xs + dir*d.colW*0.45
		anchor := "start"
		if dir < 0 {
			anchor = "end"
		}
		text := fmt.Sprintf("%s→%d ✗ %s", report.Label(s.Msg, d.v.o.Algorithm), s.Msg.To, s.Reason)
		var spots []labelSpot
		for k := i; k < i+6; k++ {
			ye := row.y + svgStubTop + svgStubStep*float64(k)
			spots = append(spots, labelSpot{x: xe + dir*8, y: ye + 4, anchor: anchor})
		}
		spot := l.place(text, lblFont, spots...)
		l.stub[m] = [2]float64{xe, spot.y - 4}
		l.msg[m] = spot
	}
	for _, m := range d.v.msgs {
		if _, ok := l.msg[m]; ok {
			continue
		}
		xs, ys, xe, ye, text, ok := d.arrow(m)
		if !ok {
			continue
		}
		s := &recs[m.send]
		if s.Msg.From == s.Msg.To && m.end >= 0 && recs[m.end].Type == sim.RecDeliver {
			l.msg[m] = l.place(text, lblFont, labelSpot{x: xs + 44, y: (ys+ye)/2 + 4})
			continue
		}
		l.msg[m] = l.place(text, lblFont, arrowSpots(xs, ys, xe, ye, text)...)
	}
}

// dir is 1 for a message to a column further right, -1 for one to the left.
func (d *svgLayout) dir(m algo.Message) float64 {
	if d.colX[m.To] < d.colX[m.From] {
		return -1
	}
	return 1
}

// arrow returns a shown message's arrow, from its send to its end, and its label; ok is false
// for a message lost at its send (a stub, not an arrow) or between nodes not drawn.
func (d *svgLayout) arrow(m *dgMsg) (xs, ys, xe, ye float64, text string, ok bool) {
	recs := d.v.recs
	s := &recs[m.send]
	xs, ok1 := d.colX[s.Msg.From]
	xe, ok2 := d.colX[s.Msg.To]
	if !ok1 || !ok2 || m.lostAtSend(recs) {
		return 0, 0, 0, 0, "", false
	}
	ys, text = d.rowOf[m.send].y, report.Label(s.Msg, d.v.o.Algorithm)
	switch {
	case m.end < 0:
		ye, text = d.bottom, text+" (in flight)"
	case recs[m.end].Type == sim.RecDrop:
		ye, text = d.rowOf[m.end].y, text+" ✗ "+recs[m.end].Reason.String()
	default:
		ye = d.rowOf[m.end].y
	}
	return xs, ys, xe, ye, text, true
}

// arrowSpots are the places a message's label may go, best first: near the head of its arrow,
// from (xs, ys) to (xe, ye) — along the arrow, just above it, when the arrow is shallow enough
// to read so, beside it otherwise — then further back along the arrow, step by step (for a
// shallow arrow, below it too), and then upright beside the arrow, near its head and further
// back, above it and then below.
func arrowSpots(xs, ys, xe, ye float64, text string) []labelSpot {
	dx, dy := xe-xs, ye-ys
	dist := math.Hypot(dx, dy)
	angle := math.Atan2(dy, dx) * 180 / math.Pi
	anchor := "end"
	if dx < 0 {
		angle -= 180
		anchor = "start"
	}
	if angle < -180 {
		angle += 360
	}
	ux, uy := 0.0, 0.0
	if dist > 0 {
		ux, uy = dx/dist, dy/dist
	}
	var spots []labelSpot
	if dist > 0 && math.Abs(angle) <= 20 {
		width := float64(utf8.RuneCountInString(text)) * lblFont.char * lblFont.size
		for back := 13.0; back == 13 || back+width <= dist-8; back += 14 {
			px, py := xe-ux*back, ye-uy*back
			spots = append(spots, labelSpot{x: px, y: py - 3.5, rotate: angle, rx: px, ry: py, anchor: anchor},
				labelSpot{x: px, y: py + 11, rotate: angle, rx: px, ry: py, anchor: anchor})
		}
	}
	dir := 1.0
	if dx < 0 {
		dir = -1
	}
	sides := []float64{-5, 14} // above the arrow, then below it
	if len(spots) > 0 && dy > 0 {
		// Upright beside a shallow arrow that comes down to its head, the text above it
		// would sit on the arrow.
		sides = []float64{14, -5}
	}
	for _, off := range sides {
		for back := 0.0; back == 0 || back <= dist*0.8; back += 14 {
			px, py := xe-ux*back, ye-uy*back
			spots = append(spots, labelSpot{x: px - dir*11, y: py + off, anchor: anchor})
		}
	}
	return spots
}

// band is a partition drawn as a band, from the row it begins at to the row it ends at.
type band struct {
	y0, y1 float64
	a      *sim.Action
}

// bands lists the partitions the diagram shows, from partition to heal (or the end).
func (d *svgLayout) bands() []band {
	var bands []band
	open := d.v.partition
	y0 := d.top
	closeAt := func(y float64) {
		if open != nil {
			bands = append(bands, band{y0, y, open})
		}
		open = nil
	}
	for _, row := range d.rows {
		for _, it := range row.items {
			r := &d.v.recs[it.i]
			if r.Type != sim.RecFault {
				continue
			}
			switch {
			case r.Action.Op == sim.Partition:
				closeAt(row.y)
				open, y0 = r.Action, row.y
			case r.Action.Op == sim.Heal && r.Action.Link == nil:
				closeAt(row.y)
			}
		}
	}
	closeAt(d.bottom)
	return bands
}

// bandColours shade the sides of a partition: each group of nodes its own.
var bandColours = []string{"#fde2e2", "#dbeafe", "#dcfce7", "#fef3c7", "#ede9fe"}

// writeBands draws each partition as a band behind its columns, each side in its own shade —
// the nodes of a group need not stand side by side — with a dashed wall wherever two sides
// meet, and the partition written at its top left.
func (d *svgLayout) writeBands(b *bufio.Writer) {
	for _, bd := range d.bands() {
		side := map[algo.ID]int{}
		for i, g := range bd.a.Groups {
			for _, id := range g {
				side[id] = i
			}
		}
		sideOf := func(id algo.ID) int {
			if s, ok := side[id]; ok {
				return s
			}
			return len(bd.a.Groups) // the nodes no group names: one more
		}
		tip := esc(bd.a.String())
		ids := d.v.ids
		for i := 0; i < len(ids); {
			j := i
			for j < len(ids) && sideOf(ids[j]) == sideOf(ids[i]) {
				j++
			}
			x0, x1 := svgAxisW+d.colW*float64(i), svgAxisW+d.colW*float64(j)
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.75"><title>%s</title></rect>`+"\n",
				f(x0), f(bd.y0), f(x1-x0), f(bd.y1-bd.y0), bandColours[sideOf(ids[i])%len(bandColours)], tip)
			if i > 0 {
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="6 4"/>`+"\n",
					f(x0), f(bd.y0), f(x0), f(bd.y1), colNetFault)
			}
			i = j
		}
		fmt.Fprintf(b, `<text %s fill="%s" font-size="10" class="halo">%s</text>`+"\n",
			d.labels.band[bd.a].attrs(), colNetFault, esc(bd.a.String()))
	}
}
