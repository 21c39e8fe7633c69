package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/sim"
	"electsim/sim/export"
)

// The smallest terminal the TUI draws in.
const minWidth, minHeight = 60, 16

// listAbove is the number of nodes above which a compact list replaces the ring.
const listAbove = 32

// View draws the screen.
func (m *Model) View() (view string) {
	defer func() {
		if p := recover(); p != nil && m.failed == nil {
			m.failed = p
			view = "electsim failed; press q"
		}
	}()
	if m.failed != nil {
		return "electsim failed; press q"
	}
	if m.width < minWidth || m.height < minHeight {
		msg := fmt.Sprintf("terminal too small: electsim needs %d×%d, this one is %d×%d", minWidth, minHeight, m.width, m.height)
		return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, ansi.Wordwrap(msg, max(m.width-2, 10), " "))
	}
	top := m.header()
	bottom := m.footer()
	middle := m.height - len(top) - len(bottom)
	var body []string
	if m.showHelp {
		body = m.fullHelp(middle)
	} else {
		body = m.panels(middle)
	}
	lines := append(append(top, body...), bottom...)
	for i, l := range lines {
		lines[i] = fit(l, m.width)
	}
	return strings.Join(lines, "\n")
}

// fit truncates or pads a styled line to exactly w columns.
func fit(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// header is the title, the status line with its time bar, the message counts, and the split
// brain and break banners when they apply.
func (m *Model) header() []string {
	st := &m.st
	s := m.ss.s
	cfg := m.opts.Config
	title := st.title.Render("electsim · " + m.title())
	right := st.help.Render("? help  q quit")
	gap := max(1, m.width-ansi.StringWidth(title)-ansi.StringWidth(right))
	lines := []string{title + strings.Repeat(" ", gap) + right}

	state := st.dim.Render("⏸ paused")
	if m.playing {
		state = st.okText.Render(fmt.Sprintf("▶ playing %d steps/s", speeds[m.speed]))
	} else if s.Done() {
		state = st.dim.Render("■ the end")
	}
	status := fmt.Sprintf("%s · seed %d · t %s · step %d · %s", cfg.Algorithm.Name, cfg.Seed,
		export.MS(s.Now())+"ms", len(m.ss.steps), state)
	if barWidth := m.width - ansi.StringWidth(status) - 3; barWidth >= 10 {
		bar := m.bar
		bar.Width = barWidth
		status += "  " + bar.ViewAs(float64(s.Now())/float64(cfg.RunFor))
	}
	lines = append(lines, status)

	sum := s.Summary()
	var counts []string
	for i, k := range sum.Kinds {
		counts = append(counts, fmt.Sprintf("%s %d", styler{st}.Kind(k, i, cfg.Algorithm.IsRoutine(k)), sum.Sent[i]))
	}
	lines = append(lines, st.dim.Render("sent: ")+strings.Join(counts, st.dim.Render(" · ")))

	if leaders := s.Leaders(); len(leaders) >= 2 {
		who := "both"
		if len(leaders) > 2 {
			who = "all"
		}
		lines = append(lines, st.banner.Render(fit(fmt.Sprintf(" ⚠ SPLIT BRAIN — %s %s believe they lead", andList(leaders), who), m.width)))
	}
	if _, atBreak := m.ss.narration(); atBreak {
		lines = append(lines, st.breakBar.Render(fit(" ⏸ BREAK — what happens next? n or enter continues", m.width)))
	}
	return lines
}

// footer is the narration, the input line or the last message, and the help bar.
func (m *Model) footer() []string {
	st := &m.st
	var lines []string
	if say, _ := m.ss.narration(); say != "" {
		wrapped := strings.Split(ansi.Wordwrap("“"+say+"”", m.width-2, " "), "\n")
		if len(wrapped) > 3 {
			wrapped = append(wrapped[:2], wrapped[2]+" …")
		}
		for _, w := range wrapped[:min(3, len(wrapped))] {
			lines = append(lines, " "+st.narration.Render(w))
		}
	}
	switch m.mode {
	case inputCommand:
		lines = append(lines, st.bold.Render(":")+m.in.View())
	case inputFilter:
		lines = append(lines, st.bold.Render("filter (node ids, kinds; empty clears): ")+m.in.View())
	case inputSave:
		lines = append(lines, st.bold.Render("save session as: ")+m.in.View())
	default:
		switch {
		case m.message != "" && m.messageErr:
			lines = append(lines, st.errText.Render(m.message))
		case m.message != "":
			lines = append(lines, st.okText.Render(m.message))
		default:
			lines = append(lines, "")
		}
	}
	lines = append(lines, m.help.ShortHelpView(m.keys.ShortHelp()))
	return lines
}

// fullHelp is what ? shows, in the middle of the screen.
func (m *Model) fullHelp(height int) []string {
	lines := []string{m.st.heading.Render("Keys"), ""}
	lines = append(lines, strings.Split(m.help.FullHelpView(m.keys.FullHelp()), "\n")...)
	lines = append(lines, "", m.st.dim.Render("The command line (:) takes any scenario action: crash 3, partition 1 2 | 3 4 5,"),
		m.st.dim.Render("delay 1->2 300ms, drop 20%, heal, elect 2 … It happens at the next whole millisecond."),
		m.st.dim.Render("? closes this help."))
	return pad(lines, height)
}

// pad cuts or fills lines to height.
func pad(lines []string, height int) []string {
	if len(lines) > height {
		return lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return lines
}

// panels is the node view on the left and the event log on the right.
func (m *Model) panels(height int) []string {
	left := min(40, m.width*2/5)
	right := m.width - left - 1
	nodes := m.nodePanel(left, height)
	log := m.logPanel(right, height)
	sep := m.st.border.Render("│")
	out := make([]string, height)
	for i := range out {
		out[i] = fit(nodes[i], left) + sep + log[i]
	}
	return out
}

// label is a node as the ring shows it: status glyph, id, the leader it believes in, and its
// partition group.
func (m *Model) label(n sim.NodeView, group string) string {
	if n.Role != "" && n.Status != sim.Crashed && n.Status != sim.Paused {
		s := "▣" + export.ID(n.ID) + " " + strings.Fields(n.Role)[0]
		if n.Leader != 0 {
			s += "→" + export.ID(n.Leader)
		}
		return s
	}
	s := glyph(n.Status) + export.ID(n.ID)
	switch {
	case n.Status == sim.Leader || n.Status == sim.Crashed || n.Leader == 0:
	case n.Leader == n.ID:
		s += "★" // paused, and still believes it leads
	default:
		s += "→" + export.ID(n.Leader)
	}
	if group != "" {
		s += "/" + group
	}
	return s
}

// nodePanel draws the nodes — on a ring, or as a list above listAbove nodes — with the
// partition, the selection and the messages in flight.
func (m *Model) nodePanel(width, height int) []string {
	st := &m.st
	views := map[algo.ID]sim.NodeView{}
	for _, n := range m.ss.s.Nodes() {
		views[n.ID] = n
	}
	groups, letter := m.ss.groups()
	lines := []string{st.heading.Render("nodes")}
	if groups != "" {
		lines = append(lines, st.fault.Render("partition "+groups))
	}
	if cuts := m.ss.cuts(); cuts != "" {
		lines = append(lines, st.fault.Render("cut "+cuts))
	}
	flights, total := m.ss.inFlight(6)
	flightLines := len(flights) + 1
	legend := []string{st.dim.Render("★ leader ◆ candidate ● follower"), st.dim.Render("✗ crashed ⏸ paused  →N: believes N leads")}
	if m.opts.Config.Algorithm.Roles != nil {
		legend = append(legend, st.dim.Render("▣ not a candidate: lock service, resource"))
	}
	area := height - len(lines) - flightLines - len(legend) - 1
	render := func(id algo.ID) string {
		n := views[id]
		text := m.label(n, letter[id])
		style := st.status(n.Status)
		if id == m.nodes[m.sel] {
			return st.reverse.Render("[" + style.Render(text) + "]")
		}
		return " " + style.Render(text) + " "
	}
	if len(m.nodes) > listAbove {
		lines = append(lines, m.nodeList(render, width, area)...)
	} else {
		// A ring as tall as the nodes need, no taller.
		lines = append(lines, m.ring(render, width, min(area, len(m.nodes)+5))...)
	}
	lines = append(append(lines, ""), legend...)
	lines = pad(lines, height-flightLines)
	head := fmt.Sprintf("in flight: %d", total)
	if total == 0 {
		head = "in flight: none"
	}
	lines = append(lines, st.heading.Render(head))
	for _, f := range flights {
		lines = append(lines, " "+f)
	}
	return pad(lines, height)
}

// ring places the nodes round an ellipse, in ring order clockwise from the top.
func (m *Model) ring(render func(algo.ID) string, width, height int) []string {
	if height < 3 {
		return nil
	}
	grid := make([][]string, height) // each cell: "" (blank) or a label that starts here
	for i := range grid {
		grid[i] = make([]string, width)
	}
	cx, cy := float64(width)/2, float64(height-1)/2
	rx, ry := math.Max(float64(width)/2-6, 1), math.Max(float64(height-1)/2, 0)
	n := len(m.nodes)
	for i, id := range m.nodes {
		theta := -math.Pi/2 + 2*math.Pi*float64(i)/float64(n)
		label := render(id)
		w := ansi.StringWidth(label)
		x := int(math.Round(cx+rx*math.Cos(theta))) - w/2
		y := int(math.Round(cy + ry*math.Sin(theta)))
		x = max(0, min(x, width-w))
		y = max(0, min(y, height-1))
		grid[y][x] = label
	}
	out := make([]string, height)
	for y, row := range grid {
		var b strings.Builder
		col := 0
		for x := 0; x < width; x++ {
			if row[x] == "" || x < col {
				if x >= col {
					b.WriteByte(' ')
					col++
				}
				continue
			}
			b.WriteString(row[x])
			col = x + ansi.StringWidth(row[x])
		}
		out[y] = b.String()
	}
	return out
}

// nodeList lays the nodes out in columns, for clusters too big for a ring.
func (m *Model) nodeList(render func(algo.ID) string, width, height int) []string {
	cell := 0
	labels := make([]string, len(m.nodes))
	for i, id := range m.nodes {
		labels[i] = render(id)
		cell = max(cell, ansi.StringWidth(labels[i]))
	}
	cols := max(1, width/(cell+1))
	// Keep the selected node in view.
	first := 0
	if rows := height; rows > 0 && m.sel/cols >= rows {
		first = (m.sel/cols - rows + 1) * cols
	}
	var out []string
	for i := first; i < len(labels) && len(out) < height; i += cols {
		var b strings.Builder
		for j := i; j < min(i+cols, len(labels)); j++ {
			l := labels[j]
			b.WriteString(l + strings.Repeat(" ", cell+1-ansi.StringWidth(l)))
		}
		out = append(out, b.String())
	}
	return out
}

// logHeight is about the number of log lines on screen: the scroll step.
func (m *Model) logHeight() int { return max(1, m.height-10) }

// logPanel draws the event log, newest at the bottom: only the lines that show are built.
func (m *Model) logPanel(width, height int) []string {
	st := &m.st
	info := m.opts.Config.Algorithm
	head := st.heading.Render("event log")
	switch {
	case m.filter.text != "":
		head += st.dim.Render("  filter: " + m.filter.text + " (/ changes it)")
	default:
		head += st.dim.Render(fmt.Sprintf("  %s hidden; / filters", strings.Join(info.Routine, ", ")))
	}
	rows := height - 1
	// Walk back from the newest step to find the lines that show.
	var picked []int
	skip := m.scroll
	for i := len(m.ss.steps) - 1; i >= 0 && len(picked) < rows; i-- {
		if !m.filter.match(m.ss.steps[i], info) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		picked = append(picked, i)
	}
	if m.scroll > 0 {
		head += st.bold.Render(fmt.Sprintf("  ↑ %d newer (end)", m.scroll))
	}
	lines := []string{head}
	for k := len(picked) - 1; k >= 0; k-- {
		lines = append(lines, m.logLine(m.ss.steps[picked[k]].recs, width))
	}
	if len(m.ss.steps) == 0 {
		lines = append(lines, st.dim.Render("nothing yet: → steps, space plays"))
	}
	return pad(lines, height)
}

// logLine is one step of the log: time, step, nodes, event, then what it caused and why.
func (m *Model) logLine(recs []sim.Record, width int) string {
	d := export.Describe(recs, m.opts.Config.Algorithm, styler{&m.st})
	st := &m.st
	head := fmt.Sprintf("%10s %5s ", export.MS(d.At), fmt.Sprintf("#%d", d.Step))
	line := st.dim.Render(head) + fmt.Sprintf("%-6s ", d.Who) + d.Event
	if len(d.Parts) > 0 {
		line += "  " + strings.Join(d.Parts, st.dim.Render(" · "))
	}
	return fit(line, width)
}

// andList writes "4 and 5", "3, 4 and 5".
func andList(ids []algo.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = export.ID(id)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
