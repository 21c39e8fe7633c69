package tui

import (
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

// eventLog is the event log: the steps the filter shows, as rows, newest at the bottom, and the
// row the user selected. Its rows are built as steps come — only the new steps are looked at, and
// the rows of steps taken back are dropped; all are built again only when the run starts again
// or the filter changes.
type eventLog struct {
	filter filter
	rows   []int // the indices in the session's steps of the steps the filter shows
	seen   int   // how many of the session's steps rows was built from
	gen    int   // the session's generation rows was built for; -1 to build them again
	cursor int   // the selected row, an index into rows; -1 follows the newest
	top    int   // the first row on screen when not following
}

func newEventLog() eventLog { return eventLog{cursor: -1, gen: -1} }

// follow makes the log follow its newest row again.
func (l *eventLog) follow() { l.cursor = -1 }

// setFilter shows the steps f matches, from the first, following the newest.
func (l *eventLog) setFilter(f filter) {
	l.filter = f
	l.gen = -1
	l.follow()
}

// stale reports whether the rows lag behind the session's steps.
func (l *eventLog) stale(ss *session.Session) bool {
	return l.gen != ss.Generation() || l.seen != len(ss.Steps())
}

// sync brings the rows up to date with the steps the session shows and returns how many there
// are. A selected row that was taken back is no more: the log follows the newest.
func (l *eventLog) sync(ss *session.Session, info *algo.Info) int {
	steps := ss.Steps()
	if l.gen != ss.Generation() {
		l.rows, l.seen, l.gen = l.rows[:0], 0, ss.Generation()
	}
	if n := len(steps); l.seen > n { // steps taken back: their rows go
		i, _ := slices.BinarySearch(l.rows, n)
		l.rows, l.seen = l.rows[:i], n
	}
	for i := l.seen; i < len(steps); i++ {
		if l.filter.match(steps[i], info) {
			l.rows = append(l.rows, i)
		}
	}
	l.seen = len(steps)
	if l.cursor >= len(l.rows) {
		l.follow()
	}
	return len(l.rows)
}

// synced returns the log brought up to date with the session's steps, leaving l as it is: what
// a frame drawn before the model has caught up shows.
func (l eventLog) synced(ss *session.Session, info *algo.Info) eventLog {
	if !l.stale(ss) {
		return l
	}
	l.rows = slices.Clip(l.rows) // rows of its own: l's are not written
	l.sync(ss, info)
	return l
}

// selected is the index in rows of the selected row: the newest when following; -1 when there
// is none.
func (l *eventLog) selected() int {
	if l.cursor >= 0 {
		return l.cursor
	}
	return len(l.rows) - 1
}

// up selects the row n rows older than the selected one, or the first.
func (l *eventLog) up(n int) {
	if len(l.rows) > 0 {
		l.cursor = max(0, l.selected()-n)
	}
}

// down moves the selection n rows newer; past the newest row, the log follows it.
func (l *eventLog) down(n int) {
	if l.cursor < 0 {
		return
	}
	l.cursor += n
	if l.cursor >= len(l.rows)-1 {
		l.follow()
	}
}

// first selects the first row.
func (l *eventLog) first() {
	if len(l.rows) > 0 {
		l.cursor = 0
	}
}

// firstShown is the first row on screen when the log shows rows rows: the newest at the bottom
// when following, else the selected row in view, as near the top kept so far as it can be.
func (l *eventLog) firstShown(rows int) int {
	n := len(l.rows)
	if l.cursor < 0 {
		return max(0, n-rows)
	}
	top := min(l.top, l.cursor)
	top = max(top, l.cursor-rows+1)
	return max(0, min(top, n-rows))
}

// scroll keeps the selected row in view of a log that shows rows rows.
func (l *eventLog) scroll(rows int) {
	if l.cursor >= 0 {
		l.top = l.firstShown(rows)
	}
}

// logPanel draws the event log, newest at the bottom, and under it the details of the selected
// row: only the lines that show are built.
func (m *Model) logPanel(l layout) []string {
	st := &m.st
	lg := &m.log
	info := m.opts.Config.Algorithm
	steps := m.ss.Steps()
	n := len(lg.rows)
	sel := lg.selected()
	mark := sel
	if lg.cursor < 0 && m.ss.Ending() != nil {
		mark = -1 // the box under the log gives the verdicts, not this row's details
	}
	var wrapped []string // the selected row's lines, wrapped in full
	head := st.heading.Render("event log")
	if lg.cursor >= 0 {
		head += st.bold.Render(fmt.Sprintf("  row %d of %d · ↓ %d newer below (end follows)", sel+1, n, n-sel-1))
	}
	switch {
	case lg.filter.text != "":
		head += st.help.Render("  filter: " + lg.filter.text + " (/ changes it)")
	case lg.cursor < 0 && len(info.Routine) > 0:
		head += st.help.Render(fmt.Sprintf("  %s hidden (/ filters)", strings.Join(info.Routine, ", ")))
	}
	lines := []string{head}
	for _, sl := range m.logScreen(l.logRows, l.right) {
		if sl.part == 0 && !(sl.row == sel && lg.cursor >= 0) {
			lines = append(lines, m.logLine(steps[lg.rows[sl.row]].Records, l.right, sl.row == mark))
			continue
		}
		if sl.part == 0 {
			wrapped = m.selectedRow(steps[lg.rows[sl.row]].Records, l.right)
		}
		lines = append(lines, wrapped[sl.part])
	}
	switch {
	case len(steps) == 0:
		lines = append(lines, st.help.Render(" nothing yet: → steps, space plays"))
	case n == 0:
		lines = append(lines, st.help.Render(" no step shown matches the filter"))
	}
	lines = pad(lines, 1+l.logRows)
	return append(lines, m.detailBox(l.right, l.detail, sel)...)
}

// screenLine is a line of the event log on screen: part of row (an index into the log's rows);
// only the row the user selected has more than one part.
type screenLine struct{ row, part int }

// maxWrap is the most lines the selected row takes, wrapped in full.
const maxWrap = 4

// logScreen lays the log's rows out in rows lines of width columns: the rows from the first
// shown, the one the user selected wrapped in full (up to maxWrap lines), and it kept in view.
func (m *Model) logScreen(rows, width int) []screenLine {
	lg := &m.log
	n := len(lg.rows)
	top := lg.firstShown(rows)
	selParts := 1
	if lg.cursor >= 0 && lg.cursor < n {
		selParts = min(maxWrap, rows, len(m.selectedRow(m.ss.Steps()[lg.rows[lg.cursor]].Records, width)))
	}
	parts := func(i int) int {
		if i != lg.cursor {
			return 1
		}
		return selParts
	}
	// The selected row's lines all in view, and the rows that showed under it still showing:
	// the rows at the top give way.
	if lg.cursor >= 0 {
		end := min(n, top+rows)
		for {
			used := 0
			for i := top; i < end; i++ {
				used += parts(i)
			}
			if used <= rows || top >= lg.cursor {
				break
			}
			top++
		}
	}
	var out []screenLine
	for i := top; i < n && len(out) < rows; i++ {
		for p := range parts(i) {
			if len(out) < rows {
				out = append(out, screenLine{i, p})
			}
		}
	}
	return out
}

// selectedRow is the row the user selected, written in full: wrapped to width, each line
// reversed, the lines after the first indented under its event.
func (m *Model) selectedRow(recs []sim.Record, width int) []string {
	d := report.Describe(recs, m.opts.Config.Algorithm, report.Plain{})
	text := fmt.Sprintf("▸%9s %5s %-6s %s", human.MillisFixed(d.At), fmt.Sprintf("#%d", d.Step), d.Who, d.Event)
	if len(d.Parts) > 0 {
		text += "  " + strings.Join(d.Parts, " · ")
	}
	const indent = 17
	lines := wrap(text, width)
	if len(lines) > 1 {
		lines = append(lines[:1], wrap(strings.Join(lines[1:], " "), max(1, width-indent))...)
		for i := 1; i < len(lines); i++ {
			lines[i] = strings.Repeat(" ", indent) + lines[i]
		}
	}
	if len(lines) > maxWrap {
		lines = lines[:maxWrap]
		lines[maxWrap-1] = ansi.Truncate(lines[maxWrap-1], width-1, "") + "…"
	}
	for i, l := range lines {
		lines[i] = m.st.selected.Render(fit(l, width))
	}
	return lines
}

// logLine is one step of the log: time, step, nodes, event, then what it caused and why. The
// selected row is marked ▸ (and reversed when the user selected it).
func (m *Model) logLine(recs []sim.Record, width int, selected bool) string {
	st := &m.st
	var sty report.Styler = styler{st}
	if selected && m.log.cursor >= 0 {
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
	if selected && m.log.cursor >= 0 {
		return st.selected.Render(fit(mark+head+rest, width))
	}
	return fit(mark+st.help.Render(head)+rest, width)
}
