package diagram

import (
	"bufio"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/sim"
)

// SVG writes a space-time (Lamport) diagram of the records as a self-contained SVG image: one
// vertical lifeline per node, in o.IDs order, and time flowing down.
//
//   - Each shown step (see Options) has a row of its own, labelled on the left with its virtual
//     time in ms; steps at one instant sit one under the other, and quiet stretches between
//     instants are shortened (and marked ≈ on the time axis), so the axis is not to scale.
//   - A message is an arrow from its send to its delivery, labelled near its head with its
//     kind (and value, term, flag): "ELECTION(5) t2" — or, where that label would cover
//     another, further back along the arrow or beside it (no label covers another, but for
//     those of messages in flight at the very end). A message lost on arrival ends in a red ✗
//     at the receiver, with the reason; one lost at send is a short red stub ending in ✗, with
//     the receiver and the reason; one still in flight at the end runs dashed off the bottom.
//     Every arrow is one element of class "msg" (with "delivered", "lost" or "inflight").
//   - A lifeline is drawn in the colour and weight of the node's status (thick amber for a
//     leader, cyan for a candidate, grey for a follower, dashed red while crashed, dashed
//     purple while paused); each state change is marked with the status's glyph (★ ◆ ● ✗ ‖)
//     and labelled.
//   - Narration (say), faults and breaks are written in a column on the right, at their row; a
//     break is also a dashed line across. A partition is a band from partition to heal, each
//     side shaded its own way behind its nodes' lifelines, with a dashed wall where two sides
//     meet.
//   - A timer shown is a small grey label right of the lifeline, above its row (or, where that
//     is taken, left of it or below).
//
// Fonts are the system's sans-serif and monospace stacks; nothing outside the file is used.
// Moving the pointer over an arrow or a mark in a browser shows its details and the node's
// note.
func SVG(w io.Writer, recs []sim.Record, o Options) error {
	v := newView(recs, &o)
	d := newSVGLayout(v)
	b := bufio.NewWriter(w)
	d.write(b)
	return b.Flush()
}

// Geometry of the SVG, in pixels.
const (
	svgAxisW      = 84.0 // the time axis, left of the first lifeline's column
	svgNoteGap    = 28.0 // between the last column and the narration
	svgNoteW      = 340.0
	svgNoteChars  = 50 // characters per narration line
	svgRowH       = 20.0
	svgLineH      = 15.0 // narration line height
	svgStubStep   = 15.0 // vertical spacing of the stubs of messages lost at send
	svgStubTop    = 30.0 // the first stub's end, below its row (under the state label)
	svgMaxGap     = 40.0 // the longest space between instants
	svgPxPerMS    = 1.0  // space between instants, below svgMaxGap
	svgMinGap     = 4.0
	svgHeaderH    = 24.0
	svgMarginTop  = 16.0
	svgMarginBott = 20.0
)

// Colours.
const (
	colText     = "#1e293b"
	colMuted    = "#64748b"
	colFault    = "#b91c1c"
	colNetFault = "#c2410c"
	colLost     = "#dc2626"
	colRoutine  = "#94a3b8"
	colUnknown  = "#475569"
)

// kindColours colour message kinds by their place in the algorithm's list.
var kindColours = []string{"#2563eb", "#059669", "#c026d3", "#0d9488", "#4f46e5", "#65a30d", "#db2777"}

// statusStyle is how a lifeline looks while its node has a status.
type statusStyle struct {
	colour string
	width  float64
	dash   string
}

func styleOf(s sim.Status) statusStyle {
	switch s {
	case sim.Leader:
		return statusStyle{"#d97706", 6, ""}
	case sim.Candidate:
		return statusStyle{"#0891b2", 3.5, ""}
	case sim.Crashed:
		return statusStyle{"#dc2626", 1.5, "3 4"}
	case sim.Paused:
		return statusStyle{"#9333ea", 3, "6 3"}
	}
	return statusStyle{"#9ca3af", 2, ""}
}

// svgRow is one shown step.
type svgRow struct {
	step      int
	at        time.Duration
	y, h      float64
	items     []dgItem
	timeLabel bool    // the first row of its instant
	skipped   bool    // a shortened quiet stretch comes before it
	gap       float64 // the space above it
	note      []string
	noteKind  string // "say", "fault", "netfault", "break"
}

type svgLayout struct {
	v       *dgView
	colW    float64
	width   float64
	height  float64
	top     float64 // where lifelines begin
	bottom  float64 // where they end
	rows    []*svgRow
	rowOf   map[int]*svgRow // record index → its row
	colX    map[algo.ID]float64
	notesX  float64
	legendY float64
	legend  [][]legendEntry
	labels  *labels
}

type legendEntry struct {
	kind   string // "status", "msg", "lost", "band"
	colour string
	text   string
	status sim.Status
	width  float64
}

