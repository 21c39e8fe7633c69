package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/report"
	"electsim/session"
	"electsim/sim"
)

// listAbove is the number of nodes above which a compact list replaces the ring.
const listAbove = 32

// notBooted reports whether a node has not booted yet: before the boot steps of a run.
func (m *Model) notBooted(n sim.NodeView) bool {
	return !m.ss.Started(n.ID) && n.Status != sim.Crashed && n.Status != sim.Paused
}

// label is a node as the ring shows it: status glyph, id, the leader it believes in, and its
// partition group.
func (m *Model) label(n sim.NodeView, group string) string {
	if n.Role != "" && n.Status != sim.Crashed && n.Status != sim.Paused {
		s := "▣" + report.ID(n.ID) + " " + strings.Fields(n.Role)[0]
		if n.Leader != 0 {
			s += "→" + report.ID(n.Leader)
		}
		return s
	}
	g := glyph(n.Status)
	if m.notBooted(n) {
		g = notBooted
	}
	s := g + report.ID(n.ID)
	switch {
	case n.Status == sim.Leader || n.Status == sim.Crashed || n.Leader == 0:
	case n.Leader == n.ID:
		s += "★" // paused, and still believes it leads
	default:
		s += "→" + report.ID(n.Leader)
	}
	if group != "" {
		s += "/" + group
	}
	return s
}

// nodePanel draws the nodes — on the canvas (the picture session computes: packets, drops,
// timers, held inputs), or as a list above listAbove nodes or where the canvas does not fit —
// with the partition, a legend, the selected node's state, timers and messages, and the
// messages in flight. What matters most keeps its place when the panel is short: the nodes,
// the selected node, the count of messages in flight; then the legend, then the list of
// messages. pic is the picture to fill and draw, reused from frame to frame; the labels'
// places, for the mouse, are set in f.
func (m *Model) nodePanel(width, height int, pic *session.Picture, f *frame) []string {
	st := &m.st
	m.ss.Picture(pic, m.linger())
	views := m.ss.Nodes() // ascending by id: the node at ring position i is views[m.byID[i]]
	anyNotBooted := false
	for _, n := range views {
		anyNotBooted = anyNotBooted || m.notBooted(n)
	}
	groups, letter := m.groups()
	// A label is drawn, styled, only where it shows: a list of many nodes shows a few rows.
	render := func(i int, text string) string {
		style := st.status(views[m.byID[i]].Status)
		if i == m.sel {
			return st.reverse.Render("[" + style.Render(text) + "]")
		}
		return " " + style.Render(text) + " "
	}
	// A ring topology's nodes are placed in its ring order — round the circle clockwise, or row
	// by row in the list — whichever algorithm runs on it; the complete graph's order is no ring's.
	ringTop := m.ss.Topology()
	onRing := ringTop != nil && ringTop.IsRing()

	var top []string
	if groups != "" {
		top = append(top, st.fault.Render("partition "+groups))
	}
	if cuts := m.cuts(); cuts != "" {
		top = append(top, st.fault.Render("cut "+cuts))
	}
	avail := height - 1 - len(top) - 2 // the heading; the selected node's line; the in-flight count
	n := len(m.nodes)
	// The canvas needs a row for every two nodes, and rows for the timer bars and held inputs,
	// or labels collide.
	viewMin, viewWant := max(9, n/2+5), max(13, n+7)
	useCanvas := n <= listAbove && avail >= viewMin
	var labels []string // unstyled
	cell := 0           // the width of a label in the list, its marks included
	if !useCanvas {
		out, in := m.flightCounts(pic)
		labels = make([]string, n)
		for i := range n {
			labels[i] = m.label(views[m.byID[i]], letter[m.nodes[i]])
			if out[i]+in[i] > 0 {
				labels[i] += fmt.Sprintf(" ↑%d↓%d", out[i], in[i])
			}
			cell = max(cell, ansi.StringWidth(labels[i])+2)
		}
		viewWant = listRows(n, cell, width)
		viewMin = viewWant // a list is no use cut short: it has all the rows it can
	}
	view := max(0, min(viewMin, avail))
	avail -= view
	selN := min(3, avail)
	avail -= selN
	legend := m.legend(width, anyNotBooted, groups != "", useCanvas)
	legendN := 0
	if avail >= len(legend)+1 {
		legendN = len(legend) + 1
		avail -= legendN
	}
	extra := max(0, min(viewWant-view, avail-3))
	view += extra
	avail -= extra

	head := st.heading.Render("nodes")
	var body []string
	f.boxes, f.boxTop = nil, 1+len(top)
	if useCanvas {
		if onRing && pic.Layout == "ring" {
			head += st.help.Render("  ring order ↻ clockwise")
		}
		body, f.boxes = m.drawCanvas(pic, width, view)
	} else {
		if onRing {
			head += st.help.Render("  ring order: row by row")
		} else {
			head += st.help.Render("  ↑ sent ↓ on the way to it")
		}
		body, f.boxes = nodeList(n, cell, width, view, m.sel, func(i int) string { return render(i, labels[i]) })
	}
	lines := append(append([]string{head}, top...), body...)
	if legendN > 0 {
		lines = append(append(lines, ""), legend...)
	}
	flights := flightsOf(pic)
	bottom := m.nodeLines(views[m.byID[m.sel]], letter, flights, selN, pic)
	lines = pad(lines, height-len(bottom)-1-avail)
	lines = append(lines, bottom...)
	lines = m.appendFlights(lines, flights, avail)
	return pad(lines, height)
}

