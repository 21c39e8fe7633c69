package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	"github.com/charmbracelet/lipgloss"

	"electsim/internal/human"
	"electsim/internal/safetext"
)

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
		"The command line (:) takes any scenario action: crash 3, recover 3, pause 3, resume 3, elect 2, partition 1 2 | 3 4 5, cut 1->2, heal, delay 1->2 300ms, drop 20%, clock 3 rate 0.5 (node 3's clock runs at half speed, shown beside it as ⏱0.5×). What you do happens at the next whole millisecond of virtual time; a break on the way stops there first. An action that would change nothing is not taken.",
		"Nodes: ★ leader  ◆ candidate  ● follower  ✗ crashed  ⏸ paused node  ○ not booted yet  ▣ not a candidate · →N it believes N leads · /A its partition group. The selected node's state and messages show under the legend; ↑ ↓ select a log row, whose details show under the log.",
		"Playback: ▶ playing · stopped · ⚑ at a break (n or enter goes on) · ■ the end (the verdicts show under the log).",
	} {
		lines = append(lines, wrap(p, m.width)...)
	}
	return pad(lines, height)
}

// historyKey is what the history's lines are built from: the narration so far, wrapped at the
// terminal's width.
type historyKey struct{ says, gen, width int }

// historyLines is the narration so far, each line at its time, wrapped at the terminal's width,
// newest at the bottom.
func (m *Model) historyLines() []string {
	st := &m.st
	steps := m.ss.Steps()
	var lines []string
	for _, i := range m.ss.Says() {
		r := steps[i].Records[0]
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
	return lines
}

// historyPort returns the history's viewport brought up to date for rows lines of narration,
// as many lines scrolled up from the newest as it was, leaving m.hist as it is.
func (m *Model) historyPort(rows int) viewport.Model {
	vp := m.hist
	key := historyKey{len(m.ss.Says()), m.ss.Generation(), m.width}
	if vp.Height == rows && vp.Width == m.width && m.histKey == key {
		return vp
	}
	up := max(0, vp.TotalLineCount()-vp.Height-vp.YOffset)
	vp.Width, vp.Height = m.width, rows
	if m.histKey != key {
		vp.SetContent(strings.Join(m.historyLines(), "\n"))
	}
	vp.SetYOffset(max(0, vp.TotalLineCount()-rows) - up)
	return vp
}

// openHistory shows the narration so far, its newest line at the bottom.
func (m *Model) openHistory() {
	m.overlay = overlayHistory
	m.hist, m.histKey = viewport.Model{}, historyKey{}
}

// history is the narration so far under its heading, scrolled as the user left it.
func (m *Model) history(height int) []string {
	st := &m.st
	head := st.heading.Render("Narration so far") + st.help.Render("  ↑ ↓ pgup pgdn scroll · H or esc closes")
	vp := m.historyPort(max(1, height-1))
	return pad(append([]string{head}, strings.Split(vp.View(), "\n")...), height)
}
