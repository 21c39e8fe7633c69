package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/report"
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

// nodePanel draws the nodes — on a ring, or as a list above listAbove nodes or where a ring does
// not fit — with the partition, a legend, the selected node's state and messages, and the
// messages in flight. What matters most keeps its place when the panel is short: the nodes,
// the selected node, the count of messages in flight; then the legend, then the list of
// messages.
func (m *Model) nodePanel(width, height int) []string {
	st := &m.st
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
	labelAt := func(i int) string { return m.label(views[m.byID[i]], letter[m.nodes[i]]) }
	isRing := m.opts.Config.Algorithm.Name == "ring"

	var top []string
	if groups != "" {
		top = append(top, st.fault.Render("partition "+groups))
	}
	if cuts := m.cuts(); cuts != "" {
		top = append(top, st.fault.Render("cut "+cuts))
	}
	avail := height - 1 - len(top) - 2 // the heading; the selected node's line; the in-flight count
	n := len(m.nodes)
	// A ring needs about a row for every two nodes, plus its top and bottom, or labels collide.
	viewMin, viewWant := n/2+3, n+5
	useRing := n <= listAbove && avail >= viewMin
	var labels []string // unstyled
	cell := 0           // the width of a label in the list, its marks included
	if !useRing {
		labels = make([]string, n)
		for i := range n {
			labels[i] = labelAt(i)
			cell = max(cell, ansi.StringWidth(labels[i])+2)
		}
		viewWant = listRows(n, cell, width)
		viewMin = viewWant // a list is no use cut short: it has all the rows it can
	}
	view := max(0, min(viewMin, avail))
	avail -= view
	selN := min(2, avail)
	avail -= selN
	legend := m.legend(width, anyNotBooted, groups != "")
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
	if useRing {
		if isRing {
			head += st.help.Render("  ring order ↻ clockwise")
		}
		body = m.ring(func(i int) string { return render(i, labelAt(i)) }, width, view, isRing)
	} else {
		if isRing {
			head += st.help.Render("  ring order: row by row")
		}
		body = nodeList(n, cell, width, view, m.sel, func(i int) string { return render(i, labels[i]) })
	}
	lines := append(append([]string{head}, top...), body...)
	if legendN > 0 {
		lines = append(append(lines, ""), legend...)
	}
	flights := m.ss.InFlight()
	bottom := m.nodeLines(views[m.byID[m.sel]], letter, flights, selN)
	lines = pad(lines, height-len(bottom)-1-avail)
	lines = append(lines, bottom...)
	head = fmt.Sprintf("in flight: %d", len(flights))
	if len(flights) == 0 {
		head = "in flight: none"
	}
	lines = append(lines, st.heading.Render(head))
	for i, f := range flights {
		if i == avail-1 && len(flights) > avail {
			lines = append(lines, st.help.Render(fmt.Sprintf(" +%d more", len(flights)-i)))
			break
		}
		if i == avail {
			break
		}
		lines = append(lines, " "+m.flight(f))
	}
	return pad(lines, height)
}