func newSVGLayout(v *dgView) *svgLayout {
	d := &svgLayout{v: v, rowOf: map[int]*svgRow{}, colX: map[algo.ID]float64{}}
	n := len(v.ids)
	switch {
	case n <= 6:
		d.colW = 120
	case n <= 9:
		d.colW = 108
	case n <= 12:
		d.colW = 96
	default:
		d.colW = 80
	}
	for i, id := range v.ids {
		d.colX[id] = svgAxisW + d.colW*(float64(i)+0.5)
	}
	d.notesX = svgAxisW + d.colW*float64(n) + svgNoteGap
	d.width = d.notesX + svgNoteW + 12

	y := svgMarginTop
	if d.v.o.Title != "" {
		y += 22
	}
	if d.v.o.Caption != "" {
		y += 18
	}
	d.legendY = y + 14
	d.legend = d.legendLines()
	y += 14 + float64(len(d.legend))*18
	y += 8
	d.top = y + svgHeaderH // the header boxes sit above this
	y = d.top + 18

	// Rows: one per shown step.
	var prev *svgRow
	for _, it := range v.items {
		r := &v.recs[it.i]
		if prev == nil || prev.step != r.Step {
			row := &svgRow{step: r.Step, at: r.At}
			switch {
			case prev == nil:
				row.timeLabel = true
			case r.At != prev.at:
				row.timeLabel = true
				gap := float64(r.At-prev.at) / 1e6 * svgPxPerMS
				if gap > svgMaxGap {
					gap, row.skipped = svgMaxGap, true
				}
				row.gap = max(gap, svgMinGap)
			}
			d.rows = append(d.rows, row)
			prev = row
		}
		prev.items = append(prev.items, it)
		d.rowOf[it.i] = prev
	}
	for _, row := range d.rows {
		y += row.gap
		row.y = y
		row.h = d.rowHeight(row)
		y += row.h
	}
	d.bottom = y + 14
	d.height = d.bottom + svgHeaderH + 8 + svgMarginBott
	d.placeLabels()
	return d
}

// rowHeight sizes a row: enough for its labels, its stubs and its narration.
func (d *svgLayout) rowHeight(row *svgRow) float64 {
	h := svgRowH
	stubs := 0
	for _, it := range row.items {
		r := &d.v.recs[it.i]
		switch r.Type {
		case sim.RecState:
			h = max(h, 26)
		case sim.RecSend:
			if it.msg.lostAtSend(d.v.recs) {
				stubs++
			}
		case sim.RecSay:
			row.note, row.noteKind = wrapText(r.Action.Text, svgNoteChars), "say"
		case sim.RecBreak:
			row.note, row.noteKind = []string{"— break: stop here and ask the class —"}, "break"
		case sim.RecFault:
			text := r.Action.String()
			if r.Note != "" {
				text += " — " + r.Note
			}
			row.note, row.noteKind = wrapText(text, svgNoteChars), "fault"
			switch r.Action.Op {
			case sim.Partition, sim.Cut, sim.Heal, sim.SetDelay, sim.SetDrop:
				row.noteKind = "netfault"
			}
		}
	}
	if stubs > 0 {
		h = max(h, svgStubTop+svgStubStep*float64(stubs-1)+14)
	}
	if len(row.note) > 0 {
		h = max(h, svgLineH*float64(len(row.note))+6)
	}
	return h
}

// wrapText breaks s into lines of at most width characters, at spaces where it can.
func wrapText(s string, width int) []string {
	var lines []string
	var cur []rune
	for _, word := range strings.Fields(oneLine(s)) {
		w := []rune(word)
		for len(w) > width {
			if len(cur) > 0 {
				lines = append(lines, string(cur))
				cur = nil
			}
			lines = append(lines, string(w[:width]))
			w = w[width:]
		}
		switch {
		case len(cur) == 0:
			cur = w
		case len(cur)+1+len(w) <= width:
			cur = append(append(cur, ' '), w...)
		default:
			lines = append(lines, string(cur))
			cur = w
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// kindColour is the colour of a message kind.
func (d *svgLayout) kindColour(kind string) string {
	a := d.v.o.Algorithm
	if a == nil {
		return kindColours[0]
	}
	if a.IsRoutine(kind) {
		return colRoutine
	}
	if i := slices.Index(a.Kinds, kind); i >= 0 {
		return kindColours[i%len(kindColours)]
	}
	return colUnknown
}

// legendLines lays the legend out in lines that fit the width.
func (d *svgLayout) legendLines() [][]legendEntry {
	var all []legendEntry
	for _, s := range []sim.Status{sim.Leader, sim.Candidate, sim.Follower, sim.Crashed, sim.Paused} {
		all = append(all, legendEntry{kind: "status", status: s, text: s.String(), colour: styleOf(s).colour})
	}
	var kinds []string
	for _, m := range d.v.msgs {
		k := d.v.recs[m.send].Msg.Kind
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if a := d.v.o.Algorithm; a != nil {
		slices.SortStableFunc(kinds, func(x, y string) int {
			ix, iy := slices.Index(a.Kinds, x), slices.Index(a.Kinds, y)
			if ix < 0 {
				ix = len(a.Kinds)
			}
			if iy < 0 {
				iy = len(a.Kinds)
			}
			return ix - iy
		})
	}
	for _, k := range kinds {
		all = append(all, legendEntry{kind: "msg", colour: d.kindColour(k), text: k})
	}
	all = append(all, legendEntry{kind: "lost", colour: colLost, text: "lost"})
	all = append(all, legendEntry{kind: "band", text: "partition: a shade a side"})
	var lines [][]legendEntry
	var line []legendEntry
	x := 0.0
	avail := d.width - 32
	for _, e := range all {
		e.width = 30 + textWidth(e.text, 6.2) + 14
		if len(line) > 0 && x+e.width > avail {
			lines = append(lines, line)
			line, x = nil, 0
		}
		line = append(line, e)
		x += e.width
	}
	return append(lines, line)
}

// textWidth estimates the width of s at perChar pixels a character.
func textWidth(s string, perChar float64) float64 {
	return float64(utf8.RuneCountInString(s)) * perChar
}

// f writes a coordinate with at most one decimal.
func f(x float64) string {
	return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64)
}