// appendFlights appends the count of messages in flight and, in at most rows lines, the
// soonest of them, with how many more there are when they do not fit.
func (m *Model) appendFlights(lines []string, flights []sim.Flight, rows int) []string {
	st := &m.st
	head := fmt.Sprintf("in flight: %d", len(flights))
	if len(flights) == 0 {
		head = "in flight: none"
	}
	lines = append(lines, st.heading.Render(head))
	for i, f := range flights {
		if i == rows-1 && len(flights) > rows {
			return append(lines, st.help.Render(fmt.Sprintf(" +%d more", len(flights)-i)))
		}
		if i == rows {
			break
		}
		lines = append(lines, " "+m.flight(f))
	}
	return lines
}

// flightsOf returns the messages in flight of a picture, soonest first, and then those held by
// paused nodes (At -1), as the list under the nodes shows them.
func flightsOf(pic *session.Picture) []sim.Flight {
	out := make([]sim.Flight, 0, len(pic.Packets))
	for i := range pic.Packets {
		out = append(out, sim.Flight{Msg: pic.Packets[i].Message(), At: pic.Packets[i].Arrives})
	}
	// The held ones by node, ascending, as the run lists them.
	order := make([]int, len(pic.Nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(pic.Nodes[a].ID, pic.Nodes[b].ID) })
	for _, i := range order {
		n := &pic.Nodes[i]
		for j := range n.Held {
			if msg, ok := n.Held[j].Message(n.ID); ok {
				out = append(out, sim.Flight{Msg: msg, At: -1})
			}
		}
	}
	return out
}

// flightCounts returns, by ring position, how many messages in flight each node sent and how
// many are on their way to it: what the list of many nodes shows instead of packets.
func (m *Model) flightCounts(pic *session.Picture) (out, in []int) {
	out, in = make([]int, len(m.nodes)), make([]int, len(m.nodes))
	pos := make(map[algo.ID]int, len(m.nodes))
	for i, id := range m.nodes {
		pos[id] = i
	}
	for _, p := range pic.Packets {
		out[pos[p.From]]++
		in[pos[p.To]]++
	}
	return out, in
}

