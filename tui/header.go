package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"electsim/algo"
	"electsim/internal/human"
	"electsim/internal/safetext"
	"electsim/report"
	"electsim/session"
	"electsim/sim"
)

// header is the title, the status line with its time bar, the message counts, and the split
// brain and break banners when they apply.
func (m *Model) header() []string {
	st := &m.st
	cfg := m.opts.Config
	title := st.title.Render("electsim · " + safetext.Escape(m.ss.Title()))
	right := st.help.Render("? help  q quit")
	gap := max(1, m.width-ansi.StringWidth(title)-ansi.StringWidth(right))
	lines := []string{title + strings.Repeat(" ", gap) + right}

	var state string
	switch e := m.ss.Ending(); {
	case m.playing:
		state = st.okText.Render("▶ playing " + rate(speeds[m.speed]))
	case e != nil:
		state = "■ the end"
		if len(e.Results) > 0 {
			hold := 0
			for _, r := range e.Results {
				if r.OK {
					hold++
				}
			}
			if hold == len(e.Results) {
				state += st.okText.Render(fmt.Sprintf(" · ✓ %d of %d expectations hold", hold, len(e.Results)))
			} else {
				state += st.errText.Render(fmt.Sprintf(" · ✗ %d of %d expectations fail", len(e.Results)-hold, len(e.Results)))
			}
		}
	case m.ss.AtBreak():
		state = "⚑ at a break"
	default:
		state = st.help.Render("stopped, " + rate(speeds[m.speed]))
	}
	name := cfg.Algorithm.Name
	if top := m.ss.Topology(); top != nil && !top.IsComplete() {
		// The edges messages may travel, named unless every pair has one (the default).
		name += " · " + safetext.Escape(top.Name())
		// Too many nodes for the shape to read — a ring's circle, a graph's layout: they are placed
		// in rows, edges unseen.
		most := session.GraphMax
		if top.IsRing() {
			most = session.RingMax
		}
		if len(cfg.IDs) > most {
			name += st.help.Render(fmt.Sprintf(" (over %d nodes: in rows, no edges)", most))
		}
	}
	status := fmt.Sprintf("%s · seed %d · t %s · step %d · %s", name, cfg.Seed,
		human.MillisFixed(m.ss.Instant())+"ms", len(m.ss.Steps()), state)
	if barWidth := m.width - ansi.StringWidth(status) - 3; barWidth >= 10 {
		bar := m.bar
		bar.Width = barWidth
		status += "  " + bar.ViewAs(float64(m.ss.Instant())/float64(cfg.RunFor))
	}
	lines = append(lines, status)

	sum := m.ss.Summary()
	var counts []string
	for i, k := range sum.Kinds {
		counts = append(counts, fmt.Sprintf("%s %d", styler{st}.Kind(k, i, cfg.Algorithm.IsRoutine(k)), sum.Sent[i]))
	}
	lines = append(lines, st.help.Render("sent: ")+strings.Join(counts, st.help.Render(" · ")))

	if cfg.Algorithm.Groups && len(sum.Groups) > 0 {
		// One coordinator per group, by design: the groups, not an alarm.
		lines = append(lines, st.help.Render(fit(" ◇ "+report.GroupsText(sum.Groups[len(sum.Groups)-1]), m.width)))
	} else if leaders := m.ss.Leaders(); len(leaders) >= 2 {
		who := "both"
		if len(leaders) > 2 {
			who = "all"
		}
		lines = append(lines, st.banner.Render(fit(fmt.Sprintf(" ⚠ SPLIT BRAIN — %s %s believe they lead", algo.AndList(leaders), who), m.width)))
	}
	// A property broken at an instant — a stale write, two leaders of one term — stays on
	// screen from then on: it is what the class should see.
	for _, v := range m.ss.Violations() {
		if v.Property != sim.AtMostOneLeader && v.Property != sim.Agreement {
			lines = append(lines, st.banner.Render(fit(fmt.Sprintf(" ⚠ %s broken at %s — %s", v.Property,
				algo.FormatDuration(v.From), v.Detail), m.width)))
		}
	}
	if m.ss.AtBreak() && !m.playing { // playing on from it, time moves before the next step
		lines = append(lines, st.breakBar.Render(fit(" ⚑ BREAK — what happens next? n or enter goes on", m.width)))
	}
	return lines
}

// rate writes a playback rate as a multiple of real time and as virtual time a second:
// "0.02× (20ms/s)".
func rate(d time.Duration) string {
	x := strconv.FormatFloat(float64(d)/float64(time.Second), 'f', -1, 64)
	return x + "× (" + algo.FormatDuration(d) + "/s)"
}
