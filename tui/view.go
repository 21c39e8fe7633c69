package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"electsim/internal/safetext"
	"electsim/session"
)

// The smallest terminal the TUI draws in.
const minWidth, minHeight = 60, 16

// logNeed is the width the event log takes on a wide terminal: most rows fit whole.
const logNeed = 64

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

// layout divides the screen; the log's rows must be up to date with the session's steps.
func (m *Model) layout() layout {
	var l layout
	l.header = m.header()
	l.footer = m.footer(m.height - len(l.header) - minBody)
	l.body = max(0, m.height-len(l.header)-len(l.footer))
	// The canvas takes what the log does not need: on a wide terminal the log keeps logNeed
	// columns, the width of most of its rows; below 100 columns the two share it about evenly.
	l.left = max(min(40, m.width/2), min(m.width-logNeed-1, m.width*3/5))
	l.right = m.width - l.left - 1
	text := max(1, min(5, l.body/4)) // a step's details: a fixed box, so the log does not jump
	if e := m.ss.Ending(); e != nil && m.log.cursor < 0 {
		text = max(text, min(len(m.endReport(e, l.right)), l.body/2-1))
	}
	l.detail = 1 + text
	l.logRows = max(1, l.body-1-l.detail)
	l.detail = max(0, l.body-1-l.logRows)
	return l
}

// View draws the screen. It changes nothing in the model: what a frame shows is brought up to
// date by Update, and a frame drawn before — the model changed by other means — draws from a
// copy brought up to date. The one thing it keeps is the frame itself, to give it again while
// nothing it depends on has changed; and a panic, a bug, which Update then quits on.
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
		if m.ask != nil { // the question waits for its answer, even so small
			msg = safetext.Escape(m.ask.text) + "\n\n" + fmt.Sprintf("(terminal too small: electsim needs %d×%d)", minWidth, minHeight)
		}
		return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, ansi.Wordwrap(msg, max(m.width-2, 10), " "))
	}
	key := frameKey{m.ver, m.width, m.height, len(m.ss.Steps()), m.ss.Generation(), m.inEdits, m.inErr}
	if m.frame.text != "" && m.frame.key == key {
		return m.frame.text // nothing has changed: a burst into a full input line
	}
	v := *m
	v.log = m.log.synced(m.ss, m.opts.Config.Algorithm)
	m.frame = v.draw(key)
	return m.frame.text
}

// draw draws the frame for key: the panels and the frame before, if only the input line has
// changed since, else everything.
func (m *Model) draw(key frameKey) frame {
	var lines []string
	f := m.frame
	if f.text != "" && f.key.sameScreen(key) {
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
			body = m.panels(l, &f)
		}
		lines = append(append(l.header, body...), l.footer...)
		for i, s := range lines {
			lines[i] = fit(s, m.width)
		}
		f.headerN, f.footerN = len(l.header), len(l.footer)
	}
	f.key, f.lines, f.text = key, lines, strings.Join(lines, "\n")
	return f
}

// frame is the screen last drawn, and what it was drawn from: bubbletea draws a frame after
// every message, and while the input line is open, only the footer changes.
type frame struct {
	key              frameKey
	lines            []string
	text             string
	headerN, footerN int
	pic              session.Picture // the picture drawn, its slices reused by the next frame
	boxes            []box           // where each node's label is in the node panel, by ring position
	boxTop           int             // the panel's line the boxes' row 0 is on
}

// frameKey is what a frame depends on: the model's version (ver changes with every message
// but the keys that edit the input line), the terminal's size, the steps shown, and the input
// line's edits.
type frameKey struct {
	ver, width, height int
	steps, gen         int
	inEdits            int
	inErr              string
}

// sameScreen reports whether a frame for k has the panels of a frame for o: only the input line
// may differ.
func (k frameKey) sameScreen(o frameKey) bool {
	return k.ver == o.ver && k.width == o.width && k.height == o.height && k.steps == o.steps && k.gen == o.gen
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
func (m *Model) panels(l layout, f *frame) []string {
	nodes := m.nodePanel(l.left, l.body, &f.pic, f)
	log := m.logPanel(l)
	sep := m.st.border.Render("│")
	out := make([]string, l.body)
	for i := range out {
		out[i] = fit(nodes[i], l.left) + sep + log[i]
	}
	return out
}