// legend explains the glyphs, in as few lines as width allows.
func (m *Model) legend(width int, notBootedShows, partition, canvas bool) []string {
	st := &m.st
	items := []string{st.leader.Render("★") + " leader", st.candidate.Render("◆") + " candidate", "● follower",
		st.crashed.Render("✗") + " crashed", st.paused.Render("⏸") + " paused node", "→N believes N leads"}
	if m.opts.Config.Algorithm.Terms {
		items = append(items, "tN "+report.TermWord(m.opts.Config.Algorithm)+" N")
	}
	if canvas {
		for i, k := range m.opts.Config.Algorithm.Kinds {
			items = append(items, styler{st}.Kind(string(m.glyphs[k]), i, false)+" "+k)
		}
		items = append(items, "✓ yes, granted", st.errText.Render("✗")+" lost", st.fault.Render("╳")+" blocked",
			st.timer.Render("██░░")+" timer")
	}
	if notBootedShows {
		items = append(items, notBooted+" not booted yet")
	}
	if partition {
		items = append(items, "/A partition group")
	}
	if canvas && m.opts.Config.Algorithm.Groups {
		items = append(items, st.leader.Render("•")+" member to its coordinator")
	}
	if m.opts.Config.Algorithm.Roles != nil {
		items = append(items, "▣ not a candidate")
	}
	var lines []string
	cur := ""
	for _, it := range items {
		switch {
		case cur == "":
			cur = it
		case ansi.StringWidth(cur)+2+ansi.StringWidth(it) <= width:
			cur += "  " + it
		default:
			lines = append(lines, cur)
			cur = it
		}
	}
	return append(lines, cur)
}

// nodeLines describes the selected node: its state, and, in more lines, the messages in flight
// from it and to it.
func (m *Model) nodeLines(n sim.NodeView, letter map[algo.ID]string, flights []sim.Flight, more int, pic *session.Picture) []string {
	st := &m.st
	info := m.opts.Config.Algorithm
	state := m.nodeState(n)
	if n.Term != 0 {
		state += fmt.Sprintf(" · %s %d", report.TermWord(info), n.Term)
	}
	if g := letter[n.ID]; g != "" {
		state += " · group " + g
	}
	lines := []string{st.bold.Render(fmt.Sprintf("node %d: ", n.ID)) + state}
	if more <= 0 {
		return lines
	}
	// Its timers, soonest first: name, time left of the time it was set for.
	for _, pn := range pic.Nodes {
		if pn.ID != n.ID {
			continue
		}
		var ts []string
		for _, t := range pn.Timers {
			s := t.Name + " " + human.Tenths(t.Left)
			if t.Total > 0 {
				s = st.timer.Render(bar(t.Left, t.Total)) + " " + s + " of " + human.Tenths(t.Total)
			}
			ts = append(ts, s)
		}
		if len(ts) == 0 {
			lines = append(lines, " "+st.help.Render("timers: none pending"))
		} else {
			lines = append(lines, " "+st.help.Render("timers: ")+strings.Join(ts, st.help.Render(" · ")))
		}
		more--
	}
	if more <= 0 {
		return lines
	}
	// The messages from it and to it, by kind, soonest first: "ELECTION→4 5 · OK→1".
	type group struct {
		kind  string
		peers []algo.ID
	}
	var from, to []*group
	add := func(gs []*group, kind string, peer algo.ID) []*group {
		for _, g := range gs {
			if g.kind == kind {
				g.peers = append(g.peers, peer)
				return gs
			}
		}
		return append(gs, &group{kind, []algo.ID{peer}})
	}
	nFrom, nTo := 0, 0
	for _, f := range flights {
		kind := report.Kind(f.Msg, info, report.Plain{})
		switch {
		case f.Msg.From == n.ID:
			from, nFrom = add(from, kind, f.Msg.To), nFrom+1
		case f.Msg.To == n.ID:
			to, nTo = add(to, kind, f.Msg.From), nTo+1
		}
	}
	say := func(what, arrow string, count int, gs []*group) string {
		if count == 0 {
			return st.help.Render(what + ": nothing in flight")
		}
		var s []string
		for _, g := range gs {
			slices.Sort(g.peers)
			ids := make([]string, len(g.peers))
			for i, id := range g.peers {
				ids[i] = report.ID(id)
			}
			s = append(s, g.kind+arrow+strings.Join(ids, " "))
		}
		return st.help.Render(fmt.Sprintf("%s (%d): ", what, count)) + strings.Join(s, " · ")
	}
	lines = append(lines, " "+say("from it", "→", nFrom, from))
	if more > 1 {
		lines = append(lines, " "+say("to it", "←", nTo, to))
	}
	return lines
}

