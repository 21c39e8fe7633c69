package tui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/safetext"
	"electsim/report"
	"electsim/sim"
)

// The smallest terminal the TUI draws in.
const minWidth, minHeight = 60, 16

// listAbove is the number of nodes above which a compact list replaces the ring.
const listAbove = 32

// minBody is the fewest lines the panels keep, however much the header and footer would take.
const minBody = 6

// layout is how the screen divides at its size, in the state the model is in.
type layout struct {
	header, footer []string
	body           int // lines between them
	left, right    int // the panels' widths
	logRows        int // rows of the event log
	detail         int // lines of the detail box under the log, its rule included
}

func (m *Model) layout() layout {
	m.syncRows()
	var l layout
	l.header = m.header()
	l.footer = m.footer(m.height - len(l.header) - minBody)
	l.body = max(0, m.height-len(l.header)-len(l.footer))
	l.left = min(40, m.width*2/5)
	l.right = m.width - l.left - 1
	text := max(1, min(5, l.body/4)) // a step's details: a fixed box, so the log does not jump
	if e := m.ss.ended(); e != nil && m.cursor < 0 {
		text = max(text, min(len(m.endReport(e, l.right)), l.body/2-1))
	}
	l.detail = 1 + text
	l.logRows = max(1, l.body-1-l.detail)
	l.detail = max(0, l.body-1-l.logRows)
	return l
}

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
	if m.tooSmall() {
		msg := fmt.Sprintf("terminal too small: electsim needs %d×%d, this one is %d×%d — make it larger, or press q to quit",
			minWidth, minHeight, m.width, m.height)
		return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, ansi.Wordwrap(msg, max(m.width-2, 10), " "))
	}
	key := frameKey{m.ver, m.width, m.height, m.inEdits, m.inErr}
	if m.frame.text != "" && m.frame.key == key {
		return m.frame.text // nothing has changed: a burst into a full input line
	}
	var lines []string
	if f := &m.frame; f.text != "" && f.key.ver == key.ver && f.key.width == key.width && f.key.height == key.height {
		// Only the input line has changed: the panels above it stay, if the footer keeps its height.
		if footer := m.footer(m.height - f.headerN - minBody); len(footer) == f.footerN {
			lines = append(slices.Clone(f.lines[:len(f.lines)-f.footerN]), footer...)
			for i := len(lines) - f.footerN; i < len(lines); i++ {
				lines[i] = fit(lines[i], m.width)
			}
		}
	}
	if lines == nil {
		l := m.layout()
		var body []string
		switch m.overlay {
		case overlayHelp:
			body = m.fullHelp(l.body)
		case overlayHistory:
			body = m.history(l.body)
		default:
			body = m.panels(l)
		}
		lines = append(append(l.header, body...), l.footer...)
		for i, s := range lines {
			lines[i] = fit(s, m.width)
		}
		m.frame.headerN, m.frame.footerN = len(l.header), len(l.footer)
	}
	m.frame.key, m.frame.lines, m.frame.text = key, lines, strings.Join(lines, "\n")
	return m.frame.text
}

// frame is the screen last drawn, and what it was drawn from: bubbletea draws a frame after
// every message, and while the input line is open, only the footer changes.
type frame struct {
	key              frameKey
	lines            []string
	text             string
	headerN, footerN int
}

// frameKey is what a frame depends on: the model's version (ver changes with every message
// but the keys that edit the input line), the terminal's size, and the input line's edits.
type frameKey struct {
	ver, width, height, inEdits int
	inErr                       string
}

