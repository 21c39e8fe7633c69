package tui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"electsim/report"
	"electsim/sim"
)

// styles holds every lipgloss style of the TUI, made for one renderer: colour, or none at all
// (NO_COLOR, --no-color). Colours adapt to light and dark terminals; every status also has a
// glyph, so nothing depends on colour.
type styles struct {
	r *lipgloss.Renderer

	title, dim, bold, reverse, help  lipgloss.Style
	banner, breakBar, narration      lipgloss.Style
	errText, okText, border, heading lipgloss.Style
	question, selected, endBar       lipgloss.Style
	leader, candidate, follower      lipgloss.Style
	crashed, paused, fault, say      lipgloss.Style
	line, timer                      lipgloss.Style // the canvas's lines between nodes, and timer bars
	kinds                            []lipgloss.Style
	theme                            string
}

// Themes are the TUI's colour schemes (--theme, and t cycles them): "auto" follows the
// terminal's background; "dark" and "light" are for a dark or a light one; "contrast" is for a
// projector — no faint or grey text, every colour strong — on either.
var themes = []string{"auto", "dark", "light", "contrast"}

// ThemeNames lists the themes --theme takes.
func ThemeNames() []string { return themes[1:] }

func newStyles(r *lipgloss.Renderer, noColor bool, theme string) styles {
	if noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	contrast := theme == "contrast"
	c := func(light, dark string) lipgloss.TerminalColor {
		switch theme {
		case "dark":
			return lipgloss.Color(dark)
		case "light":
			return lipgloss.Color(light)
		}
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	// strong is a colour in the contrast theme: black on a light background, white on a dark one.
	strong := lipgloss.AdaptiveColor{Light: "#000000", Dark: "#ffffff"}
	st := styles{
		r:         r,
		theme:     theme,
		title:     r.NewStyle().Bold(true),
		dim:       r.NewStyle().Faint(true),
		bold:      r.NewStyle().Bold(true),
		reverse:   r.NewStyle().Reverse(true),
		help:      r.NewStyle().Foreground(c("#6c6c6c", "#8a8a8a")),
		banner:    r.NewStyle().Bold(true).Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#c0392b")),
		breakBar:  r.NewStyle().Bold(true).Foreground(c("#000000", "#000000")).Background(c("#f1c40f", "#f1c40f")),
		endBar:    r.NewStyle().Bold(true).Foreground(c("#ffffff", "#ffffff")).Background(c("#34495e", "#34495e")),
		narration: r.NewStyle().Italic(true).Foreground(c("#1e6b3a", "#7bd88f")),
		errText:   r.NewStyle().Foreground(c("#b00020", "#ff6b6b")),
		okText:    r.NewStyle().Foreground(c("#1e6b3a", "#7bd88f")),
		question:  r.NewStyle().Bold(true).Foreground(c("#000000", "#000000")).Background(c("#87d7ff", "#87d7ff")),
		selected:  r.NewStyle().Reverse(true),
		border:    r.NewStyle().Foreground(c("#b0b0b0", "#585858")),
		heading:   r.NewStyle().Bold(true).Underline(true),
		leader:    r.NewStyle().Bold(true).Foreground(c("#a65e00", "#ffd75f")),
		candidate: r.NewStyle().Foreground(c("#005f87", "#5fd7ff")),
		follower:  r.NewStyle(),
		crashed:   r.NewStyle().Foreground(c("#b00020", "#ff6b6b")),
		paused:    r.NewStyle().Foreground(c("#7a2a9a", "#d787ff")),
		fault:     r.NewStyle().Bold(true).Foreground(c("#8b1a8b", "#ff87d7")),
		say:       r.NewStyle().Italic(true).Foreground(c("#1e6b3a", "#7bd88f")),
		line:      r.NewStyle().Foreground(c("#9e9e9e", "#626262")),
		timer:     r.NewStyle().Foreground(c("#005f87", "#5fafd7")),
	}
	if contrast {
		// Nothing faint, nothing grey: what was dimmed is the text's own colour, bold where it
		// marks something; the colours are the strongest of each hue.
		c = func(light, dark string) lipgloss.TerminalColor {
			return lipgloss.AdaptiveColor{Light: light, Dark: dark}
		}
		st.dim = r.NewStyle()
		st.help = r.NewStyle().Foreground(strong)
		st.border = r.NewStyle().Foreground(strong)
		st.line = r.NewStyle().Foreground(strong)
		st.timer = r.NewStyle().Bold(true).Foreground(c("#0000d7", "#00ffff"))
		st.leader = r.NewStyle().Bold(true).Foreground(c("#875f00", "#ffff00"))
		st.candidate = r.NewStyle().Bold(true).Foreground(c("#0000af", "#00ffff"))
		st.crashed = r.NewStyle().Bold(true).Foreground(c("#d70000", "#ff5f5f"))
		st.paused = r.NewStyle().Bold(true).Foreground(c("#870087", "#ff87ff"))
		st.fault = r.NewStyle().Bold(true).Foreground(c("#870087", "#ff87ff"))
		st.errText = r.NewStyle().Bold(true).Foreground(c("#d70000", "#ff5f5f"))
		st.okText = r.NewStyle().Bold(true).Foreground(c("#005f00", "#5fff5f"))
		st.narration = r.NewStyle().Bold(true).Foreground(c("#005f00", "#5fff5f"))
		st.say = st.narration
	}
	// The message kinds' colours, in the algorithm's order: none of them is a status colour
	// (the leader's yellow, the candidate's cyan, the crashed red, the paused purple), so that a
	// COORDINATOR does not look like a leader nor an ELECTION like a candidate.
	kinds := []lipgloss.TerminalColor{c("#1b4fbf", "#87afff"), c("#5f8700", "#afd75f"),
		c("#875f00", "#d7af87"), c("#00875f", "#87d7af"), c("#5f5faf", "#afafff"), c("#af5f00", "#d7875f"),
		c("#585858", "#bcbcbc")}
	if contrast {
		kinds = []lipgloss.TerminalColor{c("#0000d7", "#5fafff"), c("#005f00", "#87ff00"), c("#875f00", "#ffd787"),
			c("#008787", "#00ffd7"), c("#5f00af", "#d7afff"), c("#af5f00", "#ffaf5f"), strong}
	}
	for _, col := range kinds {
		st.kinds = append(st.kinds, r.NewStyle().Foreground(col).Bold(contrast))
	}
	return st
}

// status returns the style of a node status.
func (st styles) status(s sim.Status) lipgloss.Style {
	switch s {
	case sim.Leader:
		return st.leader
	case sim.Candidate:
		return st.candidate
	case sim.Crashed:
		return st.crashed
	case sim.Paused:
		return st.paused
	}
	return st.follower
}

// styler adapts styles to report.Styler, for the event log.
type styler struct{ st *styles }

func (s styler) Dim(x string) string   { return s.st.dim.Render(x) }
func (s styler) Red(x string) string   { return s.st.errText.Render(x) }
func (s styler) Fault(x string) string { return s.st.fault.Render(x) }
func (s styler) Say(x string) string   { return s.st.say.Render(x) }
func (s styler) Kind(x string, i int, routine bool) string {
	if routine || i < 0 {
		return s.st.dim.Render(x)
	}
	return s.st.kinds[i%len(s.st.kinds)].Render(x)
}
func (s styler) Status(st sim.Status, x string) string { return s.st.status(st).Render(x) }

// palette adapts styles to report.Palette, for the verdicts at the end of a run: what does not
// apply is grey, as the help is, rather than faint.
type palette struct{ styler }

func (p palette) Dim(x string) string     { return p.st.help.Render(x) }
func (p palette) Bold(x string) string    { return p.st.bold.Render(x) }
func (p palette) Green(x string) string   { return p.st.okText.Render(x) }
func (p palette) Heading(x string) string { return p.st.heading.Render(x) }

// notBooted is the mark of a node that has not booted yet: before the first steps of a run.
const notBooted = "○"

// glyph is the mark of a node status, readable without colour: the diagrams' (docs/teaching.md;
// the README's "The terminal UI" lists them), with ⏸ for a pause, which a terminal draws as a
// character.
func glyph(s sim.Status) string {
	if s == sim.Paused {
		return "⏸"
	}
	return report.StatusGlyph(s)
}