// listRows is how many rows a list of n labels, cell columns each, takes at width.
func listRows(n, cell, width int) int {
	cols := listCols(cell, width)
	return (n + cols - 1) / cols
}

func listCols(cell, width int) int { return max(1, width/(cell+1)) }

// nodeList lays the n nodes out in columns of cell columns, in ring order row by row, in height
// rows at most, the selected node in view; render draws node i. It returns the lines, and where
// each node's label is (nodes out of view have none: width 0).
func nodeList(n, cell, width, height, sel int, render func(int) string) ([]string, []box) {
	if height <= 0 {
		return nil, nil
	}
	boxes := make([]box, n)
	cols := listCols(cell, width)
	first := 0
	if sel/cols >= height {
		first = (sel/cols - height + 1) * cols
	}
	var out []string
	for i := first; i < n && len(out) < height; i += cols {
		var b strings.Builder
		for j := i; j < min(i+cols, n); j++ {
			boxes[j] = box{(j - i) * (cell + 1), len(out), cell}
			l := render(j)
			b.WriteString(l + strings.Repeat(" ", cell+1-ansi.StringWidth(l)))
		}
		out = append(out, b.String())
	}
	return out, boxes
}

// flight is a message in flight, described: "ELECTION 1→4 in 3.4ms".
func (m *Model) flight(f sim.Flight) string {
	eta := "held: paused"
	if f.At >= 0 {
		eta = "in " + human.Tenths(f.At-m.ss.Now())
	}
	return fmt.Sprintf("%s %s %s", report.Kind(f.Msg, m.opts.Config.Algorithm, report.Plain{}), report.Link(f.Msg), eta)
}

// groups returns the partition in force, as "A: 1 2 | B: 3 4 5", and each node's group letter.
func (m *Model) groups() (string, map[algo.ID]string) {
	parts := m.ss.Partition()
	if parts == nil {
		return "", nil
	}
	letter := map[algo.ID]string{}
	text := ""
	for i, g := range parts {
		l := string(rune('A' + i%26))
		if i > 0 {
			text += " | "
		}
		text += l + ":"
		for _, id := range g {
			letter[id] = l
			text += " " + report.ID(id)
		}
	}
	return text, letter
}

// cuts describes the one-way cuts in force: "1->2 3->4".
func (m *Model) cuts() string {
	var s []string
	for _, l := range m.ss.Cuts() {
		s = append(s, l.String())
	}
	return strings.Join(s, " ")
}

// nodeState says in words what node n is and whom it believes leads.
func (m *Model) nodeState(n sim.NodeView) string {
	st := &m.st
	switch {
	case m.notBooted(n):
		return notBooted + " not booted yet"
	case n.Role != "" && n.Status != sim.Crashed && n.Status != sim.Paused:
		return "▣ " + n.Role
	case n.Status == sim.Paused && n.Leader == n.ID:
		return st.paused.Render("⏸ paused") + ", believes it leads"
	case n.Status == sim.Paused && n.Leader != 0:
		return st.paused.Render("⏸ paused") + fmt.Sprintf(", believes %d leads", n.Leader)
	}
	state := st.status(n.Status).Render(glyph(n.Status) + " " + n.Status.String())
	switch {
	case n.Status == sim.Crashed || n.Status == sim.Leader || n.Status == sim.Paused:
	case n.Leader != 0:
		state += fmt.Sprintf(" of %d", n.Leader)
	default:
		state += ", no leader"
	}
	return state
}
