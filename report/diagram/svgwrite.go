package diagram

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"electsim/report"
	"electsim/sim"
)

const (
	svgSans = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', 'DejaVu Sans', sans-serif`
	svgMono = `ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace`
)

// write writes the whole image: the heading and legend, then from the back to the front the
// partition bands, breaks, the time axis, the lifelines, the messages, the state marks, timers
// and narration, and the nodes' headers.
func (d *svgLayout) write(b *bufio.Writer) {
	d.writeHeading(b)
	d.writeLegend(b)
	d.writeBands(b)
	for _, row := range d.rows {
		if row.noteKind == "break" { // a dashed line across
			fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.2" stroke-dasharray="8 5"/>`+"\n",
				f(svgAxisW), f(row.y), f(d.notesX-6), f(row.y), colMuted)
		}
	}
	d.writeAxis(b)
	d.writeLifelines(b)
	for _, m := range d.v.msgs {
		d.writeMessage(b, m)
	}
	for _, row := range d.rows {
		for _, it := range row.items {
			r := &d.v.recs[it.i]
			switch r.Type {
			case sim.RecState:
				d.writeState(b, row, r, d.labels.state[it.i])
			case sim.RecTimer:
				d.writeTimer(b, r, d.labels.state[it.i])
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

// writeHeading opens the image — its size, fonts, styles, arrowheads and white ground — and
// writes its title and caption.
func (d *svgLayout) writeHeading(b *bufio.Writer) {
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
}

// writeAxis writes the time axis: a label at the first row of each instant, and a mark where
// a quiet stretch is shortened.
func (d *svgLayout) writeAxis(b *bufio.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	left, right := svgAxisW, svgAxisW+d.colW*float64(len(d.v.ids))
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
}

// writeTimer writes a timer shown: a small grey label where placeLabels put it.
func (d *svgLayout) writeTimer(b *bufio.Writer, r *sim.Record, spot labelSpot) {
	if _, ok := d.colX[r.Node]; !ok {
		return
	}
	tip := fmt.Sprintf("%s ms · node %d · timer %s", fmtMS(r.At), r.Node, r.Timer)
	if r.Note != "" {
		tip += " · " + r.Note
	}
	fmt.Fprintf(b, `<text %s font-size="10" font-style="italic" class="muted halo"><title>%s</title>%s</text>`+"\n",
		spot.attrs(), esc(tip), esc("timer "+r.Timer))
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
	label := report.Label(s.Msg, d.v.o.Algorithm)
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
