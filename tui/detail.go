package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/report"
	"electsim/session"
	"electsim/sim"
)

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
	switch e := m.ss.Ending(); {
	case e != nil && m.log.cursor < 0:
		title = fmt.Sprintf("the end, at %s", algo.FormatDuration(e.Summary.End))
		text = m.endReport(e, width)
	case sel < 0:
		title = "details"
		text = wrap("Nothing has happened yet: → runs one step, space plays, ? lists every key.", width)
	default:
		recs := m.ss.Steps()[m.log.rows[sel]].Records
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

// endReport is the verdict on an ended run — its leader, the properties, the violations and the
// expectations — as report words it, wrapped to width.
func (m *Model) endReport(e *session.Ending, width int) []string {
	var text []string
	for _, line := range judged(e).Lines(palette{styler{&m.st}}) {
		text = append(text, wrap(line, width)...)
	}
	return text
}

// judged is the verdicts on an ended run, as report gives them.
func judged(e *session.Ending) *report.Verdicts {
	v := report.Judge(e.Summary, e.Results)
	return &v
}
