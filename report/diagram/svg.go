package diagram

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"electsim/algo"
	"electsim/report"
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

const (
	svgSans = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', 'DejaVu Sans', sans-serif`
	svgMono = `ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace`
)

func (d *svgLayout) write(b *bufio.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	o := d.v.o
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s" font-size="12" fill="%s">`+"\n",
		f(d.width), f(d.height), f(d.width), f(d.height), svgSans, colText)
	title := o.Title
	if title == "" {
		title = "electsim space-time diagram"
	}
	p("<title>%s</title>\n", esc(title))
	p(`<style>
.mono { font-family: %s; }
.halo { paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
.lbl { font-family: %s; font-size: 11px; }
.muted { fill: %s; }
.msg { fill: none; stroke-width: 1.4; }
.lost { stroke: %s; stroke-dasharray: 5 3; }
.inflight { stroke-dasharray: 2 3; }
</style>
`, svgMono, svgMono, colMuted, colLost)
	d.writeDefs(b)
	p(`<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f(d.width), f(d.height))

	// Heading and legend.
	y := svgMarginTop
	if o.Title != "" {
		y += 18
		p(`<text x="16" y="%s" font-size="18" font-weight="bold">%s</text>`+"\n", f(y), esc(o.Title))
		y += 4
	}
	if o.Caption != "" {
		y += 16
		p(`<text x="16" y="%s" class="muted">%s</text>`+"\n", f(y), esc(o.Caption))
	}
	d.writeLegend(b)

	left, right := svgAxisW, svgAxisW+d.colW*float64(len(d.v.ids))
	// Partition bands, behind everything.
	d.writeBands(b)
	// Breaks: a dashed line across.
	for _, row := range d.rows {
		if row.noteKind == "break" {
			p(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="8 5"/>`+"\n",
				f(left), f(row.y), f(d.notesX-6), f(row.y), colMuted)
		}
	}
	// The time axis.
	axisX := svgAxisW - 10
	p(`<text x="%s" y="%s" text-anchor="end" class="mono muted" font-size="11">ms</text>`+"\n", f(axisX-6), f(d.top-6))
	p(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#cbd5e1" stroke-width="1"/>`+"\n", f(axisX), f(d.top), f(axisX), f(d.bottom))
	for i, row := range d.rows {
		if row.skipped {
			gy := (d.rows[i-1].y + d.rows[i-1].h + row.y) / 2
			p(`<path d="M%s %sl10 -4M%s %sl10 -4" stroke="%s" stroke-width="1.2" fill="none"/>`+"\n",
				f(axisX-5), f(gy), f(axisX-5), f(gy+5), colMuted)
			p(`<path d="M%s %sH%s" stroke="#e2e8f0" stroke-width="1" stroke-dasharray="2 4"/>`+"\n", f(left), f(gy+2.5), f(right))
		}
		if row.timeLabel {
			p(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#cbd5e1" stroke-width="1"/>`+"\n", f(axisX-3), f(row.y), f(axisX+3), f(row.y))
			p(`<text x="%s" y="%s" text-anchor="end" class="mono muted" font-size="11">%s</text>`+"\n", f(axisX-6), f(row.y+4), fmtMS(row.at))
		}
	}
	// Lifelines, coloured by status.
	d.writeLifelines(b)
	// Messages.
	for _, m := range d.v.msgs {
		d.writeMessage(b, m)
	}
	// State marks, timers, and the narration.
	for _, row := range d.rows {
		for _, it := range row.items {
			r := &d.v.recs[it.i]
			switch r.Type {
			case sim.RecState:
				d.writeState(b, row, r, d.labels.state[it.i])
			case sim.RecTimer:
				x, ok := d.colX[r.Node]
				if !ok {
					continue
				}
				_ = x
				tip := fmt.Sprintf("%s ms · node %d · timer %s", fmtMS(r.At), r.Node, r.Timer)
				if r.Note != "" {
					tip += " · " + r.Note
				}
				p(`<text %s font-size="10" font-style="italic" class="muted halo"><title>%s</title>%s</text>`+"\n",
					d.labels.state[it.i].attrs(), esc(tip), esc("timer "+r.Timer))
			}
		}
		d.writeNote(b, row)
	}
	// Node headers, on top and, for a long diagram, at the bottom too.
	d.writeHeaders(b, d.top-svgHeaderH-2)
	if len(d.rows) > 30 {
		d.writeHeaders(b, d.bottom+4)
	}
	b.WriteString("</svg>\n")
}

// writeDefs writes the arrowheads, one per colour used.
func (d *svgLayout) writeDefs(b *bufio.Writer) {
	var colours []string
	for _, m := range d.v.msgs {
		c := d.kindColour(d.v.recs[m.send].Msg.Kind)
		if !slices.Contains(colours, c) {
			colours = append(colours, c)
		}
	}
	for _, e := range slices.Concat(d.legend...) {
		if e.kind == "msg" && !slices.Contains(colours, e.colour) {
			colours = append(colours, e.colour)
		}
	}
	b.WriteString("<defs>\n")
	for _, c := range colours {
		fmt.Fprintf(b, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto"><path d="M0 1L10 5L0 9z" fill="%s"/></marker>`+"\n",
			markerID(c), c)
	}
	b.WriteString("</defs>\n")
}

func markerID(colour string) string { return "head-" + strings.TrimPrefix(colour, "#") }

func (d *svgLayout) writeLegend(b *bufio.Writer) {
	for li, line := range d.legend {
		y := d.legendY + float64(li)*18
		x := 16.0
		for _, e := range line {
			switch e.kind {
			case "status":
				st := styleOf(e.status)
				dash := ""
				if st.dash != "" {
					dash = ` stroke-dasharray="` + st.dash + `"`
				}
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`, f(x), f(y-4), f(x+22), f(y-4), st.colour, f(st.width), dash)
				fmt.Fprintf(b, `<text x="%s" y="%s" fill="%s" font-size="12">%s</text>`, f(x+28), f(y), st.colour, report.StatusGlyph(e.status))
				fmt.Fprintf(b, `<text x="%s" y="%s" font-size="11">%s</text>`+"\n", f(x+42), f(y), esc(e.text))
				x += 14
			case "msg":
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.4" marker-end="url(#%s)"/>`, f(x), f(y-4), f(x+24), f(y-4), e.colour, markerID(e.colour))
				fmt.Fprintf(b, `<text x="%s" y="%s" class="lbl">%s</text>`+"\n", f(x+30), f(y), esc(e.text))
			case "lost":
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" class="lost" stroke-width="1.4"/>`, f(x), f(y-4), f(x+20), f(y-4))
				fmt.Fprintf(b, `<text x="%s" y="%s" fill="%s" font-weight="bold" font-size="13" text-anchor="middle">✗</text>`, f(x+22), f(y+0.5), colLost)
				fmt.Fprintf(b, `<text x="%s" y="%s" font-size="11">%s</text>`+"\n", f(x+30), f(y), esc(e.text))
			case "band": // a shade for each side
				fmt.Fprintf(b, `<rect x="%s" y="%s" width="12" height="12" fill="%s"/><rect x="%s" y="%s" width="12" height="12" fill="%s"/>`,
					f(x), f(y-10), bandColours[0], f(x+12), f(y-10), bandColours[1])
				fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5" stroke-dasharray="3 2"/>`, f(x+12), f(y-10), f(x+12), f(y+2), colNetFault)
				fmt.Fprintf(b, `<text x="%s" y="%s" font-size="11">%s</text>`+"\n", f(x+30), f(y), esc(e.text))
			}
			x += e.width
		}
	}
}