// legend explains the glyphs, in as few lines as width allows.
func (m *Model) legend(width int, notBootedShows, partition bool) []string {
	st := &m.st
	items := []string{st.leader.Render("★") + " leader", st.candidate.Render("◆") + " candidate", "● follower",
		st.crashed.Render("✗") + " crashed", st.paused.Render("⏸") + " paused node", "→N believes N leads"}
	if notBootedShows {
		items = append(items, notBooted+" not booted yet")
	}
	if partition {
		items = append(items, "/A partition group")
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
func (m *Model) nodeLines(n sim.NodeView, letter map[algo.ID]string, flights []sim.Flight, more int) []string {
	st := &m.st
	info := m.opts.Config.Algorithm
	var state string
	switch {
	case m.notBooted(n):
		state = notBooted + " not booted yet"
	case n.Role != "" && n.Status != sim.Crashed && n.Status != sim.Paused:
		state = "▣ " + n.Role
	case n.Status == sim.Paused && n.Leader == n.ID:
		state = st.paused.Render("⏸ paused") + ", believes it leads"
	case n.Status == sim.Paused && n.Leader != 0:
		state = st.paused.Render("⏸ paused") + fmt.Sprintf(", believes %d leads", n.Leader)
	default:
		state = st.status(n.Status).Render(glyph(n.Status) + " " + n.Status.String())
		switch {
		case n.Status == sim.Crashed || n.Status == sim.Leader || n.Status == sim.Paused:
		case n.Leader != 0:
			state += fmt.Sprintf(" of %d", n.Leader)
		default:
			state += ", no leader"
		}
	}
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

// ring places the nodes round an ellipse, in ring order clockwise from the top. With arrows,
// a mark between each node and the next shows the way the ring runs.
func (m *Model) ring(render func(int) string, width, height int, arrows bool) []string {
	if height < 3 {
		return pad(nil, height)
	}
	type item struct {
		x, w int
		s    string
	}
	rows := make([][]item, height)
	cx, cy := float64(width)/2, float64(height-1)/2
	rx, ry := math.Max(float64(width)/2-6, 1), math.Max(float64(height-1)/2, 0)
	n := len(m.nodes)
	at := func(theta float64) (float64, float64) { return cx + rx*math.Cos(theta), cy + ry*math.Sin(theta) }
	free := func(y, x, w int) bool {
		for _, it := range rows[y] {
			if x < it.x+it.w+1 && it.x < x+w+1 {
				return false
			}
		}
		return true
	}
	// The selected node first, so that it always shows; a label that would overlap another
	// takes the row above or below if that is free.
	order := make([]int, 0, n)
	order = append(order, m.sel)
	for i := range n {
		if i != m.sel {
			order = append(order, i)
		}
	}
	for _, i := range order {
		theta := -math.Pi/2 + 2*math.Pi*float64(i)/float64(n)
		label := render(i)
		w := ansi.StringWidth(label)
		fx, fy := at(theta)
		x := max(0, min(int(math.Round(fx))-w/2, width-w))
		y := max(0, min(int(math.Round(fy)), height-1))
		for _, alt := range []int{y, y - 1, y + 1} {
			if alt >= 0 && alt < height && free(alt, x, w) {
				y = alt
				break
			}
		}
		rows[y] = append(rows[y], item{x, w, label})
	}
	if arrows && n >= 2 {
		for i := range n {
			theta := -math.Pi/2 + 2*math.Pi*(float64(i)+0.5)/float64(n)
			fx, fy := at(theta)
			x, y := int(math.Round(fx)), max(0, min(int(math.Round(fy)), height-1))
			// The way round, on screen: a cell is about twice as tall as it is wide.
			dx, dy := -rx*math.Sin(theta), 2*ry*math.Cos(theta)
			if x >= 0 && x < width && free(y, x-1, 3) {
				rows[y] = append(rows[y], item{x, 1, m.st.help.Render(arrow(dx, dy))})
			}
		}
	}
	out := make([]string, height)
	for y, row := range rows {
		slices.SortFunc(row, func(a, b item) int { return a.x - b.x })
		var b strings.Builder
		col := 0
		for _, it := range row {
			if it.x < col {
				continue // overlaps the one before
			}
			b.WriteString(strings.Repeat(" ", it.x-col))
			b.WriteString(it.s)
			col = it.x + it.w
		}
		out[y] = b.String()
	}
	return out
}

// arrow is the arrow of a direction on screen (y grows downwards).
func arrow(dx, dy float64) string {
	a := math.Atan2(dy, dx) / (math.Pi / 4)
	return []string{"←", "↖", "↑", "↗", "→", "↘", "↓", "↙", "←"}[int(math.Round(a))+4]
}

// listRows is how many rows a list of n labels, cell columns each, takes at width.
func listRows(n, cell, width int) int {
	cols := listCols(cell, width)
	return (n + cols - 1) / cols
}

func listCols(cell, width int) int { return max(1, width/(cell+1)) }

// nodeList lays the n nodes out in columns of cell columns, in ring order row by row, in height
// rows at most, the selected node in view; render draws node i.
func nodeList(n, cell, width, height, sel int, render func(int) string) []string {
	if height <= 0 {
		return nil
	}
	cols := listCols(cell, width)
	first := 0
	if sel/cols >= height {
		first = (sel/cols - height + 1) * cols
	}
	var out []string
	for i := first; i < n && len(out) < height; i += cols {
		var b strings.Builder
		for j := i; j < min(i+cols, n); j++ {
			l := render(j)
			b.WriteString(l + strings.Repeat(" ", cell+1-ansi.StringWidth(l)))
		}
		out = append(out, b.String())
	}
	return out
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
