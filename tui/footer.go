package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/safetext"
)

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
			algo.FormatDuration(m.ss.ActTime()))
	case inputFilter:
		now := "no filter now"
		if m.log.filter.text != "" {
			now = "now: " + m.log.filter.text
		}
		return "filter: ", fmt.Sprintf("Node ids (%s) and message kinds (%s), e.g. 3 OK; routine kinds (%s) show only when named. enter on an empty line clears the filter (%s); esc keeps it.",
			m.ss.Members(), strings.Join(info.Kinds, ", "), strings.Join(info.Routine, ", "), now)
	case inputSave:
		what := "the scenario as it was played (you took no action)"
		if n := len(m.ss.User()); n > 0 {
			what = "the scenario with your action at its time"
			if n > 1 {
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
	says, _ := m.ss.Narration()
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