func (d *svgLayout) writeLifelines(b *bufio.Writer) {
	for _, id := range d.v.ids {
		x := d.colX[id]
		st, _ := d.v.statusAt(id)
		y0 := d.top
		seg := func(y1 float64) {
			if y1 <= y0 {
				return
			}
			s := styleOf(st)
			dash := ""
			if s.dash != "" {
				dash = ` stroke-dasharray="` + s.dash + `"`
			}
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`+"\n",
				f(x), f(y0), f(x), f(y1), s.colour, f(s.width), dash)
		}
		for _, row := range d.rows {
			for _, it := range row.items {
				r := &d.v.recs[it.i]
				if r.Type == sim.RecState && r.Node == id && r.New != st {
					seg(row.y)
					st, y0 = r.New, row.y
				}
			}
		}
		seg(d.bottom)
	}
}

// writeMessage draws one message: one element of class msg, and its label where placeLabels
// put it.
func (d *svgLayout) writeMessage(b *bufio.Writer, m *dgMsg) {
	recs := d.v.recs
	s := &recs[m.send]
	xs, ok1 := d.colX[s.Msg.From]
	xr, ok2 := d.colX[s.Msg.To]
	if !ok1 || !ok2 {
		return
	}
	ys := d.rowOf[m.send].y
	colour := d.kindColour(s.Msg.Kind)
	label := s.Msg.Label()
	spot := d.labels.msg[m]
	tip := fmt.Sprintf("%d → %d · %s sent at %s ms", s.Msg.From, s.Msg.To, label, fmtMS(s.At))
	switch {
	case m.lostAtSend(recs):
		// A short stub toward the receiver, ending in ✗.
		end := d.labels.stub[m]
		tip += " · lost at once: " + s.Reason.String()
		fmt.Fprintf(b, `<path class="msg lost" d="M%s %sL%s %s"><title>%s</title></path>`+"\n", f(xs), f(ys), f(end[0]), f(end[1]), esc(tip))
		d.cross(b, end[0], end[1])
		fmt.Fprintf(b, `<text %s class="lbl halo" fill="%s">%s→%d ✗ %s</text>`+"\n",
			spot.attrs(), colLost, esc(label), s.Msg.To, esc(s.Reason.String()))
	case m.end >= 0:
		e := &recs[m.end]
		ye := d.rowOf[m.end].y
		if e.Type == sim.RecDrop {
			tip += fmt.Sprintf(" · lost on arrival at %s ms: %s", fmtMS(e.At), e.Reason.String())
			fmt.Fprintf(b, `<path class="msg lost" d="M%s %sL%s %s"><title>%s</title></path>`+"\n", f(xs), f(ys), f(xr), f(ye), esc(tip))
			d.cross(b, xr, ye)
			d.writeLabel(b, spot, label+" ✗ "+e.Reason.String(), colLost)
			return
		}
		tip += fmt.Sprintf(" · delivered at %s ms", fmtMS(e.At))
		if e.Note != "" {
			tip += " · " + e.Note
		}
		if s.Msg.From == s.Msg.To {
			fmt.Fprintf(b, `<path class="msg delivered" d="M%s %sC%s %s %s %s %s %s" stroke="%s" marker-end="url(#%s)"><title>%s</title></path>`+"\n",
				f(xs), f(ys), f(xs+40), f(ys), f(xs+40), f(ye), f(xs+1), f(ye), colour, markerID(colour), esc(tip))
			d.writeLabel(b, spot, label, colour)
			return
		}
		fmt.Fprintf(b, `<path class="msg delivered" d="M%s %sL%s %s" stroke="%s" marker-end="url(#%s)"><title>%s</title></path>`+"\n",
			f(xs), f(ys), f(xr-d.dir(s.Msg)*1.5), f(ye), colour, markerID(colour), esc(tip))
		d.writeLabel(b, spot, label, colour)
	default:
		// Still in flight when the records end: dashed, off the bottom.
		tip += fmt.Sprintf(" · due at %s ms, after the end", fmtMS(s.DeliverAt))
		fmt.Fprintf(b, `<path class="msg inflight" d="M%s %sL%s %s" stroke="%s" marker-end="url(#%s)"><title>%s</title></path>`+"\n",
			f(xs), f(ys), f(xr), f(d.bottom), colour, markerID(colour), esc(tip))
		d.writeLabel(b, spot, label+" (in flight)", colour)
	}
}

// writeLabel writes a message's label at its spot.
func (d *svgLayout) writeLabel(b *bufio.Writer, spot labelSpot, text, colour string) {
	fmt.Fprintf(b, `<text %s class="lbl halo" fill="%s">%s</text>`+"\n", spot.attrs(), colour, esc(text))
}

// cross draws a red ✗ centred at x, y.
func (d *svgLayout) cross(b *bufio.Writer, x, y float64) {
	fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" font-size="14" font-weight="bold" fill="%s" class="halo">✗</text>`+"\n",
		f(x), f(y+5), colLost)
}

func (d *svgLayout) writeState(b *bufio.Writer, row *svgRow, r *sim.Record, spot labelSpot) {
	x, ok := d.colX[r.Node]
	if !ok {
		return
	}
	st := styleOf(r.New)
	tip := fmt.Sprintf("%s ms · node %d: %s → %s", fmtMS(r.At), r.Node, r.Old, r.New)
	if r.Leader != 0 {
		tip += fmt.Sprintf(" · leader %d", r.Leader)
	}
	if r.Term != 0 {
		tip += fmt.Sprintf(" · %s %d", report.TermWord(d.v.o.Algorithm), r.Term)
	}
	if r.Note != "" {
		tip += " · " + r.Note
	}
	fmt.Fprintf(b, `<g><title>%s</title><circle cx="%s" cy="%s" r="7.5" fill="#ffffff" stroke="%s" stroke-width="1.5"/>`+
		`<text x="%s" y="%s" text-anchor="middle" font-size="11" font-weight="bold" fill="%s">%s</text></g>`+"\n",
		esc(tip), f(x), f(row.y), st.colour, f(x), f(row.y+4), st.colour, report.StatusGlyph(r.New))
	text := d.stateLabel(r)
	colour := st.colour
	if r.New == sim.Follower {
		colour = "#6b7280" // the lifeline's grey is too light for text
	}
	fmt.Fprintf(b, `<text %s font-size="11" font-weight="bold" fill="%s" class="halo">%s</text>`+"\n",
		spot.attrs(), colour, esc(text))
}

// stateLabel is the label of a state change beside its mark: "leader", "follower of 5".
func (d *svgLayout) stateLabel(r *sim.Record) string {
	return strings.TrimPrefix(statusText(r, d.v.o.Algorithm), report.StatusGlyph(r.New)+" ")
}

func (d *svgLayout) writeNote(b *bufio.Writer, row *svgRow) {
	if len(row.note) == 0 {
		return
	}
	attrs := ""
	switch row.noteKind {
	case "fault":
		attrs = ` font-weight="bold" fill="` + colFault + `"`
	case "netfault":
		attrs = ` font-weight="bold" fill="` + colNetFault + `"`
	case "break":
		attrs = ` font-weight="bold" fill="` + colMuted + `"`
	}
	if row.noteKind == "say" {
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#86efac" stroke-width="3"/>`+"\n",
			f(d.notesX-8), f(row.y-8), f(d.notesX-8), f(row.y-8+svgLineH*float64(len(row.note))+2))
	}
	fmt.Fprintf(b, `<text x="%s" y="%s"%s>`, f(d.notesX), f(row.y+4), attrs)
	for i, line := range row.note {
		if i == 0 {
			fmt.Fprintf(b, `<tspan x="%s">%s</tspan>`, f(d.notesX), esc(line))
		} else {
			fmt.Fprintf(b, `<tspan x="%s" dy="%s">%s</tspan>`, f(d.notesX), f(svgLineH), esc(line))
		}
	}
	b.WriteString("</text>\n")
}

func (d *svgLayout) writeHeaders(b *bufio.Writer, y float64) {
	for _, id := range d.v.ids {
		x := d.colX[id]
		label := strconv.Itoa(int(id))
		w := max(36, textWidth(label, 8)+16)
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" rx="6" fill="#f1f5f9" stroke="#334155" stroke-width="1.2"/>`,
			f(x-w/2), f(y), f(w), f(svgHeaderH))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" font-size="13" font-weight="bold">%s</text>`+"\n",
			f(x), f(y+16.5), label)
	}
}

// esc escapes text for XML. Line breaks become spaces; the characters XML cannot hold (most
// control characters) and those a page could act on (bidirectional controls) are written out
// as safetext.Escape writes them, as on the terminal: "\x1b", "\u202e".
func esc(s string) string {
	var b strings.Builder
	for _, r := range clean(s) {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == 0xFFFE || r == 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r) // not allowed in XML 1.0
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