// fit truncates or pads a styled line to exactly w columns.
func fit(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// wrap breaks text into lines of at most w columns, at spaces where it can.
func wrap(s string, w int) []string {
	return strings.Split(ansi.Wrap(s, max(w, 1), ""), "\n")
}

// header is the title, the status line with its time bar, the message counts, and the split
// brain and break banners when they apply.
func (m *Model) header() []string {
	st := &m.st
	s := m.ss.s
	cfg := m.opts.Config
	title := st.title.Render("electsim · " + safetext.Escape(m.title()))
	right := st.help.Render("? help  q quit")
	gap := max(1, m.width-ansi.StringWidth(title)-ansi.StringWidth(right))
	lines := []string{title + strings.Repeat(" ", gap) + right}

	var state string
	switch e := m.ss.ended(); {
	case m.playing:
		state = st.okText.Render(fmt.Sprintf("▶ playing, %d steps/s", speeds[m.speed]))
	case e != nil:
		state = "■ the end"
		if len(e.results) > 0 {
			hold := 0
			for _, r := range e.results {
				if r.OK {
					hold++
				}
			}
			if hold == len(e.results) {
				state += st.okText.Render(fmt.Sprintf(" · ✓ %d of %d expectations hold", hold, len(e.results)))
			} else {
				state += st.errText.Render(fmt.Sprintf(" · ✗ %d of %d expectations fail", len(e.results)-hold, len(e.results)))
			}
		}
	case m.ss.atBreak():
		state = "⚑ at a break"
	default:
		state = st.help.Render(fmt.Sprintf("stopped, %d steps/s", speeds[m.speed]))
	}
	status := fmt.Sprintf("%s · seed %d · t %s · step %d · %s", cfg.Algorithm.Name, cfg.Seed,
		human.MillisFixed(s.Now())+"ms", len(m.ss.steps), state)
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
	lines = append(lines, st.help.Render("sent: ")+strings.Join(counts, st.help.Render(" · ")))

	if leaders := s.Leaders(); len(leaders) >= 2 {
		who := "both"
		if len(leaders) > 2 {
			who = "all"
		}
		lines = append(lines, st.banner.Render(fit(fmt.Sprintf(" ⚠ SPLIT BRAIN — %s %s believe they lead", algo.AndList(leaders), who), m.width)))
	}
	// A property broken at an instant — a stale write, two leaders of one term — stays on
	// screen from then on: it is what the class should see.
	for _, v := range s.Violations() {
		if v.Property != sim.AtMostOneLeader && v.Property != sim.Agreement {
			lines = append(lines, st.banner.Render(fit(fmt.Sprintf(" ⚠ %s broken at %s — %s", v.Property,
				algo.FormatDuration(v.From), v.Detail), m.width)))
		}
	}
	if m.ss.atBreak() {
		lines = append(lines, st.breakBar.Render(fit(" ⚑ BREAK — what happens next? n or enter goes on", m.width)))
	}
	return lines
}

// footer is the narration, the input line with its hint and its mistake or the last message or
// a question, and the help bar: in at most budget lines (the help bar and the input or message
// line always show).
func (m *Model) footer(budget int) []string {
	st := &m.st
	w := m.width
	var line, errs, hint []string
	styled := func(style lipgloss.Style, text string) []string {
		var out []string
		for _, l := range wrap(text, w) {
			out = append(out, style.Render(l))
		}
		return out
	}
	switch {
	case m.ask != nil:
		line = styled(st.question, safetext.Escape(m.ask.text))
	case m.mode != inputNone:
		label, help := m.inputText()
		line = []string{st.bold.Render(label) + m.in.View()}
		hint = styled(st.help, help)
		if m.inErr != "" {
			errs = styled(st.errText, safetext.Escape(m.inErr))
		}
	case m.message != "" && m.messageErr:
		line = styled(st.errText, safetext.Escape(m.message))
	case m.message != "":
		line = styled(st.okText, safetext.Escape(m.message))
	default:
		line = []string{""}
	}
	avail := max(budget, 2) - 1
	if len(line) > avail {
		line = line[len(line)-avail:]
	}
	avail -= len(line)
	if len(errs) > avail {
		errs = errs[:avail]
	}
	avail -= len(errs)
	var narration []string
	if m.overlay != overlayHistory { // which shows it all
		narration = m.narrationLines(min(avail, max(2, m.height/5)))
	}
	avail -= len(narration)
	if len(hint) > avail {
		hint = nil
	}
	out := append(append(append(narration, hint...), errs...), line...)
	return append(out, m.help.ShortHelpView(m.keys.ShortHelp()))
}

// inputText is the input line's label and the hint above it.
func (m *Model) inputText() (label, hint string) {
	info := m.opts.Config.Algorithm
	switch m.mode {
	case inputCommand:
		return ":", fmt.Sprintf("Any scenario action — crash 3 · recover 3 · pause 3 · resume 3 · elect 2 · partition 1 2 | 3 4 5 · cut 1->2 · heal · delay 1->2 300ms · drop 20%% — happens at %s. enter takes it, esc cancels.",
			algo.FormatDuration(m.ss.actTime()))
	case inputFilter:
		now := "no filter now"
		if m.filter.text != "" {
			now = "now: " + m.filter.text
		}
		return "filter: ", fmt.Sprintf("Node ids (%s) and message kinds (%s), e.g. 3 OK; routine kinds (%s) show only when named. enter on an empty line clears the filter (%s); esc keeps it.",
			m.members, strings.Join(info.Kinds, ", "), strings.Join(info.Routine, ", "), now)
	case inputSave:
		what := "the scenario as it was played (you took no action)"
		if len(m.ss.user) > 0 {
			what = "the scenario with your action at its time"
			if n := len(m.ss.user); n > 1 {
				what = fmt.Sprintf("the scenario with your %d actions at their times", n)
			}
		}
		return "save session as: ", fmt.Sprintf("A .scn file: %s, which electsim run replays. enter saves, esc cancels.", what)
	}
	return "", ""
}

// narrationLines is the narration of the latest instant that had any — every line of it,
// stacked — in at most max lines; when it needs more, the last says that H shows it all.
func (m *Model) narrationLines(maxLines int) []string {
	says, _ := m.ss.narration()
	if len(says) == 0 || maxLines <= 0 {
		return nil
	}
	st := &m.st
	var out []string
	for _, s := range says {
		for _, l := range wrap("“"+safetext.Escape(s)+"”", m.width-2) {
			out = append(out, " "+st.narration.Render(l))
		}
	}
	if len(out) > maxLines {
		more := st.help.Render(" … H shows it all")
		out = out[:maxLines]
		out[maxLines-1] = ansi.Truncate(out[maxLines-1], m.width-ansi.StringWidth(more), "") + more
	}
	return out
}

// fullHelp is what ? shows, in the middle of the screen.
func (m *Model) fullHelp(height int) []string {
	st := &m.st
	lines := []string{st.heading.Render("Keys") + st.help.Render("  esc or ? closes this help"), ""}
	cols := m.keys.FullHelp()
	if full := m.help.FullHelpView(cols); lipgloss.Width(full) <= m.width && !strings.Contains(full, "…") {
		lines = append(lines, strings.Split(full, "\n")...)
	} else { // two columns at a time
		for i := 0; i < len(cols); i += 2 {
			lines = append(lines, strings.Split(m.help.FullHelpView(cols[i:min(i+2, len(cols))]), "\n")...)
		}
	}
	lines = append(lines, "")
	for _, p := range []string{
		"y or n answers a question in the status line (esc is no): one comes before R, or an action after stepping back, would forget what you did, and before a save replaces a file.",
		"The command line (:) takes any scenario action: crash 3, recover 3, pause 3, resume 3, elect 2, partition 1 2 | 3 4 5, cut 1->2, heal, delay 1->2 300ms, drop 20%. What you do happens at the next whole millisecond of virtual time; a break on the way stops there first. An action that would change nothing is not taken.",
		"Nodes: ★ leader  ◆ candidate  ● follower  ✗ crashed  ⏸ paused node  ○ not booted yet  ▣ not a candidate · →N it believes N leads · /A its partition group. The selected node's state and messages show under the legend; ↑ ↓ select a log row, whose details show under the log.",
		"Playback: ▶ playing · stopped · ⚑ at a break (n or enter goes on) · ■ the end (the verdicts show under the log).",
	} {
		lines = append(lines, wrap(p, m.width)...)
	}
	return pad(lines, height)
}

// history is the narration so far, newest at the bottom, scrolled up by histUp lines.
func (m *Model) history(height int) []string {
	st := &m.st
	head := st.heading.Render("Narration so far") + st.help.Render("  ↑ ↓ pgup pgdn scroll · H or esc closes")
	var lines []string
	for _, i := range m.ss.says {
		r := m.ss.steps[i].recs[0]
		at := fmt.Sprintf("%12s ", human.MillisFixed(r.At)+"ms")
		for k, l := range wrap("“"+safetext.Escape(r.Action.Text)+"”", m.width-len(at)) {
			if k > 0 {
				at = strings.Repeat(" ", len(at))
			}
			lines = append(lines, st.help.Render(at)+st.narration.Render(l))
		}
	}
	if len(lines) == 0 {
		lines = []string{st.help.Render("No narration yet: the scenario's say lines show here as the run reaches them.")}
	}
	rows := max(1, height-1)
	m.histUp = max(0, min(m.histUp, len(lines)-rows))
	end := len(lines) - m.histUp
	return pad(append([]string{head}, lines[max(0, end-rows):end]...), height)
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
func (m *Model) panels(l layout) []string {
	nodes := m.nodePanel(l.left, l.body)
	log := m.logPanel(l)
	sep := m.st.border.Render("│")
	out := make([]string, l.body)
	for i := range out {
		out[i] = fit(nodes[i], l.left) + sep + log[i]
	}
	return out
}

// notBooted reports whether a node has not booted yet: before the boot steps of a run.
func (m *Model) notBooted(n sim.NodeView) bool {
	return !m.ss.started[n.ID] && n.Status != sim.Crashed && n.Status != sim.Paused
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
	views := m.ss.s.Nodes() // ascending by id: the node at ring position i is views[m.byID[i]]
	anyNotBooted := false
	for _, n := range views {
		anyNotBooted = anyNotBooted || m.notBooted(n)
	}
	groups, letter := m.ss.groups()
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
	if cuts := m.ss.cuts(); cuts != "" {
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
	flights := m.ss.s.InFlight()
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
		lines = append(lines, " "+m.ss.flight(f))
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

// logPanel draws the event log, newest at the bottom, and under it the details of the selected
// row: only the lines that show are built.
func (m *Model) logPanel(l layout) []string {
	st := &m.st
	info := m.opts.Config.Algorithm
	n := len(m.rows)
	sel := m.selectedRow()
	mark := sel
	if m.cursor < 0 && m.ss.ended() != nil {
		mark = -1 // the box under the log gives the verdicts, not this row's details
	}
	top := max(0, n-l.logRows)
	head := st.heading.Render("event log")
	if m.cursor >= 0 {
		m.logTop = min(m.logTop, m.cursor)
		m.logTop = max(m.logTop, m.cursor-l.logRows+1)
		m.logTop = max(0, min(m.logTop, n-l.logRows))
		top = m.logTop
		head += st.bold.Render(fmt.Sprintf("  row %d of %d · ↓ %d newer below (end follows)", sel+1, n, n-sel-1))
	}
	switch {
	case m.filter.text != "":
		head += st.help.Render("  filter: " + m.filter.text + " (/ changes it)")
	case m.cursor < 0 && len(info.Routine) > 0:
		head += st.help.Render(fmt.Sprintf("  %s hidden (/ filters)", strings.Join(info.Routine, ", ")))
	}
	lines := []string{head}
	for i := top; i < min(n, top+l.logRows); i++ {
		lines = append(lines, m.logLine(m.ss.steps[m.rows[i]].recs, l.right, i == mark))
	}
	switch {
	case len(m.ss.steps) == 0:
		lines = append(lines, st.help.Render(" nothing yet: → steps, space plays"))
	case n == 0:
		lines = append(lines, st.help.Render(" no step shown matches the filter"))
	}
	lines = pad(lines, 1+l.logRows)
	return append(lines, m.detailBox(l.right, l.detail, sel)...)
}

// logLine is one step of the log: time, step, nodes, event, then what it caused and why. The
// selected row is marked ▸ (and reversed when the user selected it).
func (m *Model) logLine(recs []sim.Record, width int, selected bool) string {
	st := &m.st
	var sty report.Styler = styler{st}
	if selected && m.cursor >= 0 {
		sty = report.Plain{}
	}
	d := report.Describe(recs, m.opts.Config.Algorithm, sty)
	mark := " "
	if selected {
		mark = "▸"
	}
	head := fmt.Sprintf("%9s %5s ", human.MillisFixed(d.At), fmt.Sprintf("#%d", d.Step))
	rest := fmt.Sprintf("%-6s ", d.Who) + d.Event
	if len(d.Parts) > 0 {
		rest += "  " + strings.Join(d.Parts, sty.Dim(" · "))
	}
	if selected && m.cursor >= 0 {
		return st.selected.Render(fit(mark+head+rest, width))
	}
	return fit(mark+st.help.Render(head)+rest, width)
}

// bright is the event log's styler for the detail box: the notes are the point there, so they
// are not dimmed.
type bright struct{ styler }

func (bright) Dim(s string) string { return s }

// detailBox is the box under the log: the selected row described in full — what it caused,
// then each node's reasons — or, at the end of the run, the verdicts.
func (m *Model) detailBox(width, height, sel int) []string {
	if height <= 0 {
		return nil
	}
	st := &m.st
	info := m.opts.Config.Algorithm
	var title string
	var text []string
	switch e := m.ss.ended(); {
	case e != nil && m.cursor < 0:
		title = fmt.Sprintf("the end, at %s", algo.FormatDuration(e.sum.End))
		text = m.endReport(e, width)
	case sel < 0:
		title = "details"
		text = wrap("Nothing has happened yet: → runs one step, space plays, ? lists every key.", width)
	default:
		recs := m.ss.steps[m.rows[sel]].recs
		d := report.Describe(recs, info, bright{styler{st}})
		title = fmt.Sprintf("#%d at %sms  %s %s", d.Step, human.MillisFixed(d.At), d.Who, d.Event)
		notes := 0
		if recs[0].Note != "" {
			notes++
		}
		for _, r := range recs[1:] {
			if r.Type == sim.RecState && r.Note != "" {
				notes++
			}
		}
		notes = min(notes, len(d.Parts))
		if effects := d.Parts[:len(d.Parts)-notes]; len(effects) > 0 {
			text = append(text, wrap(strings.Join(effects, " · "), width)...)
		}
		for _, note := range d.Parts[len(d.Parts)-notes:] {
			text = append(text, wrap("why: "+note, width)...)
		}
		if len(text) == 0 {
			text = []string{st.help.Render("nothing else: it changed nothing")}
		}
	}
	rule := st.border.Render("── ") + title + " "
	rule += st.border.Render(strings.Repeat("─", max(0, width-ansi.StringWidth(rule))))
	rows := height - 1
	if len(text) > rows {
		text = text[:rows]
		if rows > 0 {
			text[rows-1] = ansi.Truncate(text[rows-1], width-1, "") + "…"
		}
	}
	return pad(append([]string{rule}, text...), height)
}

// endReport is the verdict on an ended run: its leader, the properties, the violations and the
// scenario's expectations.
func (m *Model) endReport(e *ending, width int) []string {
	st := &m.st
	var text []string
	add := func(s string) { text = append(text, wrap(s, width)...) }
	if e.sum.Leader != 0 {
		add(st.leader.Render(fmt.Sprintf("★ %d leads", e.sum.Leader)) + ", and every live node names it")
	} else {
		add("no leader that every live node names")
	}
	var props []string
	for _, p := range e.sum.Properties {
		switch {
		case !p.Applies:
			props = append(props, st.help.Render("– "+p.Name+" (no terms)"))
		case p.Holds:
			props = append(props, st.okText.Render("✓ "+p.Name))
		default:
			props = append(props, st.errText.Render("✗ "+p.Name))
		}
	}
	add("properties: " + strings.Join(props, "  "))
	for _, v := range e.sum.Violations {
		add(st.errText.Render("  ✗ " + v.String()))
	}
	if e.sum.Halted != "" {
		add(st.errText.Render("the run stopped early: " + e.sum.Halted))
	}
	if len(e.results) > 0 {
		hold := 0
		for _, r := range e.results {
			if r.OK {
				hold++
			}
		}
		add(fmt.Sprintf("expectations: %d of %d hold", hold, len(e.results)))
		for _, r := range e.results {
			if r.OK {
				add(st.okText.Render("  ✓ ") + safetext.Escape(r.Expectation.String()))
			} else {
				text := r.Expectation.String()
				if r.Detail != "" {
					text += " — " + r.Detail
				}
				add(st.errText.Render("  ✗ " + safetext.Escape(text)))
			}
		}
	}
	return text
}
